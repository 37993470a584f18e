import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { calendarDateField, dayRangeChecks } from '../../shared/dates';
import { listAnswerSchema, messageSchema, pageQuerySchema } from '../../shared/pagination';
import { evenWhenFieldsFail, idField, optionalIdField } from '../../shared/validation';
import { DURATION_PATTERN, workOrderPriorityField } from '../work-orders/work-orders.schema';
import { WORK_ORDER_PRIORITIES } from '../work-orders/work-order-values';

// The zod contract of preventive maintenance plans (issue 23): the plan drawer's form and the routes share it.

export const PLAN_TRIGGERS = ['calendar', 'meter', 'both'] as const;
export type PlanTrigger = (typeof PLAN_TRIGGERS)[number];
export const PLAN_FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type PlanFrequency = (typeof PLAN_FREQUENCIES)[number];
export const PLAN_SCHEDULES = ['fixed', 'floating'] as const;
export type PlanSchedule = (typeof PLAN_SCHEDULES)[number];
/** rrule's weekday names. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const MONTHLY_MODES = ['day', 'weekday'] as const;
/** Which weekday of the month: 1st to 4th, or -1 the last. */
export const MONTH_WEEKS = [1, 2, 3, 4, -1] as const;

export const PLAN_MESSAGES = {
  name: 'Plan name is required',
  title: 'Work order title is required',
  target: 'Choose at least one asset or a work station',
  targetBoth: 'Choose assets or a work station, not both',
  interval: 'The interval must be a whole number of at least 1',
  startDate: 'Start date is required',
  startInvalid: 'Start date must be a valid date',
  endInvalid: 'End date must be a valid date',
  endBeforeStart: 'The end date must be on or after the start date',
  leadDays: 'Lead time must be a whole number of days from 0 to 365',
  monthDay: 'Day of the month must be from 1 to 31',
  monthWeek: 'Choose which week of the month',
  monthWeekday: 'Choose the weekday',
  weekday: 'Weekdays must be among MO, TU, WE, TH, FR, SA, SU',
  meterRequired: 'Choose the meter',
  meterRule: 'Give an interval of units or a threshold',
  meterOne: 'Give an interval of units or a threshold, not both',
  meterNotFound: 'Meter not found',
  meterAsset: 'The meter must belong to the plan’s asset (a meter plan has that one asset)',
  meterCounter: 'Every N units needs a counter meter (a gauge goes up and down)',
  meterEvery: 'The meter interval must be greater than 0',
  meterThreshold: 'The threshold must be a number',
  meterLead: 'Lead units must be 0 or more and less than the meter interval',
  reason: 'A reason is required',
  graceDays: 'Grace window must be a whole number of days from 0 to 90',
  assignee: 'Assignee is invalid',
  part: 'Part is invalid',
  quantity: 'Quantity must be a whole number of at least 1',
} as const;

const zeroToUndefined = (v: unknown) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v);
const wholeNumber = (message: string, min: number, max: number) => z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
/** A number field of a form: '' is not given. */
const optionalNumber = (message: string) => z.preprocess(blankToUndefined, z.coerce.number({ error: message }).refine(Number.isFinite, message).optional());

const idList = (itemMessage: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : v),
    z.array(idField(itemMessage), { error: itemMessage }).max(max, `At most ${max} items`),
  );

const partLine = z.strictObject({
  partId: idField(PLAN_MESSAGES.part),
  quantity: z.preprocess((v) => (v === undefined || v === '' || v === null ? 1 : v), wholeNumber(PLAN_MESSAGES.quantity, 1, 1_000_000)),
});

