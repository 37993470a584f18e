import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { ReceivingDto } from '../../stock/stock.schema';
import { ReceivePurchaseOrder } from './receive-dialog';

// The purchase order's Receive dialog (issue 41, decision 081): what is left as the default quantities, the default
// storeroom, an over-receipt shown in place, a partial receipt into another storeroom sent as the API takes it.

const OPTIONS = [
  { value: 1, label: 'Main store', isDefault: true },
  { value: 2, label: 'Van 1', isDefault: false },
];
const line = (partId: number, name: string, ordered: number, received: number) => ({
  partId,
  part: { id: partId, name },
  ordered,
  received,
  outstanding: ordered - received,
  unitCostMinor: 975,
});

describe('receive dialog', () => {
  it('receives part of a purchase order into a chosen storeroom; nothing entered or too much is refused in place', { timeout: 60_000 }, async () => {
    let receiving: ReceivingDto = { purchaseOrderId: 7, receivingStatus: 'partly-received', lines: [line(4, 'Seal kit', 10, 4), line(5, 'Bearing', 2, 2)] };
    const over = 'Cannot receive more than ordered: Seal kit has 6 left to receive on PO-0007';
    const calls = stubFetch({
      'GET /api/stock/get-location-options': () => ({ body: OPTIONS }),
      'GET /api/stock/get-receiving/7': () => ({ body: { receiving } }),
      'POST /api/stock/receive-purchase-order/7': (_u, init) => {
        const body = JSON.parse(String(init.body)) as { lines: { quantity: number }[] };
        if (body.lines[0].quantity > 6) return { status: 400, body: { error: over, issues: [{ path: 'lines.0.quantity', message: over }] } };
        receiving = { ...receiving, lines: [line(4, 'Seal kit', 10, 4 + body.lines[0].quantity), receiving.lines[1]] };
        return { body: { message: 'Purchase order received successfully', receiving, stockMoves: [] } };
      },
    });
    renderWithProviders(<ReceivePurchaseOrder purchaseOrderId={7} number="PO-0007" />);
    expect(await screen.findByTestId('po-receiving-status')).toHaveTextContent('Partly received');
    await userEvent.click(screen.getByTestId('po-receive'));
    const dialog = await screen.findByTestId('receive-dialog');
    // Only the line with something left, its outstanding quantity proposed; the default storeroom.
    expect(within(dialog).queryByTestId('receive-line-5')).toBeNull();
    expect(within(dialog).getByTestId('receive-line-4')).toHaveTextContent(/Seal kit\s*1046/);
    const quantity = within(dialog).getByTestId('receive-quantity-4');
    expect(quantity).toHaveValue('6');
    await waitFor(() => expect(within(dialog).getByTestId('receive-storeroom')).toHaveValue('Main store'));

    await userEvent.clear(quantity);
    await userEvent.click(within(dialog).getByTestId('receive-submit'));
    expect(await within(dialog).findByTestId('receive-error')).toHaveTextContent('Enter a quantity on at least one line');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(quantity, '8');
    await userEvent.click(within(dialog).getByTestId('receive-submit'));
    await waitFor(() => expect(within(dialog).getByTestId('receive-error')).toHaveTextContent(over));

    await userEvent.clear(quantity);
    await userEvent.type(quantity, '2');
    await userEvent.click(within(dialog).getByTestId('receive-storeroom'));
    await userEvent.click(await screen.findByRole('option', { name: 'Van 1' }));
    await userEvent.click(within(dialog).getByTestId('receive-submit'));
    expect(await screen.findByText('Received into stock successfully')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(JSON.parse(String(posts[posts.length - 1].init.body))).toEqual({ locationId: 2, lines: [{ partId: 4, quantity: 2 }] });
    await waitFor(() => expect(screen.queryByTestId('receive-dialog')).toBeNull());
  });
});
