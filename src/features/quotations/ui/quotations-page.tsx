import { useState } from 'react';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DataTable, ListMultiFilter, ListScreen, ListTextFilter, tablePagination, useMoney, useServerList, type Column } from '../../../web/components';
import { QUOTATION_STATUSES, type QuotationDto } from '../quotations.schema';
import { QuotationDrawer } from './quotation-drawer';
import { formatDay, STATUS_COLORS } from './quotation-strings';

/** /dashboard/quotations: the list (title and status filters, 500 ms) and the quotation drawer. */
export default function QuotationsPage() {
  const { t } = useTranslation('quotations');
  const money = useMoney();
  const list = useServerList<QuotationDto, { title: 'text'; status: 'multi' }>({
    queryKey: 'quotations',
    path: '/quotations/get-quotations',
    listKey: 'quotations',
    filters: { title: 'text', status: 'multi' },
    errorMessage: t('failedFetchAll'),
  });
  // undefined: closed; null: a new quotation; a number: that quotation
  const [selected, setSelected] = useState<number | null | undefined>(undefined);

  const columns: Column<QuotationDto>[] = [
    { key: 'number', header: t('col.number'), hideable: false },
    { key: 'customer', header: t('col.customer'), render: (r) => r.CustomerVendor?.name ?? '' },
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
    { key: 'expirationDate', header: t('col.expirationDate'), render: (r) => formatDay(r.expirationDate) },
    { key: 'salesperson', header: t('col.salesperson'), render: (r) => (r.salesperson ? `${r.salesperson.firstName} ${r.salesperson.lastName}`.trim() : '') },
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
          <ListTextFilter state={list.state} name="title" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('statusFilter')} options={QUOTATION_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))} />
        </>
      }
    >
      <DataTable
        tableId="quotations"
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        onRowClick={(r) => setSelected(r.id)}
        pagination={tablePagination(list.state, list.pagination)}
      />
      {selected !== undefined && (
        <QuotationDrawer
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
