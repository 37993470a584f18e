import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PartsReadiness } from '../../stock/stock.schema';

/** "Ready" / "Short: 2 x Seal kit at Main store" (decision 081); nothing when the order reserves nothing. */
export function PartsReadinessBadge({ readiness }: { readiness: PartsReadiness | undefined }) {
  const { t } = useTranslation('workOrders');
  if (!readiness || readiness.status === 'none') return null;
  if (readiness.status === 'ready')
    return (
      <Badge color="teal" variant="light" data-testid="parts-readiness">
        {t('parts.ready')}
      </Badge>
    );
  const items = readiness.shortages.map((s) => t('parts.shortItem', { quantity: s.quantity, part: s.part.name, location: s.location.name })).join(', ');
  return (
    <Badge color="red" variant="light" data-testid="parts-readiness" style={{ textTransform: 'none' }}>
      {t('parts.short', { items })}
    </Badge>
  );
}
