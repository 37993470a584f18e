import { Button } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  HeaderStatusSelect,
  RecordDrawer,
  RecordDrawerFooter,
  confirmAction,
  drawerTexts,
  useRecordDrawer,
  type ListDrawerProps,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { REQUEST_STATES, maintenanceRequestInputSchema, type MaintenanceRequestDto, type MaintenanceRequestInput } from '../maintenance-requests.schema';
import './labels';
import { MaintenanceRequestOverview, payloadOf, toForm, type FormValues } from './maintenance-request-fields';
import { RequestAttachments } from './request-attachments';

export type MaintenanceRequestDrawerProps = ListDrawerProps;

/** The request drawer: Overview form with the conditional fields, state, Create Order, delete, attachments. */
export function MaintenanceRequestDrawer(props: MaintenanceRequestDrawerProps) {
  const { t } = useTranslation('maintenanceRequests');
  const navigate = useNavigate();
  const isManager = useIsManager();
  const drawer = useRecordDrawer<MaintenanceRequestDto, FormValues>(props, {
    area: 'maintenance-requests',
    noun: 'maintenance-request',
    itemKey: 'maintenanceRequest',
    entityType: 'maintenance-request',
    schema: maintenanceRequestInputSchema,
    toForm,
    body: (values) => payloadOf(values as unknown as MaintenanceRequestInput),
    stamp: (r) => ({ version: r?.version }),
    ...drawerTexts(t),
    title: (r) => r.maintenanceRequestId,
    canDelete: isManager,
    testId: 'maintenance-request-drawer',
  });
  const { record, form, refresh } = drawer;

  const changeState = async (state: string | null) => {
    if (!record || !state || state === record.state) return;
    await drawer.act(
      (id) => api.put(`/maintenance-requests/update-state/${id}`, { state }),
      t('stateUpdated'),
      t('failedState'),
      () => refresh(record.id),
    );
  };

  const createOrder = async () => {
    if (!record) return;
    const yes = await confirmAction({
      title: t('confirmOrderTitle'),
      message: t('confirmOrderMessage'),
      confirmLabel: t('yes'),
      cancelLabel: t('cancel'),
      danger: false,
    });
    if (!yes) return;
    // the order form opens pre-filled from this request; the order exists once it is saved (decision 037)
    navigate(`/dashboard/maintenance-order?order=new&fromRequest=${record.id}`);
  };

  const headerRight = record ? (
    <>
      <HeaderStatusSelect
        label={t('field.state')}
        w={160}
        values={REQUEST_STATES}
        labelOf={(v) => t(`state.${v}`)}
        value={record.state}
        onChange={changeState}
        testId="mr-state"
      />
      {record.state === 'approved' && !record.maintenanceOrder && isManager && (
        <Button size="xs" onClick={createOrder} data-testid="create-order">
          {t('createOrder')}
        </Button>
      )}
      {record.maintenanceOrder && (
        <Button
          size="xs"
          variant="light"
          onClick={() => navigate(`/dashboard/maintenance-order?order=${record.maintenanceOrder!.id}`)}
          data-testid="open-order"
        >
          {t('openOrder', { id: record.maintenanceOrder.maintenanceOrderId })}
        </Button>
      )}
    </>
  ) : null;

  return (
    <RecordDrawer
      {...drawer.drawerProps}
      headerRight={headerRight}
      tabs={[{ value: 'overview', label: t('overview'), content: <MaintenanceRequestOverview form={form} record={record} /> }]}
      sideTabs={[
        { value: 'attachments', label: t('attachments'), content: <RequestAttachments request={record} onChanged={() => record && refresh(record.id)} /> },
      ]}
      footer={<RecordDrawerFooter {...drawer.footerProps} />}
    />
  );
}
