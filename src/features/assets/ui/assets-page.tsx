import { useState } from 'react';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  ListMineFilter,
  ListMultiFilter,
  ListTextFilter,
  RecordDrawer,
  RecordDrawerFooter,
  ServerListScreen,
  recordMessages,
  useListRecordActions,
  useStaleEdit,
  useServerList,
  type Column,
  type ListData,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { formatDay } from '../../../web/lib/format';
import { useIsManager } from '../../../web/lib/app-data';
import { ASSET_STATUSES, type AssetDto } from '../assets.schema';
import { AssetFields, assetFormValues, useAssetForm } from './asset-form';
import { AssetMetersPanel } from '../../meters/ui/asset-meters-panel';
import { PrintLabelsButton, useLabelSelection } from '../../request-portal/ui/print-labels';
import './assets-i18n';

/** /dashboard/assets: the organisation's assets, filtered by name and status. */
export default function AssetsPage() {
  const { t } = useTranslation('assets');
  const list = useServerList<AssetDto, { name: 'text'; status: 'multi'; relatedTo: 'text' }>({
    queryKey: 'assets',
    path: '/assets/get-assets',
    listKey: 'assets',
    filters: { name: 'text', status: 'multi', relatedTo: 'text' },
    errorMessage: t('fetchFailed'),
  });
  const [selected, setSelected] = useState<AssetDto | null | undefined>(undefined);
  const isManager = useIsManager();
  // Managers choose assets for their QR labels (decision 039).
  const labels = useLabelSelection(list.rows, 'asset');
  const columns: Column<AssetDto>[] = [
    ...(isManager ? [labels.column] : []),
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
    { key: 'date', header: t('date'), render: (r) => formatDay(r.date) },
  ];
  return (
    <ServerListScreen
      list={list}
      tableId="assets"
      exportList="assets"
      importKind="assets"
      columns={columns}
      onRowClick={setSelected}
      title={t('title')}
      addLabel={t('add')}
      onAdd={() => setSelected(null)}
      actions={isManager ? <PrintLabelsButton assetIds={labels.ids} /> : undefined}
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter
            state={list.state}
            name="status"
            placeholder={t('status')}
            options={ASSET_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
          />
          <ListMineFilter state={list.state} />
        </>
      }
    >
      {selected !== undefined && (
        <AssetDrawer
          key={selected?.id ?? 'new'}
          record={selected}
          onClose={() => setSelected(undefined)}
          query={list.state.apiQuery}
          onList={list.setListData}
        />
      )}
    </ServerListScreen>
  );
}

function AssetDrawer({
  record,
  onClose,
  query,
  onList,
}: {
  record: AssetDto | null;
  onClose(): void;
  query: Record<string, unknown>;
  onList(data: ListData): void;
}) {
  const { t } = useTranslation('assets');
  const isManager = useIsManager();
  const [current, setCurrent] = useState(record);
  const form = useAssetForm(record);
  // Saved from an older version (decision 025): Reload fetches the asset again and resets the form to it.
  const staleEdit = useStaleEdit(async () => {
    if (!current) return;
    const { asset } = await api.get<{ asset: AssetDto }>(`/assets/get-asset/${current.id}`);
    setCurrent(asset);
    form.reset(assetFormValues(asset));
  });
  const { save, remove } = useListRecordActions({
    form,
    record: current,
    query,
    onList,
    onClose,
    queryKey: 'assets',
    entityType: 'asset',
    paths: { add: '/assets/add-asset', update: (id) => `/assets/update-asset/${id}`, remove: (id) => `/assets/delete-asset/${id}` },
    messages: recordMessages(t),
    body: (values) => ({ ...values, version: current?.version }),
    onStale: staleEdit.onStale,
    onUpdated: (res: { asset: AssetDto }) => {
      setCurrent(res.asset);
      form.reset(assetFormValues(res.asset));
    },
  });
  return (
    <RecordDrawer
      dirty={form.formState.isDirty}
      opened
      alert={staleEdit.alert}
      onClose={onClose}
      title={current ? `${current.assetId} · ${current.name}` : t('newTitle')}
      errors={form.formState.errors}
      onSubmit={save}
      activity={{ entityType: 'asset', entityId: current?.id }}
      tabs={[
        { value: 'overview', label: t('common:drawer.overview'), content: <AssetFields form={form} record={current} /> },
        // The asset's meters, readings and chart (decision 031); a new asset gets them once saved.
        { value: 'meters', label: t('meters'), content: current ? <AssetMetersPanel assetId={current.id} /> : null, hidden: !current },
      ]}
      footer={<RecordDrawerFooter onDelete={current && isManager && remove} deleteLabel={t('delete')} saving={form.formState.isSubmitting} />}
      testId="asset-drawer"
    />
  );
}
