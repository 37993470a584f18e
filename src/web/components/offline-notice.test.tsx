import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../test/render';
import { api } from '../lib/api';
import { OfflineNotice } from './offline-notice';

describe('offline notice', () => {
  it('shows while offline or when a request finds no network, and goes at the next answer', async () => {
    renderWithProviders(<OfflineNotice />);
    expect(screen.queryByTestId('offline-notice')).not.toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await screen.findByTestId('offline-notice')).toHaveTextContent('You are offline');
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByTestId('offline-notice')).not.toBeInTheDocument();

    globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    await act(() => api.get('/things').catch(() => undefined));
    expect(await screen.findByTestId('offline-notice')).toBeInTheDocument();
    stubFetch({ 'GET /api/things': () => ({ body: {} }) });
    await act(() => api.get('/things'));
    expect(screen.queryByTestId('offline-notice')).not.toBeInTheDocument();
  });
});
