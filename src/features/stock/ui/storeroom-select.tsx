import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { formatNumber } from '../../../web/lib/format';
import type { StockLevelDto } from '../stock.schema';
import './stock-i18n';

type LocationOption = { value: number; label: string; isDefault: boolean };

/** The organisation's storerooms (default first), for pickers. */
export function useStoreroomOptions() {
  return useQuery({
    queryKey: ['stock', 'location-options'],
    queryFn: ({ signal }) => api.get<LocationOption[]>('/stock/get-location-options', { signal }),
    staleTime: 60_000,
  });
}

/** A part's available quantity per storeroom (on hand less what open orders reserve), by location id. */
export function usePartAvailability(partId: number | null | undefined) {
  return useQuery({
    queryKey: ['stock', 'levels', partId],
    enabled: !!partId,
    queryFn: ({ signal }) => api.get<{ stockLevels: StockLevelDto[] }>('/stock/get-stock-levels', { query: { partId: partId!, pageSize: 100 }, signal }),
    select: (r) => new Map(r.stockLevels.map((l) => [l.locationId, l.available ?? l.quantity])),
  });
}

/**
 * A storeroom picker (decision 071). With `partId`, each option says how much of the part is available there and
 * `showAvailable` prints it under the box for the chosen one. Empty = the default storeroom.
 */
export function StoreroomSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null): void;
  partId?: number | null;
  label?: string;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('stock');
  const options = useStoreroomOptions();
  const available = usePartAvailability(props.partId);
  const data = (options.data ?? []).map((o) => {
    const n = available.data?.get(o.value);
    return { value: String(o.value), label: props.partId ? `${o.label} · ${t('picker.available', { n: formatNumber(n ?? 0) })}` : o.label };
  });
  const chosen = props.value ?? (props.required ? null : (options.data?.find((o) => o.isDefault)?.value ?? null));
  return (
    <Select
      label={props.label ?? t('picker.storeroom')}
      data={data}
      value={chosen ? String(chosen) : null}
      onChange={(v) => props.onChange(v ? Number(v) : null)}
      error={props.error}
      withAsterisk={props.required}
      disabled={props.disabled}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      data-testid={props.testId ?? 'storeroom-select'}
    />
  );
}
