import { z } from '../../shared/zod-setup';
import { DOCUMENT_UPLOAD_RULES, overviewBody } from '../../shared/record-fields.schema';
import { canonicalChoice, lowerCased } from '../../shared/spelling.schema';
import { versionField } from '../../shared/edit-version';
import { listAnswerSchema, messageSchema, multiValue, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { evenWhenFieldsFail, requiredString, idField, optionalIdField } from '../../shared/validation';
import { dateField, optionalDateField } from '../../shared/dates';
import { storedFileSchema, type StoredFile } from '../../shared/stored-file';
import { blankToUndefined, optionalTextField } from '../../shared/reference-fields';

/** Spec doc 2 section 5 "Maintenance request": the five maintenance types. */
export const MAINTENANCE_TYPES = ['corrective', 'preventive', 'predictive', 'emergency', 'proactive'] as const;
export type MaintenanceType = (typeof MAINTENANCE_TYPES)[number];
export const REQUESTER_TYPES = ['employee', 'customer'] as const;
export type RequesterType = (typeof REQUESTER_TYPES)[number];
/** DESIGN 8: the form's five priorities; `urgent` (the validation schema's word) is stored as `critical`. */
export const PRIORITIES = ['lowest', 'low', 'medium', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];
/** DESIGN 8: canonical request states; `inprogress`, `cancel` and `assigned` (= approved) are accepted too. */
export const REQUEST_STATES = ['new', 'approved', 'rejected', 'in-progress', 'completed', 'cancelled'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];
export const URGENCY_LEVELS = ['critical', 'high', 'medium', 'low', 'lowest'] as const;
export const RISK_LEVELS = ['trivial', 'low', 'medium', 'high', 'severe'] as const;
export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'annually'] as const;

/** Types whose failure reason and urgency level are required. */
export const NEEDS_FAILURE = ['corrective', 'emergency'] as const;
/** Types whose schedule date is required. */
export const NEEDS_SCHEDULE = ['preventive', 'predictive', 'proactive'] as const;

/** The spec's conditional messages, word for word. */
export const MR_MESSAGES = {
  assetForEmployee: 'Asset Id is required when requester is an employee',
  failureReason: 'Failure Reason is required for corrective and emergency maintenance',
  urgencyLevel: 'Urgency Level is required for corrective and emergency maintenance',
  scheduleDate: 'Schedule Date is required for preventive, predictive, and proactive maintenance',
  frequency: 'Frequency is required for preventive maintenance',
  sensorData: 'Sensor Data is required for predictive maintenance',
  condition: 'Condition is required for predictive maintenance',
} as const;

const STATE_ALIASES: Record<string, RequestState> = {
  inprogress: 'in-progress',
  'in-progress': 'in-progress',
  cancel: 'cancelled',
  canceled: 'cancelled',
  assigned: 'approved',
};

/** Any accepted spelling of a request state (case, spaces, aliases) to its canonical value, else the input. */
export const canonicalState = canonicalChoice(STATE_ALIASES, { dashes: true });

/** `urgent` is `critical`; case is ignored. */
export const canonicalPriority = canonicalChoice({ urgent: 'critical' });

/** A required choice: anything missing or outside the list gives the one spec message. */
const choice = <T extends readonly [string, ...string[]]>(values: T, message: string, normalise: (v: unknown) => unknown = lowerCased) =>
  z.preprocess((v) => normalise(blankToUndefined(v)), z.enum(values, { error: message }));

const optionalChoice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => lowerCased(blankToUndefined(v)), z.enum(values, { error: message }).optional());

const optionalDate = (invalid: string) => optionalDateField(invalid);

/** An uploaded image or document of a request. */
export const attachmentSchema = storedFileSchema;
export type Attachment = StoredFile;

/** Other spellings the spec uses for the same fields (DESIGN 11); the entity's name wins. */
const FIELD_ALIASES: Record<string, string> = {
  description: 'problemDescription',
  assignTo: 'assignedTo',
  requestorType: 'requester',
  type: 'maintenanceType',
  customerDocuments: 'documents',
  asset: 'assetId',
  customer: 'customerId',
};

/** Unwraps the spec's `overview` envelope and renames aliases, before the closed schema sees the body. */
function normaliseBody(v: unknown) {
  const body = overviewBody(v);
  if (!body) return v;
  for (const [alias, canonical] of Object.entries(FIELD_ALIASES)) {
    if (!(alias in body)) continue;
    if (body[canonical] === undefined) body[canonical] = body[alias];
    delete body[alias];
  }
  return body;
}

