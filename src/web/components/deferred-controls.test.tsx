import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderTableWithStandIn } from '../test/stand-in-table';

describe('deferred controls', () => {
  it('keeps a click whose press began on the stand-in when the real controls arrive before the click', async () => {
    const standIn = renderTableWithStandIn('race');
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
