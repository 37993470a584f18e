import { useMemo, useState } from 'react';
import { Box, Button, Group, NativeSelect, Paper, SegmentedControl, Stack, Table, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { notifySuccess, useBusyAction, TableHead } from '../../../web/components';
import { formatDateTime, formatMinutes } from '../../../web/lib/format';
import { ASSET_STATES, type AssetState } from '../../asset-states/asset-states.values';
import type { AssetStatesAnswer, Availability } from '../../asset-states/asset-states.schema';
import { AssetStateBadge, STATE_COLORS } from './asset-state-badge';
import './asset-states-i18n';

const PERIODS = { '1d': 1, '7d': 7, '30d': 30 } as const;
type Period = keyof typeof PERIODS;
const DAY = 86_400_000;

type Interval = AssetStatesAnswer['intervals'][number];
type Translate = ReturnType<typeof useTranslation<'assetStates'>>['t'];

/** Where an interval came from: the parent asset, a work order or a maintenance request. */
const sourceOf = (t: Translate, i: Interval) =>
  i.cascadedFrom
    ? t('withParent')
    : i.workOrderId
      ? `WO-${String(i.workOrderId).padStart(4, '0')}`
      : i.maintenanceRequestId
        ? `MR-${String(i.maintenanceRequestId).padStart(4, '0')}`
        : '';

/**
 * The asset drawer's State tab (decision 079): the state now, a horizontal bar of the states over the chosen
 * period (each segment a button: Tab moves through them, focus or hover tells state and times), the list of
 * intervals below, the availability of the period, and the form to set the state by hand.
 */
export function AssetStateTimeline({ assetId }: { assetId: number }) {
  const { t } = useTranslation('assetStates');
  const [period, setPeriod] = useState<Period>('7d');
  // The period ends at the next whole minute when the tab opens or the period changes.
  const range = useMemo(() => {
    const to = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
    return { from: new Date(to.getTime() - PERIODS[period] * DAY).toISOString(), to: to.toISOString() };
  }, [period]);
  const states = useQuery({
    queryKey: ['assets', 'states', assetId, range],
    queryFn: ({ signal }) => api.get<AssetStatesAnswer>(`/assets/list-asset-states/${assetId}`, { signal, query: range }),
  });
  const availability = useQuery({
    queryKey: ['assets', 'availability', assetId, range],
    queryFn: ({ signal }) =>
      api.get<{ availability: Availability }>('/assets/get-asset-availability', { signal, query: { ...range, assetId } }).then((r) => r.availability),
  });
  const intervals = states.data?.intervals ?? [];
  // On a phone the intervals are a list: a six-column table, even scrolling in its box, widened the whole drawer
  // (its scroll area sizes to the widest content) past a 390 px window, the Arabic page with it.
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Stack data-testid="asset-state-timeline">
      <Group justify="space-between">
        {states.data && <AssetStateBadge state={states.data.state} />}
        <SegmentedControl
          aria-label={t('period')}
          value={period}
          onChange={(v) => setPeriod(v as Period)}
          data={(Object.keys(PERIODS) as Period[]).map((p) => ({ value: p, label: t(`periods.${p}`) }))}
        />
      </Group>
      {availability.data && (
        <Text size="sm" data-testid="asset-availability">
          {t('availability')}: {availability.data.availability === null ? '–' : `${(availability.data.availability * 100).toFixed(2)}%`} · {t('down')}:{' '}
          {formatMinutes(availability.data.downMinutes)}
        </Text>
      )}
      <StateBar intervals={intervals} range={range} />
      {states.data && !intervals.length && (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      )}
      {intervals.length > 0 && !phone && <IntervalsTable intervals={intervals} />}
      {intervals.length > 0 && phone && <IntervalsList intervals={intervals} />}
      <SetStateForm assetId={assetId} />
    </Stack>
  );
}

