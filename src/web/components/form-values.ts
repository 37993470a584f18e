import type { SelectOption } from './async-select';

/** A record's optional text fields as form values: each of `keys`, with null and undefined as ''. */
export function textValues<R, K extends keyof R & string>(record: R, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, (record[k] as string | null | undefined) ?? ''])) as Record<K, string>;
}

/** A picker's initial option for a linked record (`{ id, name }`, e.g. the order's asset); null when there is none. */
export function optionOf(linked: { id: number; name: string } | null | undefined): SelectOption | null {
  return linked ? { value: linked.id, label: linked.name } : null;
}
