import { useState } from 'react';
import { Anchor, Badge, Group, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ListMineFilter,
  ListMultiFilter,
  ListTextFilter,
  RecordDrawer,
  formDrawerProps,
  RecordDrawerFooter,
  TreeView,
  useMoney,
  notifyError,
  ServerListScreen,
  drawerListProps,
  recordMessages,
  useVersionedListRecord,
  useServerList,
  type Column,
  type ListData,
  TableHead,
} from '../../../web/components';
import { api, ApiError, errorMessage } from '../../../web/lib/api';
import { translateMessage } from '../../../web/i18n/messages/translate-message';
import { formatDay, formatMinutes } from '../../../web/lib/format';
import { ROLLUP_DOWN_DAYS } from '../asset-rollup.schema';
import { useIsManager } from '../../../web/lib/app-data';
import { ASSET_STATUSES, type AssetDto, type AssetNode, type AssetSummary } from '../assets.schema';
import { LocationFilter } from '../../locations/ui/location-filter-select';
import { AssetFields, assetFormValues, useAssetForm } from './asset-form';
import { AssetMetersPanel } from '../../meters/ui/asset-meters-panel';
import { PrintLabelsButton, useLabelSelection } from '../../../web/components/print-labels';
import './assets-i18n';
import { AssetStateBadge } from './asset-state-badge';
import { AssetStateTimeline } from './asset-state-timeline';

/** /dashboard/assets: the organisation's assets, filtered by name and status. */
export default function AssetsPage() {
  const { t } = useTranslation('assets');
  const { t: tStates } = useTranslation('assetStates');
  const list = useServerList<AssetDto, { name: 'text'; status: 'multi'; relatedTo: 'text'; locationId: 'text' }>({
    queryKey: 'assets',
    path: '/assets/get-assets',
    listKey: 'assets',
    filters: { name: 'text', status: 'multi', relatedTo: 'text', locationId: 'text' },
    errorMessage: t('fetchFailed'),
  });
  const [selected, setSelected] = useState<AssetDto | null | undefined>(undefined);
  const [view, setView] = useState<'list' | 'tree'>('list');
  const locationId = list.state.filters.locationId;
  const tree = useQuery({
    queryKey: ['assets', 'tree', locationId || null],
    queryFn: ({ signal }) => api.get<{ assets: AssetNode[] }>('/assets/get-asset-tree', { signal, query: locationId ? { locationId } : {} }),
    enabled: view === 'tree',
  });
  // A node, a parent or a child link opens the asset's drawer with the asset as the server has it.
  const openById = async (id: number) => {
    try {
      setSelected((await api.get<{ asset: AssetDto }>(`/assets/get-asset/${id}`)).asset);
    } catch (err) {
      notifyError(err instanceof ApiError ? err.message : t('fetchFailed'));
    }
  };
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
    // The state now (decision 079): running, down, standby, planned maintenance.
    { key: 'state', header: tStates('column'), render: (r) => <AssetStateBadge state={r.state} /> },
    { key: 'owner', header: t('owner'), render: (r) => r.CustomerVendor?.name ?? '' },
    { key: 'serial', header: t('serial'), defaultHidden: true },
    { key: 'assetCode', header: t('assetCode'), defaultHidden: true },
    { key: 'assetBarcode', header: t('assetBarcode'), defaultHidden: true },
    { key: 'date', header: t('date'), render: (r) => formatDay(r.date) },
  ];
  return (
    <ServerListScreen
      list={list}
      records={{ name: 'assets', importable: true, open: setSelected, title: t('title'), addLabel: t('add') }}
      columns={columns}
      instead={
        view === 'tree' ? (
          tree.data && !tree.data.assets.length ? (
            <Text c="dimmed">{t('treeEmpty')}</Text>
          ) : (
            <TreeView
              nodes={(tree.data?.assets ?? []).map((a) => ({ id: a.id, label: a.name, parentId: a.parentId, note: a.assetId }))}
              onOpen={(id) => void openById(id)}
              testId="asset-tree"
              label={t('tree')}
            />
          )
        ) : undefined
      }
      actions={isManager ? <PrintLabelsButton assetIds={labels.ids} /> : undefined}
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('status')} values={ASSET_STATUSES} label={(s) => t(`statuses.${s}`)} />
          <LocationFilter state={list.state} label={t('location')} />
          <ListMineFilter state={list.state} />
          <SegmentedControl
            aria-label={t('view')}
            value={view}
            onChange={(v) => setView(v as 'list' | 'tree')}
            data={[
              { value: 'list', label: t('viewList') },
              { value: 'tree', label: t('viewTree') },
            ]}
            data-testid="asset-view"
          />
        </>
      }
    >
      {selected !== undefined && (
        <AssetDrawer
          key={selected?.id ?? 'new'}
          record={selected}
          onClose={() => setSelected(undefined)}
          {...drawerListProps(list)}
          onOpenAsset={(id) => void openById(id)}
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
  onOpenAsset,
}: {
  record: AssetDto | null;
  onClose(): void;
  query: Record<string, unknown>;
  onList(data: ListData): void;
  onOpenAsset(id: number): void;
}) {
  const { t } = useTranslation('assets');
  const { t: tStates } = useTranslation('assetStates');
  const isManager = useIsManager();
  const form = useAssetForm(record);
  const { current, staleEdit, save, remove } = useVersionedListRecord(record, {
    itemKey: 'asset',
    fetch: async (id) => (await api.get<{ asset: AssetDto }>(`/assets/get-asset/${id}`)).asset,
    reset: (asset) => form.reset(assetFormValues(asset)),
    form,
    query,
    onList,
    onClose,
    queryKey: 'assets',
    entityType: 'asset',
    paths: { add: '/assets/add-asset', update: (id) => `/assets/update-asset/${id}`, remove: (id) => `/assets/delete-asset/${id}` },
    messages: recordMessages(t),
    // A refused move ("cannot be moved under itself or one of its children") is also said in a toast.
    alwaysToast: true,
    errorText: (err, fallback) => {
      const cycle = err instanceof ApiError ? err.issues.find((i) => i.path === 'parentId') : undefined;
      return cycle ? translateMessage(cycle.message) : errorMessage(err, fallback);
    },
  });
  return (
    <RecordDrawer
      {...formDrawerProps(form, save, 'asset', current?.id)}
      alert={staleEdit.alert}
      onClose={onClose}
      title={current ? `${current.assetId} · ${current.name}` : t('newTitle')}
      tabs={[
        {
          value: 'overview',
          label: t('common:drawer.overview'),
          content: (
            <Stack>
              <AssetFields form={form} record={current} />
              {current && <AssetFamily asset={current} onOpen={onOpenAsset} />}
            </Stack>
          ),
        },
        // The asset's state over time and availability (decision 079).
        {
          value: 'state',
          label: tStates('tab'),
          content: current ? <AssetStateTimeline assetId={current.id} /> : null,
          hidden: !current,
        },
        // The asset's meters, readings and chart (decision 031); a new asset gets them once saved.
        { value: 'meters', label: t('meters'), content: current ? <AssetMetersPanel assetId={current.id} /> : null, hidden: !current },
      ]}
      footer={<RecordDrawerFooter onDelete={current && isManager && remove} deleteLabel={t('delete')} saving={form.formState.isSubmitting} />}
      testId="asset-drawer"
    />
  );
}