/** A plan's fields as the drawer's form sends them (flat: every field has its message). */
const planShape = z.strictObject({
  name: z.string({ error: PLAN_MESSAGES.name }).trim().min(1, PLAN_MESSAGES.name).max(200, 'Name must be at most 200 characters'),
  assetIds: idList('Asset is invalid', 100),
  workStationId: z.preprocess(zeroToUndefined, idField('Work station is invalid').optional()),
  // The template of the work order each occurrence creates.
  title: z.string({ error: PLAN_MESSAGES.title }).trim().min(1, PLAN_MESSAGES.title).max(200, 'Title must be at most 200 characters'),
  instructions: z.preprocess(blankToUndefined, z.string().max(100_000, 'Instructions are too long').optional()),
  priority: z.preprocess(blankToUndefined, workOrderPriorityField.optional()),
  /** Estimated labour, 'HH:MM' (the work order's duration). */
  duration: z.preprocess(blankToUndefined, z.string().trim().regex(DURATION_PATTERN, 'Duration must be in HH:MM format').optional()),
  teamId: z.preprocess(zeroToUndefined, idField('Team is invalid').optional()),
  /** A procedure of the library, copied into each work order the plan creates. */
  procedureId: z.preprocess(zeroToUndefined, idField('Procedure is invalid').optional()),
  assignees: idList(PLAN_MESSAGES.assignee, 50),
  parts: z.preprocess(
    (v) => (v === undefined || v === null ? [] : v),
    z.array(partLine, { error: 'Parts must be a list of { partId, quantity }' }).max(100, 'At most 100 parts'),
  ),
  // The trigger.
  trigger: z.preprocess((v) => v ?? 'calendar', z.enum(PLAN_TRIGGERS, { error: 'Trigger must be calendar, meter or both' })),
  frequency: z.preprocess((v) => v ?? 'weekly', z.enum(PLAN_FREQUENCIES, { error: 'Frequency must be daily, weekly, monthly or yearly' })),
  interval: z.preprocess((v) => (v === '' || v === null || v === undefined ? 1 : v), wholeNumber(PLAN_MESSAGES.interval, 1, 1000)),
  weekdays: z.preprocess(
    (v) => v ?? [],
    z.array(z.enum(WEEKDAYS, { error: PLAN_MESSAGES.weekday }), { error: PLAN_MESSAGES.weekday }).max(7, PLAN_MESSAGES.weekday),
  ),
  monthlyMode: z.preprocess((v) => v ?? 'day', z.enum(MONTHLY_MODES, { error: 'Monthly mode must be day or weekday' })),
  monthDay: z.preprocess(blankToUndefined, wholeNumber(PLAN_MESSAGES.monthDay, 1, 31).optional()),
  monthWeek: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: PLAN_MESSAGES.monthWeek })
      .refine((n) => (MONTH_WEEKS as readonly number[]).includes(n), PLAN_MESSAGES.monthWeek)
      .optional(),
  ),
  monthWeekday: z.preprocess(blankToUndefined, z.enum(WEEKDAYS, { error: PLAN_MESSAGES.monthWeekday }).optional()),
  schedule: z.preprocess((v) => v ?? 'fixed', z.enum(PLAN_SCHEDULES, { error: 'Schedule must be fixed or floating' })),
  startDate: calendarDateField(PLAN_MESSAGES.startDate, PLAN_MESSAGES.startInvalid),
  // A form's empty end date is no end date.
  endDate: z.preprocess(blankToUndefined, calendarDateField(PLAN_MESSAGES.endInvalid, PLAN_MESSAGES.endInvalid).optional()),
  leadDays: z.preprocess((v) => (v === '' || v === null || v === undefined ? 0 : v), wholeNumber(PLAN_MESSAGES.leadDays, 0, 365)),
  // The meter trigger (meters: src/features/meters).
  meterId: z.preprocess(zeroToUndefined, idField('Meter is invalid').optional()),
  meterEvery: optionalNumber(PLAN_MESSAGES.meterEvery),
  meterThreshold: optionalNumber(PLAN_MESSAGES.meterThreshold),
  meterLeadUnits: z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? 0 : v),
    z.coerce.number({ error: PLAN_MESSAGES.meterLead }).min(0, PLAN_MESSAGES.meterLead),
  ),
  /** On update: the `updatedAt` of the copy the edit was made from (decision 025). */
  updatedAt: z.preprocess(blankToUndefined, z.iso.datetime({ offset: true, error: 'Invalid updatedAt' }).optional()),
});

type PlanShape = z.output<typeof planShape>;

/** The rules between fields; `whole` adds those of a plan to save (a target), which a preview does without. */
const planRules = (whole: boolean) => (v: Partial<PlanShape>, ctx: z.RefinementCtx) => {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (v.assetIds?.length && v.workStationId) issue('workStationId', PLAN_MESSAGES.targetBoth);
  else if (whole && !v.assetIds?.length && !v.workStationId) issue('assetIds', PLAN_MESSAGES.target);
  if (v.startDate && v.endDate && v.endDate < v.startDate) issue('endDate', PLAN_MESSAGES.endBeforeStart);
  if (v.frequency === 'monthly' && v.monthlyMode === 'weekday' && v.schedule === 'fixed') {
    if (v.monthWeek === undefined) issue('monthWeek', PLAN_MESSAGES.monthWeek);
    if (!v.monthWeekday) issue('monthWeekday', PLAN_MESSAGES.monthWeekday);
  }
  const byMeter = v.trigger === 'meter' || v.trigger === 'both';
  if (byMeter) {
    if (!v.meterId) issue('meterId', PLAN_MESSAGES.meterRequired);
    if (v.meterEvery === undefined && v.meterThreshold === undefined) issue('meterEvery', PLAN_MESSAGES.meterRule);
    if (v.meterEvery !== undefined && v.meterThreshold !== undefined) issue('meterThreshold', PLAN_MESSAGES.meterOne);
    if (v.meterEvery !== undefined && !(v.meterEvery > 0)) issue('meterEvery', PLAN_MESSAGES.meterEvery);
    if (v.meterEvery !== undefined && v.meterEvery > 0 && v.meterLeadUnits !== undefined && v.meterLeadUnits >= v.meterEvery)
      issue('meterLeadUnits', PLAN_MESSAGES.meterLead);
  } else if (v.meterThreshold !== undefined || v.meterEvery !== undefined) {
    // A meter rule on a calendar plan would be silently ignored: say so instead.
    if (!v.meterId) issue(v.meterThreshold !== undefined ? 'meterThreshold' : 'meterEvery', PLAN_MESSAGES.meterRequired);
  }
  if (v.meterThreshold !== undefined && !v.meterId && byMeter) issue('meterThreshold', PLAN_MESSAGES.meterRequired);
};

