import { screen } from '@testing-library/react';
import { DataTable, type Column } from '../components';
import { renderWithProviders } from './render';

interface Row {
  id: number;
  status: string;
}
const columns: Column<Row>[] = [
  { key: 'id', header: 'ID', hideable: false },
  { key: 'status', header: 'Status' },
];

/** A one-row table before its interactive controls load: returns the column chooser's stand-in (the deferred controls' tests). */
export function renderTableWithStandIn(tableId: string) {
  renderWithProviders(<DataTable tableId={tableId} columns={columns} rows={[{ id: 1, status: 'open' }]} rowKey={(r) => r.id} />);
  return screen.getByTestId('column-chooser');
}
