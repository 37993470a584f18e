import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNotifiedQuery, TableHead } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatNumber } from '../../../web/lib/format';
import type { StockLevelDto } from '../../stock/stock.schema';
import './parts-i18n';

/** A part's stock per storeroom (decision 071): quantity, reorder point, reorder quantity and bin. */
export function PartStockLevels({ partId }: { partId: number }) {
  const { t } = useTranslation('parts');
  const levels = useNotifiedQuery(
    {
      queryKey: ['stock', 'levels', partId],
      queryFn: ({ signal }) => api.get<{ stockLevels: StockLevelDto[] }>('/stock/get-stock-levels', { query: { partId, pageSize: 100 }, signal }),
    },
    t('stockLevels.levelsFailed'),
  );
  const rows = levels.data?.stockLevels ?? [];
  if (levels.data && !rows.length) return <Text c="dimmed">{t('stockLevels.noLevels')}</Text>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table data-testid="part-stock-levels" aria-label={t('stockLevels.levels')}>
        <TableHead
          labels={[
            t('stockLevels.location'),
            t('stockLevels.quantity'),
            t('stockLevels.reserved'),
            t('stockLevels.available'),
            t('stockLevels.reorderPoint'),
            t('stockLevels.reorderQuantity'),
            t('stockLevels.bin'),
          ]}
        />
        <Table.Tbody>
          {rows.map((l) => (
            <Table.Tr key={l.locationId} data-testid={`stock-level-${l.locationId}`}>
              <Table.Td>{l.location.name}</Table.Td>
              <Table.Td>{formatNumber(l.quantity)}</Table.Td>
              <Table.Td>{formatNumber(l.reserved ?? 0)}</Table.Td>
              <Table.Td data-testid="stock-level-available">{formatNumber(l.available ?? l.quantity)}</Table.Td>
              <Table.Td>{formatNumber(l.reorderPoint)}</Table.Td>
              <Table.Td>{formatNumber(l.reorderQuantity)}</Table.Td>
              <Table.Td>{l.bin ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
