import { useState } from 'react';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DataTable, ListMultiFilter, ListScreen, ListTextFilter, tablePagination, useMoney, useServerList, type Column } from '../../../web/components';
import { PURCHASE_ORDER_STATUSES, type PurchaseOrderDto } from '../purchase-orders.schema';
import { PurchaseOrderDrawer } from './purchase-order-drawer';
import { formatDay, STATUS_COLORS } from './purchase-order-strings';

/** /dashboard/purchase-orders: the list (name and status filters, 500 ms) and the purchase order drawer. */
export default function PurchaseOrdersPage() {
  const { t } = useTranslation('purchaseOrders');
  const money = useMoney();
  const list = useServerList<PurchaseOrderDto, { name: 'text'; status: 'multi' }>({
    queryKey: 'purchase-orders',
    path: '/purchase-orders/get-purchase-orders',
    listKey: 'purchaseOrders',
    filters: { name: 'text', status: 'multi' },
    errorMessage: t('failedFetchAll'),
  });
  // undefined: closed; null: a new purchase order; a number: that purchase order
  const [selected, setSelected] = useState<number | null | undefined>(undefined);

  const columns: Column<PurchaseOrderDto>[] = [
    { key: 'number', header: t('col.number'), hideable: false },
    { key: 'vendor', header: t('col.vendor'), render: (r) => r.CustomerVendor?.name ?? '' },
    {
      key: 'status',
      header: t('col.status'),
      render: (r) => (
        <Badge variant="light" color={STATUS_COLORS[r.status]}>
          {t(`status.${r.status}`)}
        </Badge>
      ),
    },
    { key: 'total', header: t('col.total'), render: (r) => money.format(r.total) },
    { key: 'createdAt', header: t('col.createdAt'), render: (r) => formatDay(r.createdAt) },
    { key: 'requester', header: t('col.requester'), render: (r) => (r.requester ? `${r.requester.firstName} ${r.requester.lastName}`.trim() : '') },
  ];

  return (
    <ListScreen
      title={t('title')}
      addLabel={t('add')}
      onAdd={() => setSelected(null)}
      onRefresh={list.refetch}
      refreshing={list.loading}
      listState={list.state}
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('statusFilter')} options={PURCHASE_ORDER_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))} />
        </>
      }
    >
      <DataTable
        tableId="purchase-orders"
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        onRowClick={(r) => setSelected(r.id)}
        pagination={tablePagination(list.state, list.pagination)}
      />
      {selected !== undefined && (
        <PurchaseOrderDrawer
          id={selected}
          onClose={() => setSelected(undefined)}
          onSelect={setSelected}
          query={list.state.apiQuery}
          onList={(data) => list.setListData(data as never)}
        />
      )}
    </ListScreen>
  );
}
