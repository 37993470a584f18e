import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import type { TeamDto } from '../teams.schema';

/** A team picker (teams are few: the first 100 by name, searched in the box). */
export function TeamSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null): void;
  label?: string;
  error?: string;
  withAsterisk?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['teams', 'options'],
    queryFn: ({ signal }) => api.get<{ teams: TeamDto[] }>('/teams/get-teams', { query: { pageSize: 100 }, signal }),
    staleTime: 30_000,
  });
  const data = (query.data?.teams ?? []).map((team) => ({ value: String(team.id), label: team.name }));
  return (
    <Select
      label={props.label}
      placeholder={t('select.search')}
      error={props.error}
      withAsterisk={props.withAsterisk}
      disabled={props.disabled}
      searchable
      clearable={!props.withAsterisk}
      data={data}
      value={props.value ? String(props.value) : null}
      onChange={(v) => props.onChange(v ? Number(v) : null)}
      nothingFoundMessage={query.isFetching ? t('select.loading') : t('select.nothingFound')}
      comboboxProps={{ withinPortal: true }}
      data-testid={props.testId}
    />
  );
}
