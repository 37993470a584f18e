import { useEffect, useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { Alert, Grid, Select } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncMultiSelect, DayField, FormField, optionOf, pickerDay, type SelectOption, FormTextarea } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { AssetFormField } from '../../assets/ui/asset-select';
import { ServiceMultiSelect } from '../../service-catalog/ui/service-select';
import { MAINTENANCE_TYPES, type MaintenanceRequestDto } from '../../maintenance-requests/maintenance-requests.schema';
import { MaintenanceRequestSelect } from '../../maintenance-requests/ui/maintenance-request-select';
import type { MaintenanceOrderDto } from '../maintenance-orders.schema';
import './labels';

export interface FormValues {
  maintenanceRequestId: number | null;
  maintenanceType: string | null;
  assetId: number | null;
  services: number[];
  parts: number[];
  scheduleDate: string | null;
  dueDate: string | null;
  completionDate: string | null;
  rootCauseAnalysis: string;
}

export function toForm(o: MaintenanceOrderDto | undefined): FormValues {
  return {
    maintenanceRequestId: o?.request_id ?? null,
    maintenanceType: o?.maintenanceType ?? null,
    assetId: o?.assetId ?? null,
    services: o?.services.map((s) => s.id) ?? [],
    parts: o?.parts.map((p) => p.id) ?? [],
    scheduleDate: pickerDay(o?.scheduleDate),
    dueDate: pickerDay(o?.dueDate),
    completionDate: pickerDay(o?.completionDate),
    rootCauseAnalysis: o?.rootCauseAnalysis ?? '',
  };
}

/**
 * The order's Overview: request, type, asset, services, parts, dates, root cause; read-only once validated.
 * `fromRequest` (a new order from 'Create Order'): the request, its type, asset and schedule date fill the form.
 */
export function MaintenanceOrderOverview(props: { form: UseFormReturn<FormValues>; record: MaintenanceOrderDto | undefined; fromRequest?: number }) {
  const { t } = useTranslation('maintenanceOrders');
  const { form, record, fromRequest } = props;
  const errors = form.formState.errors;
  const locked = record?.status === 'validate';
  // the asset label to show after a request filled the asset in
  const [assetOption, setAssetOption] = useState<SelectOption | null>(null);

  const request = useQuery({
    queryKey: ['maintenance-requests', 'one', fromRequest],
    queryFn: ({ signal }) => api.get<{ maintenanceRequest: MaintenanceRequestDto }>(`/maintenance-requests/get-maintenance-request/${fromRequest}`, { signal }),
    enabled: fromRequest !== undefined,
  }).data?.maintenanceRequest;
  useEffect(() => {
    if (!request) return;
    form.setValue('maintenanceRequestId', request.id);
    form.setValue('maintenanceType', request.maintenanceType);
    form.setValue('assetId', request.assetId);
    if (request.asset) setAssetOption({ value: request.asset.id, label: request.asset.name });
    if (request.scheduleDate) form.setValue('scheduleDate', pickerDay(request.scheduleDate));
  }, [request, form]);

  const dateField = (name: 'scheduleDate' | 'dueDate' | 'completionDate', testId: string) => (
    <DayField form={form} name={name} label={t(`field.${name}`)} testId={testId} disabled={locked} />
  );

  return (
    <Grid gutter="md">
      {locked && (
        <Grid.Col span={12}>
          <Alert color="green" icon={<IconLock size={16} />} data-testid="mo-locked">
            {t('locked')}
          </Alert>
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Controller
          control={form.control}
          name="maintenanceRequestId"
          render={({ field }) => (
            <MaintenanceRequestSelect
              label={t('field.request')}
              withAsterisk
              value={field.value}
              onChange={(v, option) => {
                field.onChange(v);
                // choosing a request fills the maintenance type and the asset (spec doc 1)
                if (option) {
                  form.setValue('maintenanceType', option.maintenanceType, { shouldValidate: form.formState.isSubmitted });
                  if (option.asset) setAssetOption({ value: option.asset.id, label: option.asset.name });
                  form.setValue('assetId', option.assetId, { shouldValidate: form.formState.isSubmitted });
                }
              }}
              initialOption={
                record?.maintenanceRequest
                  ? { value: record.maintenanceRequest.id, label: `${record.maintenanceRequest.maintenanceRequestId} ${record.maintenanceRequest.title}` }
                  : request
                    ? { value: request.id, label: `${request.maintenanceRequestId} ${request.title}` }
                    : null
              }
              error={errors.maintenanceRequestId?.message}
              disabled={locked || fromRequest !== undefined}
              testId="mo-request"
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField
          form={form}
          name="maintenanceType"
          component={Select}
          label={t('field.maintenanceType')}
          withAsterisk
          data={MAINTENANCE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))}
          disabled={locked}
          data-testid="mo-type"
          comboboxProps={{ withinPortal: true }}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <AssetFormField
          form={form}
          label={t('field.asset')}
          withAsterisk
          initialOption={assetOption ?? optionOf(record?.asset)}
          disabled={locked}
          testId="mo-asset"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField
          form={form}
          name="services"
          component={ServiceMultiSelect}
          label={t('field.services')}
          withAsterisk
          initialOptions={record?.services.map((s) => ({ value: s.id, label: s.title })) ?? []}
          error={errors.services?.message ?? errors.services?.root?.message}
          disabled={locked}
          testId="mo-services"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormField
          form={form}
          name="parts"
          component={AsyncMultiSelect}
          path="/parts/get-parts-options"
          label={t('field.parts')}
          initialOptions={record?.parts.map((p) => ({ value: p.id, label: p.name })) ?? []}
          disabled={locked}
          testId="mo-parts"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{dateField('scheduleDate', 'mo-schedule')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{dateField('dueDate', 'mo-due')}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{dateField('completionDate', 'mo-completion')}</Grid.Col>
      <Grid.Col span={12}>
        <FormTextarea form={form} name="rootCauseAnalysis" label={t('field.rootCauseAnalysis')} minRows={3} disabled={locked} testId="mo-rca" />
      </Grid.Col>
    </Grid>
  );
}
