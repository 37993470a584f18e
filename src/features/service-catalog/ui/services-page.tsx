import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ListMineFilter,
  ListTextFilter,
  RowRecordDrawer,
  ServerListScreen,
  drawerListProps,
  recordMessages,
  useMoney,
  useServerList,
  type Column,
  recordPaths,
  type RowDrawerProps,
} from '../../../web/components';
import { useIsManager } from '../../../web/lib/app-data';
import type { ServiceDto } from '../service-catalog.schema';
import { ServiceFields, serviceFormValues, useServiceForm } from './service-form';
import { formatDateTime } from '../../../web/lib/format';
import './services-i18n';

/** /dashboard/services: the service catalogue with the stations each service runs through. */
export default function ServicesPage() {
  const { t } = useTranslation('services');
  const money = useMoney();
  const isManager = useIsManager();
  const list = useServerList<ServiceDto, { title: 'text'; relatedTo: 'text' }>({
    queryKey: 'services',
    path: '/services/get-services',
    listKey: 'services',
    filters: { title: 'text', relatedTo: 'text' },
    errorMessage: t('fetchFailed'),
  });
  const [selected, setSelected] = useState<ServiceDto | null | undefined>(undefined);
  const columns: Column<ServiceDto>[] = [
    { key: 'serviceId', header: t('serviceId'), hideable: false },
    { key: 'title', header: t('name') },
    { key: 'price', header: t('price'), align: 'right', render: (r) => money.format(r.price) },
    { key: 'stations', header: t('stations'), render: (r) => r.WorkStations.map((s) => s.name).join(', ') },
    { key: 'createdAt', header: t('createdAt'), render: (r) => formatDateTime(r.createdAt), defaultHidden: true },
  ];
  return (
    <ServerListScreen
      list={list}
      records={{ name: 'services', importable: true, open: setSelected, title: t('title'), addLabel: isManager ? t('add') : undefined }}
      columns={columns}
      filters={
        <>
          <ListTextFilter state={list.state} name="title" placeholder={t('filter')} debounceMs={500} />
          <ListMineFilter state={list.state} />
        </>
      }
    >
      {selected !== undefined && (
        <ServiceDrawer key={selected?.id ?? 'new'} record={selected} onClose={() => setSelected(undefined)} {...drawerListProps(list)} readOnly={!isManager} />
      )}
    </ServerListScreen>
  );
}

function ServiceDrawer(props: RowDrawerProps<ServiceDto>) {
  const { t } = useTranslation('services');
  const { record } = props;
  const form = useServiceForm(record);
  return (
    <RowRecordDrawer
      {...props}
      form={form}
      queryKey="services"
      entityType="service"
      paths={recordPaths('services', 'service')}
      messages={recordMessages(t)}
      onUpdated={(res: { service: ServiceDto }) => form.reset(serviceFormValues(res.service))}
      title={record ? `${record.serviceId} · ${record.title}` : t('newTitle')}
      deleteLabel={t('delete')}
      testId="service-drawer"
    >
      <ServiceFields form={form} record={record} />
    </RowRecordDrawer>
  );
}
