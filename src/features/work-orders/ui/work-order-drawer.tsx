import { useState } from 'react';
import { Button, Checkbox, Grid, Group, MultiSelect, Select, Text, TextInput } from '@mantine/core';
import { IconClockPlus, IconPrinter, IconShare } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DateTimeField,
  EmptyState,
  FormField,
  isBlankHtml,
  RecordDrawer,
  RecordDrawerFooter,
  RichTextField,
  notifyError,
  useRecordDrawer,
  type ListDrawerProps,
  optionOf,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { suggestedWorkers } from '../../../web/lib/worker-options';
import { AssetSelect } from '../../assets/ui/asset-select';
import { QuotationSelect } from '../../quotations/ui/quotation-select';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES, workOrderInputSchema, type WorkOrderDto, type WorkOrderStatus } from '../work-orders.schema';
import { fromPicker, toPicker } from './picker-values';
import { CostSummary } from './cost-summary';
import { AddTimeDialog, LaborTab } from './labor-tab';
import { PartsTab } from './parts-tab';
import { ProcedureTab } from './procedure-tab';
import { PhotosTab } from './photos-tab';
import { FollowButton } from '../../notifications/ui/follow-button';
import { openPdf } from '../../../web/lib/open-pdf';
import { CloseWithCodesDialog } from './close-with-codes-dialog';
import { HoldBadge, HoldControl } from './hold-control';

interface FormValues {
  title: string;
  duration: string;
  priority: string | null;
  startDate: string | null;
  endDate: string | null;
  dueDate: string | null;
  assetId: number | null;
  /** "Asset is down" (decision 079). */
  assetDown: boolean;
  quotationId: number | null;
  assignees: string[];
  instructions: string;
}

function toForm(r: WorkOrderDto | undefined): FormValues {
  return {
    title: r?.title ?? '',
    duration: r?.duration ?? '',
    priority: r?.priority ?? 'medium',
    startDate: toPicker(r?.startDate),
    endDate: toPicker(r?.endDate),
    dueDate: toPicker(r?.dueDate),
    assetId: r?.assetId ?? null,
    assetDown: r?.assetDown ?? false,
    quotationId: r?.quotationId ?? null,
    assignees: (r?.assignees ?? []).map((a) => String(a.id)),
    instructions: r?.instructions ?? '',
  };
}

/** The JSON body: dates as ISO 8601, ids as numbers, empty optional fields null (cleared: left out would keep them). */
function payloadOf(v: FormValues) {
  return {
    title: v.title,
    duration: v.duration || null,
    priority: v.priority || undefined,
    startDate: fromPicker(v.startDate),
    endDate: fromPicker(v.endDate),
    dueDate: fromPicker(v.dueDate),
    assetId: v.assetId || null,
    // sent only with an asset (decision 079)
    ...(v.assetId ? { assetDown: v.assetDown } : {}),
    quotationId: v.quotationId || null,
    assignees: v.assignees.map(Number),
    // blank editor leftovers clear the instructions (null: a left-out field would keep them)
    instructions: isBlankHtml(v.instructions) ? null : v.instructions,
  };
}

export type WorkOrderDrawerProps = ListDrawerProps;

/** The work order drawer: Overview, Operations, Labor, Parts, Procedure, Photos, Note Logs; status, Add Time, Delete WO, Save Changes. */
export function WorkOrderDrawer(props: WorkOrderDrawerProps) {
  const { t } = useTranslation('workOrders');
  const { t: tp } = useTranslation('workOrderProcedure');
  const { t: tf } = useTranslation('failureCodes');
  const isManager = useIsManager();
  const workers = useAppData().data?.workers ?? [];
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

  const errors = drawer.errors;
  const { t: tc } = useTranslation();
  // the people related to the chosen asset are suggested first
  const workerOptions = suggestedWorkers(workers, form.watch('assetId') as number | null, { suggested: tc('select.suggested'), others: tc('select.others') });
  const overview = (
    <Grid>
      {props.id !== null && (
        <Grid.Col span={12}>
          <CostSummary workOrderId={props.id} />
        </Grid.Col>
      )}
      {record?.failure && (
        <Grid.Col span={12}>
          <Text size="sm" data-testid="wo-failure">
            {tf('closed')}: <bdi>{[record.failure.problem, record.failure.cause, record.failure.remedy].filter(Boolean).join(' › ')}</bdi>
          </Text>
        </Grid.Col>
      )}
      <Grid.Col span={12}>
        <TextInput label={t('field.title')} withAsterisk data-testid="wo-title" {...form.register('title')} error={errors.title?.message} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label={t('field.duration')} placeholder="02:30" data-testid="wo-duration" {...form.register('duration')} error={errors.duration?.message} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField
          form={form}
          name="priority"
          component={Select}
          label={t('field.priority')}
          data={WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))}
          data-testid="wo-priority"
        />
      </Grid.Col>
      {(['startDate', 'endDate', 'dueDate'] as const).map((name) => (
        <Grid.Col key={name} span={{ base: 12, sm: 4 }}>
          <FormField form={form} name={name} component={DateTimeField} label={t(`field.${name}`)} testId={`wo-${name}`} />
        </Grid.Col>
      ))}
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField form={form} name="assetId" component={AssetSelect} label={t('field.asset')} initialOption={optionOf(record?.asset)} testId="wo-asset" />
        {form.watch('assetId') ? <Checkbox mt="xs" label={t('field.assetDown')} {...form.register('assetDown')} data-testid="wo-asset-down" /> : null}
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField
          form={form}
          name="quotationId"
          component={QuotationSelect}
          label={t('field.quotation')}
          initialOption={record?.quotation ? { value: record.quotation.id, label: record.quotation.number } : null}
          testId="wo-quotation"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField
          form={form}
          name="assignees"
          component={MultiSelect}
          label={t('field.assignees')}
          data={workerOptions}
          searchable
          disabled={!isManager}
          data-testid="wo-assignees"
        />
      </Grid.Col>
    </Grid>
  );

  const instructions = form.watch('instructions');
  const operations = (
    <>
      {isBlankHtml(instructions) && <EmptyState title={t('operationsEmpty')} description={t('operationsEmptyHint')} />}
      <FormField form={form} name="instructions" component={RichTextField} label={t('field.instructions')} />
    </>
  );

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
          { value: 'overview', label: t('tabs.overview'), content: overview },
          { value: 'operations', label: t('tabs.operations'), content: operations },
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
