import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  badgeColumn,
  drawerListProps,
  ListMultiFilter,
  ListTextFilter,
  openById,
  ServerListScreen,
  useOpenRecord,
  useServerList,
  type Column,
} from '../../../web/components';
import { ORDER_STATUSES, type MaintenanceOrderDto } from '../maintenance-orders.schema';
import { formatDay } from './labels';
import { MaintenanceOrderDrawer } from './maintenance-order-drawer';

export const ORDER_STATUS_COLORS: Record<string, string> = { new: 'blue', 'in-progress': 'yellow', validate: 'green', cancel: 'gray' };

/** /dashboard/maintenance-order: preventive maintenance orders. `?order=<id>` opens that order ('new' a new one). */
export default function MaintenanceOrdersPage() {
  const { t } = useTranslation('maintenanceOrders');
  const list = useServerList<MaintenanceOrderDto, { title: 'text'; status: 'multi' }>({
    queryKey: 'maintenance-orders',
    path: '/maintenance-orders/get-maintenance-orders',
    listKey: 'maintenanceOrders',
    filters: { title: 'text', status: 'multi' },
    errorMessage: t('failedFetch'),
  });
  const [params] = useSearchParams();
  // a new order from a request ('Create Order') is one drawer; leaving it leaves the request behind
  const [selected, open] = useOpenRecord('order', ['fromRequest']);

  const columns: Column<MaintenanceOrderDto>[] = [
    { key: 'maintenanceOrderId', header: t('col.id'), hideable: false },
    badgeColumn<MaintenanceOrderDto>('status', t('col.status'), (o) => ({ color: ORDER_STATUS_COLORS[o.status], label: t(`status.${o.status}`) })),
    { key: 'asset', header: t('col.asset'), render: (o) => o.asset?.name ?? '' },
    { key: 'scheduleDate', header: t('col.scheduleDate'), render: (o) => formatDay(o.scheduleDate) },
    { key: 'dueDate', header: t('col.dueDate'), render: (o) => formatDay(o.dueDate) },
    { key: 'maintenanceRequest', header: t('col.request'), render: (o) => o.maintenanceRequest?.maintenanceRequestId ?? '', defaultHidden: true },
    { key: 'maintenanceType', header: t('col.type'), render: (o) => t(`type.${o.maintenanceType}`), defaultHidden: true },
  ];

  return (
    <ServerListScreen
      list={list}
      records={{ name: 'maintenance-orders', open: openById(open), title: t('title'), addLabel: t('add') }}
      columns={columns}
      filters={
        <>
          <ListTextFilter state={list.state} name="title" placeholder={t('filter')} debounceMs={500} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('statusFilter')} values={ORDER_STATUSES} label={(s) => t(`status.${s}`)} />
        </>
      }
    >
      {selected !== undefined && (
        <MaintenanceOrderDrawer
          key={selected ?? 'new'}
          id={selected}
          fromRequest={selected === null && /^\d+$/.test(params.get('fromRequest') ?? '') ? Number(params.get('fromRequest')) : undefined}
          onClose={() => open(undefined)}
          onCreated={(id) => open(id)}
          {...drawerListProps(list)}
        />
      )}
    </ServerListScreen>
  );
}
