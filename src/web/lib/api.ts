import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { translateMessage } from '../i18n/messages/translate-message';
import { clearAccessToken, getAccessToken, setAccessToken, setSessionHint } from './session';

/** Spec section 9: every call gives up after 10 s. */
export const API_TIMEOUT_MS = 10_000;
/** Pages on which a 401 never triggers a refresh (spec section 4). */
export const NO_REFRESH_PAGES = ['/login', '/register', '/invite', '/complete-registration'];
// single sign-on's finish answers 401 for a refused company account: its message is shown, no session is ended
const NO_REFRESH_CALLS = ['/login', '/refresh', '/logout', '/signup', '/auth/finish-sso'];

export interface ApiIssue {
  path: string;
  message: string;
}

/** A failed call: `message` is the server's `error` text; `issues` the field messages of a 400. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly issues: ApiIssue[] = [],
    /** The whole error body (e.g. `current` of a stale edit's 409, decision 025). */
    public readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Defaults to API_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Builds `/api/<path>?<query>`; arrays become repeated keys, empty values are left out. */
export function apiUrl(path: string, query?: Query) {
  const clean = path.replace(/^\/?(api\/)?/, '');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => params.append(k, String(x)));
    else params.append(k, String(v));
  }
  const qs = params.toString();
  return `/api/${clean}${qs ? `?${qs}` : ''}`;
}

let onSessionEnd: () => void = () => {
  if (!NO_REFRESH_PAGES.includes(window.location.pathname)) window.location.assign('/login');
};

/** The app installs a router-aware handler (navigate to /login) for an ended session. */
export function setSessionEndHandler(fn: () => void) {
  onSessionEnd = fn;
}

let refreshing: Promise<string | null> | null = null;

/**
 * POST /api/refresh once for every caller that asks at the same time; resolves to the new token or null.
 * The refresh token is an HttpOnly cookie, so this also signs in a fresh tab of a signed-in browser.
 */
export function refreshSession(): Promise<string | null> {
  refreshing ??= (async () => {
    try {
      const res = await send('POST', apiUrl('/refresh'), undefined, { timeoutMs: API_TIMEOUT_MS }, false);
      const body = (await res.json()) as { accessToken?: string };
      if (!res.ok || !body.accessToken) {
        // the server holds no session for this browser: the public pages stop asking
        setSessionHint(false);
        return null;
      }
      setAccessToken(body.accessToken);
      return body.accessToken;
    } catch {
      return null;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

let loadTime: Promise<string | null> | undefined;

/**
 * The load-time refresh (spec section 4): one per page load, whoever asks first starts it (the entry on a
 * signed-in page, before the app's modules arrive), the others (the boot, AuthProvider) join it.
 */
export function loadTimeRefresh(): Promise<string | null> {
  loadTime ??= refreshSession();
  return loadTime;
}

/** The tokens whose session this page ended (signed out, or refused): /api/logout goes once for each. */
const endedTokens = new Set<string>();
const tokenKey = (token: string | null) => token ?? '';

/**
 * Ends the session of `token` once: clears the token, tells other tabs, calls /api/logout (best effort).
 * Calls that were in flight with that token and come back 401 neither refresh nor send a second logout.
 */
async function endSession(token: string | null): Promise<boolean> {
  if (endedTokens.has(tokenKey(token))) return false;
  endedTokens.add(tokenKey(token));
  // calls sent after this, without a token, do not try to bring the session back either
  endedTokens.add('');
  clearAccessToken({ broadcast: true });
  try {
    const res = await send('POST', apiUrl('/logout'), undefined, {}, false);
    // Read to its end: an unread body keeps the request open in the browser (and its connection busy).
    await res.text();
  } catch {
    /* the cookie is cleared server-side when reachable; the local session is gone either way */
  }
  return true;
}

/** Signs out: clears the token, tells other tabs, calls /api/logout once (best effort). */
export async function logout() {
  await endSession(getAccessToken());
}

/** A window event the API client sends with `detail` true when a request got an answer, false when none came (no network): the offline notice listens. */
export const NETWORK_EVENT = 'cmms:network';
const reportNetwork = (reached: boolean) => {
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent<boolean>(NETWORK_EVENT, { detail: reached }));
};

async function send(method: string, url: string, body: BodyInit | undefined, opts: RequestOptions, withToken = true) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), opts.timeoutMs ?? API_TIMEOUT_MS);
  const abort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', abort);
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const token = withToken ? getAccessToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  try {
    const res = await fetch(url, { method, body, headers, credentials: 'include', signal: controller.signal });
    reportNetwork(true);
    return res;
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    if (controller.signal.aborted) throw new ApiError(0, 'The server took too long to answer. Please try again.');
    reportNetwork(false);
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', abort);
  }
}

