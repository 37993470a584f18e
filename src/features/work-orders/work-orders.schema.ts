import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { canonicalChoice } from '../../shared/spelling.schema';
import { listAnswers, messageSchema, multiValue, pageQuerySchema } from '../../shared/pagination';
import { idField, requiredString } from '../../shared/validation';
import { updatedAtField } from '../../shared/edit-version';

import { calendarDateField, clearableDateField, dateField, timeZoneField } from '../../shared/dates';
import { locationFilterField } from '../locations/locations.schema';
import { failureCodesOfOrderSchema } from '../failure-codes/failure-codes.schema';
import { HOLD_REASONS } from '../failure-codes/failure-code-values';
import { partsReadinessSchema } from '../stock/stock.schema';
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES, type WorkOrderPriority, type WorkOrderStatus } from './work-order-values';

export { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES, type WorkOrderPriority, type WorkOrderStatus } from './work-order-values';

/** The spec's other spellings, stored as the canonical value. */
const STATUS_ALIASES: Record<string, WorkOrderStatus> = {
  pending: 'assigned',
  open: 'assigned',
  finished: 'completed',
  closed: 'completed',
  inprogress: 'in-progress',
  in_progress: 'in-progress',
  canceled: 'cancelled',
  cancel: 'cancelled',
};
const PRIORITY_ALIASES: Record<string, WorkOrderPriority> = { urgent: 'critical' };

export const workOrderStatusField = z.preprocess(
  canonicalChoice(STATUS_ALIASES),
  z.enum(WORK_ORDER_STATUSES, { error: 'Status must be one of assigned, in-progress, completed, cancelled' }),
);
export const workOrderPriorityField = z.preprocess(
  canonicalChoice(PRIORITY_ALIASES),
  z.enum(WORK_ORDER_PRIORITIES, { error: 'Priority must be one of lowest, low, medium, high, critical' }),
);

/** The due-date views of the list (open orders only). */
export const WORK_ORDER_DUE_VIEWS = ['overdue', 'today', 'week'] as const;
export type WorkOrderDueView = (typeof WORK_ORDER_DUE_VIEWS)[number];
/** An optional field of an update: '' or null clears it (null), a field left out keeps its value (issue 45). */
const blankToNull = (v: unknown) => (v === '' || v === null ? null : v);

/** An optional date: ISO 8601 string (or Date in the browser); null clears it, left out keeps it. */
const optionalDate = (label: string) => clearableDateField(`${label} must be a valid date`);

/** A required date: missing or empty gives `required`, anything unparsable `invalid`. */
const requiredDate = dateField;

/** 'HH:MM' (hours may exceed 24 for long jobs; minutes 00 to 59). */
export const DURATION_PATTERN = /^\d{1,4}:[0-5]\d$/;

/**
 * Spec "Work order": the drawer's Overview and Operations, shared by the form and add/update routes. On update a
 * field left out keeps its value and an explicit null (or '') clears it; priority and status are never cleared.
 */
export const workOrderInputSchema = z
  .strictObject({
    title: requiredString('Work Order Title is required').max(200, 'Title must be at most 200 characters'),
    duration: z.preprocess(blankToNull, z.string().trim().regex(DURATION_PATTERN, 'Duration must be in HH:MM format').nullable().optional()),
    status: workOrderStatusField.optional(),
    priority: z.preprocess(blankToUndefined, workOrderPriorityField.optional()),
    startDate: optionalDate('Start date'),
    endDate: optionalDate('End date'),
    dueDate: optionalDate('Due date'),
    instructions: z.preprocess(blankToNull, z.string().max(100_000, 'Instructions are too long').nullable().optional()),
    assetId: z.preprocess((v) => (v === '' || v === null || v === 0 ? null : v), idField('Asset is invalid').nullable().optional()),
    /** The quotation the work was quoted in: null (or empty) unlinks it, absent keeps it. */
    quotationId: z.preprocess((v) => (v === '' || v === 0 ? null : v), idField('Quotation is invalid').nullable().optional()),
    assignees: z.array(idField('Assignee is invalid'), { error: 'Assignees must be a list of user ids' }).max(50, 'At most 50 assignees').optional(),
    /** "Asset is down" (decision 079): true opens a down interval of the asset with this order as source, false closes it; absent keeps. */
    assetDown: z.boolean({ error: 'Asset is down must be true or false' }).optional(),
    /** Closing it (status completed): the failure codes (decision 080). */
    ...failureCodesOfOrderSchema,
    /** On update: the `updatedAt` of the copy the edit was made from (decision 025). */
    updatedAt: updatedAtField,
  })
  .refine((v) => !v.startDate || !v.endDate || v.startDate.getTime() <= v.endDate.getTime(), {
    message: 'End time must be after start time',
    path: ['endDate'],
  });
