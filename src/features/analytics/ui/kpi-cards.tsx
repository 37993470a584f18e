import { SimpleGrid } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../web/lib/format';
import { useMoney } from '../../../web/components/money';
import type {
  BacklogFigures,
  ComplianceFigures,
  CostFigures,
  DowntimeFigures,
  MtbfFigures,
  MttrFigures,
  PlannedShareFigures,
  ThroughputFigures,
} from '../analytics.schema';
import { hours, pct } from './insights-figure-kit';
import { KpiCard } from './insights-parts';

/** The row of KPI cards, each against the period before. */
export function KpiCards({
  backlog,
  throughput,
  repair,
  downtime,
  planned,
  compliance,
  cost,
}: {
  backlog: UseQueryResult<BacklogFigures>;
  throughput: UseQueryResult<ThroughputFigures>;
  repair: UseQueryResult<{ mttr: MttrFigures; mtbf: MtbfFigures }>;
  downtime: UseQueryResult<DowntimeFigures>;
  planned: UseQueryResult<PlannedShareFigures>;
  compliance: UseQueryResult<ComplianceFigures>;
  cost: UseQueryResult<CostFigures>;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
      <KpiCard label={t('insights.kpi.open')} kpi={backlog.data?.openAtEnd} format={(v) => formatNumber(v ?? 0)} upIsGood={false} testId="kpi-open" />
      <KpiCard label={t('insights.kpi.completed')} kpi={throughput.data?.completed} format={(v) => formatNumber(v ?? 0)} upIsGood testId="kpi-completed" />
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
      <KpiCard label={t('insights.kpi.created')} kpi={throughput.data?.created} format={(v) => formatNumber(v ?? 0)} upIsGood={false} testId="kpi-created" />
    </SimpleGrid>
  );
}
