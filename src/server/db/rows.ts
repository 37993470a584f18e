/** The rows of a raw `tx.execute(sql…)` result, whichever driver ran it (both answer `{ rows }`; drizzle types it per driver). */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
