import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { CountDialog, TransferDialog } from './part-stock-dialogs';

// The part drawer's Transfer and Count dialogs (issue 41): the shared schema's messages before any call, the body
// sent, the server's refusal kept in the dialog, success closes it.

const OPTIONS = [
  { value: 1, label: 'Main store', isDefault: true },
  { value: 2, label: 'Van 1', isDefault: false },
];
const changed = { message: 'ok', stockMove: { id: 9 }, stockLevels: [] };

async function pick(dialog: HTMLElement, testId: string, option: string) {
  await userEvent.click(within(dialog).getByTestId(testId));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('part stock dialogs', () => {
  it(
    'Transfer: required fields and two different storerooms first; a shortage is shown and keeps it open; then sent and closed',
    { timeout: 60_000 },
    async () => {
      let refuse = true;
      const calls = stubFetch({
        'GET /api/stock/get-location-options': () => ({ body: OPTIONS }),
        'POST /api/stock/transfer-stock': () =>
          refuse
            ? { status: 409, body: { error: 'Not enough stock: Seal kit has 1 at Main store' } }
            : { body: { ...changed, message: 'Stock transferred successfully' } },
      });
      const onClose = vi.fn();
      renderWithProviders(<TransferDialog partId={4} opened onClose={onClose} />);
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
      expect(JSON.parse(String(post.init.body))).toMatchObject({ partId: 4, fromLocationId: 1, toLocationId: 2, quantity: 2, note: 'For the van' });

      refuse = false;
      await userEvent.click(within(dialog).getByTestId('transfer-submit'));
      expect(await screen.findByText('Stock transferred successfully', {}, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() => expect(onClose).toHaveBeenCalled());
    },
  );

  it('Count: storeroom and a counted quantity (not negative) first; a difference posts, a match says so', { timeout: 60_000 }, async () => {
    let move: unknown = { id: 9 };
    const calls = stubFetch({
      'GET /api/stock/get-location-options': () => ({ body: OPTIONS }),
      'POST /api/stock/count-stock': () => ({ body: { ...changed, stockMove: move } }),
    });
    const onClose = vi.fn();
    const { unmount } = renderWithProviders(<CountDialog partId={4} opened onClose={onClose} />);
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
    expect(JSON.parse(String(calls.find((c) => c.method === 'POST')!.init.body))).toMatchObject({ partId: 4, locationId: 2, countedQuantity: 5 });
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    unmount();

    // The same count again: no difference, nothing posted, said so.
    move = null;
    renderWithProviders(<CountDialog partId={4} opened onClose={onClose} />);
    const again = await screen.findByTestId('count-dialog');
    await pick(again, 'count-location', 'Van 1');
    await userEvent.type(within(again).getByTestId('count-quantity'), '5');
    await userEvent.click(within(again).getByTestId('count-submit'));
    expect(await screen.findByText('Count matches: nothing to post')).toBeInTheDocument();
  });
});
