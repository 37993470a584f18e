import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import './insights-i18n';
import { useIsManager } from '../../../web/lib/app-data';
import { formatDay } from '../../../web/lib/format';
import {
  FILTER_KEYS,
  type BacklogFigures,
  type ComplianceFigures,
  type CostFigures,
  type DowntimeFigures,
  type MtbfFigures,
  type MttrFigures,
  type MyWorkFigures,
  type PlannedShareFigures,
  type QuotedVsActualFigures,
  type ThroughputFigures,
} from '../analytics.schema';
import { ScheduleReportButton } from '../../insights-reports/ui/schedule-report';
import { AvailabilityFigure } from './availability-figure';
import { FailureFigures } from './failure-figures';
import { useFigure, useInsightsParams } from './insights-figure-kit';
import { InsightsFilters } from './insights-filters';
import { KpiCards } from './kpi-cards';
import { BacklogFigure, ThroughputFigure } from './work-figures';
import { MtbfFigure, MttrFigure } from './repair-figures';
import { DowntimeFigure } from './downtime-figure';
import { ComplianceFigure, PlannedFigure } from './plan-figures';
import { CostFigure } from './cost-figure';
import { QuotedFigure } from './quoted-figure';
import { MyWorkFigure } from './my-work-figure';
import { PartsUsageFigure } from './parts-usage-figure';
import type { PartsUsage } from '../analytics-parts-usage.schema';

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
  const params = useInsightsParams();
  const { query, ready, filterId } = params;
  const org = isManager && ready;
  const backlog = useFigure<BacklogFigures>('backlog', query, org);
  const throughput = useFigure<ThroughputFigures>('throughput', query, org);
  const repair = useFigure<{ mttr: MttrFigures; mtbf: MtbfFigures }>('repair-times', query, org);
  const downtime = useFigure<DowntimeFigures>('downtime', query, org);
  const planned = useFigure<PlannedShareFigures>('planned-share', query, org);
  const compliance = useFigure<ComplianceFigures>('pm-compliance', query, org);
  const cost = useFigure<CostFigures>('costs', query, org);
  const quoted = useFigure<QuotedVsActualFigures>('quoted-vs-actual', query, org);
  const usage = useFigure<PartsUsage>('parts-usage', query, org);
  const mine = useFigure<MyWorkFigures>('my-work', query, ready);
  const assetFilter = filterId('assetId');
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

      <InsightsFilters params={params} isManager={isManager} />

      {isManager && (
        <>
          <KpiCards backlog={backlog} throughput={throughput} repair={repair} downtime={downtime} planned={planned} compliance={compliance} cost={cost} />

          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <BacklogFigure backlog={backlog} assetFilter={assetFilter} />
            <ThroughputFigure throughput={throughput} assetFilter={assetFilter} />
            <MttrFigure repair={repair} />
            <MtbfFigure repair={repair} />
            <AvailabilityFigure range={downtime.data?.range} assetId={query.assetId} locationId={query.locationId} assetCategoryId={query.assetCategoryId} />
            <DowntimeFigure downtime={downtime} />
            <PlannedFigure planned={planned} />
            <ComplianceFigure compliance={compliance} />
            <CostFigure cost={cost} />
            <QuotedFigure quoted={quoted} />
            <PartsUsageFigure usage={usage} />
          </SimpleGrid>
          <FailureFigures query={query} enabled={org} />
        </>
      )}

      <MyWorkFigure mine={mine} />
    </Stack>
  );
}
