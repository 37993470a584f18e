import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../test/render';
import { realServer } from '../test/real-api';
import { ClientDataTable, type Column } from '.';

interface Row {
  id: number;
  name: string;
  memberCount: number;
}

const columns: Column<Row>[] = [
  { key: 'name', header: 'Name', hideable: false },
  { key: 'memberCount', header: 'Members' },
  { key: 'createdAt', header: 'Created', defaultHidden: true },
];

const server = realServer();
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => Object.assign(URL, { createObjectURL, revokeObjectURL }));

describe('export of a client-paged list', () => {
  it('sends the search as the name filter and the visible columns, in their order', async () => {
    // jsdom has no object URLs: the downloaded file goes nowhere.
    Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => undefined });
    const { calls } = await server.signIn('manager');
    const rows = [{ id: 1, name: 'Mechanics', memberCount: 3 }];
    renderWithProviders(
      <ClientDataTable tableId="teams-export" exportList="teams" columns={columns} rows={rows} rowKey={(r) => r.id} searchPlaceholder="Find Team" />,
    );
    fireEvent.change(screen.getByTestId('client-search'), { target: { value: ' mech ' } });
    fireEvent.click(screen.getByTestId('export-list'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/data-transfer/export/teams')).toBe(true));
    const call = calls.find((c) => c.url.pathname === '/api/data-transfer/export/teams')!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ name: 'mech', columns: 'name,memberCount' });
    // the server took the filter and the columns: a CSV of the visible columns
    expect(call.status).toBe(200);
  });

  it('shows no Export button without exportList', () => {
    renderWithProviders(<ClientDataTable tableId="teams-plain" columns={columns} rows={[]} rowKey={(r) => r.id} searchPlaceholder="Find Team" />);
    expect(screen.queryByTestId('export-list')).not.toBeInTheDocument();
  });
});