export type WorkOrderInput = z.input<typeof workOrderInputSchema>;
export type WorkOrderValues = z.output<typeof workOrderInputSchema>;

/**
 * PUT reschedule-work-order/{id} (the calendar's drag): the new due day; the due time of day stays what it is in
 * `timeZone` (the reader's, UTC when absent). `updatedAt` as for any edit (decision 025).
 */
export const rescheduleWorkOrderSchema = z.strictObject({
  dueDate: calendarDateField('Due date is required', 'Due date must be a valid date'),
  timeZone: timeZoneField.optional(),
  updatedAt: updatedAtField,
});
export type RescheduleWorkOrderInput = z.output<typeof rescheduleWorkOrderSchema>;

/**
 * PUT update-status/{id}: body status (canonical or the spec's other spellings). `updatedAt` (optional): the
 * copy the change was made from; when sent, a changed order answers 409 with the current one (the technician's
 * offline changes, decision 041).
 */
export const workOrderStatusSchema = z.strictObject({ status: workOrderStatusField, updatedAt: updatedAtField, ...failureCodesOfOrderSchema });
export type WorkOrderStatusInput = z.output<typeof workOrderStatusSchema>;

/**
 * Bounds of one labour or parts line, for the team's lines and contractors' alike (issue 45): a line costs at
 * most MAX_LINE_COST_MINOR (10^10 minor units), so an organisation's sums stay exact integers (2^53) until some
 * 900,000 lines all at the maximum, and a share holds at most MAX_SHARE_LINES of each kind.
 */
export const MAX_LABOR_HOURS = 24;
/** How far past the server's clock an entry may end (a phone's clock runs a little ahead). */
export const CLOCK_SKEW_MINUTES = 5;
export const MAX_LINE_QUANTITY = 100_000;
/** A rate per hour, minor units: 24 hours of it stay within MAX_LINE_COST_MINOR. */
export const MAX_HOURLY_RATE_MINOR = 400_000_000;
export const MAX_LINE_COST_MINOR = 10_000_000_000;
export const MAX_SHARE_LINES = 200;
export const LABOR_SPAN_MESSAGE = `A time entry can be at most ${MAX_LABOR_HOURS} hours`;
export const LABOR_FUTURE_MESSAGE = 'End time cannot be in the future';
const QUANTITY_MESSAGE = 'Quantity must be a whole number of at least 1';

/** The span rule of a time entry, on the form and the routes. */
export const withinLaborSpan = (v: { startTime: Date; endTime: Date }) => v.endTime.getTime() - v.startTime.getTime() <= MAX_LABOR_HOURS * 3_600_000;

/**
 * A time entry ends by now, give or take a phone's clock (CLOCK_SKEW_MINUTES), measured against this machine's
 * clock when checked (the form's, the route's); the services check again with the server's `now()`.
 */
export const endsByNow = (v: { endTime: Date }, nowMs = Date.now()) => v.endTime.getTime() <= nowMs + CLOCK_SKEW_MINUTES * 60_000;

/** Spec "Labor form": start and end are dates, reason an integer > 0, start before end; at most 24 hours, ending by now (issue 45). */
export const laborInputSchema = z
  .strictObject({
    startTime: requiredDate('Start time is required', 'Start time must be a valid date'),
    endTime: requiredDate('End time is required', 'End time must be a valid date'),
    reason: z.preprocess(
      blankToUndefined,
      z.coerce.number({ error: 'Reason is required' }).int('Reason is required').gt(0, 'Reason is required').max(2147483647, 'Reason is required'),
    ),
    /** Managers may log time for someone else; a worker always logs their own. */
    workerId: z.preprocess(blankToUndefined, idField('Worker is invalid').optional()),
  })
  .refine((v) => v.startTime.getTime() < v.endTime.getTime(), { message: 'startTime must be before endTime', path: ['endTime'] })
  .refine(withinLaborSpan, { message: LABOR_SPAN_MESSAGE, path: ['endTime'] })
  .refine((v) => endsByNow(v), { message: LABOR_FUTURE_MESSAGE, path: ['endTime'] });
export type LaborInput = z.input<typeof laborInputSchema>;

const partLine = z.union(
  [
    idField('Part is invalid'),
    z.strictObject({
      partId: idField('Part is invalid'),
      quantity: z.coerce
        .number({ error: QUANTITY_MESSAGE })
        .int(QUANTITY_MESSAGE)
        .min(1, QUANTITY_MESSAGE)
        .max(MAX_LINE_QUANTITY, 'Quantity is too large')
        .default(1),
      /** The stock location the part comes from (decision 071); the default location when omitted. */
      locationId: z.preprocess(blankToUndefined, idField('Location is invalid').optional()),
    }),
  ],
  { error: 'Each part must be a part id or { partId, quantity }' },
);