/** The drawer's parent and children (links that open them) and the roll-up of get-asset-summary (decision 072). */
function AssetFamily({ asset, onOpen }: { asset: AssetDto; onOpen(id: number): void }) {
  const { t } = useTranslation('assets');
  const money = useMoney();
  const summary = useQuery({
    queryKey: ['assets', 'summary', asset.id],
    queryFn: ({ signal }) => api.get<{ summary: AssetSummary }>(`/assets/get-asset-summary/${asset.id}`, { signal }).then((r) => r.summary),
  });
  const s = summary.data;
  return (
    <Stack gap="xs" data-testid="asset-family">
      {asset.Parent && (
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {t('parent')}:
          </Text>
          <Anchor component="button" type="button" size="sm" onClick={() => onOpen(asset.Parent!.id)} data-testid="asset-parent-link">
            {asset.Parent.assetId} · {asset.Parent.name}
          </Anchor>
        </Group>
      )}
      <Text size="sm" fw={500}>
        {t('children')}
      </Text>
      {s && !s.children.length && (
        <Text size="sm" c="dimmed">
          {t('noChildren')}
        </Text>
      )}
      <Group gap="xs">
        {s?.children.map((c) => (
          <Anchor key={c.id} component="button" type="button" size="sm" onClick={() => onOpen(c.id)} data-testid={`asset-child-${c.id}`}>
            {c.assetId} · {c.name}
          </Anchor>
        ))}
      </Group>
      {s && (
        <SimpleGrid cols={1}>
          <Table data-testid="asset-rollup" withTableBorder>
            <TableHead labels={[t('rollup'), t('rollupOwn'), t('rollupTotal')]} />
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>{t('workOrders')}</Table.Td>
                <Table.Td>{s.workOrders.own}</Table.Td>
                <Table.Td>{s.workOrders.total}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>{t('openWorkOrders')}</Table.Td>
                <Table.Td>{s.openWorkOrders.own}</Table.Td>
                <Table.Td>{s.openWorkOrders.total}</Table.Td>
              </Table.Tr>
              {s.costMinor && (
                <Table.Tr data-testid="asset-rollup-cost">
                  <Table.Td>{t('cost')}</Table.Td>
                  <Table.Td>{money.formatMinor(s.costMinor.own)}</Table.Td>
                  <Table.Td>{money.formatMinor(s.costMinor.total)}</Table.Td>
                </Table.Tr>
              )}
              <Table.Tr data-testid="asset-rollup-down">
                <Table.Td>{t('downTime', { days: ROLLUP_DOWN_DAYS })}</Table.Td>
                <Table.Td>{formatMinutes(s.downMinutes.own)}</Table.Td>
                <Table.Td>{formatMinutes(s.downMinutes.total)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </SimpleGrid>
      )}
    </Stack>
  );
}
