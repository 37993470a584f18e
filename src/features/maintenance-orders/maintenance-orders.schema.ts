import { z } from '../../shared/zod-setup';
import { blankToUndefined, renameAliases } from '../../shared/reference-fields';
import { canonicalChoice, lowerCasedOrAbsent } from '../../shared/spelling.schema';
import { versionField } from '../../shared/edit-version';
import { listAnswers, messageSchema, multiValue, pageQuerySchema } from '../../shared/pagination';
import { calendarDateField, dateField } from '../../shared/dates';
import { evenWhenFieldsFail, idField } from '../../shared/validation';
import { MAINTENANCE_TYPES } from '../maintenance-requests/maintenance-requests.schema';

/** DESIGN 8: canonical order statuses; read-only once `validate` (the spec's "approved"). */
export const ORDER_STATUSES = ['new', 'in-progress', 'validate', 'cancel'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const STATUS_ALIASES: Record<string, OrderStatus> = {
  inprogress: 'in-progress',
  approved: 'validate',
  validated: 'validate',
  cancelled: 'cancel',
  canceled: 'cancel',
};

/** `Inprogress`, `In Progress`, `approved`, `Validate`, … to the canonical status; anything else unchanged. */
export const canonicalOrderStatus = canonicalChoice(STATUS_ALIASES, { dashes: true });

export const ORDER_MESSAGES = {
  request: 'Select Maintenance Request',
  type: 'Maintenance Type is required',
  asset: 'Select Asset',
  services: 'Select at least one service',
  dueFuture: 'Due date must be in the future',
  locked: 'This maintenance order is validated and can no longer be changed',
} as const;

/** A select's id: numbers, numeric strings, or { id } / { value } objects. */
const toId = (v: unknown) => (v && typeof v === 'object' ? ((v as { id?: unknown }).id ?? (v as { value?: unknown }).value) : v);

const requiredId = (message: string) =>
  z.preprocess((v) => {
    const id = toId(blankToUndefined(v));
    return id === 0 || id === '0' ? undefined : id;
  }, idField(message));

const idList = (message: string, itemMessage: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v.map(toId) : v),
    z.array(idField(itemMessage), { error: message }).max(100, 'At most 100 items'),
  );

const requiredDate = (label: string) => dateField(`${label} is required`, `${label} must be a valid date`);

/** Other spellings of the same fields: the response's `maintenanceRequest` / `request_id` / `asset`. */
const FIELD_ALIASES: Record<string, string> = {
  maintenanceRequest: 'maintenanceRequestId',
  request_id: 'maintenanceRequestId',
  requestId: 'maintenanceRequestId',
  asset: 'assetId',
};

const normaliseBody = renameAliases(FIELD_ALIASES);

const orderFields = z.strictObject({
  maintenanceRequestId: requiredId(ORDER_MESSAGES.request),
  maintenanceType: z.preprocess(lowerCasedOrAbsent, z.enum(MAINTENANCE_TYPES, { error: ORDER_MESSAGES.type })),
  assetId: requiredId(ORDER_MESSAGES.asset),
  services: idList(ORDER_MESSAGES.services, ORDER_MESSAGES.services).refine((a) => a.length > 0, ORDER_MESSAGES.services),
  parts: idList('Parts must be a list of parts', 'Select a valid part').optional(),
  scheduleDate: requiredDate('Schedule date'),
  dueDate: requiredDate('Due date'),
  completionDate: requiredDate('Completion date'),
  rootCauseAnalysis: z.preprocess(
    blankToUndefined,
    z.string({ error: 'Root cause analysis must be text' }).trim().max(5000, 'Root cause analysis must be at most 5000 characters').optional(),
  ),
  status: z.preprocess((v) => canonicalOrderStatus(blankToUndefined(v)), z.enum(ORDER_STATUSES, { error: 'Invalid status selected' }).optional()),
  /** On update: the version the edit was made from (decision 025). */
  version: versionField,
});

/**
 * A due date is "in the future" when it is after now; a date without a time (midnight UTC, what a date
 * picker sends) counts from the start of its day, so today's date is accepted.
 */
export function isFutureDue(d: Date, now = new Date()) {
  const dateOnly = d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
  if (dateOnly) return d.toISOString().slice(0, 10) >= now.toISOString().slice(0, 10);
  return d.getTime() > now.getTime();
}

/** Body of update-maintenance-order/{id}: existing history may keep a past due date. */
export const maintenanceOrderInputSchema = z.preprocess(normaliseBody, orderFields);
export type MaintenanceOrderInput = z.output<typeof maintenanceOrderInputSchema>;

