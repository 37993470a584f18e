import { Grid, MultiSelect, Select, Text } from '@mantine/core';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DateTimeField, EmptyState, FormField, isBlankHtml, optionOf, RichTextField, FormTextInput } from '../../../web/components';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { suggestedWorkers } from '../../../web/lib/worker-options';
import { AssetFormField } from '../../assets/ui/asset-select';
import { QuotationSelect } from '../../quotations/ui/quotation-select';
import { WORK_ORDER_PRIORITIES, type WorkOrderDto } from '../work-orders.schema';
import { CostSummary } from './cost-summary';
import { fromPicker, toPicker } from './picker-values';

export interface FormValues {
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

export function toForm(r: WorkOrderDto | undefined): FormValues {
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
export function payloadOf(v: FormValues) {
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

type Form = UseFormReturn<FormValues>;

/** The Overview tab: the cost so far, the failure codes it was closed with, then the order's fields. */
export function WorkOrderOverview({ form, record, id }: { form: Form; record: WorkOrderDto | undefined; id: number | null }) {
  const { t } = useTranslation('workOrders');
  const { t: tf } = useTranslation('failureCodes');
  const { t: tc } = useTranslation();
  const isManager = useIsManager();
  const workers = useAppData().data?.workers ?? [];
  // the people related to the chosen asset are suggested first
  const workerOptions = suggestedWorkers(workers, form.watch('assetId') as number | null, { suggested: tc('select.suggested'), others: tc('select.others') });
  return (
    <Grid>
      {id !== null && (
        <Grid.Col span={12}>
          <CostSummary workOrderId={id} />
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
        <FormTextInput form={form} name="title" label={t('field.title')} withAsterisk testId="wo-title" />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <FormTextInput form={form} name="duration" label={t('field.duration')} placeholder="02:30" testId="wo-duration" />
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
        <AssetFormField
          form={form}
          label={t('field.asset')}
          initialOption={optionOf(record?.asset)}
          testId="wo-asset"
          down={{ label: t('field.assetDown'), testId: 'wo-asset-down' }}
        />
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
}

/** The Operations tab: the instructions (rich text), with a hint while they are empty. */
export function WorkOrderOperations({ form }: { form: Form }) {
  const { t } = useTranslation('workOrders');
  const instructions = form.watch('instructions');
  return (
    <>
      {isBlankHtml(instructions) && <EmptyState title={t('operationsEmpty')} description={t('operationsEmptyHint')} />}
      <FormField form={form} name="instructions" component={RichTextField} label={t('field.instructions')} />
    </>
  );
}
