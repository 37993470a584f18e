import { useState } from 'react';
import { Badge, Card, Chip, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ListMultiFilter,
  ListTextFilter,
  RecordDrawer,
  formDrawerProps,
  RecordDrawerFooter,
  ServerListScreen,
  drawerListProps,
  recordMessages,
  useVersionedListRecord,
  useMoney,
  useServerList,
  type Column,
  recordPaths,
  type RowDrawerProps,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatNumber } from '../../../web/lib/format';
import { useIsManager } from '../../../web/lib/app-data';
import { PART_TYPES, type PartDto, type PartList } from '../parts.schema';
import { PartFields, partBody, partFormValues, usePartForm } from './part-form';
import { PartImage, PartStock } from './part-stock';
import './parts-i18n';

const qty = (n: number) => formatNumber(n);

/** /dashboard/parts-inventory: parts with their stock; the side panel lists the parts under their minimum. */
export default function PartsPage() {
  const { t } = useTranslation('parts');
  const money = useMoney();
  const list = useServerList<PartDto, { name: 'text'; type: 'multi'; lowStock: 'text' }>({
    queryKey: 'parts',
    path: '/parts/get-parts',
    listKey: 'parts',
    filters: { name: 'text', type: 'multi', lowStock: 'text' },
    errorMessage: t('fetchFailed'),
  });
  const low = useQuery({
    queryKey: ['parts', 'low-stock'],
    queryFn: ({ signal }) => api.get<PartList>('/parts/get-low-stock-parts', { query: { pageSize: 10 }, signal }),
  });
  const [selected, setSelected] = useState<PartDto | null | undefined>(undefined);
  const columns: Column<PartDto>[] = [
    { key: 'name', header: t('name'), hideable: false },
    { key: 'skuCode', header: t('skuCode') },
    { key: 'type', header: t('type'), render: (r) => t(`types.${r.type}`) },
    { key: 'category', header: t('category'), render: (r) => r.category?.name ?? '' },
    { key: 'salesPrice', header: t('salesPrice'), align: 'right', render: (r) => money.format(r.salesPrice) },
    {
      key: 'quantityOnHand',
      header: t('quantityOnHand'),
      align: 'right',
      render: (r) =>
        r.type === 'stockable' ? (
          <Group gap={6} justify="flex-end" wrap="nowrap">
            <span>{qty(r.quantityOnHand)}</span>
            {r.isLowStock && (
              <Badge color="red" size="xs">
                {t('lowStock')}
              </Badge>
            )}
          </Group>
        ) : (
          '—'
        ),
    },
    {
      key: 'minimumQuantity',
      header: t('minimumQuantity'),
      align: 'right',
      render: (r) => (r.type === 'stockable' ? qty(r.minimumQuantity) : '—'),
      defaultHidden: true,
    },
    { key: 'unitOfMeasure', header: t('unitOfMeasure'), render: (r) => r.unitOfMeasure?.name ?? '', defaultHidden: true },
  ];
  const lowOnly = list.state.filters.lowStock === 'true';
  return (
    <ServerListScreen
      list={list}
      records={{ name: 'parts', importable: true, open: setSelected, title: t('title'), addLabel: t('add') }}
      columns={columns}
      onRefresh={() => {
        void list.refetch();
        void low.refetch();
      }}
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="type" placeholder={t('type')} values={PART_TYPES} label={(p) => t(`types.${p}`)} />
          <Chip checked={lowOnly} onChange={(on) => list.state.setFilter('lowStock', on ? 'true' : '')} color="red" data-testid="filter-low-stock">
            {t('lowStockOnly')}
          </Chip>
        </>
      }
      side={
        <Card withBorder data-testid="low-stock-panel">
          <Text fw={600} mb="xs">
            {t('lowStockTitle')} {low.data ? `(${low.data.pagination.totalRecords})` : ''}
          </Text>
          {low.data?.parts.length ? (
            <Stack gap={6}>
              {low.data.parts.map((p) => (
                <UnstyledButton key={p.id} onClick={() => setSelected(p)} data-testid={`low-stock-${p.id}`}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm" lineClamp={1}>
                      <bdi>{p.name}</bdi>
                    </Text>
                    <Text size="sm" c="red" fw={600}>
                      {qty(p.quantityOnHand)} / {qty(p.minimumQuantity)}
                    </Text>
                  </Group>
                </UnstyledButton>
              ))}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('noLowStock')}
            </Text>
          )}
        </Card>
      }
    >
      {selected !== undefined && <PartDrawer key={selected?.id ?? 'new'} record={selected} onClose={() => setSelected(undefined)} {...drawerListProps(list)} />}
    </ServerListScreen>
  );
}

function PartDrawer({ record, onClose, query, onList }: RowDrawerProps<PartDto>) {
  const { t } = useTranslation('parts');
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const form = usePartForm(record);
  const refreshLists = () => void queryClient.invalidateQueries({ queryKey: ['parts'] });
  const { current, setCurrent, staleEdit, save, remove } = useVersionedListRecord(record, {
    itemKey: 'part',
    fetch: async (id) => (await api.get<{ part: PartDto }>(`/parts/get-part/${id}`)).part,
    reset: (part) => form.reset(partFormValues(part)),
    form,
    query,
    onList,
    onClose,
    queryKey: 'parts',
    entityType: 'part',
    paths: recordPaths('parts', 'part'),
    messages: recordMessages(t),
    body: partBody,
    onListChanged: () => void queryClient.invalidateQueries({ queryKey: ['parts', 'low-stock'] }),
  });
  const changed = (part: PartDto) => {
    setCurrent(part);
    refreshLists();
  };
  return (
    <RecordDrawer
      {...formDrawerProps(form, save, 'part', current?.id)}
      alert={staleEdit.alert}
      onClose={onClose}
      title={current ? current.name : t('newTitle')}
      tabs={[
        {
          value: 'overview',
          label: t('common:drawer.overview'),
          content: (
            <Stack>
              <PartFields form={form} record={current} />
              {current && <PartImage part={current} onChanged={changed} />}
            </Stack>
          ),
        },
        { value: 'stock', label: t('stock'), hidden: !current, content: current ? <PartStock part={current} onChanged={changed} /> : null },
      ]}
      footer={<RecordDrawerFooter onDelete={current && isManager && remove} deleteLabel={t('delete')} saving={form.formState.isSubmitting} />}
      testId="part-drawer"
    />
  );
}
