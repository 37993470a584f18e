import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  ListMultiFilter,
  ListScreen,
  ListTextFilter,
  RecordDrawer,
  activityQueryKey,
  confirmDelete,
  notifyError,
  notifySuccess,
  tablePagination,
  useServerList,
  type Column,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { ASSET_STATUSES, type AssetDto } from '../assets.schema';
import { AssetFields, assetFormValues, useAssetForm } from './asset-form';
import './assets-i18n';

type ListSetter = ReturnType<typeof useServerList>['setListData'];
type ListData = Parameters<ListSetter>[0];

/** /dashboard/assets: the organisation's assets, filtered by name and status. */
export default function AssetsPage() {
  const { t } = useTranslation('assets');
  const list = useServerList<AssetDto, { name: 'text'; status: 'multi' }>({
    queryKey: 'assets',
    path: '/assets/get-assets',
    listKey: 'assets',
    filters: { name: 'text', status: 'multi' },
    errorMessage: t('fetchFailed'),
  });
  const [selected, setSelected] = useState<AssetDto | null | undefined>(undefined);
  const columns: Column<AssetDto>[] = [
    { key: 'assetId', header: t('assetId'), hideable: false },
    { key: 'name', header: t('name') },
    { key: 'category', header: t('category'), render: (r) => r.AssetCategory?.name ?? '' },
    {
      key: 'status',
      header: t('status'),
      render: (r) => (
        <Badge color={r.status === 'Operational' ? 'green' : 'red'} variant="light" tt="none">
          {t(`statuses.${r.status}`)}
        </Badge>
      ),
    },
    { key: 'owner', header: t('owner'), render: (r) => r.CustomerVendor?.name ?? '' },
    { key: 'serial', header: t('serial'), defaultHidden: true },
    { key: 'assetCode', header: t('assetCode'), defaultHidden: true },
    { key: 'assetBarcode', header: t('assetBarcode'), defaultHidden: true },
    { key: 'date', header: t('date'), render: (r) => r.date },
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
          <ListMultiFilter state={list.state} name="status" placeholder={t('status')} options={ASSET_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))} />
        </>
      }
    >
      <DataTable
        tableId="assets"
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        onRowClick={setSelected}
        pagination={tablePagination(list.state, list.pagination)}
      />
      {selected !== undefined && (
        <AssetDrawer key={selected?.id ?? 'new'} record={selected} onClose={() => setSelected(undefined)} query={list.state.apiQuery} onList={list.setListData} />
      )}
    </ListScreen>
  );
}

function AssetDrawer({ record, onClose, query, onList }: { record: AssetDto | null; onClose(): void; query: Record<string, unknown>; onList: ListSetter }) {
  const { t } = useTranslation('assets');
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const [current, setCurrent] = useState(record);
  const form = useAssetForm(record);
  const save = form.handleSubmit(async (values) => {
    try {
      if (current) {
        const res = await api.put<{ asset: AssetDto }>(`/assets/update-asset/${current.id}`, values);
        setCurrent(res.asset);
        form.reset(assetFormValues(res.asset));
        notifySuccess(t('updated'));
        void queryClient.invalidateQueries({ queryKey: ['assets'] });
        void queryClient.invalidateQueries({ queryKey: activityQueryKey('asset', current.id) });
      } else {
        onList(await api.post<ListData>('/assets/add-asset', values, { query: query as never }));
        notifySuccess(t('added'));
        onClose();
      }
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, current ? t('updateFailed') : t('addFailed')));
    }
  });
  const remove = async () => {
    if (!current || !(await confirmDelete(t('confirmDelete')))) return;
    try {
      onList(await api.del<ListData>(`/assets/delete-asset/${current.id}`, { query: query as never }));
      notifySuccess(t('deleted'));
      onClose();
    } catch (err) {
      notifyError(errorMessage(err, t('deleteFailed')));
    }
  };
  return (
    <RecordDrawer
      opened
      onClose={onClose}
      title={current ? `${current.assetId} · ${current.name}` : t('newTitle')}
      errors={form.formState.errors}
      onSubmit={save}
      activity={{ entityType: 'asset', entityId: current?.id }}
      tabs={[{ value: 'overview', label: t('common:drawer.overview'), content: <AssetFields form={form} record={current} /> }]}
      footer={
        <>
          {current && isManager && (
            <Button color="red" variant="light" onClick={remove} data-testid="delete-record">
              {t('delete')}
            </Button>
          )}
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="save-record">
            {t('common:actions.save')}
          </Button>
        </>
      }
      testId="asset-drawer"
    />
  );
}
