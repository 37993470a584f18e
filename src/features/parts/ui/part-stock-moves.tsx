import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useNotifiedQuery } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatDateTime, formatNumber } from '../../../web/lib/format';
import type { StockMoveDto } from '../../stock/stock.schema';
import { CountDialog, TransferDialog } from './part-stock-dialogs';
import './parts-i18n';

/** A move enters stock (only a "to"), leaves it (only a "from"), or moves between storerooms (both), decision 071. */
export function moveDirection(m: Pick<StockMoveDto, 'fromLocation' | 'toLocation'>): 'in' | 'out' | 'between' {
  if (m.fromLocation && m.toLocation) return 'between';
  return m.fromLocation ? 'out' : 'in';
}

const COLORS = { in: 'green', out: 'red', between: 'blue' } as const;

/** The part's latest stock moves from the ledger, with the Transfer and Count dialogs. */
export function PartStockMoves({ partId }: { partId: number }) {
  const { t } = useTranslation('parts');
  const [dialog, setDialog] = useState<'transfer' | 'count' | null>(null);
  const moves = useNotifiedQuery(
    {
      queryKey: ['stock', 'moves', partId],
      queryFn: ({ signal }) => api.get<{ stockMoves: StockMoveDto[] }>('/stock/get-stock-moves', { query: { partId, pageSize: 25 }, signal }),
    },
    t('movesFailed'),
  );
  const rows = moves.data?.stockMoves ?? [];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {t('moves')}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setDialog('transfer')} data-testid="open-transfer">
            {t('stockDialogs.transfer')}
          </Button>
          <Button size="xs" variant="light" onClick={() => setDialog('count')} data-testid="open-count">
            {t('stockDialogs.count')}
          </Button>
        </Group>
      </Group>
      {rows.length ? (
        <Table.ScrollContainer minWidth={480}>
          <Table striped data-testid="stock-moves" aria-label={t('moves')}>
            <Table.Tbody>
              {rows.map((m) => {
                const direction = moveDirection(m);
                return (
                  <Table.Tr key={m.id} data-testid={`stock-move-${m.id}`}>
                    <Table.Td>{formatDateTime(m.createdAt)}</Table.Td>
                    <Table.Td>
                      <Badge color={COLORS[direction]} variant="light" data-testid="move-direction">
                        {t(`stockDialogs.directions.${direction}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td c={COLORS[direction]} fw={600}>
                      {direction === 'out' ? '-' : direction === 'in' ? '+' : ''}
                      {formatNumber(m.quantity)}
                    </Table.Td>
                    <Table.Td>
                      <bdi>{[m.fromLocation?.name, m.toLocation?.name].filter(Boolean).join(' → ')}</bdi>
                    </Table.Td>
                    <Table.Td data-testid="move-reason">
                      {t(`moveReasons.${m.reason}`)}
                      {m.note ? (
                        <Text size="xs" c="dimmed">
                          <bdi>{m.note}</bdi>
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {m.workOrderId ? (
                        <Anchor component={Link} to={`/dashboard/work-orders?open=${m.workOrderId}`} size="sm" data-testid="move-work-order">
                          {t('stockDialogs.workOrder')}
                        </Anchor>
                      ) : m.purchaseOrderId ? (
                        <Anchor component={Link} to={`/dashboard/purchase-orders?open=${m.purchaseOrderId}`} size="sm" data-testid="move-purchase-order">
                          {t('stockDialogs.purchaseOrder')}
                        </Anchor>
                      ) : null}
                    </Table.Td>
                    <Table.Td c="dimmed">{m.user ? t('by', { name: `${m.user.firstName} ${m.user.lastName}`.trim() }) : ''}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" size="sm">
          {moves.isError ? t('movesFailed') : t('noMoves')}
        </Text>
      )}
      <TransferDialog partId={partId} opened={dialog === 'transfer'} onClose={() => setDialog(null)} />
      <CountDialog partId={partId} opened={dialog === 'count'} onClose={() => setDialog(null)} />
    </Stack>
  );
}
