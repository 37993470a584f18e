import { useState } from 'react';
import { Button, Group, Select } from '@mantine/core';
import { IconClockPlus, IconPrinter, IconShare } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RecordDrawer, RecordDrawerFooter, notifyError, useRecordDrawer, type ListDrawerProps } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { openPdf } from '../../../web/lib/open-pdf';
import { FollowButton } from '../../notifications/ui/follow-button';
import { WORK_ORDER_STATUSES, workOrderInputSchema, type WorkOrderDto, type WorkOrderStatus } from '../work-orders.schema';
import { CloseWithCodesDialog } from './close-with-codes-dialog';
import { HoldBadge, HoldControl } from './hold-control';
import { AddTimeDialog, LaborTab } from './labor-tab';
import { PartsTab } from './parts-tab';
import { PhotosTab } from './photos-tab';
import { ProcedureTab } from './procedure-tab';
import { payloadOf, toForm, WorkOrderOperations, WorkOrderOverview, type FormValues } from './work-order-fields';

export type WorkOrderDrawerProps = ListDrawerProps;

/** The work order drawer: Overview, Operations, Labor, Parts, Procedure, Photos, Note Logs; status, Add Time, Delete WO, Save Changes. */
export function WorkOrderDrawer(props: WorkOrderDrawerProps) {
  const { t } = useTranslation('workOrders');
  const { t: tp } = useTranslation('workOrderProcedure');
  const isManager = useIsManager();
  const [addTime, setAddTime] = useState(false);
  // Closing a reactive order on an asset asks for its failure codes first (decision 080).
  const [askCodes, setAskCodes] = useState(false);
  const drawer = useRecordDrawer<WorkOrderDto, FormValues>(props, {
    area: 'work-orders',
    noun: 'work-order',
    itemKey: 'workOrder',
    entityType: 'work-order',
    schema: workOrderInputSchema,
    toForm,
    body: (_, values) => payloadOf(values),
    stamp: (r) => ({ updatedAt: r?.updatedAt }),
    messages: {
      added: t('toast.added'),
      updated: t('toast.updated'),
      deleted: t('toast.deleted'),
      addFailed: t('toast.failedAdd'),
      updateFailed: t('toast.failedUpdate'),
      deleteFailed: t('toast.failedDelete'),
      confirmDelete: t('confirmDelete'),
      fetchFailed: t('toast.failedFetch'),
    },
    title: (r) => r.workOrderId,
    newTitle: t('newTitle'),
    labels: { delete: t('actions.delete'), save: t('actions.save') },
    canDelete: isManager,
    alsoRefresh: [['work-orders', 'statistics']],
  });
  const { record, form, refresh: refreshAround } = drawer;
  const updated = (order: WorkOrderDto) => {
    drawer.setRecord(order);
    refreshAround(order.id);
  };

  const changeStatus = async (status: string | null, codes: object = {}, asked = false) => {
    if (!status || status === record?.status) return;
    if (status === 'completed' && !asked && record?.reactive && record.assetId) return setAskCodes(true);
    await drawer.act(
      (id) => api.put<{ order: WorkOrderDto }>(`/work-orders/update-status/${id}`, { status, ...codes }),
      t('toast.statusUpdated'),
      t('toast.failedStatus'),
      (res) => updated(res.order),
    );
  };

  const existing = props.id !== null;
  return (
    <>
      <RecordDrawer<FormValues>
        {...drawer.drawerProps}
        headerRight={
          record && (
            <Group gap="xs" wrap="nowrap">
              <HoldBadge order={record} />
              <FollowButton workOrderId={record.id} />
              <Select
                aria-label={t('field.status')}
                data={WORK_ORDER_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
                value={record.status}
                onChange={(v) => void changeStatus(v as WorkOrderStatus | null)}
                allowDeselect={false}
                w={170}
                data-testid="wo-status"
              />
            </Group>
          )
        }
        tabs={[
          { value: 'overview', label: t('tabs.overview'), content: <WorkOrderOverview form={form} record={record} id={props.id} /> },
          { value: 'operations', label: t('tabs.operations'), content: <WorkOrderOperations form={form} /> },
          {
            value: 'labor',
            label: t('tabs.labor'),
            hidden: !existing,
            content: existing ? <LaborTab workOrderId={props.id!} onChanged={() => refreshAround(props.id!)} /> : null,
          },
          {
            value: 'parts',
            label: t('tabs.parts'),
            hidden: !existing,
            content: existing ? <PartsTab workOrderId={props.id!} onChanged={() => refreshAround(props.id!)} /> : null,
          },
          {
            value: 'procedure',
            label: tp('tab'),
            hidden: !existing,
            content: existing ? <ProcedureTab workOrderId={props.id!} onChanged={() => refreshAround(props.id!)} /> : null,
          },
          { value: 'photos', label: t('tabs.photos'), hidden: !existing, content: existing ? <PhotosTab workOrderId={props.id!} /> : null },
        ]}
        footer={
          <RecordDrawerFooter {...drawer.footerProps}>
            {record && (
              <Button
                variant="default"
                leftSection={<IconPrinter size={16} />}
                onClick={() => void openPdf(`/work-orders/print-work-order/${record.id}`).catch(() => notifyError(tp('printFailed')))}
                data-testid="wo-print"
              >
                {tp('print')}
              </Button>
            )}
            {record && isManager && (
              // Sharing with a contractor happens on the shared work orders page, opened on this order (decision 040).
              <Button
                component={Link}
                to={`/dashboard/shared-work-orders?share=${record.id}`}
                variant="default"
                leftSection={<IconShare size={16} />}
                data-testid="wo-share"
              >
                {t('actions.share')}
              </Button>
            )}
            {record && <HoldControl order={record} onChanged={updated} />}
            {record && (
              <Button variant="light" leftSection={<IconClockPlus size={16} />} onClick={() => setAddTime(true)} data-testid="add-time">
                {t('labor.add')}
              </Button>
            )}
          </RecordDrawerFooter>
        }
      />
      {record && askCodes && (
        <CloseWithCodesDialog
          order={record}
          onClose={() => setAskCodes(false)}
          onConfirm={(codes) => {
            setAskCodes(false);
            void changeStatus('completed', codes, true);
          }}
        />
      )}
      {record && <AddTimeDialog opened={addTime} workOrderId={record.id} onClose={() => setAddTime(false)} onAdded={() => refreshAround(record.id)} />}
    </>
  );
}