const requestFields = z.strictObject({
  title: requiredString('Title is required').max(200, 'Title must be at most 200 characters'),
  problemDescription: requiredString('Description is required').max(5000, 'Description must be at most 5000 characters'),
  maintenanceType: choice(MAINTENANCE_TYPES, 'Maintenance Type is required'),
  requester: choice(REQUESTER_TYPES, 'Requester Type is required'),
  customerId: optionalIdField('Select a valid customer'),
  priority: choice(PRIORITIES, 'Priority is required', canonicalPriority),
  state: z.preprocess((v) => canonicalState(blankToUndefined(v)), z.enum(REQUEST_STATES, { error: 'Invalid state selected' }).optional()),
  assignedTo: z.preprocess(blankToUndefined, idField('Assignee is required')),
  dateOfRequest: dateField('Due date is required', 'Due date must be a valid date'),
  assetId: optionalIdField('Select a valid asset'),
  failureReason: optionalTextField(2000, 'Failure Reason'),
  urgencyLevel: optionalChoice(URGENCY_LEVELS, 'Urgency Level must be one of critical, high, medium, low, lowest'),
  riskLevel: choice(RISK_LEVELS, 'Risk Level is required'),
  scheduleDate: optionalDate('Schedule Date must be a valid date'),
  frequency: optionalChoice(FREQUENCIES, 'Frequency must be one of daily, weekly, monthly, quarterly, annually'),
  sensorData: optionalTextField(2000, 'Sensor Data'),
  condition: optionalTextField(2000, 'Condition'),
  images: z.array(attachmentSchema, { error: 'Images must be a list of uploaded files' }).max(20, 'At most 20 images').optional(),
  documents: z.array(attachmentSchema, { error: 'Documents must be a list of uploaded files' }).max(20, 'At most 20 documents').optional(),
  /** "Asset is down" (decision 079): true opens a down interval of the asset with this request as source, false closes it; absent keeps. */
  assetDown: z.boolean({ error: 'Asset is down must be true or false' }).optional(),
  /** On update: the version the edit was made from (decision 025). */
  version: versionField,
});

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

/**
 * The conditional rules of spec doc 2 section 5, run even when other fields already failed so the form
 * shows every message at once.
 */
function conditionalRules(v: Record<string, unknown>, ctx: z.RefinementCtx) {
  const type = lowerCased(v.maintenanceType);
  const add = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (lowerCased(v.requester) === 'employee' && !present(v.assetId)) add('assetId', MR_MESSAGES.assetForEmployee);
  if ((NEEDS_FAILURE as readonly unknown[]).includes(type)) {
    if (!present(v.failureReason)) add('failureReason', MR_MESSAGES.failureReason);
    if (!present(v.urgencyLevel)) add('urgencyLevel', MR_MESSAGES.urgencyLevel);
  }
  if ((NEEDS_SCHEDULE as readonly unknown[]).includes(type) && !present(v.scheduleDate)) add('scheduleDate', MR_MESSAGES.scheduleDate);
  if (type === 'preventive' && !present(v.frequency)) add('frequency', MR_MESSAGES.frequency);
  if (type === 'predictive') {
    if (!present(v.sensorData)) add('sensorData', MR_MESSAGES.sensorData);
    if (!present(v.condition)) add('condition', MR_MESSAGES.condition);
  }
}

/** Body of add-maintenance-request and update-maintenance-request (the Overview form uses it too). */
export const maintenanceRequestInputSchema = z.preprocess(
  normaliseBody,
  requestFields.superRefine((v, ctx) => conditionalRules(v as Record<string, unknown>, ctx), evenWhenFieldsFail as never),
);
export type MaintenanceRequestInput = z.output<typeof maintenanceRequestInputSchema>;

/** PUT update-state/{id}: body { state } with any accepted spelling. */
export const requestStateInputSchema = z.strictObject({
  state: z.preprocess((v) => canonicalState(blankToUndefined(v)), z.enum(REQUEST_STATES, { error: 'State is required' })),
});

/** The list filter's states (the spec's filter offers assigned, in-progress, completed, cancelled). */
export const maintenanceRequestsQuerySchema = pageQuerySchema.extend({
  status: multiValue(z.preprocess(canonicalState, z.enum(REQUEST_STATES, { error: 'Invalid status filter' }))),
  state: multiValue(z.preprocess(canonicalState, z.enum(REQUEST_STATES, { error: 'Invalid state filter' }))),
  title: z.string().trim().max(200, 'Title must be at most 200 characters').optional(),
});
export type MaintenanceRequestsQuery = z.output<typeof maintenanceRequestsQuerySchema>;

