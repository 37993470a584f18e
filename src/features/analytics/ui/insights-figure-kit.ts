import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../../web/lib/api';
import { formatNumber } from '../../../web/lib/format';
import { FILTER_KEYS, RANGE_PRESETS, analyticsQuerySchema, type RangePreset } from '../analytics.schema';

export type FilterKey = (typeof FILTER_KEYS)[number];

/** The screen's state, all in the URL (a view can be bookmarked and shared). */
export function useInsightsParams() {
  const [params, setParams] = useSearchParams();
  const range = (RANGE_PRESETS as readonly string[]).includes(params.get('range') ?? '') ? (params.get('range') as RangePreset) : '30d';
  const query: Record<string, string> = { range };
  if (range === 'custom') {
    query.from = params.get('from') ?? '';
    query.to = params.get('to') ?? '';
  }
  for (const k of FILTER_KEYS) if (params.get(k)) query[k] = params.get(k)!;
  const set = (changes: Record<string, string | null>) =>
    setParams(
      () => {
        // From the address as it is now: react-router hands the updater the parameters of the last render, so
        // two changes before a render (the from and to dates typed in quick succession) would drop the first.
        const next = new URLSearchParams(window.location.search);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      },
      { replace: true },
    );
  // The routes' own rules (a custom range needs both days, in order, at most five years): ask only what they take.
  const ready = analyticsQuerySchema.safeParse(query).success;
  return { query, range, set, ready, filterId: (k: FilterKey) => (params.get(k) ? Number(params.get(k)) : null) };
}

export function useFigure<T>(name: string, query: Record<string, string>, enabled = true) {
  return useQuery({
    queryKey: ['analytics', name, query],
    queryFn: ({ signal }) => api.get<T>(`/analytics/get-${name}`, { query, signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

export const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${formatNumber(v * 100, 1)}%`);
export const hours = (v: number | null | undefined) => (v === null || v === undefined ? '–' : formatNumber(v, 2));

/** The filtered work orders list behind a figure (the asset when the figure or the filter names one). */
export function ordersLink(opts: { assetId?: number | null; open?: boolean }) {
  const p = new URLSearchParams();
  if (opts.open) {
    p.append('status', 'assigned');
    p.append('status', 'in-progress');
  }
  if (opts.assetId) p.set('assetId', String(opts.assetId));
  const s = p.toString();
  return `/dashboard/work-orders${s ? `?${s}` : ''}`;
}
