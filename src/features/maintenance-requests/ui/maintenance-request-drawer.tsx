import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { Button, Checkbox, Grid, Select, Textarea, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DayField,
  FormField,
  RecordDrawer,
  RecordDrawerFooter,
  confirmAction,
  drawerTexts,
  pickerDay,
  useRecordDrawer,
  type ListDrawerProps,
  optionOf,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { suggestedWorkers } from '../../../web/lib/worker-options';
import { AssetSelect } from '../../assets/ui/asset-select';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import {
  FREQUENCIES,
  MAINTENANCE_TYPES,
  NEEDS_FAILURE,
  NEEDS_SCHEDULE,
  PRIORITIES,
  REQUEST_STATES,
  REQUESTER_TYPES,
  RISK_LEVELS,
  URGENCY_LEVELS,
  maintenanceRequestInputSchema,
  type MaintenanceRequestDto,
  type MaintenanceRequestInput,
} from '../maintenance-requests.schema';
import './labels';
import { RequestAttachments } from './request-attachments';

interface FormValues {
  title: string;
  problemDescription: string;
  maintenanceType: string | null;
  requester: string | null;
  customerId: number | null;
  priority: string | null;
  assignedTo: number | null;
  dateOfRequest: string | null;
  assetId: number | null;
  /** "Asset is down" (decision 079). */
  assetDown: boolean;
  failureReason: string;
  urgencyLevel: string | null;
  riskLevel: string | null;
  scheduleDate: string | null;
  frequency: string | null;
  sensorData: string;
  condition: string;
}

const today = () => new Date().toISOString().slice(0, 10);

function toForm(r: MaintenanceRequestDto | undefined): FormValues {
  return {
    title: r?.title ?? '',
    problemDescription: r?.problemDescription ?? '',
    maintenanceType: r?.maintenanceType ?? null,
    requester: r?.requester ?? null,
    customerId: r?.customerId ?? null,
    priority: r?.priority ?? null,
    assignedTo: r?.assignedTo ?? null,
    dateOfRequest: r ? pickerDay(r.dateOfRequest) : today(),
    assetId: r?.assetId ?? null,
    assetDown: r?.assetDown ?? false,
    failureReason: r?.failureReason ?? '',
    urgencyLevel: r?.urgencyLevel ?? null,
    riskLevel: r?.riskLevel ?? null,
    scheduleDate: pickerDay(r?.scheduleDate),
    frequency: r?.frequency ?? null,
    sensorData: r?.sensorData ?? '',
    condition: r?.condition ?? '',
  };
}

/** Which conditional fields a type and requester show (spec doc 2: the drawer's conditional fields). */
export function visibleFields(type: string | null, requester: string | null) {
  return {
    asset: requester === 'employee',
    customer: requester === 'customer',
    failure: (NEEDS_FAILURE as readonly (string | null)[]).includes(type),
    schedule: (NEEDS_SCHEDULE as readonly (string | null)[]).includes(type),
    frequency: type === 'preventive',
    predictive: type === 'predictive',
  };
}

/** The body sent to the API: hidden conditional fields are left out. */
function payloadOf(v: MaintenanceRequestInput) {
  const show = visibleFields(v.maintenanceType, v.requester);
  return {
    title: v.title,
    problemDescription: v.problemDescription,
    maintenanceType: v.maintenanceType,
    requester: v.requester,
    priority: v.priority,
    assignedTo: v.assignedTo,
    dateOfRequest: v.dateOfRequest,
    riskLevel: v.riskLevel,
    ...(show.customer && v.customerId ? { customerId: v.customerId } : {}),
    ...(show.asset ? { assetId: v.assetId } : {}),
    ...(show.asset && v.assetId ? { assetDown: Boolean(v.assetDown) } : {}),
    ...(show.failure ? { failureReason: v.failureReason, urgencyLevel: v.urgencyLevel } : {}),
    ...(show.schedule ? { scheduleDate: v.scheduleDate } : {}),
    ...(show.frequency ? { frequency: v.frequency } : {}),
    ...(show.predictive ? { sensorData: v.sensorData, condition: v.condition } : {}),
  };
}

export type MaintenanceRequestDrawerProps = ListDrawerProps;

/** The request drawer: Overview form with the conditional fields, state, Create Order, delete, attachments. */
export function MaintenanceRequestDrawer(props: MaintenanceRequestDrawerProps) {
  const { t } = useTranslation('maintenanceRequests');
  const navigate = useNavigate();
  const isManager = useIsManager();
  const workers = useAppData().data?.workers ?? [];
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
  const { record, form, errors, refresh } = drawer;

  const [type, requester] = useWatch({ control: form.control, name: ['maintenanceType', 'requester'] });
  const show = visibleFields(type, requester);

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

  const options = useMemo(
    () => ({
      type: MAINTENANCE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) })),
      requester: REQUESTER_TYPES.map((v) => ({ value: v, label: t(`requesterType.${v}`) })),
      priority: PRIORITIES.map((v) => ({ value: v, label: t(`priority.${v}`) })),
      urgency: URGENCY_LEVELS.map((v) => ({ value: v, label: t(`urgency.${v}`) })),
      risk: RISK_LEVELS.map((v) => ({ value: v, label: t(`risk.${v}`) })),
      frequency: FREQUENCIES.map((v) => ({ value: v, label: t(`frequency.${v}`) })),
      state: REQUEST_STATES.map((v) => ({ value: v, label: t(`state.${v}`) })),
    }),
    [t],
  );
  const { t: tc } = useTranslation();
  // the people related to the chosen asset are suggested first
  const workerOptions = suggestedWorkers(workers, show.asset ? (form.watch('assetId') as number | null) : null, {
    suggested: tc('select.suggested'),
    others: tc('select.others'),
  });

  const selectField = (name: keyof FormValues, label: string, data: { value: string; label: string }[], testId: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          withAsterisk
          data={data}
          value={(field.value as string | null) ?? null}
          onChange={(v) => field.onChange(v)}
          onBlur={field.onBlur}
          error={errors[name]?.message}
          data-testid={testId}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
  const dateField = (name: 'dateOfRequest' | 'scheduleDate', label: string, testId: string) => (
    <DayField form={form} name={name} label={label} testId={testId} />
  );

  const overview = (
    <Grid gutter="md">
      <Grid.Col span={12}>
        <TextInput label={t('field.title')} withAsterisk {...form.register('title')} error={errors.title?.message} data-testid="mr-title" />
      </Grid.Col>
      <Grid.Col span={12}>
        <Textarea
          label={t('field.description')}
          withAsterisk
          autosize
          minRows={3}
          {...form.register('problemDescription')}
          error={errors.problemDescription?.message}
          data-testid="mr-description"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('maintenanceType', t('field.maintenanceType'), options.type, 'mr-type')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('requester', t('field.requester'), options.requester, 'mr-requester')}</Grid.Col>
      {show.customer && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <FormField
            form={form}
            name="customerId"
            component={CustomerVendorSelect}
            type="customer"
            label={t('field.customer')}
            initialOption={optionOf(record?.Customer)}
            testId="mr-customer"
          />
        </Grid.Col>
      )}
      {show.asset && (
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <FormField
            form={form}
            name="assetId"
            component={AssetSelect}
            label={t('field.asset')}
            withAsterisk
            initialOption={optionOf(record?.asset)}
            testId="mr-asset"
          />
          {form.watch('assetId') ? <Checkbox mt="xs" label={t('field.assetDown')} {...form.register('assetDown')} data-testid="mr-asset-down" /> : null}
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('priority', t('field.priority'), options.priority, 'mr-priority')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Controller
          control={form.control}
          name="assignedTo"
          render={({ field }) => (
            <Select
              label={t('field.assignedTo')}
              withAsterisk
              searchable
              data={workerOptions}
              value={field.value ? String(field.value) : null}
              onChange={(v) => field.onChange(v ? Number(v) : null)}
              error={errors.assignedTo?.message}
              data-testid="mr-assignee"
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{dateField('dateOfRequest', t('field.dateOfRequest'), 'mr-date')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('riskLevel', t('field.riskLevel'), options.risk, 'mr-risk')}</Grid.Col>
      {show.failure && (
        <>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label={t('field.failureReason')}
              withAsterisk
              {...form.register('failureReason')}
              error={errors.failureReason?.message}
              data-testid="mr-failure"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('urgencyLevel', t('field.urgencyLevel'), options.urgency, 'mr-urgency')}</Grid.Col>
        </>
      )}
      {show.schedule && <Grid.Col span={{ base: 12, sm: 6 }}>{dateField('scheduleDate', t('field.scheduleDate'), 'mr-schedule')}</Grid.Col>}
      {show.frequency && <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('frequency', t('field.frequency'), options.frequency, 'mr-frequency')}</Grid.Col>}
      {show.predictive && (
        <>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('field.sensorData')} withAsterisk {...form.register('sensorData')} error={errors.sensorData?.message} data-testid="mr-sensor" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('field.condition')} withAsterisk {...form.register('condition')} error={errors.condition?.message} data-testid="mr-condition" />
          </Grid.Col>
        </>
      )}
    </Grid>
  );

  const headerRight = record ? (
    <>
      <Select
        aria-label={t('field.state')}
        size="xs"
        w={160}
        data={options.state}
        value={record.state}
        onChange={changeState}
        allowDeselect={false}
        data-testid="mr-state"
        comboboxProps={{ withinPortal: true }}
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
      tabs={[{ value: 'overview', label: t('overview'), content: overview }]}
      sideTabs={[
        { value: 'attachments', label: t('attachments'), content: <RequestAttachments request={record} onChanged={() => record && refresh(record.id)} /> },
      ]}
      footer={<RecordDrawerFooter {...drawer.footerProps} />}
    />
  );
}
