import { LineChart } from '@mantine/charts';
import { Alert, Button, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../web/lib/api';
import { formatDateTime, formatDay, formatNumber } from '../../../web/lib/format';
import { TableHead } from '../../../web/components/table-head';
import type { MeterDto, ReadingList } from '../meters.schema';
import './meters-i18n';

export const readingsKey = (meterId: number) => ['meters', 'readings', meterId] as const;

/** The meter's readings over time (line chart) and the latest ones as a table (readable without the chart). */
export function MeterChart({ meter }: { meter: MeterDto }) {
  const { t } = useTranslation('meters');
  const query = useQuery({
    queryKey: readingsKey(meter.id),
    queryFn: ({ signal }) => api.get<ReadingList>(`/meters/list-meter-readings/${meter.id}`, { signal }),
  });
  if (query.isLoading) return <Loader size="sm" data-testid="meter-chart-loading" />;
  if (query.isError) return <MeterLoadFailed query={query} testId="meter-chart-error" />;
  const readings = query.data?.readings ?? [];
  if (readings.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="meter-chart-empty">
        {t('chartEmpty')}
      </Text>
    );
  // Time on a numeric axis: readings a day apart and a month apart are drawn a day and a month apart.
  const data = readings.map((r) => ({ at: Date.parse(r.readAt), value: r.value }));
  return (
    <Stack gap="xs" data-testid="meter-chart">
      <Text size="sm" fw={500}>
        {t('chartTitle', { name: meter.name })} ({meter.unit})
      </Text>
      {query.data?.limited && (
        <Text size="xs" c="dimmed">
          {t('chartLimited', { count: readings.length })}
        </Text>
      )}
      <LineChart
        h={220}
        data={data}
        dataKey="at"
        series={[{ name: 'value', label: `${meter.name} (${meter.unit})`, color: 'blue.6' }]}
        curveType={meter.kind === 'counter' ? 'linear' : 'monotone'}
        withDots={readings.length <= 60}
        valueFormatter={(v) => `${formatNumber(v, 4)} ${meter.unit}`}
        xAxisProps={{ type: 'number', scale: 'time', domain: ['dataMin', 'dataMax'], tickFormatter: (v: number) => formatDay(new Date(v)), minTickGap: 24 }}
        yAxisProps={{ tickFormatter: (v: number) => formatNumber(v, 2), width: 64 }}
        tooltipProps={{ labelFormatter: (v: number) => formatDateTime(new Date(v)) }}
        tickLine="none"
        gridAxis="y"
        aria-label={t('chartTitle', { name: meter.name })}
      />
      <Table.ScrollContainer minWidth={320}>
        <Table striped fz="xs" data-testid="meter-readings-table">
          <TableHead labels={[t('readAt'), t('value'), t('source'), t('recordedBy')]} />
          <Table.Tbody>
            {readings
              .slice(-10)
              .reverse()
              .map((r) => (
                <Table.Tr key={r.id} data-testid="meter-reading-row">
                  <Table.Td>{formatDateTime(r.readAt)}</Table.Td>
                  <Table.Td>
                    {formatNumber(r.value, 4)} {meter.unit}
                    {r.reset ? ' ↺' : ''}
                  </Table.Td>
                  <Table.Td>{t(`sources.${r.source}`)}</Table.Td>
                  <Table.Td>{r.recordedBy ?? ''}</Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** A failed load of the meters' screens: what failed, with Retry. */
export function MeterLoadFailed({ query, testId }: { query: { error: unknown; refetch(): unknown }; testId: string }) {
  const { t } = useTranslation('meters');
  return (
    <Alert color="red" data-testid={testId}>
      <Stack gap="xs" align="flex-start">
        {errorMessage(query.error, t('loadFailed'))}
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
