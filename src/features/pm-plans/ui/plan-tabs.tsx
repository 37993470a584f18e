import { Controller } from 'react-hook-form';
import { Chip, Grid, Group, MultiSelect, NumberInput, SegmentedControl, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncMultiSelect, FormField, RichTextField, optionOf, FormTextInput } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useAppData } from '../../../web/lib/app-data';
import { ProcedureSelect } from '../../procedures/ui/procedure-select';
import { TeamSelect } from '../../teams/ui/team-select';
import { WorkStationSelect } from '../../work-stations/ui/work-station-select';
import { WORK_ORDER_PRIORITIES } from '../../work-orders/work-order-values';
import type { MeterDto } from '../../meters/meters.schema';
import { MONTH_WEEKS, PLAN_FREQUENCIES, PLAN_SCHEDULES, PLAN_TRIGGERS, WEEKDAYS, type PlanDto } from '../pm-plans.schema';
import './labels';
import type { UseFormReturn } from 'react-hook-form';
import type { FormValues } from './plan-form';
import { Preview } from './plan-drawer-parts';

type PlanForm = UseFormReturn<FormValues>;

/** The plan form's number and select fields, each a Controller with the field's label and error. */
function usePlanFields(form: PlanForm) {
  const { t } = useTranslation('pmPlans');
  const errors = form.formState.errors;
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
    name: 'priority' | 'trigger' | 'frequency' | 'monthWeek' | 'monthWeekday' | 'meterId' | 'schedule',
    data: { value: string; label: string }[],
    testId: string,
  ) => (
    <FormField
      form={form}
      name={name}
      component={Select}
      label={t(`field.${name === 'meterId' ? 'meter' : name}`)}
      data={data}
      allowDeselect={false}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
  // a list of values as options labelled from the plan's strings (`frequency.weekly` and so on)
  const choices = (values: readonly (string | number)[], labels: string) => values.map((v) => ({ value: String(v), label: t(`${labels}.${v}`) }));
  return { errors, half, number, select, choices };
}

/** A calendar trigger's fields: every so many days, weeks, months (which days), the schedule, the dates and the lead days. */
function CalendarTriggerFields({ form, values }: { form: PlanForm; values: FormValues }) {
  const { t } = useTranslation('pmPlans');
  const { half, number, select, choices } = usePlanFields(form);
  return (
    <>
      <Grid.Col span={{ base: 6, sm: 3 }}>{number('interval', 'pm-interval', 1)}</Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>{select('frequency', choices(PLAN_FREQUENCIES, 'frequency'), 'pm-frequency')}</Grid.Col>
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
                  data={choices(['day', 'weekday'], 'monthlyMode')}
                  data-testid="pm-monthly-mode"
                />
              )}
            />
          </Grid.Col>
          {values.monthlyMode === 'day' ? (
            <Grid.Col span={half}>{number('monthDay', 'pm-month-day', 1)}</Grid.Col>
          ) : (
            <>
              <Grid.Col span={half}>{select('monthWeek', choices(MONTH_WEEKS, 'monthWeek'), 'pm-month-week')}</Grid.Col>
              <Grid.Col span={half}>{select('monthWeekday', choices(WEEKDAYS, 'weekday'), 'pm-month-weekday')}</Grid.Col>
            </>
          )}
        </>
      )}
      <Grid.Col span={12}>{select('schedule', choices(PLAN_SCHEDULES, 'schedule'), 'pm-schedule')}</Grid.Col>
      <Grid.Col span={half}>
        <FormTextInput form={form} name="startDate" type="date" label={t('field.startDate')} withAsterisk testId="pm-start" />
      </Grid.Col>
      <Grid.Col span={half}>
        <FormTextInput form={form} name="endDate" type="date" label={t('field.endDate')} testId="pm-end" />
      </Grid.Col>
      <Grid.Col span={12}>{number('leadDays', 'pm-lead-days', 0)}</Grid.Col>
    </>
  );
}

