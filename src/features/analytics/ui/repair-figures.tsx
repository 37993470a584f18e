import { Group, Stack } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../web/lib/format';
import type { MtbfFigures, MttrFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { hours } from './insights-figure-kit';
import { AssetOrdersLink, FigureTotal, SimpleTable } from './insights-parts';

type RepairTimes = { mttr: MttrFigures; mtbf: MtbfFigures };

/** Mean and median time to repair, by asset category and by team. */
export function MttrFigure({ repair }: { repair: UseQueryResult<RepairTimes> }) {
  const { t } = useTranslation();
  return (
    <FigureCard
      name="mttr"
      query={repair}
      isEmpty={(d) => d.mttr.overall.count === 0}
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
            <FigureTotal label={t('insights.mttr.mean')} value={hours(mttr.overall.meanHours)} testId="mttr-mean" />
            <FigureTotal label={t('insights.mttr.median')} value={hours(mttr.overall.medianHours)} />
            <FigureTotal label={t('insights.mttr.count')} value={formatNumber(mttr.overall.count)} testId="mttr-count" />
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
  );
}

/** The assets with the shortest time between failures. */
export function MtbfFigure({ repair }: { repair: UseQueryResult<RepairTimes> }) {
  const { t } = useTranslation();
  return (
    <FigureCard name="mtbf" query={repair} isEmpty={(d) => d.mtbf.worst.length === 0} csv={(d) => d.mtbf.worst}>
      {({ mtbf }) => (
        <SimpleTable
          testId="insights-mtbf-table"
          head={[t('insights.mtbf.asset'), t('insights.mtbf.failures'), t('insights.mtbf.hours')]}
          rows={mtbf.worst.map((r) => [<AssetOrdersLink assetId={r.assetId} name={r.name} key="a" />, formatNumber(r.failures), hours(r.mtbfHours)])}
        />
      )}
    </FigureCard>
  );
}
