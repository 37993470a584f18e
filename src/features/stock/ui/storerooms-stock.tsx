import { Button, Paper, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess, useBusyAction, useMoney, useNotifiedQuery, TableHead } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { openPdf } from '../../../web/lib/open-pdf';
import type { ReorderResult, Valuation } from '../stock.schema';
import './stock-i18n';

/** Managers: "Draft reorders" runs the reorder now (POST /api/stock/draft-reorders, decision 081) and says what it drafted. */
export function DraftReordersButton() {
  const { t } = useTranslation('stock');
  const queryClient = useQueryClient();
  const { busy, run: withBusy } = useBusyAction();
  const run = () =>
    withBusy(async () => {
      const res = await api.post<ReorderResult>('/stock/draft-reorders');
      const numbers = res.purchaseOrders.map((p) => p.number).join(', ');
      notifySuccess(res.drafted ? t('reorder.drafted', { count: res.purchaseOrders.length, numbers }) : t('reorder.nothing'));
      if (res.withoutVendor.length) notifyError(t('reorder.withoutVendor', { parts: res.withoutVendor.map((p) => p.name).join(', ') }));
      void queryClient.invalidateQueries({ queryKey: ['stock'] });
      void queryClient.invalidateQueries({ queryKey: ['purchase-orders'] });
    }, t('reorder.failed'));
  return (
    <Button variant="light" onClick={() => void run()} loading={busy} data-testid="draft-reorders">
      {t('reorder.button')}
    </Button>
  );
}

/** Managers: the stock's value per storeroom (quantity × average cost) and in all. */
export function StockValuation() {
  const { t } = useTranslation('stock');
  const money = useMoney();
  const valuation = useNotifiedQuery(
    { queryKey: ['stock', 'valuation'], queryFn: ({ signal }) => api.get<Valuation>('/stock/get-stock-valuation', { signal }) },
    t('valuation.failed'),
  );
  const v = valuation.data;
  if (!v) return null;
  return (
    <Paper withBorder p="sm">
      <Text fw={600} mb="xs">
        {t('valuation.title')}
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table data-testid="stock-valuation">
          <TableHead labels={[t('name'), t('valuation.parts'), t('valuation.unvalued'), t('valuation.value')]} />
          <Table.Tbody>
            {v.locations.map((l) => (
              <Table.Tr key={l.location.id} data-testid={`valuation-${l.location.id}`}>
                <Table.Td>{l.location.name}</Table.Td>
                <Table.Td>{l.parts}</Table.Td>
                <Table.Td>{l.unvaluedParts}</Table.Td>
                <Table.Td>{money.formatMinor(l.valueMinor)}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td fw={700}>{t('valuation.total')}</Table.Td>
              <Table.Td />
              <Table.Td />
              <Table.Td fw={700} data-testid="valuation-total">
                {money.formatMinor(v.totalMinor)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** The storeroom's printable count sheet (GET /api/stock/get-count-sheet/{id}). */
export function CountSheetButton({ locationId }: { locationId: number }) {
  const { t } = useTranslation('stock');
  return (
    <Button
      variant="default"
      onClick={() => void openPdf(`/stock/get-count-sheet/${locationId}`).catch(() => notifyError(t('countSheetFailed')))}
      data-testid="print-count-sheet"
    >
      {t('countSheet')}
    </Button>
  );
}