export const requestOptionsQuerySchema = z.object({
  pageSize: z.coerce
    .number({ error: 'pageSize must be between 1 and 100' })
    .int()
    .min(1, 'pageSize must be between 1 and 100')
    .max(100, 'pageSize must be between 1 and 100')
    .default(10),
  name: z.string().trim().max(200, 'Name must be at most 200 characters').optional(),
  title: z.string().trim().max(200, 'Title must be at most 200 characters').optional(),
});

/** 'MR-0001' from 1. */
export const requestDisplayId = (id: number) => `MR-${String(id).padStart(4, '0')}`;

/** A stored attachment as answers carry it. */
const attachmentDtoSchema = z.object({ url: z.string(), name: z.string() });

/** A maintenance request as the API returns it. */
export const maintenanceRequestDtoSchema = z.object({
  id: z.number(),
  maintenanceRequestId: z.string(),
  title: z.string(),
  problemDescription: z.string(),
  maintenanceType: z.enum(MAINTENANCE_TYPES),
  type: z.enum(MAINTENANCE_TYPES),
  requester: z.enum(REQUESTER_TYPES),
  requestorType: z.enum(REQUESTER_TYPES),
  customerId: z.number().nullable(),
  Customer: z.object({ id: z.number(), name: z.string() }).nullable(),
  priority: z.enum(PRIORITIES),
  state: z.enum(REQUEST_STATES),
  assignedTo: z.number().nullable(),
  assignTo: z.number().nullable(),
  Worker: z.object({ id: z.number(), firstName: z.string(), lastName: z.string() }).nullable(),
  dateOfRequest: z.string(),
  assetId: z.number().nullable(),
  asset: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Its asset is down because of it (decision 079): the request's own down interval is open. */
  assetDown: z.boolean().optional(),
  failureReason: z.string().nullable(),
  urgencyLevel: z.enum(URGENCY_LEVELS).nullable(),
  riskLevel: z.enum(RISK_LEVELS),
  scheduleDate: z.string().nullable(),
  frequency: z.enum(FREQUENCIES).nullable(),
  sensorData: z.string().nullable(),
  condition: z.string().nullable(),
  images: z.array(attachmentDtoSchema),
  documents: z.array(attachmentDtoSchema),
  customerDocuments: z.array(attachmentDtoSchema),
  /** The maintenance order generated from this request, if any (the other side of the link). */
  maintenanceOrder: z.object({ id: z.number(), maintenanceOrderId: z.string(), status: z.string() }).nullable(),
  /** Bumped by every edit; an update sends it back (decision 025). */
  version: z.number(),
  createdAt: z.string(),
});
export type MaintenanceRequestDto = z.infer<typeof maintenanceRequestDtoSchema>;

/** The side panel's counters, computed by the server over the whole organisation. */
export const maintenanceRequestStatisticsSchema = z.object({
  totalNewRequests: z.number(),
  totalApprovedRequests: z.number(),
  approvedVsRejected: z.object({ approved: z.number(), rejected: z.number() }),
  employeeVsCustomer: z.object({ employee: z.number(), customer: z.number() }),
  unassignedRequests: z.number(),
});
export type MaintenanceRequestStatistics = z.infer<typeof maintenanceRequestStatisticsSchema>;

/** The maintenance request routes' answers (issue 28): a changed request comes under `request` and `maintenanceRequest`. */
const requestList = listAnswerSchema('maintenanceRequests', maintenanceRequestDtoSchema).extend({ statistics: maintenanceRequestStatisticsSchema });
const changed = messageSchema.extend({ request: maintenanceRequestDtoSchema, maintenanceRequest: maintenanceRequestDtoSchema });
export const maintenanceRequestAnswers = {
  list: requestList,
  statistics: z.object({ statistics: maintenanceRequestStatisticsSchema }),
  /** An option carries these fields of its request. */
  options: z.array(
    optionSchema.extend(
      maintenanceRequestDtoSchema.pick({ maintenanceRequestId: true, title: true, state: true, maintenanceType: true, assetId: true, asset: true }).shape,
    ),
  ),
  one: z.object({ maintenanceRequest: maintenanceRequestDtoSchema }),
  add: requestList.extend(messageSchema.shape).extend({ maintenanceRequest: maintenanceRequestDtoSchema }),
  changed,
  state: changed.extend({ state: z.enum(REQUEST_STATES) }),
  remove: requestList.extend(messageSchema.shape),
};
export type MaintenanceRequestList = z.infer<typeof requestList>;

/** Attachment upload rules (documents: PDF and images, checked by their bytes). */
export const ATTACHMENT_RULES = DOCUMENT_UPLOAD_RULES;
