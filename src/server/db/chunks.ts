/**
 * The list in slices of `size` (the last one may be shorter), for writes of many rows: each statement stays well
 * under PostgreSQL's 65,535 parameters. `for (const chunk of chunksOf(rows, 1000)) await tx.insert(t).values(chunk)`.
 */
export function* chunksOf<T>(list: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}
