import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../test/render';
import { DataTable, type Column } from '.';

interface Row {
  id: number;
  status: string;
}
const columns: Column<Row>[] = [
  { key: 'id', header: 'ID', hideable: false },
  { key: 'status', header: 'Status' },
];

describe('deferred controls', () => {
  it('keeps a click whose press began on the stand-in when the real controls arrive before the click', async () => {
    renderWithProviders(<DataTable tableId="race" columns={columns} rows={[{ id: 1, status: 'open' }]} rowKey={(r) => r.id} />);
    const standIn = screen.getByTestId('column-chooser');
    // the press starts the loading of the interactive controls; they are there before the button is released
    fireEvent.pointerDown(standIn);
    fireEvent.mouseDown(standIn);
    await act(async () => {
      await import('./interactive-controls');
      await new Promise((r) => setTimeout(r, 20));
    });
    // the click lands where the press began: on the stand-in, which must still be there to pass it on
    fireEvent.mouseUp(standIn);
    fireEvent.click(standIn);
    expect(await screen.findAllByRole('menuitem', {}, { timeout: 10_000 })).not.toHaveLength(0);
  });
});
