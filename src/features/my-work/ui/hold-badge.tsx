import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkOrderDto } from '../../work-orders/work-orders.schema';
import './labels-tech';

/** "On hold: Waiting for parts" on the technician's card and order screen (decision 080); the note as its title. */
export function HoldBadge({ order, testId = 'wo-on-hold' }: { order: Pick<WorkOrderDto, 'onHold' | 'holdReason' | 'holdNote'>; testId?: string }) {
  const { t } = useTranslation('techApp');
  if (!order.onHold) return null;
  return (
    <Badge color="orange" variant="light" title={order.holdNote ?? undefined} data-testid={testId} style={{ textTransform: 'none', flexShrink: 0 }}>
      {t('onHold', { reason: t(`holdReason.${order.holdReason ?? 'other'}`) })}
    </Badge>
  );
}
