/** A record's optional text fields as form values: each of `keys`, with null and undefined as ''. */
export function textValues<R, K extends keyof R & string>(record: R, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, (record[k] as string | null | undefined) ?? ''])) as Record<K, string>;
}
