import { useMemo } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { Grid, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DayField, FormField, optionOf, pickerDay, FormTextarea, FormTextInput } from '../../../web/components';
import { useAppData } from '../../../web/lib/app-data';
import { suggestedWorkers } from '../../../web/lib/worker-options';
import { AssetFormField } from '../../assets/ui/asset-select';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import {
  FREQUENCIES,
  MAINTENANCE_TYPES,
  NEEDS_FAILURE,
  NEEDS_SCHEDULE,
  PRIORITIES,
  REQUESTER_TYPES,
  RISK_LEVELS,
  URGENCY_LEVELS,
  type MaintenanceRequestDto,
  type MaintenanceRequestInput,
} from '../maintenance-requests.schema';
import './labels';

export interface FormValues {
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

export function toForm(r: MaintenanceRequestDto | undefined): FormValues {
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
function visibleFields(type: string | null, requester: string | null) {
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
export function payloadOf(v: MaintenanceRequestInput) {
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

/** The request's Overview: the fields, with those its type and requester call for (spec doc 2). */
export function MaintenanceRequestOverview({ form, record }: { form: UseFormReturn<FormValues>; record: MaintenanceRequestDto | undefined }) {
  const { t } = useTranslation('maintenanceRequests');
  const workers = useAppData().data?.workers ?? [];
  const errors = form.formState.errors;
  const [type, requester] = useWatch({ control: form.control, name: ['maintenanceType', 'requester'] });
  const show = visibleFields(type, requester);
  const options = useMemo(
    () => ({
      type: MAINTENANCE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) })),
      requester: REQUESTER_TYPES.map((v) => ({ value: v, label: t(`requesterType.${v}`) })),
      priority: PRIORITIES.map((v) => ({ value: v, label: t(`priority.${v}`) })),
      urgency: URGENCY_LEVELS.map((v) => ({ value: v, label: t(`urgency.${v}`) })),
      risk: RISK_LEVELS.map((v) => ({ value: v, label: t(`risk.${v}`) })),
      frequency: FREQUENCIES.map((v) => ({ value: v, label: t(`frequency.${v}`) })),
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
    <FormField form={form} name={name} component={Select} label={label} withAsterisk data={data} data-testid={testId} comboboxProps={{ withinPortal: true }} />
  );
  const dateField = (name: 'dateOfRequest' | 'scheduleDate', label: string, testId: string) => (
    <DayField form={form} name={name} label={label} testId={testId} />
  );

  return (
    <Grid gutter="md">
      <Grid.Col span={12}>
        <FormTextInput form={form} name="title" label={t('field.title')} withAsterisk testId="mr-title" />
      </Grid.Col>
      <Grid.Col span={12}>
        <FormTextarea form={form} name="problemDescription" label={t('field.description')} withAsterisk minRows={3} testId="mr-description" />
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
          <AssetFormField
            form={form}
            label={t('field.asset')}
            withAsterisk
            initialOption={optionOf(record?.asset)}
            testId="mr-asset"
            down={{ label: t('field.assetDown'), testId: 'mr-asset-down' }}
          />
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
            <FormTextInput form={form} name="failureReason" label={t('field.failureReason')} withAsterisk testId="mr-failure" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('urgencyLevel', t('field.urgencyLevel'), options.urgency, 'mr-urgency')}</Grid.Col>
        </>
      )}
      {show.schedule && <Grid.Col span={{ base: 12, sm: 6 }}>{dateField('scheduleDate', t('field.scheduleDate'), 'mr-schedule')}</Grid.Col>}
      {show.frequency && <Grid.Col span={{ base: 12, sm: 6 }}>{selectField('frequency', t('field.frequency'), options.frequency, 'mr-frequency')}</Grid.Col>}
      {show.predictive && (
        <>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <FormTextInput form={form} name="sensorData" label={t('field.sensorData')} withAsterisk testId="mr-sensor" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <FormTextInput form={form} name="condition" label={t('field.condition')} withAsterisk testId="mr-condition" />
          </Grid.Col>
        </>
      )}
    </Grid>
  );
}
