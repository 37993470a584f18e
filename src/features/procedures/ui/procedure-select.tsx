import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import type { ProcedureListItem } from '../procedures.schema';
import './procedures-i18n';

/** A procedure picker (a library is small: the first 100 by name, searched in the box). */
export function ProcedureSelect(props: { value: number | null; onChange(value: number | null): void; label?: string; error?: string; testId?: string }) {
  const { t } = useTranslation('procedures');
  const query = useQuery({
    queryKey: ['procedures', 'options'],
    queryFn: ({ signal }) => api.get<{ procedures: ProcedureListItem[] }>('/procedures/list-procedures', { query: { pageSize: 100 }, signal }),
    staleTime: 30_000,
  });
  const data = (query.data?.procedures ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${p.stepCount})` }));
  return (
    <Select
      label={props.label ?? t('pick')}
      placeholder={t('common:select.search')}
      error={props.error}
      searchable
      clearable
      data={data}
      value={props.value ? String(props.value) : null}
      onChange={(v) => props.onChange(v ? Number(v) : null)}
      nothingFoundMessage={query.isFetching ? t('common:select.loading') : t('common:select.nothingFound')}
      comboboxProps={{ withinPortal: true }}
      data-testid={props.testId}
    />
  );
}
