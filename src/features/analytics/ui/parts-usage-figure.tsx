import { Group, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMoney } from '../../../web/components/money';
import { formatNumber } from '../../../web/lib/format';
import type { PartsUsage } from '../analytics-parts-usage.schema';
import { FigureCard } from './figure-card';
import { AssetOrdersLink, SimpleTable } from './insights-parts';

/** Parts used per asset (issue 41): stock consumed on its work orders less returns, valued at average cost. */
export function PartsUsageFigure({ usage }: { usage: UseQueryResult<PartsUsage> }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <FigureCard
      name="partsUsage"
      query={usage}
      isEmpty={(d) => d.assets.length === 0}
      csv={(d) => d.assets.map((r) => ({ asset: r.name, quantity: r.quantity, orders: r.orders, value: r.valueMinor }))}
    >
      {(d) => (
        <Stack gap="sm">
          <Group gap="xs">
            <Text size="sm">{t('insights.partsUsage.total')}</Text>
            <Text size="sm" fw={700} data-testid="parts-usage-total">
              {money.formatMinor(d.totalValueMinor)}
            </Text>
          </Group>
          <SimpleTable
            testId="insights-parts-usage-table"
            head={[t('insights.partsUsage.asset'), t('insights.partsUsage.quantity'), t('insights.partsUsage.orders'), t('insights.partsUsage.value')]}
            rows={d.assets.map((r) => [
              <AssetOrdersLink assetId={r.assetId} name={r.name} key="a" />,
              formatNumber(r.quantity, 3),
              String(r.orders),
              money.formatMinor(r.valueMinor),
            ])}
          />
        </Stack>
      )}
    </FigureCard>
  );
}
