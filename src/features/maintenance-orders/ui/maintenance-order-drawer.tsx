import { useEffect, useState } from 'react';
import { Controller } from 'react-hook-form';
import { Alert, Grid, Select, Textarea } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AsyncMultiSelect,
  DayField,
  FormField,
  RecordDrawer,
  RecordDrawerFooter,
  drawerTexts,
  pickerDay,
  useRecordDrawer,
  type ListDrawerProps,
  type SelectOption,
  optionOf,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { AssetSelect } from '../../assets/ui/asset-select';
import { ServiceMultiSelect } from '../../service-catalog/ui/service-select';
import { MAINTENANCE_TYPES, type MaintenanceRequestDto } from '../../maintenance-requests/maintenance-requests.schema';
import { MaintenanceRequestSelect } from '../../maintenance-requests/ui/maintenance-request-select';
import { ORDER_STATUSES, maintenanceOrderInputSchema, newMaintenanceOrderInputSchema, type MaintenanceOrderDto } from '../maintenance-orders.schema';
import './labels';

interface FormValues {
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

function toForm(o: MaintenanceOrderDto | undefined): FormValues {
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
  const { record, form, errors } = drawer;
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

  const changeStatus = async (status: string | null) => {
    if (!record || !status || status === record.status) return;
    await drawer.act(
      (id) => api.put(`/maintenance-orders/update-status/${id}`, { status }),
      t('statusUpdated'),
      t('failedStatus'),
      () => drawer.refresh(record.id),
    );
  };

  const dateField = (name: 'scheduleDate' | 'dueDate' | 'completionDate', testId: string) => (
    <DayField form={form} name={name} label={t(`field.${name}`)} testId={testId} disabled={locked} />
  );

  const overview = (
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
        <FormField
          form={form}
          name="assetId"
          component={AssetSelect}
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
        <Textarea
          label={t('field.rootCauseAnalysis')}
          autosize
          minRows={3}
          {...form.register('rootCauseAnalysis')}
          error={errors.rootCauseAnalysis?.message}
          disabled={locked}
          data-testid="mo-rca"
        />
      </Grid.Col>
    </Grid>
  );

  return (
    <RecordDrawer
      {...drawer.drawerProps}
      headerRight={
        record ? (
          <Select
            aria-label={t('field.status')}
            size="xs"
            w={150}
            data={ORDER_STATUSES.map((v) => ({ value: v, label: t(`status.${v}`) }))}
            value={record.status}
            onChange={changeStatus}
            allowDeselect={false}
            disabled={locked}
            data-testid="mo-status"
            comboboxProps={{ withinPortal: true }}
          />
        ) : null
      }
      tabs={[{ value: 'overview', label: t('overview'), content: overview }]}
      footer={locked ? null : <RecordDrawerFooter {...drawer.footerProps} />}
    />
  );
}
