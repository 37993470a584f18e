import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';
import { useDebouncedValue } from './use-debounced-value';

// The options of the searchable pickers (async-select.tsx) without Mantine's Select: the list filters' stand-ins
// (async-select-filter.tsx) fetch and name them before the interactive controls arrive (issue 46: weight).

/** An option as the `get-*-options` endpoints return it (parts and services also carry a price). */
export interface SelectOption {
  value: number;
  label: string;
  [extra: string]: unknown;
}

/** Value of the "Add New" entry (spec: selecting value 0 opens the creation dialog). */
export const ADD_NEW_VALUE = 0;
const RECENT_LIMIT = 10;
const recent = new Map<string, SelectOption[]>();

/** The options remembered for an endpoint (`rememberOption`), latest first. */
export const recentOptions = (path: string): SelectOption[] => recent.get(path) ?? [];

/** Remembers an option per endpoint (about the last 10), so a chosen value keeps its label across searches. */
export function rememberOption(path: string, option: SelectOption) {
  const list = (recent.get(path) ?? []).filter((o) => o.value !== option.value);
  list.unshift(option);
  recent.set(path, list.slice(0, RECENT_LIMIT));
}

function toOptions(body: unknown): SelectOption[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? Object.values(body).find(Array.isArray) : undefined;
  return ((list ?? []) as SelectOption[]).filter((o) => o && typeof o.value === 'number' && typeof o.label === 'string');
}

/** The options of an endpoint for a search (debounced), cached per endpoint, search and page size. */
export function useOptions(path: string, search: string, pageSize: number, extraQuery?: Record<string, string | number>) {
  const debounced = useDebouncedValue(search.trim(), 300);
  const query = useQuery({
    queryKey: ['options', path, debounced, pageSize, extraQuery ?? null],
    queryFn: ({ signal }) => api.get<unknown>(path, { query: { pageSize, name: debounced || undefined, ...extraQuery }, signal }).then(toOptions),
    staleTime: 30_000,
  });
  return query;
}
