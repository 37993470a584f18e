import type { ReactNode } from 'react';
import { Anchor, Group, Paper, Table, Text } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../../web/lib/format';
import { ChartImage } from '../../../web/components/chart-image';
import { TableHead } from '../../../web/components/table-head';
import type { Kpi } from '../analytics.schema';
import { ordersLink } from './insights-figure-kit';

/** A donut with its tooltip, named for assistive technology by its figures. */
export function Donut({
  label,
  ...props
}: {
  label: string;
  size: number;
  thickness: number;
  chartLabel?: string;
  data: { name: string; value: number; color: string }[];
}) {
  return (
    <ChartImage label={label} parts={props.data}>
      <DonutChart withTooltip pieProps={{ rootTabIndex: -1 }} {...props} />
    </ChartImage>
  );
}
/** A KPI card: the figure and its change against the period before (green when the change is good). */
export function KpiCard({
  label,
  kpi,
  format,
  upIsGood,
  testId,
}: {
  label: string;
  kpi: Kpi | undefined;
  format: (v: number | null) => string;
  upIsGood: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const cur = kpi?.current ?? null;
  const prev = kpi?.previous ?? null;
  const diff = cur !== null && prev !== null ? cur - prev : null;
  const change = diff !== null && prev ? diff / Math.abs(prev) : null;
  const good = diff === null || diff === 0 ? null : diff > 0 === upIsGood;
  return (
    <Paper withBorder p="md" radius="md" className="insights-card">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={800} fz={26} data-testid={testId}>
        {kpi ? format(cur) : '–'}
      </Text>
      <Group gap={4} wrap="nowrap">
        {diff !== null &&
          diff !== 0 &&
          (diff > 0 ? (
            <IconArrowUpRight size={16} color={good ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)'} />
          ) : (
            <IconArrowDownRight size={16} color={good ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)'} />
          ))}
        <Text size="xs" c={good === null ? 'dimmed' : good ? 'teal' : 'red'}>
          {prev === null
            ? t('insights.noPrevious')
            : `${change !== null ? `${change > 0 ? '+' : ''}${formatNumber(change * 100, 1)}%` : format(prev)} ${t('insights.vsPrevious')}`}
        </Text>
      </Group>
    </Paper>
  );
}
export function SimpleTable({ head, rows, testId }: { head: ReactNode[]; rows: ReactNode[][]; testId?: string }) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped highlightOnHover fz="sm" data-testid={testId}>
        <TableHead labels={head} />
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              {r.map((c, j) => (
                <Table.Td key={j}>{c}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Above a quoted-vs-actual table whose rows the API capped: "Showing the N largest differences of M …"; nothing when all are shown. */
export function CappedNote({ shown, count, of, testId }: { shown: number; count: number; of: 'cappedQuotations' | 'cappedOrders'; testId: string }) {
  const { t } = useTranslation();
  if (count <= shown) return null;
  return (
    <Text size="xs" c="dimmed" data-testid={testId}>
      {t(`insights.quoted.${of}`, { shown: formatNumber(shown), count: formatNumber(count) })}
    </Text>
  );
}

/** An asset's name in a figure's table, linking to the asset's work orders. */
export function AssetOrdersLink({ assetId, name }: { assetId: number; name: ReactNode }) {
  return (
    <Anchor component={Link} to={ordersLink({ assetId })} size="sm">
      {name}
    </Anchor>
  );
}

/** One headline figure above a chart or table: "Label: **value**". */
export function FigureTotal({ label, value, testId, c }: { label: string; value: ReactNode; testId?: string; c?: string }) {
  return (
    <Text size="sm" c={c}>
      {label}: <b data-testid={testId}>{value}</b>
    </Text>
  );
}
