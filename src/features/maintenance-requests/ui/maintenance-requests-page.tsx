import { Text } from '@mantine/core';
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
import type { MaintenanceRequestDto, MaintenanceRequestList } from '../maintenance-requests.schema';
import { formatDay } from './labels';
import { MaintenanceRequestDrawer } from './maintenance-request-drawer';
import { RequestStatistics } from './request-statistics';

const PRIORITY_COLORS: Record<string, string> = { lowest: 'gray', low: 'blue', medium: 'yellow', high: 'orange', critical: 'red' };
export const STATE_COLORS: Record<string, string> = {
  new: 'blue',
  approved: 'green',
  rejected: 'red',
  'in-progress': 'yellow',
  completed: 'teal',
  cancelled: 'gray',
};

/** /dashboard/maintenance-request: the list, its counters and the request drawer. */
export default function MaintenanceRequestsPage() {
  const { t } = useTranslation('maintenanceRequests');
  const list = useServerList<MaintenanceRequestDto, { title: 'text'; status: 'multi' }>({
    queryKey: 'maintenance-requests',
    path: '/maintenance-requests/get-maintenance-requests',
    listKey: 'maintenanceRequests',
    filters: { title: 'text', status: 'multi' },
    errorMessage: t('failedFetch'),
  });
  // undefined: closed; null: a new request; a number: that request
  const [selected, setSelected] = useOpenRecord();
  const statistics = (list.query.data as Partial<MaintenanceRequestList> | undefined)?.statistics;

  const columns: Column<MaintenanceRequestDto>[] = [
    { key: 'maintenanceRequestId', header: t('col.id'), hideable: false },
    { key: 'maintenanceType', header: t('col.type'), render: (r) => t(`type.${r.maintenanceType}`) },
    {
      key: 'requester',
      header: t('col.requester'),
      render: (r) => (r.requester === 'customer' && r.Customer ? `${t('requesterType.customer')}: ${r.Customer.name}` : t(`requesterType.${r.requester}`)),
    },
    {
      key: 'problemDescription',
      header: t('col.description'),
      render: (r) => (
        <Text size="sm" truncate="end" maw={260} title={r.problemDescription}>
          {r.problemDescription}
        </Text>
      ),
    },
    { key: 'dateOfRequest', header: t('col.date'), render: (r) => formatDay(r.dateOfRequest) },
    badgeColumn<MaintenanceRequestDto>('priority', t('col.priority'), (r) => ({ color: PRIORITY_COLORS[r.priority], label: t(`priority.${r.priority}`) })),
    { key: 'assignedTo', header: t('col.assignedTo'), render: (r) => (r.Worker ? `${r.Worker.firstName} ${r.Worker.lastName}`.trim() : t('unassigned')) },
    badgeColumn<MaintenanceRequestDto>('state', t('col.state'), (r) => ({ color: STATE_COLORS[r.state], label: t(`state.${r.state}`) })),
  ];

  // Approved (the spec's list says Assigned, the same state): the requests ready for an order
  const stateOptions = (['new', 'approved', 'in-progress', 'completed', 'cancelled', 'rejected'] as const).map((value) => ({
    value,
    label: t(`state.${value}`),
  }));

  return (
    <ServerListScreen
      list={list}
      records={{ name: 'maintenance-requests', open: openById(setSelected), title: t('title'), addLabel: t('add') }}
      columns={columns}
      side={<RequestStatistics statistics={statistics} />}
      filters={
        <>
          <ListTextFilter state={list.state} name="title" placeholder={t('filter')} debounceMs={300} />
          <ListMultiFilter state={list.state} name="status" placeholder={t('statusFilter')} options={stateOptions} />
        </>
      }
    >
      {selected !== undefined && (
        <MaintenanceRequestDrawer
          key={selected ?? 'new'}
          id={selected}
          onClose={() => setSelected(undefined)}
          onCreated={(id) => setSelected(id)}
          {...drawerListProps(list)}
        />
      )}
    </ServerListScreen>
  );
}
