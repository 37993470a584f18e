/**
 * The signed-in state of this tab. The access token lives in sessionStorage (spec section 4); other tabs
 * learn about sign-in and sign-out through a localStorage broadcast key (sessionStorage is per tab).
 */
export const TOKEN_KEY = 'accessToken';
export const AUTH_BROADCAST_KEY = 'cmms.auth-event';
/**
 * Set (in localStorage, so every tab of this host sees it) while this browser holds a session of the host:
 * the public pages call the refresh only then, so a visitor without a session sends no call that can only
 * fail (and log a 401 in the console).
 */
export const SESSION_HINT_KEY = 'cmms.has-session';
/**
 * The user of that session (read from the token's claims when it was stored): My work shows its device copy at
 * once when it is this user's, before the load-time refresh has answered (issue 46).
 */
export const SESSION_USER_KEY = 'cmms.session-user';

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
  setSessionHint(true);
  if (opts.broadcast) broadcast('login');
  emit();
}

export function clearAccessToken(opts: { broadcast?: boolean } = {}) {
  window.sessionStorage.removeItem(TOKEN_KEY);
  setSessionHint(false);
  if (opts.broadcast) broadcast('logout');
  emit();
}

/** Whether this browser may hold a session of this host (signed in here and not signed out since). */
export function mayHaveSession(): boolean {
  try {
    return window.localStorage.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    return true; // without storage, ask the server
  }
}

/** The user My work last opened for, under the current session hint; null when none is known. */
export function sessionUserHint(): number | null {
  try {
    const id = Number(window.localStorage.getItem(SESSION_USER_KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/** Written by My work once the session and the device claim agree on the user (cleared with every new session). */
export function markSessionUser(userId: number) {
  try {
    window.localStorage.setItem(SESSION_USER_KEY, String(userId));
  } catch {
    /* no early copy without storage */
  }
}

/**
 * Records whether the refresh cookie may hold a session (set on sign-in and refresh, cleared on sign-out). Any new
 * token forgets the session user: only My work, having checked it, writes it again.
 */
export function setSessionHint(present: boolean) {
  try {
    if (present) window.localStorage.setItem(SESSION_HINT_KEY, '1');
    else window.localStorage.removeItem(SESSION_HINT_KEY);
    window.localStorage.removeItem(SESSION_USER_KEY);
  } catch {
    /* no hint without storage: the public pages then ask the server */
  }
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

/** The claims of an access token as the browser may read them (not verified: for choosing a screen, never for rights). */
export function tokenClaims(token: string | null = getAccessToken()): { userId: number; orgId: number; role: string } | null {
  if (!token) return null;
  try {
    const part = token.split('.')[1] ?? '';
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown; org?: unknown; role?: unknown };
    const userId = Number(json.sub);
    return Number.isInteger(userId) && typeof json.org === 'number' && typeof json.role === 'string' ? { userId, orgId: json.org, role: json.role } : null;
  } catch {
    return null;
  }
}
