/**
 * The signed-in state of this tab. The access token lives in sessionStorage (spec section 4); other tabs
 * learn about sign-in and sign-out through a localStorage broadcast key (sessionStorage is per tab).
 */
export const TOKEN_KEY = 'accessToken';
export const AUTH_BROADCAST_KEY = 'cmms.auth-event';

type Listener = () => void;
const listeners = new Set<Listener>();

export function getAccessToken(): string | null {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setAccessToken(token: string, opts: { broadcast?: boolean } = {}) {
  window.sessionStorage.setItem(TOKEN_KEY, token);
  if (opts.broadcast) broadcast('login');
  emit();
}

export function clearAccessToken(opts: { broadcast?: boolean } = {}) {
  window.sessionStorage.removeItem(TOKEN_KEY);
  if (opts.broadcast) broadcast('logout');
  emit();
}

/** Subscribes to token changes in this tab (useSyncExternalStore-compatible). */
export function subscribeSession(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit() {
  for (const l of listeners) l();
}

function broadcast(type: 'login' | 'logout') {
  try {
    window.localStorage.setItem(AUTH_BROADCAST_KEY, JSON.stringify({ type, at: Date.now() }));
  } catch {
    /* no cross-tab sync without storage */
  }
}

/** Calls `fn` when another tab signs in or out. */
export function onOtherTabAuth(fn: (type: 'login' | 'logout') => void) {
  const handler = (e: StorageEvent) => {
    if (e.key !== AUTH_BROADCAST_KEY || !e.newValue) return;
    try {
      const { type } = JSON.parse(e.newValue) as { type: 'login' | 'logout' };
      if (type === 'login' || type === 'logout') fn(type);
    } catch {
      /* ignore foreign values */
    }
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}
