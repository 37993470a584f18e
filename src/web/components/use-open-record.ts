import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Which record a list's drawer shows, kept in the URL (`?open=<id>`, `?open=new` for a new one): a reload keeps
 * it open, a link (a notification, the calendar, a colleague's message) opens it. undefined: closed; null: new.
 */
export function useOpenRecord(
  param = 'open',
  /** Parameters that go with the record shown (e.g. the request a new order comes from): any change drops them. */
  companions: readonly string[] = [],
): [number | null | undefined, (id: number | null | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(param);
  const selected = raw === 'new' ? null : raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
  // a string: the callback stays the same across renders given a new array of the same names
  const clear = companions.join(' ');
  const open = useCallback(
    (id: number | null | undefined) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const name of clear.split(' ').filter(Boolean)) next.delete(name);
          if (id === undefined) next.delete(param);
          else next.set(param, id === null ? 'new' : String(id));
          return next;
        },
        // Opening is a step Back undoes; closing replaces it, so Back does not reopen what was just closed.
        { replace: id === undefined },
      ),
    [setParams, param, clear],
  );
  return [selected, open];
}

/** A record list's `open` (RecordListConfig) over an id setter such as useOpenRecord's: a row opens its id, null a new record. */
export const openById =
  (open: (id: number | null) => void) =>
  (row: { id: number } | null): void =>
    open(row ? row.id : null);
