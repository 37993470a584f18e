import { Card, Group, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMoney } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatMinutes } from '../../../web/lib/format';
import type { WorkOrderCostView } from '../work-orders.schema';

/** The query of an order's cost: under 'work-orders', so the drawer's refresh after labour or parts renews it. */
export const costKey = (id: number) => ['work-orders', 'cost', id] as const;

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fw={700} style={{ whiteSpace: 'nowrap' }} data-testid={testId}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </div>
  );
}

/**
 * The Overview's summary of an existing order (issue 46): labour time, parts and the total cost, from get-cost
 * (a worker gets the minutes; amounts are for managers, so they show only when the server sends them).
 */
export function CostSummary({ workOrderId }: { workOrderId: number }) {
  const { t } = useTranslation('workOrders');
  const money = useMoney();
  const { data } = useQuery({
    queryKey: costKey(workOrderId),
    queryFn: ({ signal }) => api.get<{ cost: WorkOrderCostView }>(`/work-orders/get-cost/${workOrderId}`, { signal }),
  });
  const c = data?.cost;
  if (!c) return null;
  const minutes = c.laborMinutes + c.externalLaborMinutes;
  return (
    <Card withBorder radius="md" p="sm" data-testid="wo-cost-summary" aria-label={t('summary.title')} component="section">
      <SimpleGrid cols={c.totalMinor === null ? 1 : 3}>
        <Figure
          label={t('summary.labor')}
          value={formatMinutes(minutes)}
          hint={c.externalLaborMinutes ? t('summary.external', { value: formatMinutes(c.externalLaborMinutes) }) : undefined}
          testId="wo-cost-labor"
        />
        {c.partsMinor !== null && (
          <Figure label={t('summary.parts')} value={money.formatMinor(c.partsMinor + (c.externalPartsMinor ?? 0))} testId="wo-cost-parts" />
        )}
        {c.totalMinor !== null && (
          <Group>
            <Figure label={t('summary.total')} value={money.formatMinor(c.totalMinor)} testId="wo-cost-total" />
          </Group>
        )}
      </SimpleGrid>
    </Card>
  );
}
