import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../test/render';
import { DataTable, tablePagination, useServerList, type Column } from '.';

interface Row {
  id: number;
  name: string;
}
const columns: Column<Row>[] = [{ key: 'name', header: 'Name' }];

function Gadgets() {
  const list = useServerList<Row, { name: 'text' }>({ queryKey: 'gadgets', path: '/gadgets/get-gadgets', listKey: 'gadgets', filters: { name: 'text' } });
  return <DataTable tableId="gadgets" columns={columns} rows={list.rows} rowKey={(r) => r.id} pagination={tablePagination(list.state, list.pagination)} />;
}

afterEach(() => window.localStorage.clear());

// Spec (document 2, section 9): "Column and page-size choices are saved locally per table", server-paged lists too.
describe("a server-paged list's rows per page", () => {
  it('is remembered for the table: the next visit (no pageSize in the URL) asks for the chosen size', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `Gadget ${i + 1}` }));
    const calls = stubFetch({
      'GET /api/gadgets/get-gadgets': (url) => {
        const size = Number(url.searchParams.get('pageSize'));
        return { body: { gadgets: rows.slice(0, size), pagination: { totalRecords: rows.length, currentPage: 1, totalPages: Math.ceil(rows.length / size) } } };
      },
    });
    const first = renderWithProviders(<Gadgets />, { route: '/gadgets' });
    expect(await screen.findByText('Gadget 1')).toBeInTheDocument();
    expect(calls[0].url.searchParams.get('pageSize')).toBe('10');
    await userEvent.click(screen.getByTestId('page-size'));
    await userEvent.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('pageSize')).toBe('50'));
    first.unmount();

    calls.length = 0;
    renderWithProviders(<Gadgets />, { route: '/gadgets' });
    expect(await screen.findByText('Gadget 50')).toBeInTheDocument();
    expect(calls.map((c) => c.url.searchParams.get('pageSize'))).toEqual(['50']);
  }, 60_000);
});
