import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listSelectProps } from '../../../web/components';
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
      {...listSelectProps(t, props, query.isFetching)}
      data={data}
      value={props.value ? String(props.value) : null}
      onChange={(v) => props.onChange(v ? Number(v) : null)}
    />
  );
}
