import { Anchor, Group, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { recordLink } from '../../../web/app/record-links';
import { formatNumber } from '../../../web/lib/format';
import { useMoney } from '../../../web/components/money';
import type { QuotedVsActualFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { CappedNote, FigureTotal, SimpleTable } from './insights-parts';

/** Quoted against actual cost, per quotation and per work order (the API caps both lists). */
export function QuotedFigure({ quoted }: { quoted: UseQueryResult<QuotedVsActualFigures> }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <FigureCard
      name="quoted"
      query={quoted}
      isEmpty={(d) => d.workOrders.length === 0}
      csv={(d) => [
        // The rows shown: the quotations and orders with the largest differences (the API caps both lists).
        ...d.quotations.map((q) => ({
          group: 'quotation',
          number: q.number,
          title: q.customer ?? '',
          quotation: q.number,
          workOrders: q.workOrders,
          quoted: q.quoted,
          quotedUntaxed: q.quotedUntaxed,
          labor: q.labor,
          parts: q.parts,
          actual: q.actual,
          difference: q.difference,
          currency: d.currency,
        })),
        ...d.workOrders.map((w) => ({
          group: 'work order',
          number: w.number,
          title: w.title,
          quotation: w.quotationNumber,
          workOrders: 1,
          quoted: w.quoted,
          quotedUntaxed: w.quotedUntaxed,
          labor: w.labor,
          parts: w.parts,
          actual: w.actual,
          difference: w.difference,
          currency: d.currency,
        })),
      ]}
    >
      {(d) => (
        <Stack gap="sm">
          <Group gap="xl">
            <FigureTotal label={t('insights.quoted.quotedUntaxed')} value={money.formatMinor(d.total.quotedUntaxed)} />
            <FigureTotal label={t('insights.quoted.actual')} value={money.formatMinor(d.total.actual)} testId="quoted-actual-total" />
            <FigureTotal label={t('insights.quoted.difference')} value={money.formatMinor(d.total.difference)} c={d.total.difference > 0 ? 'red' : 'teal'} />
          </Group>
          <CappedNote shown={d.quotations.length} count={d.quotationCount} of="cappedQuotations" testId="insights-quoted-capped" />
          <SimpleTable
            testId="insights-quoted-table"
            head={['quotation', 'orders', 'quoted', 'quotedUntaxed', 'actual', 'difference'].map((k) => t(`insights.quoted.${k}`))}
            rows={d.quotations.map((q) => [
              <Anchor component={Link} to={recordLink('quotation', q.quotationId) ?? '/dashboard/quotations'} size="sm" key="q">
                {q.customer ? `${q.number} · ${q.customer}` : q.number}
              </Anchor>,
              formatNumber(q.workOrders),
              money.formatMinor(q.quoted),
              money.formatMinor(q.quotedUntaxed),
              money.formatMinor(q.actual),
              money.formatMinor(q.difference),
            ])}
          />
          <CappedNote shown={d.workOrders.length} count={d.workOrderCount} of="cappedOrders" testId="insights-quoted-orders-capped" />
          <SimpleTable
            testId="insights-quoted-orders-table"
            head={['quoted.workOrder', 'quoted.quotation', 'cost.labor', 'cost.parts', 'quoted.actual', 'quoted.difference'].map((k) => t(`insights.${k}`))}
            rows={d.workOrders.map((w) => [
              <Anchor component={Link} to={recordLink('work-order', w.workOrderId) ?? '/dashboard/work-orders'} size="sm" key="w">
                {w.number} {w.title}
              </Anchor>,
              w.quotationNumber,
              money.formatMinor(w.labor),
              money.formatMinor(w.parts),
              money.formatMinor(w.actual),
              money.formatMinor(w.difference),
            ])}
          />
        </Stack>
      )}
    </FigureCard>
  );
}
