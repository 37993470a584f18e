import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { realServer } from '../test/real-api';
import { DataTable, tablePagination, useServerList, type Column } from '.';

interface Row {
  id: number;
  name: string;
}
const columns: Column<Row>[] = [{ key: 'name', header: 'Name' }];

const server = realServer();

/** A server-paged list of the real API (asset categories: by name, then id): the rows are the organisation's "Gadget 1" to "Gadget 60". */
const LIST = '/api/asset-categories/get-asset-categories';
function Gadgets() {
  const list = useServerList<Row, { name: 'text' }>({
    queryKey: 'gadgets',
    path: '/asset-categories/get-asset-categories',
    listKey: 'assetCategories',
    filters: { name: 'text' },
  });
  return <DataTable tableId="gadgets" columns={columns} rows={list.rows} rowKey={(r) => r.id} pagination={tablePagination(list.state, list.pagination)} />;
}

afterEach(() => window.localStorage.clear());

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the list.
// Spec (document 2, section 9): "Column and page-size choices are saved locally per table", server-paged lists too.
describe("a server-paged list's rows per page", () => {
  it('is remembered for the table: the next visit (no pageSize in the URL) asks for the chosen size', async () => {
    const { org, calls: sent } = await server.signIn('manager');
    for (let i = 1; i <= 60; i++) {
      expect((await org.admin.post('/api/asset-categories/add-asset-category', { name: `Gadget ${i}`, code: `G${String(i).padStart(2, '0')}` })).status).toBe(
        201,
      );
    }
    // the list's calls (a call is recorded once answered)
    const listCalls = () => sent.filter((c) => c.url.pathname === LIST);
    const first = renderWithProviders(<Gadgets />, { route: '/gadgets' });
    expect(await screen.findByText('Gadget 1')).toBeInTheDocument();
    expect(listCalls()[0].url.searchParams.get('pageSize')).toBe('10');
    await userEvent.click(screen.getByTestId('page-size'));
    await userEvent.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() => expect(listCalls().at(-1)!.url.searchParams.get('pageSize')).toBe('50'));
    first.unmount();

    sent.length = 0;
    renderWithProviders(<Gadgets />, { route: '/gadgets' });
    expect(await screen.findByText('Gadget 50')).toBeInTheDocument();
    expect(listCalls().map((c) => c.url.searchParams.get('pageSize'))).toEqual(['50']);
  }, 180_000);
});
