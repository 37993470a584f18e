import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES } from '../../shared/page-sizes';
import { readLocal, writeLocal } from '../lib/local-store';

export type PageSize = (typeof PAGE_SIZES)[number];
/** A filter kept in the query string: free text (`?title=pump`) or several values (`?status=a&status=b`). */
export type FilterKind = 'text' | 'multi';
export type FilterSpec = Record<string, FilterKind>;
export type FilterValues<F extends FilterSpec> = { [K in keyof F]: F[K] extends 'multi' ? string[] : string };

export interface ListQueryState<F extends FilterSpec = FilterSpec> {
  page: number;
  pageSize: PageSize;
  filters: FilterValues<F>;
  /** True when any filter has a value (the Reset button shows). */
  isFiltered: boolean;
  setPage(page: number): void;
  /** Changes the page size and goes back to page 1. */
  setPageSize(size: number): void;
  /** Sets one filter and goes back to page 1. */
  setFilter<K extends keyof F & string>(name: K, value: FilterValues<F>[K]): void;
  /** Clears every filter and the page. */
  reset(): void;
  /** page, pageSize and the non-empty filters: pass it as the API call's query. */
  apiQuery: Record<string, string | number | string[]>;
}

const isPageSize = (n: unknown): n is PageSize => (PAGE_SIZES as readonly unknown[]).includes(n);

/**
 * The filter state of a server-paged list, kept in the URL's query string (page, pageSize and the
 * filters named in `filters`), so a reload or a shared link shows the same list. With `storageKey` the
 * rows-per-page choice is also saved locally for that table (spec: "page-size choices are saved locally per
 * table") and used when the URL names none.
 */
export function useListQueryState<F extends FilterSpec>(opts: { filters: F; defaultPageSize?: PageSize; storageKey?: string }): ListQueryState<F> {
  const [params, setParams] = useSearchParams();
  const defaultPageSize = opts.defaultPageSize ?? 10;
  const specKey = JSON.stringify(opts.filters);
  const sizeKey = opts.storageKey && `pageSize.${opts.storageKey}`;
  const stored = sizeKey ? readLocal<unknown>(sizeKey, null) : null;
  const preferredSize = isPageSize(stored) ? stored : defaultPageSize;

  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const rawSize = Number(params.get('pageSize'));
  const pageSize = isPageSize(rawSize) ? rawSize : preferredSize;
  const paramsKey = params.toString();

  const filters = useMemo(() => {
    const spec = JSON.parse(specKey) as FilterSpec;
    const p = new URLSearchParams(paramsKey);
    const out: Record<string, string | string[]> = {};
    for (const [name, kind] of Object.entries(spec)) {
      out[name] =
        kind === 'multi'
          ? p
              .getAll(name)
              .flatMap((v) => v.split(','))
              .map((v) => v.trim())
              .filter(Boolean)
          : (p.get(name) ?? '');
    }
    return out as FilterValues<F>;
  }, [specKey, paramsKey]);

  const isFiltered = Object.values(filters as Record<string, string | string[]>).some((v) => (Array.isArray(v) ? v.length > 0 : v.trim() !== ''));

  const update = useCallback(
    (fn: (p: URLSearchParams) => void) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          fn(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setPage = useCallback((n: number) => update((p) => (n <= 1 ? p.delete('page') : p.set('page', String(n)))), [update]);
  const setPageSize = useCallback(
    (n: number) => {
      if (sizeKey) writeLocal(sizeKey, n);
      update((p) => {
        p.delete('page');
        if (n === defaultPageSize) p.delete('pageSize');
        else p.set('pageSize', String(n));
      });
    },
    [update, defaultPageSize, sizeKey],
  );
  const setFilter = useCallback(
    (name: string, value: string | string[]) =>
      update((p) => {
        p.delete('page');
        p.delete(name);
        if (Array.isArray(value)) value.forEach((v) => p.append(name, v));
        else if (value.trim() !== '') p.set(name, value);
      }),
    [update],
  ) as ListQueryState<F>['setFilter'];
  const reset = useCallback(
    () =>
      update((p) => {
        p.delete('page');
        for (const name of Object.keys(JSON.parse(specKey) as FilterSpec)) p.delete(name);
      }),
    [update, specKey],
  );

  const apiQuery = useMemo(() => {
    const q: Record<string, string | number | string[]> = { page, pageSize };
    for (const [k, v] of Object.entries(filters as Record<string, string | string[]>)) {
      if (Array.isArray(v) ? v.length : v.trim()) q[k] = Array.isArray(v) ? v : v.trim();
    }
    return q;
  }, [page, pageSize, filters]);

  return { page, pageSize, filters, isFiltered, setPage, setPageSize, setFilter, reset, apiQuery };
}
