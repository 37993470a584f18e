import { lazy, Suspense } from 'react';
import { Badge, Chip, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  badgeColumn,
  drawerListProps,
  openById,
  useOpenRecord,
  ListMultiFilter,
  ListTextFilter,
  ServerListScreen,
  StatCard,
  useServerList,
  type Column,
  optionOf,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { LocationFilter } from '../../locations/ui/location-filter-select';
import { AssetFilter } from '../../assets/ui/asset-filter-select';
import { useIsManager } from '../../../web/lib/app-data';
import type { WorkOrderDto, WorkOrderStatistics } from '../work-orders.schema';
import { WORK_ORDER_STATUSES } from '../work-order-values';
import { PRIORITY_COLORS, STATUS_COLORS, formatDateTime } from './labels';
import { displayTimeZone } from '../../../web/lib/format';

// The drawer (form, dates, rich text, parts and labour) loads when a row or Add opens it: the list stays small.
const WorkOrderDrawer = lazy(() => import('./work-order-drawer').then((m) => ({ default: m.WorkOrderDrawer })));

/** The three cards, computed by the server for the organisation (or a worker's own orders). */
function WorkOrderStatisticsPanel() {
  const { t } = useTranslation('workOrders');
  const { data } = useQuery({
    queryKey: ['work-orders', 'statistics'],
    queryFn: ({ signal }) => api.get<{ statistics: WorkOrderStatistics }>('/work-orders/get-statistics', { signal }),
  });
  const s = data?.statistics;
  return (
    <Stack gap="sm" data-testid="work-order-statistics">
      <StatCard label={t('stats.totalPending')} value={s?.totalPending} testId="stat-total-pending" color="blue" />
      <StatCard label={t('stats.dueNext7Days')} value={s?.dueNext7Days} testId="stat-due-next-7-days" color="yellow" />
      <StatCard label={t('stats.highPriorityPending')} value={s?.highPriorityPending} testId="stat-high-priority-pending" color="red" />
    </Stack>
  );
}

const LIST_FILTERS = {
  title: 'text',
  status: 'multi',
  assetId: 'text',
  due: 'text',
  assigned: 'text',
  pm: 'text',
  locationId: 'text',
  onHold: 'text',
} as const;
/** The days of the due filters (today, this week): the organisation's, as the times shown (decision 064); the browser's before it is known. */
const readerTimeZone = () => displayTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The quick views: each sets one filter of the query string (a second click clears it); due views exclude each other. */
const QUICK_VIEWS = [
  { view: 'mine', filter: 'assigned', value: 'me' },
  { view: 'overdue', filter: 'due', value: 'overdue' },
  { view: 'today', filter: 'due', value: 'today' },
  { view: 'week', filter: 'due', value: 'week' },
  { view: 'unassigned', filter: 'assigned', value: 'none' },
  { view: 'pm', filter: 'pm', value: 'true' },
  // On hold (decision 080): a flag beside the status.
  { view: 'onHold', filter: 'onHold', value: 'true' },
] as const;

function QuickViews({ state }: { state: ReturnType<typeof useServerList<WorkOrderDto, typeof LIST_FILTERS>>['state'] }) {
  const { t } = useTranslation('workOrders');
  return (
    <Group gap={6} role="group" aria-label={t('quickViews')} data-testid="quick-views">
      {QUICK_VIEWS.map((q) => {
        const on = state.filters[q.filter] === q.value;
        return (
          <Chip key={q.view} size="sm" checked={on} onChange={() => state.setFilter(q.filter, on ? '' : q.value)} data-testid={`view-${q.view}`}>
            {t(`view.${q.view}`)}
          </Chip>
        );
      })}
    </Group>
  );
}

/** /dashboard/work-orders: the list with its filters, the statistics cards and the work order drawer. */
export default function WorkOrdersPage() {
  const { t } = useTranslation('workOrders');
  const isManager = useIsManager();
  const list = useServerList<WorkOrderDto, typeof LIST_FILTERS>({
    queryKey: 'work-orders',
    path: '/work-orders/get-work-orders',
    listKey: 'workOrders',
    // assetId: a picker, and analytics' drill-down links; due, assigned, pm: the quick views and the dashboard's
    // links (decision 066). Reset clears them with the others.
    filters: LIST_FILTERS,
    // "Today" is the reader's day.
    extraQuery: { timeZone: readerTimeZone() },
    errorMessage: t('toast.failedFetchAll'),
  });
  // undefined: closed; null: a new order; a number: that order
  const [selected, setSelected] = useOpenRecord();

  const columns: Column<WorkOrderDto>[] = [
    { key: 'workOrderId', header: t('col.id'), hideable: false, nowrap: true },
    {
      key: 'status',
      header: t('col.status'),
      render: (r) => (
        <>
          <Badge variant="light" color={STATUS_COLORS[r.status]}>
            {t(`status.${r.status}`)}
          </Badge>
          {r.onHold && (
            <Badge variant="light" color="orange" ms={4} data-testid="row-on-hold">
              {t('view.onHold')}
            </Badge>
          )}
        </>
      ),
    },
    { key: 'title', header: t('col.title'), hideable: false },
    // priority, due date and assignees by default on wider screens; a phone starts with ID, status and title
    badgeColumn<WorkOrderDto>('priority', t('col.priority'), (r) => ({ color: PRIORITY_COLORS[r.priority], label: t(`priority.${r.priority}`) }), {
      defaultHidden: 'phone',
      variant: 'dot',
    }),
    { key: 'dueDate', header: t('col.dueDate'), defaultHidden: 'phone', nowrap: true, render: (r) => formatDateTime(r.dueDate) },
    {
      key: 'assignees',
      header: t('col.assignees'),
      defaultHidden: 'phone',
      render: (r) => (r.assignees.length ? r.assignees.map((a) => `${a.firstName} ${a.lastName}`.trim()).join(', ') : t('unassigned')),
    },
    { key: 'asset', header: t('col.asset'), defaultHidden: true, render: (r) => r.asset?.name ?? '' },
    { key: 'createdAt', header: t('col.createdAt'), defaultHidden: true, nowrap: true, render: (r) => formatDateTime(r.createdAt) },
  ];
  const assetId = Number(list.state.filters.assetId) || null;
  // The chosen asset's name, for a filter that arrived by a link: the rows carry it.
  const shownAsset = assetId ? list.rows.find((r) => r.asset?.id === assetId)?.asset : undefined;
  const statusOptions = WORK_ORDER_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }));

  return (
    <ServerListScreen
      list={list}
      records={{ name: 'work-orders', open: openById(setSelected), title: t('title'), addLabel: isManager ? t('add') : undefined }}
      columns={columns}
      onRefresh={() => void list.invalidate()}
      side={<WorkOrderStatisticsPanel />}
      filters={
        <>
          <QuickViews state={list.state} />
          <ListTextFilter state={list.state} name="title" placeholder={t('filter')} debounceMs={300} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('statusFilter')} options={statusOptions} />
          <AssetFilter
            value={assetId}
            onChange={(id) => list.state.setFilter('assetId', id ? String(id) : '')}
            placeholder={t('assetFilter')}
            initialOption={optionOf(shownAsset)}
            testId="filter-assetId"
          />
          <LocationFilter state={list.state} label={t('locationFilter')} />
        </>
      }
    >
      {selected !== undefined && (
        <Suspense fallback={null}>
          <WorkOrderDrawer
            id={selected}
            onClose={() => setSelected(undefined)}
            onCreated={(id) => setSelected(id)}
            {...drawerListProps(list)}
            query={{ ...list.state.apiQuery, timeZone: readerTimeZone() }}
          />
        </Suspense>
      )}
    </ServerListScreen>
  );
}
