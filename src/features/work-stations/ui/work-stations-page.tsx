import { useEffect, useRef, useState } from 'react';
import { Button } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
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
import type { WorkStationDto } from '../work-stations.schema';
import { WorkStationFields, useWorkStationForm } from './work-station-form';
import './work-stations-i18n';

type ListSetter = ReturnType<typeof useServerList>['setListData'];
type ListData = Parameters<ListSetter>[0];

/** /dashboard/work-stations: the stations list (25 a page); `?selected-workstation=<id>&dialog=open` opens one. */
export default function WorkStationsPage() {
  const { t } = useTranslation('workStations');
  const list = useServerList<WorkStationDto, { name: 'text' }>({
    queryKey: 'work-stations',
    path: '/workstations/get-workstations',
    listKey: 'workStations',
    filters: { name: 'text' },
    defaultPageSize: 25,
    errorMessage: t('fetchFailed'),
  });
  const [params, setParams] = useSearchParams();
  const linkedId = params.get('dialog') === 'open' ? Number(params.get('selected-workstation')) || null : null;
  const linked = useQuery({
    queryKey: ['work-stations', 'one', linkedId],
    queryFn: ({ signal }) => api.get<{ workStation: WorkStationDto }>(`/workstations/get-workstation/${linkedId}`, { signal }),
    enabled: linkedId !== null,
  });
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
  useEffect(() => {
    if (linked.isError) notifyError(t('fetchOneFailed'));
  }, [linked.isError, t]);

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

  const columns: Column<WorkStationDto>[] = [
    { key: 'code', header: t('code'), hideable: false },
    { key: 'name', header: t('name') },
    { key: 'city', header: t('city') },
    { key: 'team', header: t('team'), render: (r) => r.Team?.name ?? '' },
    { key: 'createdAt', header: t('createdAt'), render: (r) => new Date(r.createdAt).toLocaleDateString(), defaultHidden: true },
  ];
  const isManager = useIsManager();
  return (
    <ListScreen
      title={t('title')}
      addLabel={isManager ? t('add') : undefined}
      onAdd={() => setSelected(null)}
      onRefresh={list.refetch}
      refreshing={list.loading}
      listState={list.state}
      filters={<ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={500} />}
    >
      <DataTable
        tableId="work-stations"
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        onRowClick={setSelected}
        pagination={tablePagination(list.state, list.pagination)}
      />
      {selected !== undefined && (
        <WorkStationDrawer key={selected?.id ?? 'new'} record={selected} onClose={close} query={list.state.apiQuery} onList={list.setListData} readOnly={!isManager} />
      )}
    </ListScreen>
  );
}

function WorkStationDrawer({
  record,
  onClose,
  query,
  onList,
  readOnly,
}: {
  record: WorkStationDto | null;
  onClose(): void;
  query: Record<string, unknown>;
  onList: ListSetter;
  readOnly: boolean;
}) {
  const { t } = useTranslation('workStations');
  const queryClient = useQueryClient();
  const form = useWorkStationForm(record);
  const save = form.handleSubmit(async (values) => {
    try {
      if (record) {
        const res = await api.put<{ updatedWorkStation: WorkStationDto }>(`/workstations/update-workstation/${record.id}`, values);
        form.reset({ code: res.updatedWorkStation.code, name: res.updatedWorkStation.name, city: res.updatedWorkStation.city, teamId: res.updatedWorkStation.teamId });
        notifySuccess(t('updated'));
        void queryClient.invalidateQueries({ queryKey: ['work-stations'] });
        void queryClient.invalidateQueries({ queryKey: activityQueryKey('work-station', record.id) });
      } else {
        onList(await api.post<ListData>('/workstations/add-workstation', values, { query: query as never }));
        notifySuccess(t('added'));
        onClose();
      }
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, record ? t('updateFailed') : t('addFailed')));
    }
  });
  const remove = async () => {
    if (!record || !(await confirmDelete(t('confirmDelete')))) return;
    try {
      onList(await api.del<ListData>(`/workstations/delete-workstation/${record.id}`, { query: query as never }));
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
      title={record ? `${record.code} · ${record.name}` : t('newTitle')}
      errors={form.formState.errors}
      onSubmit={save}
      activity={{ entityType: 'work-station', entityId: record?.id }}
      tabs={[{ value: 'overview', label: t('common:drawer.overview'), content: <WorkStationFields form={form} /> }]}
      footer={
        !readOnly && (
          <>
            {record && (
              <Button color="red" variant="light" onClick={remove} data-testid="delete-record">
                {t('delete')}
              </Button>
            )}
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="save-record">
              {t('common:actions.save')}
            </Button>
          </>
        )
      }
      testId="work-station-drawer"
    />
  );
}
