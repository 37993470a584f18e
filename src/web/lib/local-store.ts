/** localStorage that never throws (private mode, quota) and stores JSON. Keys are prefixed with "cmms.". */
export function readLocal<T>(key: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(`cmms.${key}`);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeLocal(key: string, value: unknown) {
  try {
    if (value === undefined) window.localStorage.removeItem(`cmms.${key}`);
    else window.localStorage.setItem(`cmms.${key}`, JSON.stringify(value));
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}
