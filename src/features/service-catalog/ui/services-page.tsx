import { useState } from 'react';
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
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
  useMoney,
  useServerList,
  type Column,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import type { ServiceDto } from '../service-catalog.schema';
import { ServiceFields, serviceFormValues, useServiceForm } from './service-form';
import './services-i18n';

type ListSetter = ReturnType<typeof useServerList>['setListData'];
type ListData = Parameters<ListSetter>[0];

/** /dashboard/services: the service catalogue with the stations each service runs through. */
export default function ServicesPage() {
  const { t } = useTranslation('services');
  const money = useMoney();
  const isManager = useIsManager();
  const list = useServerList<ServiceDto, { title: 'text' }>({
    queryKey: 'services',
    path: '/services/get-services',
    listKey: 'services',
    filters: { title: 'text' },
    errorMessage: t('fetchFailed'),
  });
  const [selected, setSelected] = useState<ServiceDto | null | undefined>(undefined);
  const columns: Column<ServiceDto>[] = [
    { key: 'serviceId', header: t('serviceId'), hideable: false },
    { key: 'title', header: t('name') },
    { key: 'price', header: t('price'), align: 'right', render: (r) => money.format(r.price) },
    { key: 'stations', header: t('stations'), render: (r) => r.WorkStations.map((s) => s.name).join(', ') },
    { key: 'createdAt', header: t('createdAt'), render: (r) => new Date(r.createdAt).toLocaleDateString(), defaultHidden: true },
  ];
  return (
    <ListScreen
      title={t('title')}
      addLabel={isManager ? t('add') : undefined}
      onAdd={() => setSelected(null)}
      onRefresh={list.refetch}
      refreshing={list.loading}
      listState={list.state}
      filters={<ListTextFilter state={list.state} name="title" placeholder={t('filter')} debounceMs={500} />}
    >
      <DataTable
        tableId="services"
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        onRowClick={setSelected}
        pagination={tablePagination(list.state, list.pagination)}
      />
      {selected !== undefined && (
        <ServiceDrawer
          key={selected?.id ?? 'new'}
          record={selected}
          onClose={() => setSelected(undefined)}
          query={list.state.apiQuery}
          onList={list.setListData}
          readOnly={!isManager}
        />
      )}
    </ListScreen>
  );
}

function ServiceDrawer({ record, onClose, query, onList, readOnly }: { record: ServiceDto | null; onClose(): void; query: Record<string, unknown>; onList: ListSetter; readOnly: boolean }) {
  const { t } = useTranslation('services');
  const queryClient = useQueryClient();
  const form = useServiceForm(record);
  const save = form.handleSubmit(async (values) => {
    try {
      if (record) {
        const res = await api.put<{ service: ServiceDto }>(`/services/update-service/${record.id}`, values);
        form.reset(serviceFormValues(res.service));
        notifySuccess(t('updated'));
        void queryClient.invalidateQueries({ queryKey: ['services'] });
        void queryClient.invalidateQueries({ queryKey: activityQueryKey('service', record.id) });
      } else {
        onList(await api.post<ListData>('/services/add-service', values, { query: query as never }));
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
      onList(await api.del<ListData>(`/services/delete-service/${record.id}`, { query: query as never }));
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
      title={record ? `${record.serviceId} · ${record.title}` : t('newTitle')}
      errors={form.formState.errors}
      onSubmit={save}
      activity={{ entityType: 'service', entityId: record?.id }}
      tabs={[{ value: 'overview', label: t('common:drawer.overview'), content: <ServiceFields form={form} record={record} /> }]}
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
      testId="service-drawer"
    />
  );
}
