import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers';

let lastLocation = '';
function LocationSpy() {
  const loc = useLocation();
  lastLocation = `${loc.pathname}${loc.search}`;
  return null;
}

/** The current URL of the last render (path + query). */
export const currentLocation = () => lastLocation;

/** Renders with the app's providers and a memory router at `route`. */
export function renderWithProviders(ui: ReactElement, opts: { route?: string; path?: string; wrapper?: (c: ReactNode) => ReactNode } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 } });
  const utils = render(
    <MemoryRouter initialEntries={[opts.route ?? '/']}>
      <AppProviders queryClient={queryClient} env="test">
        <LocationSpy />
        <Routes>
          <Route path={opts.path ?? '*'} element={ui} />
        </Routes>
      </AppProviders>
    </MemoryRouter>,
  );
  return { ...utils, queryClient };
}

/** A fetch stub answering by "METHOD /path" (query ignored unless given); records the calls. */
export function stubFetch(
  routes: Record<string, (url: URL, init: RequestInit) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>>,
) {
  const calls: { method: string; url: URL; init: RequestInit }[] = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://acme.localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    calls.push({ method, url, init });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return new Response(JSON.stringify({ error: 'Not found' }), { status: 404, headers: { 'content-type': 'application/json' } });
    const { status = 200, body = {} } = await handler(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  globalThis.fetch = fn as typeof fetch;
  return calls;
}
