/**
 * localStorage that never throws (private mode, quota) and stores JSON. Keys are prefixed with "cmms.".
 * Everything stored here is a preference (theme, side menu, table columns, page sizes, the bell's read
 * marker): the cookie and storage settings let a user refuse it, and then choices last for the page only.
 */
const CONSENT_KEY = 'cmms.storage-consent';
/** Kept whatever the choice: the choice itself and the cross-tab sign-in signal (strictly necessary). */
const ESSENTIAL = new Set([CONSENT_KEY, 'cmms.auth-event']);
const memory = new Map<string, unknown>();

export function preferencesStorageAllowed(): boolean {
  try {
    return window.localStorage.getItem(CONSENT_KEY) !== 'false';
  } catch {
    return false;
  }
}

/** Records the user's choice; refusing forgets every stored preference at once. */
export function setPreferencesStorageAllowed(allowed: boolean) {
  try {
    window.localStorage.setItem(CONSENT_KEY, String(allowed));
    if (allowed) return;
    const stored = Array.from({ length: window.localStorage.length }, (_, i) => window.localStorage.key(i));
    for (const key of stored) if (key?.startsWith('cmms.') && !ESSENTIAL.has(key)) window.localStorage.removeItem(key);
  } catch {
    /* storage unavailable: nothing is stored anyway */
  }
}

export function readLocal<T>(key: string, fallback: T): T {
  if (memory.has(key)) return memory.get(key) as T;
  try {
    const raw = window.localStorage.getItem(`cmms.${key}`);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeLocal(key: string, value: unknown) {
  if (!preferencesStorageAllowed()) {
    if (value === undefined) memory.delete(key);
    else memory.set(key, value);
    return;
  }
  try {
    if (value === undefined) window.localStorage.removeItem(`cmms.${key}`);
    else window.localStorage.setItem(`cmms.${key}`, JSON.stringify(value));
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}
