import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { languageField } from '../../shared/record-fields.schema';
import { listAnswerSchema, messageSchema, multiValue, pageQuerySchema } from '../../shared/pagination';
import { emailField, idField, optionalString, requiredString } from '../../shared/validation';
import { dateField } from '../../shared/dates';
import { answeredAtField, issuedStepDtoSchema, procedureProgressSchema } from '../procedures/procedures.schema';
import { HOLD_REASONS } from '../failure-codes/failure-code-values';
import { endsByNow, LABOR_FUTURE_MESSAGE, LABOR_SPAN_MESSAGE, MAX_LINE_QUANTITY, withinLaborSpan } from '../work-orders/work-orders.schema';

/** Where a share stands: sent, the contractor at work, done for review, then accepted or sent back. */
export const SHARE_STATES = ['waiting', 'in-progress', 'done', 'accepted', 'sent-back'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** How long a link lives unless the manager chooses otherwise (decision 040). */
export const DEFAULT_SHARE_DAYS = 14;
export const MAX_SHARE_DAYS = 90;

const days = z.coerce
  .number({ error: `Days must be a whole number from 1 to ${MAX_SHARE_DAYS}` })
  .int(`Days must be a whole number from 1 to ${MAX_SHARE_DAYS}`)
  .min(1, `Days must be a whole number from 1 to ${MAX_SHARE_DAYS}`)
  .max(MAX_SHARE_DAYS, `Days must be a whole number from 1 to ${MAX_SHARE_DAYS}`);

const flag = z.boolean({ error: 'Choose on or off' });

/** POST create-share: a work order, a contractor (a vendor or any e-mail) and what they may do. */
export const shareInputSchema = z.strictObject({
  workOrderId: idField('Work order is required'),
  vendorId: z.preprocess(blankToUndefined, idField('Vendor is invalid').optional()),
  contractorName: requiredString('Contractor name is required').max(120, 'Contractor name must be at most 120 characters'),
  email: emailField(),
  canComment: flag.default(true),
  canLog: flag.default(true),
  canComplete: flag.default(true),
  requireCode: flag.default(false),
  days: days.default(DEFAULT_SHARE_DAYS),
  /** The language of the contractor's e-mails; the sharing manager's own when not given (decision 065). */
  language: languageField().optional(),
});
export type ShareInput = z.input<typeof shareInputSchema>;

/** GET list-shares: page, search (contractor, e-mail or work order title), state, one work order. */
export const shareListQuerySchema = pageQuerySchema.extend({
  search: optionalString(200),
  state: multiValue(z.enum([...SHARE_STATES, 'expired', 'revoked'], { error: 'Unknown state' })),
  workOrderId: z.preprocess((v) => (v === '' ? undefined : v), idField('Work order is invalid').optional()),
});
export type ShareListQuery = z.infer<typeof shareListQuerySchema>;

export const extendShareSchema = z.strictObject({ days });
export const sendBackShareSchema = z.strictObject({
  comment: requiredString('Comment is required').max(5000, 'Comment must be at most 5000 characters'),
});
export const shareCommentSchema = z.strictObject({
  body: requiredString('Comment is required').max(5000, 'Comment must be at most 5000 characters'),
});
export type ShareCommentInput = z.input<typeof shareCommentSchema>;

// ---- The contractor's side (public, by token) ----

/** The link's token (and, once the e-mail is confirmed, the browser's access key), in the query: logs mask `token=`. */
export const shareTokenQuerySchema = z.strictObject({
  token: z.string({ error: 'Not found' }).min(20, 'Not found').max(200, 'Not found'),
  key: z.string().max(200).optional(),
});

export const confirmCodeSchema = z.strictObject({
  code: z
    .string({ error: 'Enter the 6-digit code' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code'),
});

const money = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(10_000_000, `${label} is too large`);

/** The contractor's time: start, end and their own hourly rate (major units of the organisation's currency). */
export const contractorLaborSchema = z
  .strictObject({
    startTime: dateField('Start time is required', 'Start time must be a valid date'),
    endTime: dateField('End time is required', 'End time must be a valid date'),
    hourlyRate: money('Hourly rate'),
  })
  .refine((v) => v.startTime.getTime() < v.endTime.getTime(), { message: 'End time must be after start time', path: ['endTime'] })
  .refine(withinLaborSpan, { message: LABOR_SPAN_MESSAGE, path: ['endTime'] })
  .refine((v) => endsByNow(v), { message: LABOR_FUTURE_MESSAGE, path: ['endTime'] });
export type ContractorLaborInput = z.input<typeof contractorLaborSchema>;

/** A part the contractor used: their name for it, a quantity and their unit price. */
export const contractorPartSchema = z.strictObject({
  name: requiredString('Part name is required').max(200, 'Part name must be at most 200 characters'),
  quantity: z.coerce
    .number({ error: 'Quantity must be a whole number of at least 1' })
    .int('Quantity must be a whole number of at least 1')
    .min(1, 'Quantity must be a whole number of at least 1')
    .max(MAX_LINE_QUANTITY, 'Quantity is too large'),
  unitPrice: money('Unit price'),
});
export type ContractorPartInput = z.input<typeof contractorPartSchema>;

/** A procedure step the contractor fills: the value is checked against the step's kind by the procedures feature. */
export const contractorAnswerSchema = z.strictObject({
  stepId: idField('Step is required'),
  value: z.unknown(),
  /** The step's answeredAt as the page showed it (null: unanswered); answered since -> 409 with the step now. */
  answeredAt: answeredAtField,
});

/** add-shared-step-image/{stepId}: the photo or signature step the image answers. */
export const sharedStepImageParamsSchema = z.strictObject({ stepId: idField('Step is invalid') });

/** What the contractor's writes answer (their page reads itself again). */
export const shareMessageSchema = messageSchema;

export const markDoneSchema = z.strictObject({
  comment: optionalString(5000),
});

// ---- Responses (response schemas; decision 049) ----

export const shareDtoSchema = z.object({
  id: z.number(),
  workOrderId: z.number(),
  workOrderTitle: z.string(),
  vendorId: z.number().nullable(),
  contractorName: z.string(),
  email: z.string(),
  canComment: z.boolean(),
  canLog: z.boolean(),
  canComplete: z.boolean(),
  requireCode: z.boolean(),
  state: z.enum(SHARE_STATES),
  /** `state`, or expired / revoked when the link no longer works. */
  status: z.enum([...SHARE_STATES, 'expired', 'revoked']),
  reviewComment: z.string().nullable(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
  createdAt: z.string(),
  /** External time and parts reported through this share, in minor units. */
  externalCostMinor: z.number(),
});
export type ShareDto = z.infer<typeof shareDtoSchema>;

export const shareMessageDtoSchema = z.object({
  id: z.number(),
  author: z.string(),
  fromContractor: z.boolean(),
  body: z.string().nullable(),
  fileUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  createdAt: z.string(),
});
export type ShareMessageDto = z.infer<typeof shareMessageDtoSchema>;

export const contractorLaborDtoSchema = z.object({
  id: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  minutes: z.number(),
  hourlyRateMinor: z.number(),
  costMinor: z.number(),
});
export type ContractorLaborDto = z.infer<typeof contractorLaborDtoSchema>;

export const contractorPartDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  quantity: z.number(),
  unitPriceMinor: z.number(),
  costMinor: z.number(),
});
export type ContractorPartDto = z.infer<typeof contractorPartDtoSchema>;

/**
 * A step of the work order's procedure as the contractor fills it: what its control needs (kind, limits, options)
 * and its answer (photos and signatures as signed URLs); no meter (a contractor's number feeds none), no person.
 */
export const contractorStepDtoSchema = issuedStepDtoSchema.pick({
  id: true,
  position: true,
  kind: true,
  label: true,
  required: true,
  unit: true,
  min: true,
  max: true,
  options: true,
  meterName: true,
  value: true,
  flagged: true,
  answeredAt: true,
});
export type ContractorStepDto = z.infer<typeof contractorStepDtoSchema>;

/** What the contractor's page shows: the shared work order and nothing else of the organisation. */
export const sharedWorkOrderDtoSchema = z.object({
  organization: z.string(),
  currency: z.string(),
  digits: z.number(),
  contractorName: z.string(),
  permissions: z.object({ canComment: z.boolean(), canLog: z.boolean(), canComplete: z.boolean() }),
  state: z.enum(SHARE_STATES),
  reviewComment: z.string().nullable(),
  expiresAt: z.string(),
  workOrder: z.object({
    code: z.string(),
    title: z.string(),
    instructions: z.string().nullable(),
    status: z.string(),
    priority: z.string(),
    dueDate: z.string().nullable(),
    asset: z.object({ name: z.string(), code: z.string().nullable() }).nullable(),
    /** On hold (decision 080): a flag beside the status, why, and the team's note. */
    onHold: z.boolean(),
    holdReason: z.enum(HOLD_REASONS).nullable(),
    holdNote: z.string().nullable(),
  }),
  procedure: z.object({ name: z.string(), steps: z.array(contractorStepDtoSchema), progress: procedureProgressSchema }).nullable(),
  messages: z.array(shareMessageDtoSchema),
  labors: z.array(contractorLaborDtoSchema),
  parts: z.array(contractorPartDtoSchema),
});
export type SharedWorkOrderDto = z.infer<typeof sharedWorkOrderDtoSchema>;

/** What the page learns before the code: only that a code is needed, and the address it went to, masked. */
export const shareGateDtoSchema = z.object({ codeRequired: z.literal(true), emailHint: z.string() });
export type ShareGateDto = z.infer<typeof shareGateDtoSchema>;

/** The team's answers: the list, a share with its thread, and a change (message and the share; a new one also its link). */
export const shareListAnswerSchema = listAnswerSchema('shares', shareDtoSchema);
export const shareThreadSchema = z.object({ share: shareDtoSchema, messages: z.array(shareMessageDtoSchema) });
export const shareChangedSchema = messageSchema.extend({ share: shareDtoSchema });
export const shareCreatedSchema = shareChangedSchema.extend({ link: z.string() });
/** The contractor's: the page (or the code gate), the code sent (no hint when the share needs no code), the code confirmed. */
export const sharedWorkOrderAnswerSchema = z.union([sharedWorkOrderDtoSchema, shareGateDtoSchema]);
export const shareCodeSentSchema = messageSchema.extend({ emailHint: z.string().optional() });
export const shareCodeConfirmedSchema = messageSchema.extend({ key: z.string() });