/** A meter trigger's fields: the meter (of the plan's one asset), every so many units or a threshold, the lead units. */
function MeterTriggerFields({ form, values }: { form: PlanForm; values: FormValues }) {
  const { half, number, select } = usePlanFields(form);
  const meterAsset = values.assetIds.length === 1 ? values.assetIds[0] : null;
  const metersQuery = useQuery({
    queryKey: ['meters', 'of-asset', meterAsset],
    queryFn: ({ signal }) => api.get<{ meters: MeterDto[] }>('/meters/list-meters', { query: { assetId: meterAsset! }, signal }),
    enabled: meterAsset !== null && values.trigger !== 'calendar',
  });
  return (
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
  );
}

/** The Plan tab: name, assets, station, trigger and schedule (calendar or meter), and the live preview. */
export function PlanScheduleTab({ form, record, values }: { form: PlanForm; record: PlanDto | undefined; values: FormValues }) {
  const { t } = useTranslation('pmPlans');
  const { errors, half, select, choices } = usePlanFields(form);
  return (
    <Grid gutter="md">
      <Grid.Col span={12}>
        <FormTextInput form={form} name="name" label={t('field.name')} withAsterisk testId="pm-name" />
      </Grid.Col>
      <Grid.Col span={half}>
        <FormField
          form={form}
          name="assetIds"
          component={AsyncMultiSelect}
          path="/assets/get-assets-options"
          pageSize={5}
          label={t('field.assets')}
          initialOptions={record?.assets.map((a) => ({ value: a.id, label: a.name })) ?? []}
          error={errors.assetIds?.message ?? (errors.assetIds as unknown as { root?: { message?: string } })?.root?.message}
          testId="pm-assets"
        />
      </Grid.Col>
      <Grid.Col span={half}>
        <FormField
          form={form}
          name="workStationId"
          component={WorkStationSelect}
          label={t('field.workStation')}
          initialOption={optionOf(record?.workStation)}
          allowAddNew={false}
          testId="pm-workstation"
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <Text size="sm" fw={600}>
          {t('tabs.trigger')}
        </Text>
      </Grid.Col>
      <Grid.Col span={half}>{select('trigger', choices(PLAN_TRIGGERS, 'trigger'), 'pm-trigger')}</Grid.Col>
      {values.trigger !== 'meter' && <CalendarTriggerFields form={form} values={values} />}
      {values.trigger !== 'calendar' && <MeterTriggerFields form={form} values={values} />}
      <Grid.Col span={12}>
        <Preview values={values} />
      </Grid.Col>
    </Grid>
  );
}

/** The Work tab: title, priority, duration, team, procedure, people, parts and instructions of the orders it makes. */
export function PlanWorkTab({ form, record }: { form: PlanForm; record: PlanDto | undefined }) {
  const { t } = useTranslation('pmPlans');
  const workers = useAppData().data?.workers ?? [];
  const { errors, half, select, choices } = usePlanFields(form);
  return (
    <Grid gutter="md">
      <Grid.Col span={12}>
        <FormTextInput form={form} name="title" label={t('field.title')} withAsterisk testId="pm-title" />
      </Grid.Col>
      <Grid.Col span={half}>{select('priority', choices(WORK_ORDER_PRIORITIES, 'priority'), 'pm-priority')}</Grid.Col>
      <Grid.Col span={half}>
        <FormTextInput form={form} name="duration" label={t('field.duration')} placeholder="01:30" testId="pm-duration" />
      </Grid.Col>
      <Grid.Col span={half}>
        <FormField form={form} name="teamId" component={TeamSelect} label={t('field.team')} testId="pm-team" />
      </Grid.Col>
      <Grid.Col span={half}>
        <FormField
          form={form}
          name="assignees"
          component={MultiSelect}
          label={t('field.assignees')}
          data={workers.map((w) => ({ value: String(w.id), label: `${w.firstName} ${w.lastName}`.trim() || w.email }))}
          searchable
          data-testid="pm-assignees"
          comboboxProps={{ withinPortal: true }}
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
        <FormField form={form} name="procedureId" component={ProcedureSelect} label={t('field.procedure')} testId="pm-procedure" />
      </Grid.Col>
      <Grid.Col span={12}>
        <FormField form={form} name="instructions" component={RichTextField} label={t('field.instructions')} />
      </Grid.Col>
    </Grid>
  );
}
