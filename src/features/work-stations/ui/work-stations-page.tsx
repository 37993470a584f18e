import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ListMineFilter,
  ListTextFilter,
  RowRecordDrawer,
  ServerListScreen,
  drawerListProps,
  recordMessages,
  useNotifiedQuery,
  useServerList,
  type Column,
  recordPaths,
  type RowDrawerProps,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import type { WorkStationDto } from '../work-stations.schema';
import { WorkStationFields, useWorkStationForm } from './work-station-form';
import { formatDateTime } from '../../../web/lib/format';
import { PrintLabelsButton, useLabelSelection } from '../../../web/components/print-labels';
import './work-stations-i18n';

/** /dashboard/work-stations: the stations list (25 a page); `?selected-workstation=<id>&dialog=open` opens one. */
export default function WorkStationsPage() {
  const { t } = useTranslation('workStations');
  const list = useServerList<WorkStationDto, { name: 'text'; relatedTo: 'text' }>({
    queryKey: 'work-stations',
    path: '/workstations/get-workstations',
    listKey: 'workStations',
    filters: { name: 'text', relatedTo: 'text' },
    defaultPageSize: 25,
    errorMessage: t('fetchFailed'),
  });
  const [params, setParams] = useSearchParams();
  const linkedId = params.get('dialog') === 'open' ? Number(params.get('selected-workstation')) || null : null;
  const linked = useNotifiedQuery(
    {
      queryKey: ['work-stations', 'one', linkedId],
      queryFn: ({ signal }) => api.get<{ workStation: WorkStationDto }>(`/workstations/get-workstation/${linkedId}`, { signal }),
      enabled: linkedId !== null,
    },
    t('fetchOneFailed'),
  );
  // undefined = closed, null = new
  const [selected, setSelected] = useState<WorkStationDto | null | undefined>(undefined);
  // Open the linked station once per link: a refetch after saving must not reopen a drawer the user closed.
  const openedLink = useRef<number | null>(null);
  useEffect(() => {
    if (linkedId === null) openedLink.current = null;
    else if (linked.data && openedLink.current !== linkedId) {
      openedLink.current = linkedId;
      setSelected(linked.data.workStation);
    }
  }, [linked.data, linkedId]);

  const close = () => {
    setSelected(undefined);
    if (params.has('dialog') || params.has('selected-workstation')) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('dialog');
          next.delete('selected-workstation');
          return next;
        },
        { replace: true },
      );
    }
  };

  const isManager = useIsManager();
  // Managers choose work stations for their QR labels (decision 039).
  const labels = useLabelSelection(list.rows, 'work-station');
  const columns: Column<WorkStationDto>[] = [
    ...(isManager ? [labels.column] : []),
    { key: 'code', header: t('code'), hideable: false },
    { key: 'name', header: t('name') },
    { key: 'city', header: t('city') },
    { key: 'team', header: t('team'), render: (r) => r.Team?.name ?? '' },
    { key: 'createdAt', header: t('createdAt'), render: (r) => formatDateTime(r.createdAt), defaultHidden: true },
  ];
  return (
    <ServerListScreen
      list={list}
      records={{ name: 'work-stations', importable: true, open: setSelected, title: t('title'), addLabel: isManager ? t('add') : undefined }}
      columns={columns}
      actions={isManager ? <PrintLabelsButton workStationIds={labels.ids} /> : undefined}
      filters={
        <>
          <ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />
          <ListMineFilter state={list.state} />
        </>
      }
    >
      {selected !== undefined && (
        <WorkStationDrawer key={selected?.id ?? 'new'} record={selected} onClose={close} {...drawerListProps(list)} readOnly={!isManager} />
      )}
    </ServerListScreen>
  );
}

function WorkStationDrawer(props: RowDrawerProps<WorkStationDto>) {
  const { t } = useTranslation('workStations');
  const { record } = props;
  const form = useWorkStationForm(record);
  return (
    <RowRecordDrawer
      {...props}
      form={form}
      queryKey="work-stations"
      entityType="work-station"
      paths={recordPaths('workstations', 'workstation')}
      messages={recordMessages(t)}
      onUpdated={({ updatedWorkStation: s }: { updatedWorkStation: WorkStationDto }) =>
        form.reset({ code: s.code, name: s.name, city: s.city, teamId: s.teamId })
      }
      title={record ? `${record.code} · ${record.name}` : t('newTitle')}
      deleteLabel={t('delete')}
      testId="work-station-drawer"
    >
      <WorkStationFields form={form} />
    </RowRecordDrawer>
  );
}
