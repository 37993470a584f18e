import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderTableWithStandIn } from '../test/stand-in-table';
import { loadInteractiveControls } from './deferred-controls';

// A file of its own: the interactive controls load once per file (module state), and this test needs them not loaded.
describe('deferred controls', () => {
  it("keeps a click sent to the stand-in after the real controls replaced it (the column chooser's lost first click)", async () => {
    // a test's click: the element is found, the pointer moves over it (which starts the loading), and the
    // controls arrive before the press, so the press and the click are sent to the element found first
    const standIn = renderTableWithStandIn('stale');
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