/** POST add-plan / PUT update-plan: the whole plan. */
export const planInputSchema = planShape.superRefine(planRules(true), evenWhenFieldsFail);
export type PlanInput = z.input<typeof planInputSchema>;
export type PlanValues = z.output<typeof planInputSchema>;

/** POST preview-plan: the form as it stands; name, title and target may still be empty. */
export const planPreviewSchema = planShape
  .extend({ name: z.string().max(200).optional(), title: z.string().max(200).optional() })
  .superRefine(planRules(false), evenWhenFieldsFail);
export type PlanPreviewValues = z.output<typeof planPreviewSchema>;

/** POST skip-next/{id}: the reason is kept with the skipped occurrence. */
export const skipInputSchema = z.strictObject({
  reason: z.string({ error: PLAN_MESSAGES.reason }).trim().min(1, PLAN_MESSAGES.reason).max(500, 'Reason must be at most 500 characters'),
  /** One asset of a plan with several; all of them when absent. */
  assetId: z.preprocess(zeroToUndefined, idField('Asset is invalid').optional()),
});
export type SkipInput = z.input<typeof skipInputSchema>;

/** PUT pause/{id} and resume/{id} take no body; PUT settings takes the grace window. */
export const pmSettingsSchema = z.strictObject({ graceDays: wholeNumber(PLAN_MESSAGES.graceDays, 0, 90) });
export type PmSettings = z.output<typeof pmSettingsSchema>;

const optionalId = optionalIdField;
const dayParam = (label: string) => calendarDateField(`${label} is required`, `${label} must be a valid date`);

/** GET get-plans: filters by asset, team and trigger; compliance over the last `complianceDays` days. */
export const planListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(200, 'Name filter must be at most 200 characters').optional(),
  assetId: optionalId('Asset is invalid'),
  teamId: optionalId('Team is invalid'),
  trigger: z.preprocess(blankToUndefined, z.enum(PLAN_TRIGGERS, { error: 'Trigger must be calendar, meter or both' }).optional()),
  /** The compliance period (both or neither; the last 90 days by default). */
  from: calendarDateField('From must be a valid date', 'From must be a valid date').optional(),
  to: calendarDateField('To must be a valid date', 'To must be a valid date').optional(),
});
export type PlanListQuery = z.output<typeof planListQuerySchema>;

/** A date range [from, to] in whole days, to at most five years after from. */
const rangeChecks = dayRangeChecks;

/** GET dry-run: what the generator would create in [from, to] (by creation day). */
export const dryRunQuerySchema = rangeChecks(z.strictObject({ from: dayParam('From'), to: dayParam('To') }));
/** GET planned-occurrences (the calendar): projected occurrences due in [from, to]. */
export const plannedQuerySchema = rangeChecks(
  z.strictObject({
    from: dayParam('From'),
    to: dayParam('To'),
    assetId: optionalId('Asset is invalid'),
    teamId: optionalId('Team is invalid'),
    assigneeId: optionalId('Assignee is invalid'),
  }),
);
/** GET compliance: the organisation's and each plan's compliance for occurrences due in [from, to]. */
export const complianceQuerySchema = dryRunQuerySchema;
export type DateRange = { from: string; to: string };

export const planIdParamsSchema = z.strictObject({ id: idField('Invalid id') });

/** Compliance: occurrences due in the period, those done on time (by the due day plus the grace window). */
export const complianceSchema = z.object({
  due: z.number(),
  onTime: z.number(),
  late: z.number(),
  missed: z.number(),
  skipped: z.number(),
  /** onTime / due, 0..1; null when nothing was due. */
  rate: z.number().nullable(),
});
export type Compliance = z.infer<typeof complianceSchema>;

