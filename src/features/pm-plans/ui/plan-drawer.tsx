import { useState } from 'react';
import { Controller } from 'react-hook-form';
import {
  Alert,
  Badge,
  Button,
  Chip,
  Grid,
  Group,
  List,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AsyncMultiSelect,
  EmptyState,
  RecordDrawer,
  RecordDrawerFooter,
  RichTextField,
  notifyError,
  notifySuccess,
  removeWithConfirmation,
  useDebouncedValue,
  useDrawerRecord,
  useRecordForm,
  useSaveHandler,
  useStaleEdit,
  type ListData,
  type ListDrawerProps,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useAppData } from '../../../web/lib/app-data';
import { formatDateTime, formatDay } from '../../../web/lib/format';
import { ProcedureSelect } from '../../procedures/ui/procedure-select';
import { TeamSelect } from '../../teams/ui/team-select';
import { WorkStationSelect } from '../../work-stations/ui/work-station-select';
import { WORK_ORDER_PRIORITIES } from '../../work-orders/work-order-values';
import type { MeterDto } from '../../meters/meters.schema';
import { MONTH_WEEKS, PLAN_FREQUENCIES, PLAN_SCHEDULES, PLAN_TRIGGERS, WEEKDAYS, planInputSchema, type OccurrenceDto, type PlanDto } from '../pm-plans.schema';
import './labels';

interface FormValues {
  name: string;
  assetIds: number[];
  workStationId: number | null;
  title: string;
  instructions: string;
  priority: string;
  duration: string;
  teamId: number | null;
  procedureId: number | null;
  assignees: string[];
  parts: { partId: number; quantity: number }[];
  trigger: string;
  frequency: string;
  interval: number | string;
  weekdays: string[];
  monthlyMode: string;
  monthDay: number | string;
  monthWeek: string | null;
  monthWeekday: string | null;
  schedule: string;
  startDate: string;
  endDate: string;
  leadDays: number | string;
  meterId: string | null;
  meterEvery: number | string;
  meterThreshold: number | string;
  meterLeadUnits: number | string;
}

const today = () => new Date().toISOString().slice(0, 10);

function toForm(p: PlanDto | undefined): FormValues {
  return {
    name: p?.name ?? '',
    assetIds: p?.assetIds ?? [],
    workStationId: p?.workStationId ?? null,
    title: p?.title ?? '',
    instructions: p?.instructions ?? '',
    priority: p?.priority ?? 'medium',
    duration: p?.duration ?? '',
    teamId: p?.teamId ?? null,
    procedureId: p?.procedureId ?? null,
    assignees: (p?.assignees ?? []).map(String),
    parts: (p?.parts ?? []).map(({ partId, quantity }) => ({ partId, quantity })),
    trigger: p?.trigger ?? 'calendar',
    frequency: p?.frequency ?? 'weekly',
    interval: p?.interval ?? 1,
    weekdays: p?.weekdays ?? [],
    monthlyMode: p?.monthlyMode ?? 'day',
    monthDay: p?.monthDay ?? '',
    monthWeek: p?.monthWeek ? String(p.monthWeek) : null,
    monthWeekday: p?.monthWeekday ?? null,
    schedule: p?.schedule ?? 'fixed',
    startDate: p?.startDate ?? today(),
    endDate: p?.endDate ?? '',
    leadDays: p?.leadDays ?? 0,
    meterId: p?.meterId ? String(p.meterId) : null,
    meterEvery: p?.meterEvery ?? '',
    meterThreshold: p?.meterThreshold ?? '',
    meterLeadUnits: p?.meterLeadUnits ?? 0,
  };
}

/** The form as the API takes it: the schema's own preprocessing turns blanks into "not given". */
const toBody = (v: FormValues) => ({ ...v, meterId: v.meterId ? Number(v.meterId) : null, monthWeek: v.monthWeek ? Number(v.monthWeek) : null });

