import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../test/render';
import { DataTable, type Column } from '.';
import { loadInteractiveControls } from './deferred-controls';

// A file of its own: the interactive controls load once per file (module state), and this test needs them not loaded.
interface Row {
  id: number;
  status: string;
}
const columns: Column<Row>[] = [
  { key: 'id', header: 'ID', hideable: false },
  { key: 'status', header: 'Status' },
];

describe('deferred controls', () => {
  it("keeps a click sent to the stand-in after the real controls replaced it (the column chooser's lost first click)", async () => {
    renderWithProviders(<DataTable tableId="stale" columns={columns} rows={[{ id: 1, status: 'open' }]} rowKey={(r) => r.id} />);
    // a test's click: the element is found, the pointer moves over it (which starts the loading), and the
    // controls arrive before the press, so the press and the click are sent to the element found first
    const standIn = screen.getByTestId('column-chooser');
    await act(async () => {
      await loadInteractiveControls();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(standIn.isConnected).toBe(false);
    fireEvent.pointerDown(standIn);
    fireEvent.mouseDown(standIn);
    fireEvent.mouseUp(standIn);
    fireEvent.click(standIn);
    expect(await screen.findAllByRole('menuitem', {}, { timeout: 10_000 })).not.toHaveLength(0);
  });
});
