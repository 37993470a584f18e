import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import { addStockablePart } from '../../assets/test-fixtures';
import { commercialRows } from '../test-fixtures';
import { purchaseOrderNumber } from '../../purchase-orders/purchase-orders.schema';
import { ReceivePurchaseOrder } from './receive-dialog';

// The purchase order's Receive dialog (issue 41, decision 081): what is left as the default quantities, the default
// storeroom, an over-receipt shown in place, a partial receipt into another storeroom kept by the server.

const server = realServer();

/**
 * Through the API: storerooms Main store (the default, the first) and Van 1, a purchase order for 10 Seal kits and
 * 2 Bearings at 9.75, of which 4 Seal kits and both Bearings are already received into Main store.
 */
async function partlyReceivedOrder(org: TestOrg) {
  const r = await commercialRows(server.test, org.orgId);
  const storeroom = async (name: string, kind: string) => (await org.admin.post('/api/stock/add-location', { name, kind })).body.location.id as number;
  const main = await storeroom('Main store', 'storeroom');
  const van = await storeroom('Van 1', 'van');
  const seal = await addStockablePart(org, { productCategory: r.category, each: r.each });
  const bearing = await addStockablePart(org, { productCategory: r.category, each: r.each }, { name: 'Bearing' });
  const po = await org.admin.post('/api/purchase-orders/add-purchase-order', {
    overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: new Date().toISOString() },
    partDetails: [seal, bearing].map((p, i) => ({ partId: p.id, quantity: [10, 2][i], unitPrice: 9.75, discount: 0, taxId: r.purchaseFixed.id })),
  });
  expect(po.status, JSON.stringify(po.body)).toBe(201);
  const id = po.body.purchaseOrder.id as number;
  const received = await org.admin.post(`/api/stock/receive-purchase-order/${id}`, {
    locationId: main,
    lines: [
      { partId: seal.id, quantity: 4 },
      { partId: bearing.id, quantity: 2 },
    ],
  });
  expect(received.status, JSON.stringify(received.body)).toBe(200);
  // the number the server gives it ('PO-0001' from the id), as the purchase order drawer shows it
  const number = purchaseOrderNumber(id);
  return { id, number, seal, bearing, main, van };
}

describe('receive dialog', () => {
  it('receives part of a purchase order into a chosen storeroom; nothing entered or too much is refused in place', { timeout: 60_000 }, async () => {
    const { org, calls } = await server.signIn('manager');
    const { id, number, seal, bearing, van } = await partlyReceivedOrder(org);
    const over = `Cannot receive more than ordered: Seal kit has 6 left to receive on ${number}`;
    renderWithProviders(<ReceivePurchaseOrder purchaseOrderId={id} number={number} />);
    expect(await screen.findByTestId('po-receiving-status')).toHaveTextContent('Partly received');
    await userEvent.click(screen.getByTestId('po-receive'));
    const dialog = await screen.findByTestId('receive-dialog');
    // Only the line with something left, its outstanding quantity proposed; the default storeroom.
    expect(within(dialog).queryByTestId(`receive-line-${bearing.id}`)).toBeNull();
    expect(within(dialog).getByTestId(`receive-line-${seal.id}`)).toHaveTextContent(/Seal kit\s*1046/);
    const quantity = within(dialog).getByTestId(`receive-quantity-${seal.id}`);
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
    expect(posts.map((c) => c.status)).toEqual([400, 200]);
    expect(posts[1].body).toEqual({ locationId: van, lines: [{ partId: seal.id, quantity: 2 }] });
    await waitFor(() => expect(screen.queryByTestId('receive-dialog')).toBeNull());
    // the server kept it: 6 of 10 received, 2 Seal kits in Van 1
    const receiving = (await org.admin.get(`/api/stock/get-receiving/${id}`)).body.receiving;
    expect(receiving.lines.find((l: { partId: number }) => l.partId === seal.id)).toMatchObject({ received: 6, outstanding: 4 });
    const levels = (await org.admin.get(`/api/stock/get-stock-levels?partId=${seal.id}`)).body.stockLevels as { location: { id: number }; quantity: number }[];
    expect(levels.find((l) => l.location.id === van)).toMatchObject({ quantity: 2 });
  });
});
