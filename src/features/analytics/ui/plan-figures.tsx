import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../web/lib/format';
import type { ComplianceFigures, PlannedShareFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { pct } from './insights-figure-kit';
import { Donut } from './insights-parts';

/** Planned against reactive work, in orders and in hours. */
export function PlannedFigure({ planned }: { planned: UseQueryResult<PlannedShareFigures> }) {
  const { t } = useTranslation();
  return (
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
  );
}

/** Preventive maintenance done on time, late or missed. */
export function ComplianceFigure({ compliance }: { compliance: UseQueryResult<ComplianceFigures> }) {
  const { t } = useTranslation();
  return (
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
            {d.source === 'plans' ? t('insights.compliance.plans') : t('insights.compliance.orders')} · {t('insights.compliance.due')}: {formatNumber(d.due)}
          </Text>
        </Stack>
      )}
    </FigureCard>
  );
}
