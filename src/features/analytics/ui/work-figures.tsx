import { Anchor, Badge, Group, Stack } from '@mantine/core';
import { BarChart, LineChart } from '@mantine/charts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDay, formatNumber } from '../../../web/lib/format';
import type { BacklogFigures, ThroughputFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { ordersLink } from './insights-figure-kit';

/** Open orders over time, their age, and the drill into the open list. */
export function BacklogFigure({ backlog, assetFilter }: { backlog: UseQueryResult<BacklogFigures>; assetFilter: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <FigureCard
      name="backlog"
      query={backlog}
      isEmpty={(d) => d.openNow === 0 && d.overTime.every((p) => p.open === 0)}
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
  );
}

/** Orders created and completed per week. */
export function ThroughputFigure({ throughput, assetFilter }: { throughput: UseQueryResult<ThroughputFigures>; assetFilter: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <FigureCard name="throughput" query={throughput} isEmpty={(d) => d.weeks.every((w) => w.created === 0 && w.completed === 0)} csv={(d) => d.weeks}>
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
  );
}
