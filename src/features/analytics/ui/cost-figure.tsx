import { Stack, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMoney } from '../../../web/components/money';
import type { CostFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { hours } from './insights-figure-kit';
import { AssetOrdersLink, SimpleTable } from './insights-parts';

/** Labour and parts cost by month, asset and work station. */
export function CostFigure({ cost }: { cost: UseQueryResult<CostFigures> }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <FigureCard
      name="cost"
      query={cost}
      isEmpty={(d) => d.laborCost + d.partsCost === 0 && d.unratedHours === 0}
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
            rows={d.byAsset
              .slice(0, 10)
              .map((r) => [
                r.assetId ? <AssetOrdersLink assetId={r.assetId} name={r.name} key="a" /> : t('insights.downtime.none'),
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
  );
}
