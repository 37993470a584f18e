import { Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { registerTranslations } from '../../../web/i18n';
import { displayTimeZone, formatMinutes } from '../../../web/lib/format';
import { TableHead } from '../../../web/components/table-head';
import { addDays, zonedInstant } from '../../../shared/dates';
import type { Availability } from '../../asset-states/asset-states.schema';

registerTranslations('availability', {
  en: {
    title: 'Availability',
    help: 'Time the assets were not down over the time in the period, from their state intervals (running, down, standby, planned maintenance).',
    assets: '{{count}} assets',
    down: 'Down',
    asset: 'Asset',
    value: 'Availability',
    none: 'No asset was down in this period.',
  },
  ar: {
    title: 'الجاهزية',
    help: 'الوقت الذي لم تكن فيه الأصول متوقفة مقسوماً على وقت الفترة، من فترات حالتها (يعمل، متوقف، احتياطي، صيانة مخططة).',
    assets: '{{count}} أصول',
    down: 'مدة التوقف',
    asset: 'الأصل',
    value: 'الجاهزية',
    none: 'لم يتوقف أي أصل في هذه الفترة.',
  },
});

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(2)}%`);

/**
 * The instants a range of days covers on the organisation's clock (decision 079 addendum): from the first day's
 * midnight to the midnight after the last day, in `zone` (the browser's when the organisation's is not known).
 */
export function availabilityPeriod(range: { from: string; to: string }, zone = displayTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone) {
  return { from: zonedInstant(range.from, zone).toISOString(), to: zonedInstant(addDays(range.to, 1), zone).toISOString() };
}

/**
 * The insights screen's availability (decision 079): availability of the assets in scope (the asset filter, else the
 * location and everything under it, else the category) over the range's days on the organisation's clock, and the
 * assets down the longest. Read from get-asset-availability.
 */
export function AvailabilityFigure({
  range,
  assetId,
  locationId,
  assetCategoryId,
}: {
  range?: { from: string; to: string };
  assetId?: string;
  locationId?: string;
  assetCategoryId?: string;
}) {
  const { t } = useTranslation('availability');
  const query = range
    ? {
        ...availabilityPeriod(range),
        ...(assetId ? { assetId } : {}),
        // one scope: the asset, else the location and everything under it, else the category
        ...(assetId ? {} : locationId ? { locationId } : assetCategoryId ? { assetCategoryId } : {}),
      }
    : undefined;
  const figure = useQuery({
    queryKey: ['analytics', 'availability', query],
    queryFn: ({ signal }) => api.get<{ availability: Availability }>('/assets/get-asset-availability', { signal, query }).then((r) => r.availability),
    enabled: Boolean(query),
  });
  const a = figure.data;
  return (
    <Card withBorder data-testid="insights-availability">
      <Stack gap="xs">
        <Title order={4}>{t('title')}</Title>
        <Text size="sm" c="dimmed">
          {t('help')}
        </Text>
        {a && (
          <>
            <Group gap="lg">
              <Text size="xl" fw={700} data-testid="insights-availability-value">
                {pct(a.availability)}
              </Text>
              <Text size="sm">{t('assets', { count: a.assets })}</Text>
              <Text size="sm">
                {t('down')}: {formatMinutes(a.downMinutes)}
              </Text>
            </Group>
            {a.byAsset.length ? (
              <Table withTableBorder>
                <TableHead labels={[t('asset'), t('down'), t('value')]} />
                <Table.Tbody>
                  {a.byAsset.slice(0, 10).map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{r.name}</Table.Td>
                      <Table.Td>{formatMinutes(r.downMinutes)}</Table.Td>
                      <Table.Td>{pct(r.availability)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Text size="sm" c="dimmed">
                {t('none')}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
