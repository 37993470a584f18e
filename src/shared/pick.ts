/**
 * Some properties of an object under their own names: `pick(t, 'id', 'name')` is `{ id: t.id, name: t.name }`.
 * With a drizzle table it gives its columns for a `select({ ...pick(assets, 'id', 'name'), … })`; with a row or an
 * input, the fields copied as they are.
 */
export function pick<T extends object, K extends keyof T>(source: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, source[key]])) as Pick<T, K>;
}