/** Body of add-maintenance-order: the same, and the due date must be in the future. */
export const newMaintenanceOrderInputSchema = z.preprocess(
  normaliseBody,
  orderFields.refine((v) => !(v.dueDate instanceof Date) || Number.isNaN(v.dueDate.getTime()) || isFutureDue(v.dueDate), {
    path: ['dueDate'],
    message: ORDER_MESSAGES.dueFuture,
    ...evenWhenFieldsFail,
  } as never),
);

/**
 * PUT reschedule-maintenance-order/{id} (the calendar's drag): the new due day (orders keep days, at UTC
 * midnight); `version` as for any edit (decision 025). A past day is accepted, as in an update.
 */
export const rescheduleMaintenanceOrderSchema = z.strictObject({
  dueDate: calendarDateField('Due date is required', 'Due date must be a valid date'),
  version: versionField,
});
export type RescheduleMaintenanceOrderInput = z.output<typeof rescheduleMaintenanceOrderSchema>;

/**
 * Body of maintenance-requests/create-order/{requestId} (decision 037): the new order's own fields and rules,
 * the request coming from the path. The form opens pre-filled from the request; nothing is created before Save.
 */
export const orderFromRequestInputSchema = z.preprocess(
  normaliseBody,
  orderFields.omit({ maintenanceRequestId: true }).refine((v) => !(v.dueDate instanceof Date) || Number.isNaN(v.dueDate.getTime()) || isFutureDue(v.dueDate), {
    path: ['dueDate'],
    message: ORDER_MESSAGES.dueFuture,
    ...evenWhenFieldsFail,
  } as never),
);
export type OrderFromRequestInput = z.output<typeof orderFromRequestInputSchema>;

/** PUT update-status/{id}: body { status } with any accepted spelling. */
export const orderStatusInputSchema = z.strictObject({
  status: z.preprocess((v) => canonicalOrderStatus(blankToUndefined(v)), z.enum(ORDER_STATUSES, { error: 'Status is required' })),
});

export const maintenanceOrdersQuerySchema = pageQuerySchema.extend({
  status: multiValue(z.preprocess(canonicalOrderStatus, z.enum(ORDER_STATUSES, { error: 'Invalid status filter' }))),
  title: z.string().trim().max(200, 'Title must be at most 200 characters').optional(),
  name: z.string().trim().max(200, 'Name must be at most 200 characters').optional(),
});
export type MaintenanceOrdersQuery = z.output<typeof maintenanceOrdersQuerySchema>;

/** 'PM-0001' from 1. */
export const orderDisplayId = (id: number) => `PM-${String(id).padStart(4, '0')}`;

/** A maintenance order as the API returns it (spec doc 1 section 3). */
export const maintenanceOrderDtoSchema = z.object({
  id: z.number(),
  maintenanceOrderId: z.string(),
  status: z.enum(ORDER_STATUSES),
  maintenanceType: z.enum(MAINTENANCE_TYPES),
  assetId: z.number().nullable(),
  asset: z.object({ id: z.number(), name: z.string() }).nullable(),
  services: z.array(z.object({ id: z.number(), title: z.string(), WorkStations: z.array(z.object({ id: z.number(), name: z.string() })) })),
  parts: z.array(z.object({ id: z.number(), name: z.string() })),
  request_id: z.number(),
  maintenanceRequest: z.object({ id: z.number(), maintenanceRequestId: z.string(), title: z.string(), state: z.string() }).nullable(),
  scheduleDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  completionDate: z.string().nullable(),
  rootCauseAnalysis: z.string().nullable(),
  /** Bumped by every edit; an update sends it back (decision 025). */
  version: z.number(),
  createdAt: z.string(),
});
export type MaintenanceOrderDto = z.infer<typeof maintenanceOrderDtoSchema>;

/** The maintenance order routes' answers (issue 28): a changed order comes under `order` and `maintenanceOrder`. */
const both = z.object({ order: maintenanceOrderDtoSchema, maintenanceOrder: maintenanceOrderDtoSchema });
export const maintenanceOrderAnswers = {
  ...listAnswers('maintenanceOrders', maintenanceOrderDtoSchema, 'maintenanceOrder'),
  both,
  changed: both.extend(messageSchema.shape),
  status: both.extend(messageSchema.shape).extend({ status: z.enum(ORDER_STATUSES) }),
};
export type MaintenanceOrderList = z.infer<typeof maintenanceOrderAnswers.list>;
