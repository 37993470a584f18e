import { Badge, Group, Stack } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DowntimeFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { hours, ordersLink, pct } from './insights-figure-kit';
import { SimpleTable } from './insights-parts';

/** Downtime hours by category, asset and work station. */
export function DowntimeFigure({ downtime }: { downtime: UseQueryResult<DowntimeFigures> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const catLabel = (c: string) => t(`insights.categories.${c}`);
  return (
    <FigureCard name="downtime" query={downtime} isEmpty={(d) => d.byCategory.length === 0} csv={(d) => d.byAsset.map((r) => ({ asset: r.name ?? '', ...r }))}>
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
  );
}
