import type { ReactNode } from 'react';
import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../web/lib/format';
import type { ComplianceFigures, PlannedShareFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { pct } from './insights-figure-kit';
import { Donut } from './insights-parts';

/** One donut of the planned figure: planned against reactive, titled, with its note below. */
function PlannedDonut({ title, planned, reactive, children }: { title: string; planned: number; reactive: number; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <Donut
        size={140}
        thickness={22}
        label={title}
        data={[
          { name: t('insights.planned.planned'), value: planned, color: 'teal.6' },
          { name: t('insights.planned.reactive'), value: reactive, color: 'orange.6' },
        ]}
      />
      <Text size="xs" c="dimmed">
        {children}
      </Text>
    </Stack>
  );
}

/** Planned against reactive work, in orders and in hours. */
export function PlannedFigure({ planned }: { planned: UseQueryResult<PlannedShareFigures> }) {
  const { t } = useTranslation();
  return (
    <FigureCard
      name="planned"
      query={planned}
      isEmpty={(d) => d.plannedOrders + d.reactiveOrders + d.maintenanceOrders === 0}
      csv={(d) => [
        { kind: 'planned', orders: d.plannedOrders + d.maintenanceOrders, hours: d.plannedHours },
        { kind: 'reactive', orders: d.reactiveOrders, hours: d.reactiveHours },
      ]}
    >
      {(d) => (
        <SimpleGrid cols={2}>
          <PlannedDonut title={t('insights.planned.orders')} planned={d.plannedOrders + d.maintenanceOrders} reactive={d.reactiveOrders}>
            {pct(d.plannedOrderShare.current)} · {t('insights.planned.mos')}: {formatNumber(d.maintenanceOrders)}
          </PlannedDonut>
          <PlannedDonut title={t('insights.planned.hours')} planned={d.plannedHours} reactive={d.reactiveHours}>
            {pct(d.plannedHourShare.current)}
          </PlannedDonut>
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
      name="compliance"
      query={compliance}
      isEmpty={(d) => d.due === 0}
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
