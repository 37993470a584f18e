import { useTranslation } from 'react-i18next';
import { HeaderStatusSelect, RecordDrawer, RecordDrawerFooter, drawerTexts, useRecordDrawer, type ListDrawerProps } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { ORDER_STATUSES, maintenanceOrderInputSchema, newMaintenanceOrderInputSchema, type MaintenanceOrderDto } from '../maintenance-orders.schema';
import './labels';
import { MaintenanceOrderOverview, toForm, type FormValues } from './maintenance-order-fields';

export type MaintenanceOrderDrawerProps = ListDrawerProps & {
  /** A new order from this approved request ('Create Order', decision 037): pre-filled, created on Save. */
  fromRequest?: number;
};

/** The maintenance order drawer: request, type, asset, services, parts, dates, root cause; read-only once validated. */
export function MaintenanceOrderDrawer(props: MaintenanceOrderDrawerProps) {
  const { t } = useTranslation('maintenanceOrders');
  const isManager = useIsManager();
  // 'Create Order' on a request: the request, its type, asset and schedule date fill the new order's form
  const fromRequest = props.id === null ? props.fromRequest : undefined;
  const drawer = useRecordDrawer<MaintenanceOrderDto, FormValues>(props, {
    area: 'maintenance-orders',
    noun: 'maintenance-order',
    itemKey: 'maintenanceOrder',
    entityType: 'maintenance-order',
    schema: props.id === null ? newMaintenanceOrderInputSchema : maintenanceOrderInputSchema,
    toForm,
    stamp: (o) => ({ version: o?.version }),
    ...drawerTexts(t),
    title: (o) => o.maintenanceOrderId,
    canDelete: isManager,
    alsoRefresh: [['maintenance-requests']],
    testId: 'maintenance-order-drawer',
    add: async (values, { addToList, refresh }) => {
      if (fromRequest === undefined) return addToList(values);
      // the request comes from the path; the order is created only now, with the form's fields
      const { maintenanceRequestId: _request, ...order } = values;
      const res = await api.post<{ maintenanceOrder: MaintenanceOrderDto }>(`/maintenance-requests/create-order/${fromRequest}`, order);
      refresh(res.maintenanceOrder.id);
      props.onCreated(res.maintenanceOrder.id);
    },
  });
  const { record, form } = drawer;
  const locked = record?.status === 'validate';
  const changeStatus = async (status: string | null) => {
    if (!record || !status || status === record.status) return;
    await drawer.act(
      (id) => api.put(`/maintenance-orders/update-status/${id}`, { status }),
      t('statusUpdated'),
      t('failedStatus'),
      () => drawer.refresh(record.id),
    );
  };

  return (
    <RecordDrawer
      {...drawer.drawerProps}
      headerRight={
        record ? (
          <HeaderStatusSelect
            label={t('field.status')}
            w={150}
            values={ORDER_STATUSES}
            labelOf={(v) => t(`status.${v}`)}
            value={record.status}
            onChange={changeStatus}
            disabled={locked}
            testId="mo-status"
          />
        ) : null
      }
      tabs={[{ value: 'overview', label: t('overview'), content: <MaintenanceOrderOverview form={form} record={record} fromRequest={fromRequest} /> }]}
      footer={locked ? null : <RecordDrawerFooter {...drawer.footerProps} />}
    />
  );
}