/** POST add-parts/{id}: parts as [partId, …] or [{ partId, quantity }]. */
export const addPartsSchema = z.strictObject({
  parts: z.array(partLine, { error: 'Parts are required' }).min(1, 'Select at least one part').max(100, 'At most 100 parts at once'),
});
export type AddPartsInput = z.input<typeof addPartsSchema>;

export const workOrderListQuerySchema = pageQuerySchema.extend({
  status: multiValue(workOrderStatusField),
  title: z.string().trim().max(200, 'Title filter must be at most 200 characters').optional(),
  /** One asset's orders (analytics' drill-down, decision 038). */
  assetId: z.preprocess(blankToUndefined, idField('Asset is invalid').optional()),
  /** Orders on the assets in a location and everything under it (decision 072). */
  locationId: locationFilterField,
  /**
   * The dashboard's figures and the list's quick views (decision 066), open orders only: `overdue` (due before
   * now), `today` (due from now to the end of today), `week` (due from now to the end of the sixth day after today).
   */
  due: z.preprocess(blankToUndefined, z.enum(WORK_ORDER_DUE_VIEWS, { error: `Due must be one of ${WORK_ORDER_DUE_VIEWS.join(', ')}` }).optional()),
  /** `me`: assigned to the caller; `none`: nobody assigned. */
  assigned: z.preprocess(blankToUndefined, z.enum(['me', 'none'], { error: 'Assigned must be me or none' }).optional()),
  /** Only orders a preventive-maintenance plan created. */
  pm: z.preprocess(
    (v) => (v === 'true' || v === '1' || v === true ? true : v === '' || v === 'false' || v === '0' || v === false || v === undefined ? undefined : v),
    z.literal(true, { error: 'PM must be true or false' }).optional(),
  ),
  /** The reader's time zone: where "today" starts and ends (UTC without it). */
  timeZone: z.preprocess(blankToUndefined, timeZoneField.optional()),
  /** Only orders on hold (decision 080). */
  onHold: z.preprocess(
    (v) => (v === 'true' || v === '1' || v === true ? true : v === '' || v === 'false' || v === '0' || v === false || v === undefined ? undefined : v),
    z.literal(true, { error: 'On hold must be true or false' }).optional(),
  ),
});
export type WorkOrderListQuery = z.output<typeof workOrderListQuerySchema>;

const positiveId = idField('Invalid id');
export const laborParamsSchema = z.strictObject({ workOrderId: positiveId, laborId: positiveId });
export const partParamsSchema = z.strictObject({ workOrderId: positiveId, partId: positiveId });

/** PUT update-part/{workOrderId}/part/{partId}: the line's new quantity; more is taken from stock, less goes back (decision 071). */
export const partQuantitySchema = z.strictObject({
  quantity: z.coerce.number({ error: QUANTITY_MESSAGE }).int(QUANTITY_MESSAGE).min(1, QUANTITY_MESSAGE).max(MAX_LINE_QUANTITY, 'Quantity is too large'),
});

/** 'WO-0001' from the per-organisation id. */
export const workOrderDisplayId = (id: number) => `WO-${String(id).padStart(4, '0')}`;

