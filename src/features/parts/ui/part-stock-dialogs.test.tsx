import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer, type RealSession } from '../../../web/test/real-api';
import { addStockablePart, masterRows } from '../../assets/test-fixtures';
import type { StockLevelDto } from '../../stock/stock.schema';
import { CountDialog, TransferDialog } from './part-stock-dialogs';

// The part drawer's Transfer and Count dialogs (issue 41): the shared schema's messages before any call, the body
// sent, the server's refusal kept in the dialog, success closes it.

const server = realServer();

/** A manager signed in, with the storerooms Main store (the default) and Van 1 and the stockable part Seal kit, through the API. */
async function stockroom() {
  const session = await server.signIn('manager');
  const { admin } = session.org;
  const part = await addStockablePart(session.org, await masterRows(server.test, session.org.orgId));
  const storeroom = async (name: string, kind: string) => {
    const res = await admin.post('/api/stock/add-location', { name, kind });
    expect(res.status).toBe(201);
    return res.body.location.id as number;
  };
  return { ...session, partId: part.id, main: await storeroom('Main store', 'storeroom'), van: await storeroom('Van 1', 'van') };
}

/** A count of the part at a storeroom (its quantity there from now on), through the API. */
async function count({ org }: RealSession, partId: number, locationId: number, countedQuantity: number) {
  expect((await org.admin.post('/api/stock/count-stock', { partId, locationId, countedQuantity })).status).toBe(200);
}

/** The part's quantity at a storeroom, as the API lists it. */
async function onHand({ org }: RealSession, partId: number, locationId: number) {
  const levels = (await org.admin.get(`/api/stock/get-stock-levels?partId=${partId}`)).body.stockLevels as StockLevelDto[];
  return levels.find((l) => l.locationId === locationId)?.quantity ?? 0;
}

async function pick(dialog: HTMLElement, testId: string, option: string) {
  await userEvent.click(within(dialog).getByTestId(testId));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('part stock dialogs', () => {
  it(
    'Transfer: required fields and two different storerooms first; a shortage is shown and keeps it open; then sent and closed',
    { timeout: 180_000 },
    async () => {
      const session = await stockroom();
      const { calls, partId, main, van } = session;
      await count(session, partId, main, 1);
      const onClose = vi.fn();
      renderWithProviders(<TransferDialog partId={partId} opened onClose={onClose} />);
      const dialog = await screen.findByTestId('transfer-dialog');
      await userEvent.click(within(dialog).getByTestId('transfer-submit'));
      expect(await within(dialog).findByText('From location is required')).toBeInTheDocument();
      expect(within(dialog).getByText('To location is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Quantity is required')).toBeInTheDocument();

      await pick(dialog, 'transfer-from', 'Main store');
      await pick(dialog, 'transfer-to', 'Main store');
      await userEvent.type(within(dialog).getByTestId('transfer-quantity'), '2');
      await userEvent.click(within(dialog).getByTestId('transfer-submit'));
      expect(await within(dialog).findByText('Choose two different locations')).toBeInTheDocument();
      expect(calls.some((c) => c.method === 'POST')).toBe(false);

      await pick(dialog, 'transfer-to', 'Van 1');
      await userEvent.type(within(dialog).getByTestId('transfer-note'), 'For the van');
      await userEvent.click(within(dialog).getByTestId('transfer-submit'));
      expect((await screen.findAllByText('Not enough stock: Seal kit has 1 at Main store', {}, { timeout: 10_000 })).length).toBeGreaterThan(0);
      expect(onClose).not.toHaveBeenCalled();
      const post = calls.find((c) => c.method === 'POST')!;
      expect(post.body).toMatchObject({ partId, fromLocationId: main, toLocationId: van, quantity: 2, note: 'For the van' });
      expect(post.status).toBe(409);

      // stock arrives at Main store meanwhile: the same transfer goes through
      await count(session, partId, main, 5);
      await userEvent.click(within(dialog).getByTestId('transfer-submit'));
      expect(await screen.findByText('Stock transferred successfully', {}, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      expect([await onHand(session, partId, main), await onHand(session, partId, van)]).toEqual([3, 2]);
    },
  );

  it('Count: storeroom and a counted quantity (not negative) first; a difference posts, a match says so', { timeout: 180_000 }, async () => {
    const session = await stockroom();
    const { calls, partId, van } = session;
    const onClose = vi.fn();
    const { unmount } = renderWithProviders(<CountDialog partId={partId} opened onClose={onClose} />);
    const dialog = await screen.findByTestId('count-dialog');
    await userEvent.click(within(dialog).getByTestId('count-submit'));
    expect(await within(dialog).findByText('Location is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Counted quantity is required')).toBeInTheDocument();
    await pick(dialog, 'count-location', 'Van 1');
    await userEvent.type(within(dialog).getByTestId('count-quantity'), '-1');
    await userEvent.click(within(dialog).getByTestId('count-submit'));
    expect(await within(dialog).findByText('Counted quantity cannot be negative')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.clear(within(dialog).getByTestId('count-quantity'));
    await userEvent.type(within(dialog).getByTestId('count-quantity'), '5');
    await userEvent.click(within(dialog).getByTestId('count-submit'));
    expect(await screen.findByText('Count posted successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ partId, locationId: van, countedQuantity: 5 });
    expect(await onHand(session, partId, van)).toBe(5);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    unmount();

    // The same count again: no difference, nothing posted, said so.
    renderWithProviders(<CountDialog partId={partId} opened onClose={onClose} />);
    const again = await screen.findByTestId('count-dialog');
    await pick(again, 'count-location', 'Van 1');
    await userEvent.type(within(again).getByTestId('count-quantity'), '5');
    await userEvent.click(within(again).getByTestId('count-submit'));
    expect(await screen.findByText('Count matches: nothing to post')).toBeInTheDocument();
  });
});