const named = z.object({ id: z.number(), name: z.string() });

export const planDtoSchema = z.object({
  id: z.number(),
  planId: z.string(),
  name: z.string(),
  assetIds: z.array(z.number()),
  assets: z.array(named),
  workStationId: z.number().nullable(),
  workStation: named.nullable(),
  title: z.string(),
  instructions: z.string().nullable(),
  priority: z.enum(WORK_ORDER_PRIORITIES),
  duration: z.string().nullable(),
  teamId: z.number().nullable(),
  team: named.nullable(),
  assignees: z.array(z.number()),
  parts: z.array(z.object({ partId: z.number(), quantity: z.number(), name: z.string() })),
  procedureId: z.number().nullable(),
  trigger: z.enum(PLAN_TRIGGERS),
  frequency: z.enum(PLAN_FREQUENCIES),
  interval: z.number(),
  weekdays: z.array(z.enum(WEEKDAYS)),
  monthlyMode: z.enum(MONTHLY_MODES),
  monthDay: z.number().nullable(),
  monthWeek: z.number().nullable(),
  monthWeekday: z.enum(WEEKDAYS).nullable(),
  schedule: z.enum(PLAN_SCHEDULES),
  startDate: z.string(),
  endDate: z.string().nullable(),
  leadDays: z.number(),
  meterId: z.number().nullable(),
  meterEvery: z.number().nullable(),
  meterThreshold: z.number().nullable(),
  meterLeadUnits: z.number(),
  paused: z.boolean(),
  nextDue: z.string().nullable(),
  lastCompleted: z.string().nullable(),
  compliance: complianceSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlanDto = z.infer<typeof planDtoSchema>;

/** One occurrence of a plan: created (with its work order) or skipped. */
export const occurrenceDtoSchema = z.object({
  id: z.number(),
  planId: z.number(),
  assetId: z.number().nullable(),
  assetName: z.string().nullable(),
  dueDate: z.string(),
  status: z.enum(['created', 'skipped']),
  reason: z.string().nullable(),
  workOrderId: z.number().nullable(),
  workOrderStatus: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OccurrenceDto = z.infer<typeof occurrenceDtoSchema>;

/** A projected occurrence: not created yet (calendar, dry run). */
export const plannedOccurrenceSchema = z.object({
  planId: z.number(),
  planName: z.string(),
  title: z.string(),
  priority: z.enum(WORK_ORDER_PRIORITIES),
  assetId: z.number().nullable(),
  assetName: z.string().nullable(),
  workStationId: z.number().nullable(),
  teamId: z.number().nullable(),
  assigneeIds: z.array(z.number()),
  dueDate: z.string(),
  /** The day the generator creates its work order (dueDate minus the lead time). */
  createOn: z.string(),
});
export type PlannedOccurrence = z.infer<typeof plannedOccurrenceSchema>;

/** The list with the organisation's compliance over `complianceRange` and the grace window it used. */
const planList = listAnswerSchema('plans', planDtoSchema).extend({
  compliance: complianceSchema,
  graceDays: z.number(),
  complianceRange: z.object({ from: z.string(), to: z.string() }),
});
export type PlanList = z.infer<typeof planList>;

const settings = z.object({ graceDays: z.number() });
const onePlan = messageSchema.extend({ plan: planDtoSchema });
/** The plan routes' answers (issue 28). */
export const planAnswers = {
  list: planList,
  one: z.object({ plan: planDtoSchema }),
  occurrences: z.object({ occurrences: z.array(occurrenceDtoSchema) }),
  add: planList.extend(onePlan.shape),
  update: onePlan,
  remove: planList.extend(messageSchema.shape),
  skipped: onePlan.extend({ occurrences: z.array(occurrenceDtoSchema) }),
  preview: z.object({ dueDates: z.array(z.string()), meterValues: z.array(z.number()), createDates: z.array(z.string()) }),
  dryRun: z.object({ occurrences: z.array(plannedOccurrenceSchema), total: z.number() }),
  planned: z.object({ occurrences: z.array(plannedOccurrenceSchema) }),
  compliance: complianceSchema.extend({ graceDays: z.number(), plans: z.array(z.object({ planId: z.number(), compliance: complianceSchema })) }),
  settings: z.object({ settings }),
  settingsSaved: messageSchema.extend({ settings }),
  generated: messageSchema.extend({ created: z.number() }),
};

export const planDisplayId = (id: number) => `PM-PLAN-${String(id).padStart(4, '0')}`;
