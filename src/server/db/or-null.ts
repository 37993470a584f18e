/** The `keys` of an input as a row's values, optional fields absent from it as null: `orNull(input, 'city')` is `{ city: input.city ?? null }`. */
export function orNull<T extends object, K extends keyof T>(input: T, ...keys: K[]): { [P in K]-?: Exclude<T[P], undefined> | null } {
  return Object.fromEntries(keys.map((key) => [key, input[key] ?? null])) as { [P in K]-?: Exclude<T[P], undefined> | null };
}
