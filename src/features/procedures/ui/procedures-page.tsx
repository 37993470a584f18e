import { useState } from 'react';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { ActionIcon, Badge, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconHeading, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  drawerListProps,
  ListTextFilter,
  openById,
  RecordDrawer,
  RecordDrawerFooter,
  ServerListScreen,
  recordMessages,
  removeWithConfirmation,
  useDrawerRecord,
  useRecordForm,
  useSaveHandler,
  useServerList,
  useStaleEdit,
  type Column,
  type ListData,
  type ListDrawerProps,
  FormTextarea,
  FormTextInput,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { formatDateTime } from '../../../web/lib/format';
import { FOLLOW_UP_KINDS, STEP_KINDS, procedureInputSchema, type ProcedureDto, type ProcedureListItem, type StepKind } from '../procedures.schema';
import './procedures-i18n';

interface StepForm {
  kind: StepKind;
  label: string;
  required: boolean;
  unit: string;
  meterName: string;
  min: number | string;
  max: number | string;
  options: string[];
  followUpOnFailure: boolean;
}
interface FormValues {
  name: string;
  description: string;
  steps: StepForm[];
}

const newStep = (kind: StepKind): StepForm => ({
  kind,
  label: '',
  required: false,
  unit: '',
  meterName: '',
  min: '',
  max: '',
  options: [],
  followUpOnFailure: false,
});

function toForm(r: ProcedureDto | undefined): FormValues {
  return {
    name: r?.name ?? '',
    description: r?.description ?? '',
    steps: r
      ? r.steps.map((s) => ({
          kind: s.kind,
          label: s.label,
          required: s.required,
          unit: s.unit ?? '',
          meterName: s.meterName ?? '',
          min: s.min ?? '',
          max: s.max ?? '',
          options: s.options,
          followUpOnFailure: s.followUpOnFailure,
        }))
      : [newStep('checkbox')],
  };
}

/** The JSON body: only the fields of each step's kind. */
function payloadOf(v: FormValues) {
  return {
    name: v.name,
    description: v.description || undefined,
    steps: v.steps.map((s) => ({
      kind: s.kind,
      label: s.label,
      required: s.kind === 'heading' ? undefined : s.required,
      ...(s.kind === 'number'
        ? {
            unit: s.unit || undefined,
            meterName: s.meterName || undefined,
            min: s.min === '' ? undefined : Number(s.min),
            max: s.max === '' ? undefined : Number(s.max),
          }
        : {}),
      ...(s.kind === 'choice' ? { options: s.options } : {}),
      ...(FOLLOW_UP_KINDS.includes(s.kind) ? { followUpOnFailure: s.followUpOnFailure } : {}),
    })),
  };
}

/** /settings/procedures: the procedure library (managers edit; everyone reads). */
export default function ProceduresPage() {
  const { t } = useTranslation('procedures');
  const isManager = useIsManager();
  const list = useServerList<ProcedureListItem, { name: 'text' }>({
    queryKey: 'procedures',
    path: '/procedures/list-procedures',
    listKey: 'procedures',
    filters: { name: 'text' },
    errorMessage: t('fetchFailed'),
  });
  // undefined: closed; null: a new procedure; a number: that procedure
  const [selected, setSelected] = useState<number | null | undefined>(undefined);
  const columns: Column<ProcedureListItem>[] = [
    { key: 'name', header: t('name'), hideable: false },
    { key: 'stepCount', header: t('stepCount'), render: (r) => <Badge variant="light">{r.stepCount}</Badge> },
    { key: 'description', header: t('description'), defaultHidden: true },
    { key: 'updatedAt', header: t('updatedAt'), render: (r) => formatDateTime(r.updatedAt) },
  ];
  return (
    <ServerListScreen
      list={list}
      records={{ name: 'procedures', open: openById(setSelected), title: t('title'), addLabel: isManager ? t('add') : undefined }}
      columns={columns}
      filters={<ListTextFilter state={list.state} name="name" placeholder={t('filter')} debounceMs={300} />}
    >
      {selected !== undefined && (
        <ProcedureDrawer
          key={selected ?? 'new'}
          id={selected}
          onClose={() => setSelected(undefined)}
          onCreated={setSelected}
          {...drawerListProps(list)}
          readOnly={!isManager}
        />
      )}
    </ServerListScreen>
  );
}

function ProcedureDrawer(props: ListDrawerProps & { readOnly: boolean }) {
  const { t } = useTranslation('procedures');
  const queryClient = useQueryClient();
  const { record, key, loading } = useDrawerRecord<ProcedureDto>({
    queryKey: 'procedures',
    id: props.id,
    path: (id) => `/procedures/get-procedure/${id}`,
    itemKey: 'procedure',
    errorMessage: t('fetchOneFailed'),
  });
  const form = useRecordForm<FormValues, ProcedureDto>(procedureInputSchema, record, toForm);
  const staleEdit = useStaleEdit(() => queryClient.refetchQueries({ queryKey: key, exact: true }));
  const messages = recordMessages(t);
  const save = useSaveHandler({
    form,
    id: props.id,
    onStale: staleEdit.onStale,
    messages,
    update: async (id) => {
      const res = await api.put<{ procedure: ProcedureDto }>(`/procedures/update-procedure/${id}`, {
        ...payloadOf(form.getValues()),
        version: record?.version,
      });
      queryClient.setQueryData(key, { procedure: res.procedure });
      props.invalidate();
    },
    add: async () => {
      const res = await api.post<ListData & { procedure: ProcedureDto }>('/procedures/add-procedure', payloadOf(form.getValues()), {
        query: props.query as never,
      });
      props.onList(res);
      props.onCreated(res.procedure.id);
    },
  });
  const remove = (id: number) =>
    removeWithConfirmation({
      confirm: messages.confirmDelete,
      remove: () => api.del<ListData>(`/procedures/delete-procedure/${id}`, { query: props.query as never }),
      success: messages.deleted,
      failure: messages.deleteFailed,
      onRemoved: (res) => {
        props.onList(res);
        props.onClose();
      },
    });
  const errors = form.formState.errors;
  return (
    <RecordDrawer<FormValues>
      opened
      alert={staleEdit.alert}
      onClose={props.onClose}
      title={record ? record.name : props.id !== null ? '' : t('newTitle')}
      loading={loading}
      errors={errors}
      onSubmit={save}
      activity={{ entityType: 'procedure', entityId: props.id }}
      tabs={[
        {
          value: 'overview',
          label: t('common:drawer.overview'),
          content: (
            <fieldset disabled={props.readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Stack gap="sm">
                <FormTextInput form={form} name="name" label={t('name')} withAsterisk testId="procedure-name" />
                <FormTextarea form={form} name="description" label={t('description')} minRows={2} testId="procedure-description" />
                <StepEditor form={form} readOnly={props.readOnly} />
              </Stack>
            </fieldset>
          ),
        },
      ]}
      footer={
        !props.readOnly && (
          <RecordDrawerFooter
            onDelete={record && (() => void remove(record.id))}
            deleteLabel={t('delete')}
            saving={form.formState.isSubmitting}
            saveTestId="procedure-save"
          />
        )
      }
      testId="procedure-drawer"
    />
  );
}

/** The ordered steps: add (a step or a heading), move up and down, remove; each kind shows its own fields. */
export function StepEditor({ form, readOnly }: { form: UseFormReturn<FormValues>; readOnly: boolean }) {
  const { t } = useTranslation('procedures');
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  const errors = form.formState.errors.steps;
  const kinds = form.watch('steps').map((s) => s.kind);
  return (
    <Stack gap="sm" data-testid="step-editor">
      <Text fw={600}>{t('steps')}</Text>
      {typeof errors?.message === 'string' && (
        <Text size="sm" c="red" role="alert">
          {errors.message}
        </Text>
      )}
      {errors?.root?.message && (
        <Text size="sm" c="red" role="alert">
          {errors.root.message}
        </Text>
      )}
      {!steps.fields.length && (
        <Text size="sm" c="dimmed">
          {t('noSteps')}
        </Text>
      )}
      {steps.fields.map((field, i) => (
        <StepCard
          key={field.id}
          form={form}
          i={i}
          kind={kinds[i] ?? field.kind}
          readOnly={readOnly}
          last={i === steps.fields.length - 1}
          onMove={(to) => steps.move(i, to)}
          onRemove={() => steps.remove(i)}
        />
      ))}
      {!readOnly && (
        <Group gap="xs">
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => steps.append(newStep('checkbox'))} data-testid="add-step">
            {t('addStep')}
          </Button>
          <Button variant="subtle" leftSection={<IconHeading size={16} />} onClick={() => steps.append(newStep('heading'))} data-testid="add-heading">
            {t('addHeading')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

interface StepCardProps {
  form: UseFormReturn<FormValues>;
  i: number;
  kind: StepKind;
  readOnly: boolean;
  last: boolean;
  onMove(to: number): void;
  onRemove(): void;
}

/** One step: its kind, the move and remove buttons, its label and the fields of its kind. */
function StepCard({ form, i, kind, readOnly, last, onMove, onRemove }: StepCardProps) {
  const { t } = useTranslation('procedures');
  const e = form.formState.errors.steps?.[i];
  return (
    <Card withBorder padding="sm" data-testid={`step-${i}`} bg={kind === 'heading' ? 'var(--mantine-color-default-hover)' : undefined}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <Controller
            control={form.control}
            name={`steps.${i}.kind`}
            render={({ field: f }) => (
              <Select
                label={t('step.kind')}
                data={STEP_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
                value={f.value}
                onChange={(v) => v && f.onChange(v)}
                allowDeselect={false}
                w={170}
                data-testid={`step-${i}-kind`}
              />
            )}
          />
          <Group gap={4} wrap="nowrap" ml="auto">
            {[
              { key: 'up', label: t('step.moveUp'), Icon: IconArrowUp, disabled: i === 0, onClick: () => onMove(i - 1) },
              { key: 'down', label: t('step.moveDown'), Icon: IconArrowDown, disabled: last, onClick: () => onMove(i + 1) },
              { key: 'remove', label: t('step.remove'), Icon: IconTrash, disabled: false, onClick: onRemove, color: 'red' },
            ].map(({ key, label, Icon, disabled, onClick, color }) => (
              <ActionIcon
                key={key}
                variant="subtle"
                color={color}
                size="lg"
                aria-label={label}
                disabled={readOnly || disabled}
                onClick={onClick}
                data-testid={`step-${i}-${key}`}
              >
                <Icon size={18} />
              </ActionIcon>
            ))}
          </Group>
        </Group>
        <TextInput label={t('step.label')} withAsterisk {...form.register(`steps.${i}.label`)} error={e?.label?.message} data-testid={`step-${i}-label`} />
        {kind === 'number' && <NumberStepFields form={form} i={i} />}
        {kind === 'choice' && (
          <Controller
            control={form.control}
            name={`steps.${i}.options`}
            render={({ field: f }) => (
              <TagsInput
                label={t('step.options')}
                description={t('step.optionsHint')}
                value={f.value}
                onChange={f.onChange}
                error={e?.options?.message}
                data-testid={`step-${i}-options`}
              />
            )}
          />
        )}
        {kind !== 'heading' && <StepSwitches form={form} i={i} kind={kind} />}
      </Stack>
    </Card>
  );
}

/** A number step's unit, bounds and meter. */
function NumberStepFields({ form, i }: { form: UseFormReturn<FormValues>; i: number }) {
  const { t } = useTranslation('procedures');
  const e = form.formState.errors.steps?.[i];
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
      <TextInput label={t('step.unit')} {...form.register(`steps.${i}.unit`)} error={e?.unit?.message} data-testid={`step-${i}-unit`} />
      {(['min', 'max'] as const).map((end) => (
        <Controller
          key={end}
          control={form.control}
          name={`steps.${i}.${end}`}
          render={({ field: f }) => (
            <NumberInput label={t(`step.${end}`)} value={f.value} onChange={f.onChange} error={e?.[end]?.message} data-testid={`step-${i}-${end}`} />
          )}
        />
      ))}
      <TextInput
        label={t('step.meterName')}
        description={t('step.meterNameHint')}
        style={{ gridColumn: '1 / -1' }}
        {...form.register(`steps.${i}.meterName`)}
        error={e?.meterName?.message}
        data-testid={`step-${i}-meter`}
      />
    </SimpleGrid>
  );
}

/** A step's "required" switch and, for the kinds that can fail, its "follow-up on failure" switch. */
function StepSwitches({ form, i, kind }: { form: UseFormReturn<FormValues>; i: number; kind: StepKind }) {
  const { t } = useTranslation('procedures');
  return (
    <Group gap="lg">
      <Controller
        control={form.control}
        name={`steps.${i}.required`}
        render={({ field: f }) => (
          <Switch label={t('step.required')} checked={f.value} onChange={(ev) => f.onChange(ev.currentTarget.checked)} data-testid={`step-${i}-required`} />
        )}
      />
      {FOLLOW_UP_KINDS.includes(kind) && (
        <Controller
          control={form.control}
          name={`steps.${i}.followUpOnFailure`}
          render={({ field: f }) => (
            <Switch label={t('step.followUp')} checked={f.value} onChange={(ev) => f.onChange(ev.currentTarget.checked)} data-testid={`step-${i}-follow-up`} />
          )}
        />
      )}
    </Group>
  );
}
