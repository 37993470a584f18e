import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, applyApiErrors, downloadFile, logout, refreshSession, saveBlob, setSessionEndHandler } from './api';
import { openPdf } from './open-pdf';
import { AUTH_BROADCAST_KEY, mayHaveSession, setAccessToken } from './session';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function mockFetch(handler: Handler) {
  const calls: { url: string; init: RequestInit }[] = [];
  globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    return handler(String(input), init);
  }) as typeof fetch;
  return calls;
}

const auth = (init: RequestInit) => (init.headers as Record<string, string>).authorization;

beforeEach(() => {
  window.history.replaceState(null, '', '/dashboard/work-orders');
  sessionStorage.setItem('accessToken', 'old');
});
afterEach(() => vi.useRealTimers());

describe('api client', () => {
  it('sends JSON with the bearer token and credentials to /api/', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    await api.post('/things/add-thing', { a: 1 }, { query: { page: 1, status: ['a', 'b'], empty: '' } });
    expect(calls[0].url).toBe('/api/things/add-thing?page=1&status=a&status=b');
    expect(calls[0].init.credentials).toBe('include');
    expect(auth(calls[0].init)).toBe('Bearer old');
    expect(calls[0].init.body).toBe('{"a":1}');
  });

  it('refreshes once for concurrent 401s and retries each call once', async () => {
    let refreshes = 0;
    const calls = mockFetch(async (url, init) => {
      if (url === '/api/refresh') {
        refreshes += 1;
        await new Promise((r) => setTimeout(r, 20));
        return json(200, { accessToken: 'new' });
      }
      return auth(init) === 'Bearer new' ? json(200, { url }) : json(401, { error: 'Unauthorized' });
    });
    const results = await Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    expect(results).toEqual([{ url: '/api/a' }, { url: '/api/b' }, { url: '/api/c' }]);
    expect(refreshes).toBe(1);
    expect(sessionStorage.getItem('accessToken')).toBe('new');
    expect(calls.filter((c) => c.url === '/api/a')).toHaveLength(2);
  });

  it('signs out when the refresh fails: token cleared, logout called, other tabs told, session-end handler run', async () => {
    const ended = vi.fn();
    setSessionEndHandler(ended);
    const calls = mockFetch((url) => (url === '/api/logout' ? json(200, {}) : json(401, { error: 'Session expired, please sign in again' })));
    await expect(api.get('/a')).rejects.toMatchObject({ status: 401 });
    expect(sessionStorage.getItem('accessToken')).toBeNull();
    expect(ended).toHaveBeenCalledOnce();
    expect(JSON.parse(localStorage.getItem(AUTH_BROADCAST_KEY)!).type).toBe('logout');
    await vi.waitFor(() => expect(calls.some((c) => c.url === '/api/logout')).toBe(true));
  });

  it('ends a session once: several calls refused at once send one logout and end the session once', async () => {
    sessionStorage.setItem('accessToken', 'tok-concurrent');
    const ended = vi.fn();
    setSessionEndHandler(ended);
    const calls = mockFetch((url) => (url === '/api/logout' ? json(200, {}) : json(401, { error: 'Session expired, please sign in again' })));
    const results = await Promise.allSettled([api.get('/a'), api.get('/b'), api.get('/c')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.filter((c) => c.url === '/api/logout')).toHaveLength(1);
    expect(ended).toHaveBeenCalledOnce();
  });

  it('signing out sends /api/logout once; calls in flight that come back 401 neither refresh nor log out again', async () => {
    sessionStorage.setItem('accessToken', 'tok-signout');
    const calls = mockFetch(async (url) => {
      if (url === '/api/logout') return json(200, {});
      if (url === '/api/slow') await new Promise((r) => setTimeout(r, 30));
      return json(401, { error: 'Session expired, please sign in again' });
    });
    const inFlight = api.get('/slow');
    await logout();
    await expect(inFlight).rejects.toMatchObject({ status: 401 });
    // and a call made after signing out, without a token
    await expect(api.get('/after')).rejects.toMatchObject({ status: 401 });
    expect(calls.filter((c) => c.url === '/api/logout')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/api/refresh')).toHaveLength(0);
    expect(sessionStorage.getItem('accessToken')).toBeNull();
  });

  it('remembers whether this browser holds a session of the host: set by a token, cleared by sign-out and by a refused refresh', async () => {
    localStorage.clear();
    expect(mayHaveSession()).toBe(false);
    setAccessToken('tok-hint');
    expect(mayHaveSession()).toBe(true);
    mockFetch(() => json(401, { error: 'Session expired, please sign in again' }));
    expect(await refreshSession()).toBeNull();
    expect(mayHaveSession()).toBe(false);
    setAccessToken('tok-hint-2');
    mockFetch(() => json(200, {}));
    await logout();
    expect(mayHaveSession()).toBe(false);
  });

  it('does not refresh on the login, register and invite pages', async () => {
    for (const page of ['/login', '/register', '/invite', '/complete-registration']) {
      window.history.replaceState(null, '', page);
      const calls = mockFetch(() => json(401, { error: 'Invalid email or password' }));
      await expect(api.post('/anything')).rejects.toMatchObject({ status: 401, message: 'Invalid email or password' });
      expect(calls.map((c) => c.url)).toEqual(['/api/anything']);
    }
  });

  it('throws ApiError with the server message and issues, which land on the form fields', async () => {
    mockFetch(() =>
      json(400, {
        error: 'Validation failed',
        issues: [
          { path: 'title', message: 'Work Order Title is required' },
          { path: 'lines.0.quantity', message: 'Quantity must be at least 1' },
        ],
      }),
    );
    const err = await api.post('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: 'Validation failed' });
    const setError = vi.fn();
    expect(applyApiErrors(err, setError)).toBe(true);
    expect(setError).toHaveBeenCalledWith('title', { type: 'server', message: 'Work Order Title is required' });
    expect(setError).toHaveBeenCalledWith('lines.0.quantity', { type: 'server', message: 'Quantity must be at least 1' });
  });

  it('gives up after 10 seconds', async () => {
    vi.useFakeTimers();
    mockFetch((_url, init) => new Promise((_res, rej) => init.signal?.addEventListener('abort', () => rej(new DOMException('aborted', 'AbortError')))));
    const pending = api.get('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_001);
    const err = await pending;
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
  });

  it('uploads a file as multipart in field image', async () => {
    const calls = mockFetch(() => json(200, {}));
    await api.upload('/user/addProfilePicture', new File(['x'], 'me.png', { type: 'image/png' }));
    const body = calls[0].init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('image') as File).name).toBe('me.png');
    expect((calls[0].init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });

  it('refreshSession resolves null when there is no session', async () => {
    mockFetch(() => json(401, { error: 'Session expired, please sign in again' }));
    expect(await refreshSession()).toBeNull();
  });

  it('downloads an answer as a file through saveBlob: one link with the name, clicked once, removed, its URL freed', async () => {
    vi.useFakeTimers();
    mockFetch(() => new Response('a,b\n1,2\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    const made: Blob[] = [];
    const freed: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => (made.push(b), `blob:test/${made.length}`);
    URL.revokeObjectURL = (u: string) => void freed.push(u);
    const clicked: { download: string; href: string; inDocument: boolean }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href, inDocument: document.body.contains(this) });
    });
    try {
      await downloadFile('/work-orders/export', 'orders.csv');
      expect(clicked).toEqual([{ download: 'orders.csv', href: 'blob:test/1', inDocument: true }]);
      expect(await made[0].text()).toBe('a,b\n1,2\n');
      expect(document.querySelectorAll('a[download]')).toHaveLength(0);
      saveBlob(new Blob(['x']), 'x.txt');
      expect(clicked[1]).toMatchObject({ download: 'x.txt', href: 'blob:test/2' });
      vi.advanceTimersByTime(10_000);
      expect(freed).toEqual(['blob:test/1', 'blob:test/2']);
    } finally {
      click.mockRestore();
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  it('opens a PDF in the tab it opened first, refreshing once on 401; a refused PDF closes that tab and throws', async () => {
    const calls = mockFetch((url, init) => {
      if (url === '/api/refresh') return json(200, { accessToken: 'new' });
      if (url.endsWith('/2')) return json(404, { error: 'Work order not found' });
      return auth(init) === 'Bearer new' ? new Response('%PDF-1.7', { status: 200 }) : json(401, { error: 'Unauthorized' });
    });
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { createObjectURL } = URL;
    URL.createObjectURL = () => 'blob:test/pdf';
    try {
      await openPdf('/work-orders/print-work-order/1');
      expect(calls.map((c) => c.url)).toEqual(['/api/work-orders/print-work-order/1', '/api/refresh', '/api/work-orders/print-work-order/1']);
      expect(tab.location.href).toBe('blob:test/pdf');
      await expect(openPdf('/work-orders/print-work-order/2')).rejects.toThrow('Work order not found');
      expect(tab.close).toHaveBeenCalledTimes(1);
      expect(open).toHaveBeenCalledTimes(2);
    } finally {
      open.mockRestore();
      URL.createObjectURL = createObjectURL;
    }
  });
});
