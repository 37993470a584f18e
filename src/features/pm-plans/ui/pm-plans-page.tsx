import { useEffect, useState } from 'react';
import { Button, Group, NumberInput, Select, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  badgeColumn,
  drawerListProps,
  ListTextFilter,
  openById,
  useOpenRecord,
  ServerListScreen,
  notifySuccess,
  useServerList,
  type Column,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatDateTime, formatDay } from '../../../web/lib/format';
import { AssetSelect } from '../../assets/ui/asset-select';
import { TeamSelect } from '../../teams/ui/team-select';
import { PLAN_TRIGGERS, type Compliance, type PlanDto, type PmSettings } from '../pm-plans.schema';
import { PlanDrawer } from './plan-drawer';
import './labels';

/** '83%' from a compliance, '' when nothing was due. */
export const ratePercent = (c: Compliance) => (c.rate === null ? '' : `${Math.round(c.rate * 100)}%`);

/** "Every 2 weeks", "Every 500 units", both joined. */
export function useTriggerSummary() {
  const { t } = useTranslation('pmPlans');
  return (p: Pick<PlanDto, 'trigger' | 'interval' | 'frequency' | 'meterEvery' | 'meterThreshold'>) => {
    const calendar = t('every', { interval: p.interval, unit: t(`frequency.${p.frequency}`).toLowerCase() });
    const meter = p.meterEvery
      ? t('meterEvery', { every: p.meterEvery })
      : p.meterThreshold !== null
        ? t('meterThreshold', { threshold: p.meterThreshold })
        : '';
    return p.trigger === 'calendar' ? calendar : p.trigger === 'meter' ? meter : `${calendar} / ${meter}`;
  };
}

/** The organisation's grace window, for managers (compliance counts work completed this many days late as on time). */
function GraceWindow({ onSaved }: { onSaved(): void }) {
  const { t } = useTranslation('pmPlans');
  const query = useQuery({ queryKey: ['pm-plans', 'settings'], queryFn: ({ signal }) => api.get<{ settings: PmSettings }>('/pm-plans/settings', { signal }) });
  const [value, setValue] = useState<number | string>('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (query.data) setValue(query.data.settings.graceDays);
  }, [query.data]);
  const save = async () => {
    try {
      await api.put('/pm-plans/settings', { graceDays: value === '' ? '' : Number(value) });
      setError(undefined);
      notifySuccess(t('graceSaved'));
      onSaved();
    } catch (err) {
      const message = (err as { body?: { issues?: { message: string }[] } }).body?.issues?.[0]?.message ?? t('failedAction');
      setError(message);
    }
  };
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <NumberInput label={t('graceDays')} value={value} onChange={setValue} min={0} max={90} w={150} size="xs" error={error} data-testid="pm-grace" />
      <Button size="xs" variant="default" onClick={() => void save()} data-testid="pm-grace-save">
        {t('saveGrace')}
      </Button>
    </Group>
  );
}

/** Preventive Maintenance -> Plans (/dashboard/pm-plans). `?plan=<id>` opens that plan ('new' a new one). */
export default function PmPlansPage() {
  const { t } = useTranslation('pmPlans');
  const queryClient = useQueryClient();
  const summary = useTriggerSummary();
  const list = useServerList<PlanDto, { name: 'text'; assetId: 'text'; teamId: 'text'; trigger: 'text' }>({
    queryKey: 'pm-plans',
    path: '/pm-plans/get-plans',
    listKey: 'plans',
    filters: { name: 'text', assetId: 'text', teamId: 'text', trigger: 'text' },
    errorMessage: t('failedFetch'),
  });
  const compliance = (list.query.data as { compliance?: Compliance } | undefined)?.compliance;
  const [selected, open] = useOpenRecord('plan');
  const filters = list.state.filters;

  const columns: Column<PlanDto>[] = [
    { key: 'name', header: t('col.name'), hideable: false },
    { key: 'target', header: t('col.target'), render: (p) => (p.workStation ? p.workStation.name : p.assets.map((a) => a.name).join(', ')) },
    { key: 'trigger', header: t('col.trigger'), render: (p) => summary(p) },
    { key: 'nextDue', header: t('col.nextDue'), render: (p) => formatDay(p.nextDue) },
    { key: 'lastCompleted', header: t('col.lastCompleted'), render: (p) => formatDateTime(p.lastCompleted) },
    {
      key: 'compliance',
      header: t('col.compliance'),
      render: (p) => (p.compliance.due ? `${ratePercent(p.compliance)} (${p.compliance.onTime}/${p.compliance.due})` : ''),
    },
    badgeColumn<PlanDto>('state', t('col.state'), (p) => ({ color: p.paused ? 'gray' : 'green', label: p.paused ? t('paused') : t('active') })),
    { key: 'planId', header: t('col.id'), defaultHidden: true },
  ];

  return (
    <ServerListScreen
      list={list}
      records={{ name: 'pm-plans', open: openById(open), title: t('title'), addLabel: t('add') }}
      columns={columns}
      side={
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Text size="sm" data-testid="pm-org-compliance">
            {compliance && compliance.due
              ? t('organisationCompliance', { rate: ratePercent(compliance), onTime: compliance.onTime, due: compliance.due })
              : t('noneDue')}
          </Text>
          <GraceWindow onSaved={() => list.invalidate()} />
        </Group>
      }
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <AssetSelect
            value={filters.assetId ? Number(filters.assetId) : null}
            onChange={(v) => list.state.setFilter('assetId', v ? String(v) : '')}
            label={t('filters.asset')}
            allowAddNew={false}
            testId="pm-filter-asset"
          />
          <TeamSelect
            label={t('filters.team')}
            value={filters.teamId ? Number(filters.teamId) : null}
            onChange={(v) => list.state.setFilter('teamId', v ? String(v) : '')}
            testId="pm-filter-team"
          />
          <Select
            label={t('filters.trigger')}
            clearable
            data={PLAN_TRIGGERS.map((v) => ({ value: v, label: t(`trigger.${v}`) }))}
            value={filters.trigger || null}
            onChange={(v) => list.state.setFilter('trigger', v ?? '')}
            w={180}
            data-testid="pm-filter-trigger"
            comboboxProps={{ withinPortal: true }}
          />
        </>
      }
    >
      {selected !== undefined && (
        <PlanDrawer
          key={selected ?? 'new'}
          id={selected}
          onClose={() => open(undefined)}
          onCreated={(id) => open(id)}
          {...drawerListProps(list)}
          invalidate={() => {
            list.invalidate();
            void queryClient.invalidateQueries({ queryKey: ['pm-plans'] });
          }}
        />
      )}
    </ServerListScreen>
  );
}
