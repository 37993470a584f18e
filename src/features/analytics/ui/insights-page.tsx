import { useMemo, type ReactNode } from 'react';
import { Anchor, Badge, Button, Card, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { BarChart, DonutChart, LineChart } from '@mantine/charts';
import { IconArrowDownRight, IconArrowUpRight, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './insights-i18n';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { recordLink } from '../../../web/app/record-links';
import { api } from '../../../web/lib/api';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { formatDay, formatNumber } from '../../../web/lib/format';
import { useMoney } from '../../../web/components/money';
import { ChartImage } from '../../../web/components/chart-image';
import { AssetSelect } from '../../assets/ui/asset-select';
import { AssetCategorySelect } from '../../master-data/ui/asset-category-select';
import { TeamSelect } from '../../teams/ui/team-select';
import { WorkStationSelect } from '../../work-stations/ui/work-station-select';
import {
  FILTER_KEYS,
  RANGE_PRESETS,
  analyticsQuerySchema,
  type BacklogFigures,
  type ComplianceFigures,
  type CostFigures,
  type DowntimeFigures,
  type Kpi,
  type MtbfFigures,
  type MttrFigures,
  type MyWorkFigures,
  type PlannedShareFigures,
  type QuotedVsActualFigures,
  type RangePreset,
  type ThroughputFigures,
} from '../analytics.schema';
import { FigureCard } from './figure-card';
import { ScheduleReportButton } from '../../insights-reports/ui/schedule-report';
import { AvailabilityFigure } from './availability-figure';
import { FailureFigures } from './failure-figures';

/** A donut with its tooltip, named for assistive technology by its figures. */
function Donut({
  label,
  ...props
}: {
  label: string;
  size: number;
  thickness: number;
  chartLabel?: string;
  data: { name: string; value: number; color: string }[];
}) {
  return (
    <ChartImage label={label} parts={props.data}>
      <DonutChart withTooltip pieProps={{ rootTabIndex: -1 }} {...props} />
    </ChartImage>
  );
}

type FilterKey = (typeof FILTER_KEYS)[number];

/** The screen's state, all in the URL (a view can be bookmarked and shared). */
function useInsightsParams() {
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

function useFigure<T>(name: string, query: Record<string, string>, enabled = true) {
  return useQuery({
    queryKey: ['analytics', name, query],
    queryFn: ({ signal }) => api.get<T>(`/analytics/get-${name}`, { query, signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${formatNumber(v * 100, 1)}%`);
const hours = (v: number | null | undefined) => (v === null || v === undefined ? '–' : formatNumber(v, 2));

/** A KPI card: the figure and its change against the period before (green when the change is good). */
function KpiCard({
  label,
  kpi,
  format,
  upIsGood,
  testId,
}: {
  label: string;
  kpi: Kpi | undefined;
  format: (v: number | null) => string;
  upIsGood: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const cur = kpi?.current ?? null;
  const prev = kpi?.previous ?? null;
  const diff = cur !== null && prev !== null ? cur - prev : null;
  const change = diff !== null && prev ? diff / Math.abs(prev) : null;
  const good = diff === null || diff === 0 ? null : diff > 0 === upIsGood;
  return (
    <Paper withBorder p="md" radius="md" className="insights-card">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={800} fz={26} data-testid={testId}>
        {kpi ? format(cur) : '–'}
      </Text>
      <Group gap={4} wrap="nowrap">
        {diff !== null &&
          diff !== 0 &&
          (diff > 0 ? (
            <IconArrowUpRight size={16} color={good ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)'} />
          ) : (
            <IconArrowDownRight size={16} color={good ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)'} />
          ))}
        <Text size="xs" c={good === null ? 'dimmed' : good ? 'teal' : 'red'}>
          {prev === null
            ? t('insights.noPrevious')
            : `${change !== null ? `${change > 0 ? '+' : ''}${formatNumber(change * 100, 1)}%` : format(prev)} ${t('insights.vsPrevious')}`}
        </Text>
      </Group>
    </Paper>
  );
}

/** The filtered work orders list behind a figure (the asset when the figure or the filter names one). */
function ordersLink(opts: { assetId?: number | null; open?: boolean }) {
  const p = new URLSearchParams();
  if (opts.open) {
    p.append('status', 'assigned');
    p.append('status', 'in-progress');
  }
  if (opts.assetId) p.set('assetId', String(opts.assetId));
  const s = p.toString();
  return `/dashboard/work-orders${s ? `?${s}` : ''}`;
}

function SimpleTable({ head, rows, testId }: { head: ReactNode[]; rows: ReactNode[][]; testId?: string }) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped highlightOnHover fz="sm" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h, i) => (
              <Table.Th key={i}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              {r.map((c, j) => (
                <Table.Td key={j}>{c}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Above a quoted-vs-actual table whose rows the API capped: "Showing the N largest differences of M …"; nothing when all are shown. */
function CappedNote({ shown, count, of, testId }: { shown: number; count: number; of: 'cappedQuotations' | 'cappedOrders'; testId: string }) {
  const { t } = useTranslation();
  if (count <= shown) return null;
  return (
    <Text size="xs" c="dimmed" data-testid={testId}>
      {t(`insights.quoted.${of}`, { shown: formatNumber(shown), count: formatNumber(count) })}
    </Text>
  );
}

const PRINT_CSS = `@media print {
  .mantine-AppShell-navbar, .mantine-AppShell-header, .insights-no-print { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
  .insights-card { break-inside: avoid; box-shadow: none !important; }
  .insights-help { display: block !important; }
  body { background: #fff !important; }
}`;

/** /dashboard/insights: the manager's analytics (issue 24, decision 038); a worker sees their own view only. */
export default function InsightsPage() {
  const { t } = useTranslation();
  const isManager = useIsManager();
  const navigate = useNavigate();
  const money = useMoney();
  const { data: appData } = useAppData();
  const { query, range, set, ready, filterId } = useInsightsParams();
  const org = isManager && ready;
  const backlog = useFigure<BacklogFigures>('backlog', query, org);
  const throughput = useFigure<ThroughputFigures>('throughput', query, org);
  const repair = useFigure<{ mttr: MttrFigures; mtbf: MtbfFigures }>('repair-times', query, org);
  const downtime = useFigure<DowntimeFigures>('downtime', query, org);
  const planned = useFigure<PlannedShareFigures>('planned-share', query, org);
  const compliance = useFigure<ComplianceFigures>('pm-compliance', query, org);
  const cost = useFigure<CostFigures>('costs', query, org);
  const quoted = useFigure<QuotedVsActualFigures>('quoted-vs-actual', query, org);
  const mine = useFigure<MyWorkFigures>('my-work', query, ready);
  const assetFilter = filterId('assetId');
  const workers = useMemo(
    () => (appData?.workers ?? []).map((w) => ({ value: String(w.id), label: `${w.firstName} ${w.lastName}`.trim() || w.email })),
    [appData?.workers],
  );
  const catLabel = (c: string) => t(`insights.categories.${c}`);
  const period = backlog.data?.range ?? mine.data?.range;

  return (
    <Stack gap="lg">
      <style>{PRINT_CSS}</style>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            {t('insights.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('insights.subtitle')} {period ? `${formatDay(period.from)} – ${formatDay(period.to)}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          {isManager && <ScheduleReportButton filters={Object.fromEntries(FILTER_KEYS.flatMap((k) => (query[k] ? [[k, query[k]]] : [])))} />}
          <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()} className="insights-no-print">
            {t('insights.print')}
          </Button>
        </Group>
      </Group>

      <Card withBorder radius="md" className="insights-no-print">
        <Stack gap="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t('insights.range.label')}
              </Text>
              <SegmentedControl
                value={range}
                onChange={(v) => set({ range: v, ...(v === 'custom' ? {} : { from: null, to: null }) })}
                data={RANGE_PRESETS.map((p) => ({ value: p, label: t(`insights.range.${p}`) }))}
                data-testid="insights-range"
              />
            </div>
            {range === 'custom' && (
              <>
                <TextInput
                  type="date"
                  label={t('insights.range.from')}
                  value={query.from ?? ''}
                  onChange={(e) => set({ from: e.currentTarget.value })}
                  data-testid="insights-from"
                />
                <TextInput
                  type="date"
                  label={t('insights.range.to')}
                  value={query.to ?? ''}
                  onChange={(e) => set({ to: e.currentTarget.value })}
                  data-testid="insights-to"
                />
              </>
            )}
          </Group>
          {isManager && (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
              <AssetSelect
                label={t('insights.filters.asset')}
                value={assetFilter}
                onChange={(v) => set({ assetId: v ? String(v) : null })}
                allowAddNew={false}
                testId="insights-asset"
              />
              <AssetCategorySelect
                label={t('insights.filters.assetCategory')}
                value={filterId('assetCategoryId')}
                onChange={(v) => set({ assetCategoryId: v ? String(v) : null })}
                allowAddNew={false}
              />
              <WorkStationSelect
                label={t('insights.filters.workStation')}
                value={filterId('workStationId')}
                onChange={(v) => set({ workStationId: v ? String(v) : null })}
                allowAddNew={false}
              />
              <TeamSelect label={t('insights.filters.team')} value={filterId('teamId')} onChange={(v) => set({ teamId: v ? String(v) : null })} />
              <Select
                label={t('insights.filters.assignee')}
                data={workers}
                searchable
                clearable
                value={query.assigneeId ?? null}
                onChange={(v) => set({ assigneeId: v })}
                comboboxProps={{ withinPortal: true }}
              />
            </SimpleGrid>
          )}
        </Stack>
      </Card>

      {isManager && (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <KpiCard label={t('insights.kpi.open')} kpi={backlog.data?.openAtEnd} format={(v) => formatNumber(v ?? 0)} upIsGood={false} testId="kpi-open" />
            <KpiCard
              label={t('insights.kpi.completed')}
              kpi={throughput.data?.completed}
              format={(v) => formatNumber(v ?? 0)}
              upIsGood
              testId="kpi-completed"
            />
            <KpiCard
              label={t('insights.kpi.mttr')}
              kpi={repair.data ? { current: repair.data.mttr.overall.meanHours, previous: repair.data.mttr.previous.meanHours } : undefined}
              format={(v) => (v === null ? '–' : `${hours(v)} h`)}
              upIsGood={false}
              testId="kpi-mttr"
            />
            <KpiCard label={t('insights.kpi.planned')} kpi={planned.data?.plannedOrderShare} format={pct} upIsGood testId="kpi-planned" />
            <KpiCard label={t('insights.kpi.compliance')} kpi={compliance.data?.rate} format={pct} upIsGood testId="kpi-compliance" />
            <KpiCard label={t('insights.kpi.cost')} kpi={cost.data?.total} format={(v) => money.formatMinor(v)} upIsGood={false} testId="kpi-cost" />
            <KpiCard
              label={t('insights.kpi.availability')}
              kpi={downtime.data?.availabilityHours}
              format={(v) => (v === null ? '–' : `${hours(v)} h`)}
              upIsGood={false}
              testId="kpi-availability"
            />
            <KpiCard
              label={t('insights.kpi.created')}
              kpi={throughput.data?.created}
              format={(v) => formatNumber(v ?? 0)}
              upIsGood={false}
              testId="kpi-created"
            />
          </SimpleGrid>

          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <FigureCard
              title={t('insights.backlog.title')}
              help={t('insights.backlog.help')}
              query={backlog}
              testId="insights-backlog"
              isEmpty={(d) => d.openNow === 0 && d.overTime.every((p) => p.open === 0)}
              empty={t('insights.backlog.empty')}
              csv={(d) => [...d.overTime.map((p) => ({ day: p.day, open: p.open })), ...d.ageBuckets.map((b) => ({ day: `age ${b.bucket}`, open: b.count }))]}
            >
              {(d) => (
                <Stack gap="sm">
                  <LineChart
                    h={200}
                    data={d.overTime}
                    dataKey="day"
                    series={[{ name: 'open', label: t('insights.backlog.open'), color: 'indigo.6' }]}
                    withLegend
                    curveType="linear"
                    withDots={d.overTime.length <= 31}
                    xAxisProps={{ tickFormatter: (v: string) => formatDay(v) }}
                    lineChartProps={{ onClick: () => void navigate(ordersLink({ open: true, assetId: assetFilter })), style: { cursor: 'pointer' } }}
                  />
                  <Group gap="md">
                    <Anchor component={Link} to={ordersLink({ open: true, assetId: assetFilter })} size="sm" data-testid="insights-backlog-drill">
                      {t('insights.backlog.open')}: {formatNumber(d.openNow)}
                    </Anchor>
                    <Badge color="red" variant="light">
                      {t('insights.backlog.overdue')}: {formatNumber(d.overdueNow)}
                    </Badge>
                  </Group>
                  <BarChart
                    h={140}
                    data={d.ageBuckets.map((b) => ({ bucket: b.bucket, count: b.count }))}
                    dataKey="bucket"
                    series={[{ name: 'count', label: t('insights.backlog.age'), color: 'orange.6' }]}
                    barChartProps={{ onClick: () => void navigate(ordersLink({ open: true, assetId: assetFilter })), style: { cursor: 'pointer' } }}
                  />
                </Stack>
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.throughput.title')}
              help={t('insights.throughput.help')}
              query={throughput}
              testId="insights-throughput"
              isEmpty={(d) => d.weeks.every((w) => w.created === 0 && w.completed === 0)}
              empty={t('insights.throughput.empty')}
              csv={(d) => d.weeks}
            >
              {(d) => (
                <BarChart
                  h={260}
                  data={d.weeks}
                  dataKey="week"
                  withLegend
                  series={[
                    { name: 'created', label: t('insights.throughput.created'), color: 'blue.6' },
                    { name: 'completed', label: t('insights.throughput.completed'), color: 'teal.6' },
                  ]}
                  xAxisProps={{ tickFormatter: (v: string) => formatDay(v) }}
                  barChartProps={{ onClick: () => void navigate(ordersLink({ assetId: assetFilter })), style: { cursor: 'pointer' } }}
                />
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.mttr.title')}
              help={t('insights.mttr.help')}
              query={repair}
              testId="insights-mttr"
              isEmpty={(d) => d.mttr.overall.count === 0}
              empty={t('insights.mttr.empty')}
              csv={(d) => [
                { group: 'all', name: '', count: d.mttr.overall.count, meanHours: d.mttr.overall.meanHours, medianHours: d.mttr.overall.medianHours },
                ...d.mttr.byAssetCategory.map((r) => ({
                  group: 'asset category',
                  name: r.name ?? '',
                  count: r.count,
                  meanHours: r.meanHours,
                  medianHours: r.medianHours,
                })),
                ...d.mttr.byTeam.map((r) => ({ group: 'team', name: r.name, count: r.count, meanHours: r.meanHours, medianHours: r.medianHours })),
              ]}
            >
              {({ mttr }) => (
                <Stack gap="sm">
                  <Group gap="xl">
                    <Text size="sm">
                      {t('insights.mttr.mean')}: <b data-testid="mttr-mean">{hours(mttr.overall.meanHours)}</b>
                    </Text>
                    <Text size="sm">
                      {t('insights.mttr.median')}: <b>{hours(mttr.overall.medianHours)}</b>
                    </Text>
                    <Text size="sm">
                      {t('insights.mttr.count')}: <b data-testid="mttr-count">{formatNumber(mttr.overall.count)}</b>
                    </Text>
                  </Group>
                  <BarChart
                    h={180}
                    data={mttr.byAssetCategory.map((r) => ({ name: r.name ?? t('insights.mttr.none'), mean: r.meanHours ?? 0, median: r.medianHours ?? 0 }))}
                    dataKey="name"
                    withLegend
                    series={[
                      { name: 'mean', label: t('insights.mttr.mean'), color: 'grape.6' },
                      { name: 'median', label: t('insights.mttr.median'), color: 'cyan.6' },
                    ]}
                  />
                  {mttr.byTeam.length > 0 && (
                    <SimpleTable
                      head={[t('insights.mttr.byTeam'), t('insights.mttr.count'), t('insights.mttr.mean'), t('insights.mttr.median')]}
                      rows={mttr.byTeam.map((r) => [r.name, formatNumber(r.count), hours(r.meanHours), hours(r.medianHours)])}
                    />
                  )}
                </Stack>
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.mtbf.title')}
              help={t('insights.mtbf.help')}
              query={repair}
              testId="insights-mtbf"
              isEmpty={(d) => d.mtbf.worst.length === 0}
              empty={t('insights.mtbf.empty')}
              csv={(d) => d.mtbf.worst}
            >
              {({ mtbf }) => (
                <SimpleTable
                  testId="insights-mtbf-table"
                  head={[t('insights.mtbf.asset'), t('insights.mtbf.failures'), t('insights.mtbf.hours')]}
                  rows={mtbf.worst.map((r) => [
                    <Anchor component={Link} to={ordersLink({ assetId: r.assetId })} size="sm" key="a">
                      {r.name}
                    </Anchor>,
                    formatNumber(r.failures),
                    hours(r.mtbfHours),
                  ])}
                />
              )}
            </FigureCard>

            <AvailabilityFigure range={downtime.data?.range} assetId={query.assetId} assetCategoryId={query.assetCategoryId} />

            <FigureCard
              title={t('insights.downtime.title')}
              help={t('insights.downtime.help')}
              query={downtime}
              testId="insights-downtime"
              isEmpty={(d) => d.byCategory.length === 0}
              empty={t('insights.downtime.empty')}
              csv={(d) => d.byAsset.map((r) => ({ asset: r.name ?? '', ...r }))}
            >
              {(d) => (
                <Stack gap="sm">
                  <Group gap="xs">
                    {d.byCategory.map((c) => (
                      <Badge key={`${c.category}${c.blocking}`} variant="light">
                        {catLabel(c.category)}
                        {c.blocking ? ` (${t('insights.downtime.blocking')})` : ''}: {hours(c.hours)} h
                      </Badge>
                    ))}
                  </Group>
                  <BarChart
                    h={220}
                    type="stacked"
                    withLegend
                    data={d.byAsset.slice(0, 10).map((r) => ({
                      name: r.name ?? t('insights.downtime.none'),
                      assetId: r.assetId,
                      availability: r.availability,
                      performance: r.performance,
                      quality: r.quality,
                      productivity: r.productivity,
                    }))}
                    dataKey="name"
                    series={[
                      { name: 'availability', label: catLabel('availability'), color: 'red.6' },
                      { name: 'performance', label: catLabel('performance'), color: 'yellow.6' },
                      { name: 'quality', label: catLabel('quality'), color: 'violet.6' },
                      { name: 'productivity', label: catLabel('productivity'), color: 'teal.6' },
                    ]}
                    barChartProps={{
                      onClick: (s: { activeTooltipIndex?: number | string | null }) => {
                        const row = d.byAsset[Number(s?.activeTooltipIndex ?? -1)];
                        if (row) void navigate(ordersLink({ assetId: row.assetId }));
                      },
                      style: { cursor: 'pointer' },
                    }}
                  />
                  <SimpleTable
                    head={[t('insights.downtime.asset'), catLabel('availability'), t('insights.downtime.loss')]}
                    rows={d.byAsset.slice(0, 10).map((r) => [r.name ?? t('insights.downtime.none'), hours(r.availability), pct(r.availabilityLoss)])}
                  />
                  <SimpleTable
                    head={[t('insights.downtime.station'), catLabel('availability'), catLabel('performance'), catLabel('quality'), catLabel('productivity')]}
                    rows={d.byWorkStation.map((r) => [
                      r.name ?? t('insights.downtime.none'),
                      hours(r.availability),
                      hours(r.performance),
                      hours(r.quality),
                      hours(r.productivity),
                    ])}
                  />
                </Stack>
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.planned.title')}
              help={t('insights.planned.help')}
              query={planned}
              testId="insights-planned"
              isEmpty={(d) => d.plannedOrders + d.reactiveOrders + d.maintenanceOrders === 0}
              empty={t('insights.planned.empty')}
              csv={(d) => [
                { kind: 'planned', orders: d.plannedOrders + d.maintenanceOrders, hours: d.plannedHours },
                { kind: 'reactive', orders: d.reactiveOrders, hours: d.reactiveHours },
              ]}
            >
              {(d) => (
                <SimpleGrid cols={2}>
                  <Stack align="center" gap={4}>
                    <Text size="sm" fw={600}>
                      {t('insights.planned.orders')}
                    </Text>
                    <Donut
                      size={140}
                      thickness={22}
                      label={t('insights.planned.orders')}
                      data={[
                        { name: t('insights.planned.planned'), value: d.plannedOrders + d.maintenanceOrders, color: 'teal.6' },
                        { name: t('insights.planned.reactive'), value: d.reactiveOrders, color: 'orange.6' },
                      ]}
                    />
                    <Text size="xs" c="dimmed">
                      {pct(d.plannedOrderShare.current)} · {t('insights.planned.mos')}: {formatNumber(d.maintenanceOrders)}
                    </Text>
                  </Stack>
                  <Stack align="center" gap={4}>
                    <Text size="sm" fw={600}>
                      {t('insights.planned.hours')}
                    </Text>
                    <Donut
                      size={140}
                      thickness={22}
                      label={t('insights.planned.hours')}
                      data={[
                        { name: t('insights.planned.planned'), value: d.plannedHours, color: 'teal.6' },
                        { name: t('insights.planned.reactive'), value: d.reactiveHours, color: 'orange.6' },
                      ]}
                    />
                    <Text size="xs" c="dimmed">
                      {pct(d.plannedHourShare.current)}
                    </Text>
                  </Stack>
                </SimpleGrid>
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.compliance.title')}
              help={t('insights.compliance.help')}
              query={compliance}
              testId="insights-compliance"
              isEmpty={(d) => d.due === 0}
              empty={t('insights.compliance.empty')}
              csv={(d) => [{ source: d.source, due: d.due, onTime: d.onTime, late: d.late, missed: d.missed, rate: d.rate.current }]}
            >
              {(d) => (
                <Stack gap="xs" align="center">
                  <Donut
                    size={160}
                    thickness={24}
                    label={t('insights.compliance.title')}
                    chartLabel={pct(d.rate.current)}
                    data={[
                      { name: t('insights.compliance.onTime'), value: d.onTime, color: 'teal.6' },
                      { name: t('insights.compliance.late'), value: d.late, color: 'yellow.6' },
                      { name: t('insights.compliance.missed'), value: d.missed, color: 'red.6' },
                    ]}
                  />
                  <Text size="xs" c="dimmed">
                    {d.source === 'plans' ? t('insights.compliance.plans') : t('insights.compliance.orders')} · {t('insights.compliance.due')}:{' '}
                    {formatNumber(d.due)}
                  </Text>
                </Stack>
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.cost.title')}
              help={t('insights.cost.help')}
              query={cost}
              testId="insights-cost"
              isEmpty={(d) => d.laborCost + d.partsCost === 0 && d.unratedHours === 0}
              empty={t('insights.cost.empty')}
              csv={(d) => [
                ...d.byMonth.map((r) => ({ group: 'month', name: r.month, labor: r.labor, parts: r.parts, total: r.total, currency: d.currency })),
                ...d.byAsset.map((r) => ({ group: 'asset', name: r.name ?? '', labor: r.labor, parts: r.parts, total: r.total, currency: d.currency })),
                ...d.byWorkStation.map((r) => ({
                  group: 'work station',
                  name: r.name ?? '',
                  labor: r.labor,
                  parts: r.parts,
                  total: r.total,
                  currency: d.currency,
                })),
              ]}
            >
              {(d) => (
                <Stack gap="sm">
                  <BarChart
                    h={200}
                    type="stacked"
                    withLegend
                    data={d.byMonth}
                    dataKey="month"
                    valueFormatter={(v) => money.formatMinor(v)}
                    series={[
                      { name: 'labor', label: t('insights.cost.labor'), color: 'blue.6' },
                      { name: 'parts', label: t('insights.cost.parts'), color: 'orange.6' },
                    ]}
                  />
                  {d.unratedHours > 0 && (
                    <Text size="xs" c="dimmed">
                      {t('insights.cost.unrated', { hours: hours(d.unratedHours) })}
                    </Text>
                  )}
                  <SimpleTable
                    head={[t('insights.cost.asset'), t('insights.cost.labor'), t('insights.cost.parts'), t('insights.cost.total')]}
                    rows={d.byAsset.slice(0, 10).map((r) => [
                      r.assetId ? (
                        <Anchor component={Link} to={ordersLink({ assetId: r.assetId })} size="sm" key="a">
                          {r.name}
                        </Anchor>
                      ) : (
                        t('insights.downtime.none')
                      ),
                      money.formatMinor(r.labor),
                      money.formatMinor(r.parts),
                      money.formatMinor(r.total),
                    ])}
                  />
                  <SimpleTable
                    head={[t('insights.cost.station'), t('insights.cost.labor'), t('insights.cost.parts'), t('insights.cost.total')]}
                    rows={d.byWorkStation
                      .slice(0, 10)
                      .map((r) => [r.name ?? t('insights.downtime.none'), money.formatMinor(r.labor), money.formatMinor(r.parts), money.formatMinor(r.total)])}
                  />
                </Stack>
              )}
            </FigureCard>

            <FigureCard
              title={t('insights.quoted.title')}
              help={t('insights.quoted.help')}
              query={quoted}
              testId="insights-quoted"
              isEmpty={(d) => d.workOrders.length === 0}
              empty={t('insights.quoted.empty')}
              csv={(d) => [
                // The rows shown: the quotations and orders with the largest differences (the API caps both lists).
                ...d.quotations.map((q) => ({
                  group: 'quotation',
                  number: q.number,
                  title: q.customer ?? '',
                  quotation: q.number,
                  workOrders: q.workOrders,
                  quoted: q.quoted,
                  quotedUntaxed: q.quotedUntaxed,
                  labor: q.labor,
                  parts: q.parts,
                  actual: q.actual,
                  difference: q.difference,
                  currency: d.currency,
                })),
                ...d.workOrders.map((w) => ({
                  group: 'work order',
                  number: w.number,
                  title: w.title,
                  quotation: w.quotationNumber,
                  workOrders: 1,
                  quoted: w.quoted,
                  quotedUntaxed: w.quotedUntaxed,
                  labor: w.labor,
                  parts: w.parts,
                  actual: w.actual,
                  difference: w.difference,
                  currency: d.currency,
                })),
              ]}
            >
              {(d) => (
                <Stack gap="sm">
                  <Group gap="xl">
                    <Text size="sm">
                      {t('insights.quoted.quotedUntaxed')}: <b>{money.formatMinor(d.total.quotedUntaxed)}</b>
                    </Text>
                    <Text size="sm">
                      {t('insights.quoted.actual')}: <b data-testid="quoted-actual-total">{money.formatMinor(d.total.actual)}</b>
                    </Text>
                    <Text size="sm" c={d.total.difference > 0 ? 'red' : 'teal'}>
                      {t('insights.quoted.difference')}: <b>{money.formatMinor(d.total.difference)}</b>
                    </Text>
                  </Group>
                  <CappedNote shown={d.quotations.length} count={d.quotationCount} of="cappedQuotations" testId="insights-quoted-capped" />
                  <SimpleTable
                    testId="insights-quoted-table"
                    head={[
                      t('insights.quoted.quotation'),
                      t('insights.quoted.orders'),
                      t('insights.quoted.quoted'),
                      t('insights.quoted.quotedUntaxed'),
                      t('insights.quoted.actual'),
                      t('insights.quoted.difference'),
                    ]}
                    rows={d.quotations.map((q) => [
                      <Anchor component={Link} to={recordLink('quotation', q.quotationId) ?? '/dashboard/quotations'} size="sm" key="q">
                        {q.customer ? `${q.number} · ${q.customer}` : q.number}
                      </Anchor>,
                      formatNumber(q.workOrders),
                      money.formatMinor(q.quoted),
                      money.formatMinor(q.quotedUntaxed),
                      money.formatMinor(q.actual),
                      money.formatMinor(q.difference),
                    ])}
                  />
                  <CappedNote shown={d.workOrders.length} count={d.workOrderCount} of="cappedOrders" testId="insights-quoted-orders-capped" />
                  <SimpleTable
                    testId="insights-quoted-orders-table"
                    head={[
                      t('insights.quoted.workOrder'),
                      t('insights.quoted.quotation'),
                      t('insights.cost.labor'),
                      t('insights.cost.parts'),
                      t('insights.quoted.actual'),
                      t('insights.quoted.difference'),
                    ]}
                    rows={d.workOrders.map((w) => [
                      <Anchor component={Link} to={recordLink('work-order', w.workOrderId) ?? '/dashboard/work-orders'} size="sm" key="w">
                        {w.number} {w.title}
                      </Anchor>,
                      w.quotationNumber,
                      money.formatMinor(w.labor),
                      money.formatMinor(w.parts),
                      money.formatMinor(w.actual),
                      money.formatMinor(w.difference),
                    ])}
                  />
                </Stack>
              )}
            </FigureCard>
          </SimpleGrid>
          <FailureFigures query={query} enabled={org} />
        </>
      )}

      <FigureCard
        title={t('insights.mine.title')}
        help={t('insights.mine.help')}
        query={mine}
        testId="insights-mine"
        empty={t('insights.mine.empty')}
        csv={(d) => d.open.map((w) => ({ id: w.id, title: w.title, status: w.status, priority: w.priority, dueDate: w.dueDate ?? '', overdue: w.overdue }))}
      >
        {(d) => (
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('insights.mine.open')}: {formatNumber(d.openCount)}
              </Text>
              {d.open.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('insights.mine.empty')}
                </Text>
              ) : (
                d.open.map((w) => (
                  <Group key={w.id} gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={`/dashboard/work-orders?open=${w.id}`} size="sm">
                      {w.title}
                    </Anchor>
                    {w.overdue && (
                      <Badge size="xs" color="red" variant="light">
                        {t('insights.mine.overdue')}
                      </Badge>
                    )}
                  </Group>
                ))
              )}
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('insights.mine.hoursWeek')}
              </Text>
              {d.hoursThisWeek.map((h) => (
                <Text size="sm" key={h.reasonId}>
                  {h.name} ({catLabel(h.category)}): {hours(h.hours)} h
                </Text>
              ))}
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('insights.mine.completed')}: {formatNumber(d.completed)}
              </Text>
              <Text size="sm">
                {t('insights.mine.onTime')}: {formatNumber(d.completedOnTime)} / {formatNumber(d.completedWithDue)}
              </Text>
            </Stack>
          </SimpleGrid>
        )}
      </FigureCard>
    </Stack>
  );
}
