import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { DraftReordersButton } from './storerooms-stock';

const server = realServer();

describe('Draft reorders button (on the real server)', () => {
  it("says there is nothing to reorder; a failure is the button's toast; busy only while it runs", async () => {
    const session = await server.signIn('manager');
    renderWithProviders(<DraftReordersButton />);
    const button = await screen.findByTestId('draft-reorders');
    await userEvent.click(button);
    expect(await screen.findByText('Nothing to reorder: every storeroom is at or above its reorder point')).toBeInTheDocument();
    expect(session.calls.filter((c) => c.method === 'POST').map((c) => [c.url.pathname, c.status])).toEqual([['/api/stock/draft-reorders', 200]]);
    await waitFor(() => expect(button).toBeEnabled());

    session.fail('POST /api/stock/draft-reorders', { status: 500, body: { error: 'Internal Server Error' } });
    await userEvent.click(button);
    expect(await screen.findByText('Failed to draft reorders')).toBeInTheDocument();
    await waitFor(() => expect(button).toBeEnabled());
  });
});
