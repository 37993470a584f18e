import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { AuthProvider, useAuth } from './auth-context';
import { SESSION_HINT_KEY } from '../lib/session';

function Status() {
  return <span data-testid="status">{useAuth().status}</span>;
}

function mount(path: string) {
  window.history.replaceState(null, '', path);
  const calls: string[] = [];
  globalThis.fetch = vi.fn(async (input: RequestInfo | URL) => {
    calls.push(String(input));
    return new Response(JSON.stringify({ error: 'Session expired, please sign in again' }), { status: 401, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <Status />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

describe('the load-time session refresh', () => {
  it.each(['/login', '/register', '/complete-registration', '/', '/request-demo'])(
    'is not called on the public page %s of a browser without a session',
    async (path) => {
      const calls = mount(path);
      expect(screen.getByTestId('status')).toHaveTextContent('signedOut');
      await new Promise((r) => setTimeout(r, 30));
      expect(calls).toEqual([]);
    },
  );

  it('is called once on a public page of a browser that signed in here (a signed-in visitor of /login goes home)', async () => {
    localStorage.setItem(SESSION_HINT_KEY, '1');
    const calls = mount('/login');
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signedOut'));
    expect(calls).toEqual(['/api/refresh']);
  });
});