/** A work order as the API returns it. */
export const workOrderDtoSchema = z.object({
  id: z.number(),
  workOrderId: z.string(),
  title: z.string(),
  duration: z.string().nullable(),
  status: z.enum(WORK_ORDER_STATUSES),
  priority: z.enum(WORK_ORDER_PRIORITIES),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  instructions: z.string().nullable(),
  assetId: z.number().nullable(),
  asset: z.object({ id: z.number(), name: z.string() }).nullable(),
  quotationId: z.number().nullable(),
  /** Its quotation's number (Q-0001). */
  quotation: z.object({ id: z.number(), number: z.string() }).nullable(),
  assignees: z.array(z.object({ id: z.number(), firstName: z.string(), lastName: z.string() })),
  /** Its asset is down because of it (decision 079): the order's own down interval is open. */
  assetDown: z.boolean().optional(),
  createdById: z.number().nullable(),
  /** Not made by a preventive-maintenance plan (decision 080: closing it may ask for failure codes). */
  reactive: z.boolean(),
  /** Its asset's category: the failure codes offered when closing it. */
  assetCategoryId: z.number().nullable(),
  /** The failure codes it was closed with (decision 080), and their names. */
  problemCodeId: z.number().nullable(),
  causeCodeId: z.number().nullable(),
  remedyCodeId: z.number().nullable(),
  failure: z.object({ problem: z.string(), cause: z.string().nullable(), remedy: z.string().nullable() }).nullable(),
  /** On hold (decision 080): a flag beside the status, why, and since when. */
  onHold: z.boolean(),
  holdReason: z.enum(HOLD_REASONS).nullable(),
  holdNote: z.string().nullable(),
  heldAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkOrderDto = z.infer<typeof workOrderDtoSchema>;

/** A contractor's line (through a shared work order, decision 040): their name and their own price, in minor units. */
export const externalLineSchema = z.object({
  shareId: z.number(),
  name: z.string(),
  /** Hourly rate (labour) or unit price (parts), minor units; null for a worker (amounts are for managers). */
  rateMinor: z.number().nullable(),
  costMinor: z.number().nullable(),
});
export type ExternalLine = z.infer<typeof externalLineSchema>;

export const laborDtoSchema = z.object({
  id: z.number(),
  workOrderId: z.number(),
  /** Null for a contractor's time (`external`). */
  workerId: z.number().nullable(),
  reasonId: z.number().nullable(),
  /** A contractor's time shows their name here (`external` says so). */
  Worker: z.object({ id: z.number().nullable(), firstName: z.string(), lastName: z.string() }),
  TimeTrackReason: z.object({ id: z.number().nullable(), name: z.string() }),
  startDate: z.string(),
  endDate: z.string(),
  createdAt: z.string(),
  external: externalLineSchema.nullable(),
});
export type LaborDto = z.infer<typeof laborDtoSchema>;

export const workOrderPartDtoSchema = z.object({
  id: z.number(),
  workOrderId: z.number(),
  /** Null for a contractor's part (`external`). */
  partId: z.number().nullable(),
  /** salesPrice: the unit price the line kept when the part was used (decision 063); null for a worker (amounts are for managers). */
  Part: z.object({ id: z.number().nullable(), name: z.string(), salesPrice: z.number().nullable() }),
  quantity: z.number(),
  /** The stock location an inventory line comes from (decision 071); null on a contractor's line. */
  locationId: z.number().nullable(),
  external: externalLineSchema.nullable(),
});
export type WorkOrderPartDto = z.infer<typeof workOrderPartDtoSchema>;

/** What a work order costs so far, in minor units; external = reported by contractors through shares. */
export const workOrderCostSchema = z.object({
  laborMinutes: z.number(),
  /** The people's time at the rate each line kept when it was logged (decision 063). */
  laborMinor: z.number(),
  externalLaborMinutes: z.number(),
  externalLaborMinor: z.number(),
  partsMinor: z.number(),
  externalPartsMinor: z.number(),
  totalMinor: z.number(),
});
export type WorkOrderCost = z.infer<typeof workOrderCostSchema>;

/** get-cost's answer: a worker gets the minutes and null for every amount (amounts are for managers). */
export const workOrderCostViewSchema = workOrderCostSchema.extend({
  laborMinor: z.number().nullable(),
  externalLaborMinor: z.number().nullable(),
  partsMinor: z.number().nullable(),
  externalPartsMinor: z.number().nullable(),
  totalMinor: z.number().nullable(),
});
export type WorkOrderCostView =
  | WorkOrderCost
  | (Omit<WorkOrderCost, 'laborMinor' | 'externalLaborMinor' | 'partsMinor' | 'externalPartsMinor' | 'totalMinor'> & {
      laborMinor: null;
      externalLaborMinor: null;
      partsMinor: null;
      externalPartsMinor: null;
      totalMinor: null;
    });

export const workOrderStatisticsSchema = z.object({
  totalPending: z.number(),
  dueNext7Days: z.number(),
  highPriorityPending: z.number(),
});
export type WorkOrderStatistics = z.infer<typeof workOrderStatisticsSchema>;

/** The work order routes' answers (issue 28). */
const labors = z.object({ labors: z.array(laborDtoSchema), workOrderLabors: z.array(laborDtoSchema) });
/** POST use-parts/{id}: take what the order reserves, all its lines or one part's (decision 081). */
export const usePartsSchema = z
  .strictObject({ partId: z.coerce.number({ error: 'Invalid part' }).int('Invalid part').min(1, 'Invalid part').optional() })
  .optional();

// With whether the parts are there (decision 081): what the open order reserves and what lacks where.
const parts = z.object({ workOrderParts: z.array(workOrderPartDtoSchema), partsReadiness: partsReadinessSchema });
export const workOrderAnswers = {
  ...listAnswers('workOrders', workOrderDtoSchema, 'workOrder'),
  /** The figures, also under `statistics`. */
  statistics: workOrderStatisticsSchema.extend({ statistics: workOrderStatisticsSchema }),
  status: messageSchema.extend({ order: workOrderDtoSchema, workOrder: workOrderDtoSchema }),
  cost: z.object({ cost: workOrderCostViewSchema }),
  labors,
  laborAdded: labors.extend(messageSchema.shape).extend({ labor: laborDtoSchema }),
  laborDeleted: labors.extend(messageSchema.shape),
  parts,
  partsChanged: parts.extend(messageSchema.shape),
};