/** The next 12 due days (or meter values) of the plan as it stands in the form, asked of the server as you type. */
function Preview({ values }: { values: FormValues }) {
  const { t } = useTranslation('pmPlans');
  const body = useDebouncedValue(JSON.stringify(toBody(values)), 400);
  const query = useQuery({
    queryKey: ['pm-plans', 'preview', body],
    queryFn: () => api.post<{ dueDates: string[]; createDates: string[]; meterValues: number[] }>('/pm-plans/preview-plan', JSON.parse(body)),
    retry: false,
    placeholderData: (previous) => previous,
  });
  if (query.isError)
    return (
      <Alert color="yellow" data-testid="pm-preview-error">
        {t('previewError')}
      </Alert>
    );
  const data = query.data;
  if (!data || (!data.dueDates.length && !data.meterValues.length))
    return (
      <Text size="sm" c="dimmed">
        {t('previewEmpty')}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="pm-preview">
      {data.dueDates.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('preview')}
          </Text>
          <List size="sm" spacing={2}>
            {data.dueDates.map((d, i) => (
              <List.Item key={d} data-testid="pm-preview-date">
                {formatDay(d)}
                {data.createDates[i] !== d && <Text span size="xs" c="dimmed">{` (${t('createdOn', { day: formatDay(data.createDates[i]) })})`}</Text>}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {data.meterValues.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('previewMeter')}
          </Text>
          <Text size="sm" data-testid="pm-preview-meter">
            {data.meterValues.join(', ')}
          </Text>
        </>
      )}
    </Stack>
  );
}

/** The plan's occurrences: created (with their work order) and skipped (with the reason). */
function History({ planId }: { planId: number }) {
  const { t } = useTranslation('pmPlans');
  const query = useQuery({
    queryKey: ['pm-plans', 'occurrences', planId],
    queryFn: ({ signal }) => api.get<{ occurrences: OccurrenceDto[] }>(`/pm-plans/get-occurrences/${planId}`, { signal }),
  });
  const rows = query.data?.occurrences ?? [];
  if (query.isError) return <Alert color="red">{t('failedFetchOne')}</Alert>;
  if (!query.isLoading && !rows.length) return <EmptyState title={t('historyEmpty')} />;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped data-testid="pm-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('occurrence.due')}</Table.Th>
            <Table.Th>{t('occurrence.asset')}</Table.Th>
            <Table.Th>{t('occurrence.status')}</Table.Th>
            <Table.Th>{t('occurrence.workOrder')}</Table.Th>
            <Table.Th>{t('occurrence.completed')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((o) => (
            <Table.Tr key={o.id}>
              <Table.Td>{formatDay(o.dueDate)}</Table.Td>
              <Table.Td>{o.assetName ?? ''}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={o.status === 'skipped' ? 'gray' : 'blue'}>
                  {t(`occurrence.${o.status}`)}
                </Badge>
                {o.reason && (
                  <Text size="xs" c="dimmed">
                    {o.reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{o.workOrderId ? `WO-${String(o.workOrderId).padStart(4, '0')}` : ''}</Table.Td>
              <Table.Td>{formatDateTime(o.completedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Asks for the reason, then skips the plan's next occurrence. */
function SkipModal({ planId, opened, onClose, onDone }: { planId: number; opened: boolean; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('pmPlans');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const skip = async () => {
    try {
      await api.post(`/pm-plans/skip-next/${planId}`, { reason });
      notifySuccess(t('skipped'));
      setReason('');
      setError(undefined);
      onDone();
      onClose();
    } catch (err) {
      const body = (err as { body?: { error?: string; issues?: { message: string }[] } }).body;
      if (body?.issues?.length) setError(body.issues[0].message);
      else notifyError(body?.error ?? t('failedSkip'));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('skipTitle')} centered>
      <Stack>
        <TextInput
          label={t('skipReason')}
          withAsterisk
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
          data-autofocus
          data-testid="pm-skip-reason"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:confirm.cancel')}
          </Button>
          <Button onClick={() => void skip()} data-testid="pm-skip-confirm">
            {t('skipConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The plan drawer: what work, for what, when; a live preview of the next 12 dates; pause, resume, skip; occurrences. */
export function PlanDrawer(props: ListDrawerProps) {
  const { t } = useTranslation('pmPlans');
  const queryClient = useQueryClient();
  const workers = useAppData().data?.workers ?? [];
  const {
    record,
    loading,
    key: recordKey,
  } = useDrawerRecord<PlanDto>({
    queryKey: 'pm-plans',
    id: props.id,
    path: (id) => `/pm-plans/get-plan/${id}`,
    itemKey: 'plan',
    errorMessage: t('failedFetchOne'),
  });
  const form = useRecordForm(planInputSchema, record, toForm);
  const errors = form.formState.errors;
  const values = form.watch();
  const [skipping, setSkipping] = useState(false);
  const staleEdit = useStaleEdit(() => queryClient.refetchQueries({ queryKey: recordKey, exact: true }));
  const meterAsset = values.assetIds.length === 1 ? values.assetIds[0] : null;
  const metersQuery = useQuery({
    queryKey: ['meters', 'of-asset', meterAsset],
    queryFn: ({ signal }) => api.get<{ meters: MeterDto[] }>('/meters/list-meters', { query: { assetId: meterAsset! }, signal }),
    enabled: meterAsset !== null && values.trigger !== 'calendar',
  });

  const refresh = () => {
    props.invalidate();
    void queryClient.invalidateQueries({ queryKey: ['pm-plans'] });
  };

  const save = useSaveHandler({
    form,
    id: record?.id,
    onStale: staleEdit.onStale,
    messages: { added: t('added'), updated: t('updated'), addFailed: t('failedAdd'), updateFailed: t('failedUpdate') },
    update: async (id, parsed) => {
      const res = await api.put<{ plan: PlanDto }>(`/pm-plans/update-plan/${id}`, { ...(parsed as object), updatedAt: record?.updatedAt });
      queryClient.setQueryData(recordKey, { plan: res.plan });
      refresh();
    },
    add: async (parsed) => {
      const res = await api.post<ListData & { plan: PlanDto }>('/pm-plans/add-plan', parsed, { query: props.query as never });
      props.onList(res);
      props.onCreated(res.plan.id);
    },
  });

  const setPaused = async (paused: boolean) => {
    if (!record) return;
    try {
      const res = await api.put<{ plan: PlanDto }>(`/pm-plans/${paused ? 'pause' : 'resume'}/${record.id}`);
      queryClient.setQueryData(recordKey, { plan: res.plan });
      notifySuccess(paused ? t('pausedMessage') : t('resumedMessage'));
      refresh();
    } catch {
      notifyError(t('failedAction'));
    }
  };

  const remove = (id: number) =>
    removeWithConfirmation({
      confirm: t('deleteConfirm'),
      remove: () => api.del<ListData>(`/pm-plans/delete-plan/${id}`, { query: props.query as never }),
      success: t('deleted'),
      failure: t('failedDelete'),
      onRemoved: (list) => {
        props.onList(list);
        props.onClose();
      },
    });

  const half = { base: 12, sm: 6 };
  const number = (name: 'interval' | 'monthDay' | 'leadDays' | 'meterEvery' | 'meterThreshold' | 'meterLeadUnits', testId: string, min?: number) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={t(`field.${name}`)}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          min={min}
          error={errors[name]?.message}
          data-testid={testId}
        />
      )}
    />
  );
  const select = (
    name: 'priority' | 'trigger' | 'frequency' | 'monthWeek' | 'monthWeekday' | 'meterId',
    data: { value: string; label: string }[],
    testId: string,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={t(`field.${name === 'meterId' ? 'meter' : name}`)}
          data={data}
          value={field.value as string | null}
          onChange={field.onChange}
          error={errors[name]?.message}
          allowDeselect={false}
          data-testid={testId}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );

  const planTab = (
    <Grid gutter="md">
      <Grid.Col span={12}>
        <TextInput label={t('field.name')} withAsterisk {...form.register('name')} error={errors.name?.message} data-testid="pm-name" />
      </Grid.Col>
      <Grid.Col span={half}>
        <Controller
          control={form.control}
          name="assetIds"
          render={({ field }) => (
            <AsyncMultiSelect
              path="/assets/get-assets-options"
              pageSize={5}
              label={t('field.assets')}
              value={field.value}
              onChange={(v) => field.onChange(v)}
              initialOptions={record?.assets.map((a) => ({ value: a.id, label: a.name })) ?? []}
              error={errors.assetIds?.message ?? (errors.assetIds as unknown as { root?: { message?: string } })?.root?.message}
              testId="pm-assets"
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={half}>
        <Controller
          control={form.control}
          name="workStationId"
          render={({ field }) => (
            <WorkStationSelect
              label={t('field.workStation')}
              value={field.value}
              onChange={(v) => field.onChange(v)}
              initialOption={record?.workStation ? { value: record.workStation.id, label: record.workStation.name } : null}
              error={errors.workStationId?.message}
              allowAddNew={false}
              testId="pm-workstation"
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <Text size="sm" fw={600}>
          {t('tabs.trigger')}
        </Text>
      </Grid.Col>
      <Grid.Col span={half}>
        {select(
          'trigger',
          PLAN_TRIGGERS.map((v) => ({ value: v, label: t(`trigger.${v}`) })),
          'pm-trigger',
        )}
      </Grid.Col>
      {values.trigger !== 'meter' && (
        <>
          <Grid.Col span={{ base: 6, sm: 3 }}>{number('interval', 'pm-interval', 1)}</Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3 }}>
            {select(
              'frequency',
              PLAN_FREQUENCIES.map((v) => ({ value: v, label: t(`frequency.${v}`) })),
              'pm-frequency',
            )}
          </Grid.Col>
          {values.frequency === 'weekly' && (
            <Grid.Col span={12}>
              <Text size="sm" mb={4}>
                {t('field.weekdays')}
              </Text>
              <Controller
                control={form.control}
                name="weekdays"
                render={({ field }) => (
                  <Chip.Group multiple value={field.value} onChange={field.onChange}>
                    <Group gap={6} data-testid="pm-weekdays">
                      {WEEKDAYS.map((d) => (
                        <Chip key={d} value={d} size="xs">
                          {t(`weekday.${d}`)}
                        </Chip>
                      ))}
                    </Group>
                  </Chip.Group>
                )}
              />
            </Grid.Col>
          )}
          {values.frequency === 'monthly' && (
            <>
              <Grid.Col span={12}>
                <Controller
                  control={form.control}
                  name="monthlyMode"
                  render={({ field }) => (
                    <SegmentedControl
                      fullWidth
                      value={field.value}
                      onChange={field.onChange}
                      data={['day', 'weekday'].map((v) => ({ value: v, label: t(`monthlyMode.${v}`) }))}
                      data-testid="pm-monthly-mode"
                    />
                  )}
                />
              </Grid.Col>
              {values.monthlyMode === 'day' ? (
                <Grid.Col span={half}>{number('monthDay', 'pm-month-day', 1)}</Grid.Col>
              ) : (
                <>
                  <Grid.Col span={half}>
                    {select(
                      'monthWeek',
                      MONTH_WEEKS.map((v) => ({ value: String(v), label: t(`monthWeek.${v}`) })),
                      'pm-month-week',
                    )}
                  </Grid.Col>
                  <Grid.Col span={half}>
                    {select(
                      'monthWeekday',
                      WEEKDAYS.map((v) => ({ value: v, label: t(`weekday.${v}`) })),
                      'pm-month-weekday',
                    )}
                  </Grid.Col>
                </>
              )}
            </>
          )}
          <Grid.Col span={12}>
            <Controller
              control={form.control}
              name="schedule"
              render={({ field }) => (
                <Select
                  label={t('field.schedule')}
                  data={PLAN_SCHEDULES.map((v) => ({ value: v, label: t(`schedule.${v}`) }))}
                  value={field.value}
                  onChange={field.onChange}
                  allowDeselect={false}
                  data-testid="pm-schedule"
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
          </Grid.Col>
          <Grid.Col span={half}>
            <TextInput
              type="date"
              label={t('field.startDate')}
              withAsterisk
              {...form.register('startDate')}
              error={errors.startDate?.message}
              data-testid="pm-start"
            />
          </Grid.Col>
          <Grid.Col span={half}>
            <TextInput type="date" label={t('field.endDate')} {...form.register('endDate')} error={errors.endDate?.message} data-testid="pm-end" />
          </Grid.Col>
          <Grid.Col span={12}>{number('leadDays', 'pm-lead-days', 0)}</Grid.Col>
        </>
      )}
      {values.trigger !== 'calendar' && (
        <>
          <Grid.Col span={half}>
            {select(
              'meterId',
              (metersQuery.data?.meters ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${m.unit})` })),
              'pm-meter',
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3 }}>{number('meterEvery', 'pm-meter-every')}</Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3 }}>{number('meterThreshold', 'pm-meter-threshold')}</Grid.Col>
          <Grid.Col span={half}>{number('meterLeadUnits', 'pm-meter-lead', 0)}</Grid.Col>
        </>
      )}
      <Grid.Col span={12}>
        <Preview values={values} />
      </Grid.Col>
    </Grid>
  );

  const workTab = (
    <Grid gutter="md">
      <Grid.Col span={12}>
        <TextInput label={t('field.title')} withAsterisk {...form.register('title')} error={errors.title?.message} data-testid="pm-title" />
      </Grid.Col>
      <Grid.Col span={half}>
        {select(
          'priority',
          WORK_ORDER_PRIORITIES.map((v) => ({ value: v, label: t(`priority.${v}`) })),
          'pm-priority',
        )}
      </Grid.Col>
      <Grid.Col span={half}>
        <TextInput label={t('field.duration')} placeholder="01:30" {...form.register('duration')} error={errors.duration?.message} data-testid="pm-duration" />
      </Grid.Col>
      <Grid.Col span={half}>
        <Controller
          control={form.control}
          name="teamId"
          render={({ field }) => (
            <TeamSelect label={t('field.team')} value={field.value} onChange={field.onChange} error={errors.teamId?.message} testId="pm-team" />
          )}
        />
      </Grid.Col>
      <Grid.Col span={half}>
        <Controller
          control={form.control}
          name="assignees"
          render={({ field }) => (
            <MultiSelect
              label={t('field.assignees')}
              data={workers.map((w) => ({ value: String(w.id), label: `${w.firstName} ${w.lastName}`.trim() || w.email }))}
              value={field.value}
              onChange={field.onChange}
              searchable
              error={errors.assignees?.message as string | undefined}
              data-testid="pm-assignees"
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={half}>
        <Controller
          control={form.control}
          name="parts"
          render={({ field }) => (
            <AsyncMultiSelect
              path="/parts/get-parts-options"
              label={t('field.parts')}
              value={field.value.map((p) => p.partId)}
              onChange={(ids) => field.onChange(ids.map((partId) => field.value.find((p) => p.partId === partId) ?? { partId, quantity: 1 }))}
              initialOptions={record?.parts.map((p) => ({ value: p.partId, label: p.name })) ?? []}
              error={errors.parts?.message}
              testId="pm-parts"
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={half}>
        <Controller
          control={form.control}
          name="procedureId"
          render={({ field }) => (
            <ProcedureSelect
              label={t('field.procedure')}
              value={field.value}
              onChange={field.onChange}
              error={errors.procedureId?.message}
              testId="pm-procedure"
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <Controller
          control={form.control}
          name="instructions"
          render={({ field }) => (
            <RichTextField label={t('field.instructions')} value={field.value} onChange={field.onChange} error={errors.instructions?.message} />
          )}
        />
      </Grid.Col>
    </Grid>
  );

  const tabs = [
    { value: 'plan', label: t('tabs.plan'), content: planTab },
    { value: 'work', label: t('tabs.work'), content: workTab },
    ...(record ? [{ value: 'history', label: t('tabs.history'), content: <History planId={record.id} /> }] : []),
  ];

  return (
    <>
      <RecordDrawer
        opened
        alert={staleEdit.alert}
        onClose={props.onClose}
        title={record ? record.name : props.id === null ? t('newTitle') : ''}
        headerRight={
          record ? (
            <Group gap="xs">
              <Badge variant="light" color={record.paused ? 'gray' : 'green'} data-testid="pm-state">
                {record.paused ? t('paused') : t('active')}
              </Badge>
              <Button size="xs" variant="default" onClick={() => void setPaused(!record.paused)} data-testid="pm-pause">
                {record.paused ? t('resume') : t('pause')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setSkipping(true)} data-testid="pm-skip">
                {t('skip')}
              </Button>
            </Group>
          ) : null
        }
        loading={loading}
        errors={errors}
        onSubmit={save}
        activity={{ entityType: 'pm-plan', entityId: record?.id }}
        tabs={tabs}
        footer={
          <RecordDrawerFooter
            onDelete={record && (() => void remove(record.id))}
            deleteLabel={t('deleteButton')}
            saving={form.formState.isSubmitting}
            saveLabel={t('save')}
            deleteTestId="delete-button"
            saveTestId="save-button"
          />
        }
        testId="pm-plan-drawer"
      />
      {record && (
        <SkipModal
          planId={record.id}
          opened={skipping}
          onClose={() => setSkipping(false)}
          onDone={() => {
            void queryClient.refetchQueries({ queryKey: recordKey, exact: true });
            refresh();
          }}
        />
      )}
    </>
  );
}