/** The bar of the period's states, oldest first; each segment a button whose name tells its state and times. */
function StateBar({ intervals, range }: { intervals: Interval[]; range: { from: string; to: string } }) {
  const { t } = useTranslation('assetStates');
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  const span = to - from;
  const nowMs = Date.now();
  // Oldest first on the bar, clipped to the period; an open interval runs to now.
  const segments = [...intervals].reverse().map((i) => {
    const s = Math.max(Date.parse(i.startedAt), from);
    const e = Math.min(i.endedAt ? Date.parse(i.endedAt) : nowMs, to);
    return { i, left: ((s - from) / span) * 100, width: (Math.max(e - s, 0) / span) * 100 };
  });
  const label = (i: Interval) =>
    t('segment', { state: t(`states.${i.state}`), from: formatDateTime(i.startedAt), to: i.endedAt ? formatDateTime(i.endedAt) : t('now') });
  return (
    <Box
      role="group"
      aria-label={t('timeline')}
      pos="relative"
      h={24}
      bg="var(--mantine-color-green-1)"
      style={{ borderRadius: 4, overflow: 'hidden' }}
      data-testid="asset-state-bar"
    >
      {segments.map(({ i, left, width }) => (
        <Tooltip key={i.id} label={label(i)} events={{ hover: true, focus: true, touch: true }}>
          <UnstyledButton
            aria-label={label(i)}
            data-state={i.state}
            pos="absolute"
            top={0}
            h="100%"
            style={{
              insetInlineStart: `${left}%`,
              width: `max(${width}%, 2px)`,
              background: `var(--mantine-color-${STATE_COLORS[i.state]}-${i.state === 'running' ? 2 : 6})`,
            }}
          />
        </Tooltip>
      ))}
    </Box>
  );
}

/** The intervals as a six-column table (a wide screen). */
function IntervalsTable({ intervals }: { intervals: Interval[] }) {
  const { t } = useTranslation('assetStates');
  return (
    <Table.ScrollContainer minWidth={560} type="native">
      <Table data-testid="asset-state-list" withTableBorder>
        <TableHead labels={[t('column'), t('from'), t('to'), t('reason'), t('setBy'), t('source')]} />
        <Table.Tbody>
          {intervals.map((i) => (
            <Table.Tr key={i.id} data-state={i.state}>
              <Table.Td>{t(`states.${i.state}`)}</Table.Td>
              <Table.Td>{formatDateTime(i.startedAt)}</Table.Td>
              <Table.Td>{i.endedAt ? formatDateTime(i.endedAt) : t('now')}</Table.Td>
              <Table.Td>{i.reason ?? ''}</Table.Td>
              <Table.Td>{i.setBy?.name ?? ''}</Table.Td>
              <Table.Td>{sourceOf(t, i)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The intervals as a list of small cards (a phone). */
function IntervalsList({ intervals }: { intervals: Interval[] }) {
  const { t } = useTranslation('assetStates');
  return (
    <Stack gap="xs" data-testid="asset-state-list">
      {intervals.map((i) => (
        <Paper key={i.id} withBorder p="xs" data-state={i.state}>
          <Text size="sm">
            <Text span fw={600}>
              {t(`states.${i.state}`)}
            </Text>{' '}
            · {formatDateTime(i.startedAt)} – {i.endedAt ? formatDateTime(i.endedAt) : t('now')}
          </Text>
          {(i.reason || i.setBy || sourceOf(t, i)) && (
            <Text size="xs" c="dimmed" dir="auto">
              {[i.reason, i.setBy?.name, sourceOf(t, i)].filter(Boolean).join(' · ')}
            </Text>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

/** The form that sets the asset's state by hand, with a reason. */
function SetStateForm({ assetId }: { assetId: number }) {
  const { t } = useTranslation('assetStates');
  const queryClient = useQueryClient();
  const [next, setNext] = useState<AssetState>('down');
  const [reason, setReason] = useState('');
  const { busy: saving, run } = useBusyAction();
  const save = () =>
    run(async () => {
      await api.post(`/assets/set-asset-state/${assetId}`, { state: next, reason: reason || undefined });
      notifySuccess(t('saved'));
      setReason('');
      await queryClient.invalidateQueries({ queryKey: ['assets'] });
    }, t('failed'));
  return (
    <Group align="end" data-testid="asset-set-state">
      <NativeSelect
        label={t('newState')}
        value={next}
        onChange={(e) => setNext(e.currentTarget.value as AssetState)}
        data={ASSET_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
      />
      <TextInput label={t('reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={500} />
      <Button onClick={() => void save()} loading={saving}>
        {t('save')}
      </Button>
    </Group>
  );
}
