import { useEffect } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pagination } from '../../shared/pagination';
import { api } from '../lib/api';
import { notifyError } from './notify';
import { useListQueryState, type FilterSpec, type PageSize } from './use-list-query-state';

export interface ServerListOptions<F extends FilterSpec> {
  /** First part of the react-query key, e.g. 'work-orders'. Lists live under [queryKey, 'list', query]. */
  queryKey: string;
  /** GET path under /api, e.g. '/work-orders/get-work-orders'. */
  path: string;
  /** Key of the rows in the response, e.g. 'workOrders'. */
  listKey: string;
  filters: F;
  defaultPageSize?: PageSize;
  /** Where the rows-per-page choice is saved locally; the list's `queryKey` when left out. */
  tableId?: string;
  /** Toast when the fetch fails, e.g. 'Failed to fetch work orders'. */
  errorMessage?: string;
  /** Extra fixed query parameters. */
  extraQuery?: Record<string, string | number>;
}

/**
 * A server-paged list screen's data: URL filter state + the query. Rows and pagination come from
 * `{ [listKey]: T[], pagination }`. `setListData` stores a refreshed list returned by an add or delete.
 */
export function useServerList<T, F extends FilterSpec = FilterSpec>(opts: ServerListOptions<F>) {
  const state = useListQueryState({ filters: opts.filters, defaultPageSize: opts.defaultPageSize, storageKey: opts.tableId ?? opts.queryKey });
  const queryClient = useQueryClient();
  const apiQuery = { ...opts.extraQuery, ...state.apiQuery };
  const queryKey = [opts.queryKey, 'list', apiQuery] as const;
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<Record<string, unknown> & { pagination: Pagination }>(opts.path, { query: apiQuery, signal }),
    placeholderData: keepPreviousData,
  });
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError && opts.errorMessage) notifyError(opts.errorMessage);
  }, [isError, errorUpdatedAt, opts.errorMessage]);

  const rows = ((query.data?.[opts.listKey] as T[] | undefined) ?? []) as T[];
  return {
    state,
    query,
    rows,
    pagination: query.data?.pagination,
    /** Loading spinner: first load or a refetch after a filter change. */
    loading: query.isFetching,
    /** The last load failed (the table says so in place, with Retry). */
    failed: query.isError,
    refetch: () => query.refetch(),
    /** Puts a refreshed list (the answer of an add or delete) in the cache for the current page and refreshes the others. */
    setListData(data: { pagination: Pagination } & Record<string, unknown>) {
      if (Array.isArray(data[opts.listKey])) queryClient.setQueryData(queryKey, data);
      void queryClient.invalidateQueries({ queryKey: [opts.queryKey], refetchType: 'none' });
    },
    /** Marks every list and record of this area stale and refetches the visible ones. */
    invalidate: () => queryClient.invalidateQueries({ queryKey: [opts.queryKey] }),
  };
}

/**
 * What a drawer over the list takes of it (ListDrawerProps, RowDrawerProps): the query its adds and deletes
 * answer for, where their refreshed list goes, and the invalidation after an edit.
 */
export function drawerListProps(list: Pick<ReturnType<typeof useServerList>, 'state' | 'setListData' | 'invalidate'>) {
  return { query: list.state.apiQuery, onList: list.setListData, invalidate: list.invalidate };
}
