import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../test/render';
import { realServer } from '../test/real-api';
import { api } from '../lib/api';
import { OfflineNotice } from './offline-notice';

const server = realServer();

describe('offline notice', () => {
  it('shows while offline or when a request finds no network, and goes at the next answer', async () => {
    const session = await server.signIn('worker');
    renderWithProviders(<OfflineNotice />);
    expect(screen.queryByTestId('offline-notice')).not.toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await screen.findByTestId('offline-notice')).toHaveTextContent('You are offline');
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByTestId('offline-notice')).not.toBeInTheDocument();

    // No network is the browser's state, not the server's: that one call fails as fetch does offline.
    const online = session.fail('GET /api/user/get-app-data', 'offline');
    await act(() => api.get('/user/get-app-data').catch(() => undefined));
    expect(await screen.findByTestId('offline-notice')).toBeInTheDocument();
    online();
    await act(() => api.get('/user/get-app-data'));
    expect(screen.queryByTestId('offline-notice')).not.toBeInTheDocument();
  });
});