async function toError(res: Response): Promise<ApiError> {
  let body: { error?: unknown; message?: unknown; issues?: unknown; [key: string]: unknown } = {};
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const message = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : res.statusText || 'Request failed';
  return new ApiError(res.status, message, Array.isArray(body.issues) ? (body.issues as ApiIssue[]) : [], body && typeof body === 'object' ? body : {});
}

/** One call: JSON in and out, bearer token, one shared refresh and one retry on 401. */
export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const url = apiUrl(path, opts.query);
  const payload = body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body);
  const sentToken = getAccessToken();
  let res = await send(method, url, payload, opts);
  const callPath = url.replace(/^\/api/, '').split('?')[0];
  const ended = endedTokens.has(tokenKey(sentToken));
  if (res.status === 401 && !ended && !NO_REFRESH_CALLS.includes(callPath) && !NO_REFRESH_PAGES.includes(window.location.pathname)) {
    // another call may have refreshed while this one was in flight: then just retry with the new token
    const current = getAccessToken();
    const token = current && current !== sentToken ? current : await refreshSession();
    if (token) res = await send(method, url, payload, opts);
    // several calls refused at once end the session once
    else if (!endedTokens.has(tokenKey(sentToken))) {
      void endSession(sentToken);
      onSessionEnd();
    }
  }
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * GETs a file (a CSV export, a PDF…) with the token: its body as a blob; one retry after a refresh on 401.
 * With `body`, POSTs it as JSON instead (a file made from a choice, as the label PDF).
 * The body is read as it arrives; no timeout once the answer has started (a big export takes its time).
 */
export async function fetchFile(path: string, opts: RequestOptions & { body?: unknown } = {}): Promise<Blob> {
  const url = apiUrl(path, opts.query);
  const sent = getAccessToken();
  const method = opts.body === undefined ? 'GET' : 'POST';
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  let res = await send(method, url, payload, { ...opts, timeoutMs: opts.timeoutMs ?? 120_000 });
  if (res.status === 401) {
    const current = getAccessToken();
    const token = current && current !== sent ? current : await refreshSession();
    if (token) res = await send(method, url, payload, { ...opts, timeoutMs: opts.timeoutMs ?? 120_000 });
  }
  if (!res.ok) throw await toError(res);
  return res.blob();
}

/** `fetchFile`, saved as `fileName` (the browser downloads it). */
export async function downloadFile(path: string, fileName: string, opts: RequestOptions & { body?: unknown } = {}): Promise<void> {
  saveBlob(await fetchFile(path, opts), fileName);
}

/** Saves a blob as a file the browser downloads (a made file, or an answer of the API). */
export function saveBlob(blob: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the download has started by then; the object URL is freed
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The API client: paths are relative to /api (a leading "/api" is accepted too). */
export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body ?? {}, opts),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body ?? {}, opts),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, body ?? {}, opts),
  del: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, undefined, opts),
  /** Multipart upload of one file (field `image` unless told), plus optional text fields. */
  upload: <T>(path: string, file: Blob, opts: RequestOptions & { field?: string; fields?: Record<string, string>; fileName?: string } = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v);
    form.append(opts.field ?? 'image', file, opts.fileName ?? (file instanceof File ? file.name : 'upload'));
    return request<T>('POST', path, form, opts);
  },
};

/**
 * The message to show for any thrown value: the server's text, else the fallback, in the reader's language
 * (the API answers the spec's English; the SPA translates it, decision 065).
 */
export function errorMessage(err: unknown, fallback = 'Oops, something went wrong...'): string {
  if (err instanceof ApiError && err.message && err.status !== 0 && err.status < 500) return translateMessage(err.message);
  if (err instanceof ApiError && err.status === 0) return translateMessage(err.message);
  return translateMessage(fallback);
}

/**
 * Puts a 400's `issues` on a react-hook-form form (paths like "lines.0.quantity"). Returns true when at
 * least one field got a message, so the caller can skip the toast or show it anyway.
 */
export function applyApiErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, opts: { known?: readonly string[] } = {}): boolean {
  if (!(err instanceof ApiError) || err.issues.length === 0) return false;
  let applied = false;
  for (const issue of err.issues) {
    if (!issue.path) continue;
    if (opts.known && !opts.known.includes(issue.path.split('.')[0])) continue;
    setError(issue.path as Path<T>, { type: 'server', message: translateMessage(issue.message) });
    applied = true;
  }
  return applied;
}

export { setAccessToken, clearAccessToken, getAccessToken };
