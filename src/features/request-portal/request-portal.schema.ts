import { z } from '../../shared/zod-setup';
import { languageField } from '../../shared/record-fields.schema';
import { nameOptionsQuerySchema } from '../../shared/options-query';
import { fileAnswer, listAnswerSchema, messageSchema, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { EMAIL_PATTERN, idField, requiredString } from '../../shared/validation';
import { blankToUndefined } from '../../shared/reference-fields';
import { FIELD_MODES, PORTAL_LIMITS, PORTAL_STATUSES, PORTAL_URGENCIES, TARGET_KINDS } from './request-portal.values';
import { WORK_ORDER_PRIORITIES } from '../work-orders/work-order-values';

export { WORK_ORDER_PRIORITIES };

export * from './request-portal.values';

/** A token of a code or a status link: base64url, as made (anything else is refused before a lookup). */
export const tokenParamsSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not found'),
});

const fieldMode = z.enum(FIELD_MODES, { error: 'Must be one of required, optional, hidden' });
const targetSchema = z.strictObject({ kind: z.enum(TARGET_KINDS, { error: 'Kind must be asset or work-station' }), id: idField('Invalid id') });

/** PUT /api/portal/settings (admins). */
export const portalSettingsInputSchema = z.strictObject({
  enabled: z.boolean({ error: 'Enabled must be true or false' }),
  nameField: fieldMode,
  emailField: fieldMode,
  phoneField: fieldMode,
  notifyRequester: z.boolean({ error: 'Must be true or false' }),
  welcome: z.preprocess(
    blankToUndefined,
    z.string().trim().max(PORTAL_LIMITS.welcomeMax, `Welcome text must be at most ${PORTAL_LIMITS.welcomeMax} characters`).optional(),
  ),
  published: z.array(targetSchema).max(PORTAL_LIMITS.publishedMax, `At most ${PORTAL_LIMITS.publishedMax} entries`),
});
export type PortalSettingsInput = z.output<typeof portalSettingsInputSchema>;

/**
 * The public form's text fields (sent as multipart with the photos). Contact fields are checked against the
 * organisation's settings by the service. `website` is the honeypot: a person never sees it, so never fills it.
 */
export const portalSubmitSchema = z.object({
  description: requiredString('Describe the problem').max(PORTAL_LIMITS.descriptionMax, `At most ${PORTAL_LIMITS.descriptionMax} characters`),
  urgency: z.enum(PORTAL_URGENCIES, { error: 'Choose an urgency' }).default('normal'),
  /** On the general portal: the published entry chosen, as `asset:12` or `work-station:3`. */
  where: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^(asset|work-station):\d{1,9}$/, 'Choose where')
      .optional(),
  ),
  name: z.preprocess(blankToUndefined, z.string().trim().max(PORTAL_LIMITS.nameMax, `At most ${PORTAL_LIMITS.nameMax} characters`).optional()),
  email: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(254, 'Invalid email address')
      .regex(EMAIL_PATTERN, 'Invalid email address')
      .transform((s) => s.toLowerCase())
      .optional(),
  ),
  phone: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(PORTAL_LIMITS.phoneMax, 'Invalid phone number')
      .regex(/^\+?[\d\s().-]{6,30}$/, 'Invalid phone number')
      .optional(),
  ),
  website: z.string().max(500).optional(),
  code: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not found')
      .optional(),
  ),
  /** The portal page's language: the requester's e-mails are written in it (decision 065). */
  language: z.preprocess(blankToUndefined, languageField().optional()),
});
export type PortalSubmitInput = z.output<typeof portalSubmitSchema>;

export const portalCommentSchema = z.object({
  body: z.preprocess(blankToUndefined, z.string().trim().max(PORTAL_LIMITS.commentMax, `At most ${PORTAL_LIMITS.commentMax} characters`).optional()),
  website: z.string().max(500).optional(),
});

/** GET /api/portal/list-requests (managers): new first. */
export const portalListQuerySchema = pageQuerySchema.extend({
  status: z.preprocess(blankToUndefined, z.enum([...PORTAL_STATUSES, 'open'] as const, { error: 'Invalid status' }).optional()),
});
export type PortalListQuery = z.output<typeof portalListQuerySchema>;

/** POST /api/portal/accept-request/:id: into a maintenance request or straight into a work order. */
export const portalAcceptSchema = z.strictObject({
  into: z.enum(['work-order', 'maintenance-request'], { error: 'Choose work order or maintenance request' }),
  title: requiredString('Title is required').max(PORTAL_LIMITS.titleMax, `Title must be at most ${PORTAL_LIMITS.titleMax} characters`),
  priority: z.enum(WORK_ORDER_PRIORITIES, { error: `Priority must be one of ${WORK_ORDER_PRIORITIES.join(', ')}` }).default('medium'),
  assignees: z.array(idField('Assignee is invalid')).max(50, 'At most 50 assignees').optional(),
});
export type PortalAcceptInput = z.output<typeof portalAcceptSchema>;

export const portalDeclineSchema = z.strictObject({
  reason: requiredString('Give a reason').max(PORTAL_LIMITS.declineReasonMax, `At most ${PORTAL_LIMITS.declineReasonMax} characters`),
});

export const portalMergeSchema = z.strictObject({
  intoId: idField('Choose the request to merge into'),
});

/** GET /api/portal/get-requests-options: the merge picker's search (number, description, requester, what it is about). */
export const portalRequestOptionsQuerySchema = nameOptionsQuerySchema.extend({
  excludeId: z.preprocess(blankToUndefined, idField('excludeId is invalid').optional()),
});
export const portalRequestOptionsSchema = z.array(optionSchema);

export const portalReplySchema = z.strictObject({
  body: requiredString('Write a reply').max(PORTAL_LIMITS.commentMax, `At most ${PORTAL_LIMITS.commentMax} characters`),
});

export const LABEL_LAYOUTS = ['sheet-24', 'sheet-10', 'single-large'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

export const LABELS_MAX = 500;

/** POST /api/portal/asset-labels: a PDF of labels for the chosen assets and work stations (assets first). */
export const assetLabelsSchema = z
  .strictObject({
    assetIds: z.array(idField('Asset is invalid'), { error: 'Choose assets' }).max(LABELS_MAX, `At most ${LABELS_MAX} labels at once`).default([]),
    workStationIds: z
      .array(idField('Work station is invalid'), { error: 'Choose work stations' })
      .max(LABELS_MAX, `At most ${LABELS_MAX} labels at once`)
      .default([]),
    layout: z.enum(LABEL_LAYOUTS, { error: 'Choose a label size' }).default('sheet-24'),
  })
  .superRefine((v, ctx) => {
    const n = v.assetIds.length + v.workStationIds.length;
    if (n === 0) ctx.addIssue({ code: 'custom', path: ['assetIds'], message: 'Choose at least one asset' });
    if (n > LABELS_MAX) ctx.addIssue({ code: 'custom', path: ['assetIds'], message: `At most ${LABELS_MAX} labels at once` });
  });

/** GET /api/portal/find-asset: the scanner's typed fallback (an asset number, barcode or serial). */
export const findAssetQuerySchema = z.object({
  number: requiredString('Type an asset number').max(100, 'At most 100 characters'),
});

// ---- Answers (response schemas; decision 049) ---------------------------------------------------------------

export const portalTargetSchema = z.object({ kind: z.enum(TARGET_KINDS), id: z.number(), name: z.string(), number: z.string().nullable() });
export type PortalTarget = z.infer<typeof portalTargetSchema>;

/** GET /api/portal/form[/:token]: what the public form needs. */
export const portalFormDtoSchema = z.object({
  organization: z.string(),
  welcome: z.string().nullable(),
  fields: z.object({ name: z.enum(FIELD_MODES), email: z.enum(FIELD_MODES), phone: z.enum(FIELD_MODES) }),
  /** The code's asset or work station; null on the general portal. */
  target: portalTargetSchema.nullable(),
  /** The general portal's short list (empty under a code). */
  published: z.array(portalTargetSchema),
});
export type PortalFormDto = z.infer<typeof portalFormDtoSchema>;

export const portalReplyDtoSchema = z.object({
  id: z.number(),
  author: z.enum(['requester', 'team']),
  body: z.string(),
  photos: z.array(z.string()),
  createdAt: z.string(),
});
export type PortalReplyDto = z.infer<typeof portalReplyDtoSchema>;

/** GET /api/portal/status/:token: the requester's view of their request. */
export const portalStatusDtoSchema = z.object({
  number: z.string(),
  organization: z.string(),
  status: z.enum(PORTAL_STATUSES),
  declineReason: z.string().nullable(),
  description: z.string(),
  urgency: z.enum(PORTAL_URGENCIES),
  target: portalTargetSchema.nullable(),
  photos: z.array(z.string()),
  replies: z.array(portalReplyDtoSchema),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The requester may still comment (open, or closed within the link's life, under the caps). */
  canComment: z.boolean(),
});
export type PortalStatusDto = z.infer<typeof portalStatusDtoSchema>;

/** POST submit-request (201): the status link; a filled honeypot gets the message alone. */
export const portalSubmittedSchema = messageSchema.extend({
  number: z.string().optional(),
  statusToken: z.string().optional(),
  statusUrl: z.string().optional(),
});
/** POST status/:token/add-comment (201): the refreshed status; a filled honeypot gets the message alone. */
export const portalCommentedSchema = messageSchema.extend({ status: portalStatusDtoSchema.optional() });

export const portalSettingsDtoSchema = z.object({
  enabled: z.boolean(),
  nameField: z.enum(FIELD_MODES),
  emailField: z.enum(FIELD_MODES),
  phoneField: z.enum(FIELD_MODES),
  notifyRequester: z.boolean(),
  welcome: z.string().nullable(),
  published: z.array(portalTargetSchema),
});
export const portalSettingsSavedSchema = messageSchema.extend({ settings: portalSettingsDtoSchema });

/** A request of the inbox (list and detail). */
export const portalRequestDtoSchema = z.object({
  id: z.number(),
  number: z.string(),
  description: z.string(),
  urgency: z.enum(PORTAL_URGENCIES),
  targetKind: z.enum(TARGET_KINDS).nullable(),
  targetId: z.number().nullable(),
  targetName: z.string().nullable(),
  photos: z.array(z.string()),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(PORTAL_STATUSES),
  declineReason: z.string().nullable(),
  workOrderId: z.number().nullable(),
  maintenanceRequestId: z.number().nullable(),
  mergedIntoId: z.number().nullable(),
  closedAt: z.date().nullable(),
  /** Held for review: it came past the organisation's hourly budget or its address's share (decision 054). */
  heldAt: z.date().nullable(),
  createdAt: z.date(),
});
export const portalRequestListSchema = listAnswerSchema('requests', portalRequestDtoSchema);
const portalRequestDetailSchema = portalRequestDtoSchema.extend({
  replies: z.array(
    z.object({
      id: z.number(),
      author: z.enum(['requester', 'team']),
      body: z.string(),
      photos: z.array(z.string()),
      createdAt: z.date(),
      userId: z.number().nullable(),
    }),
  ),
});
export const portalRequestAnswerSchema = z.object({ request: portalRequestDetailSchema });
/** Decline, merge and reply: a message and the refreshed request. */
export const portalRequestChangedSchema = messageSchema.extend(portalRequestAnswerSchema.shape);
/** Accept: also the work order or the maintenance request it became. */
export const portalRequestAcceptedSchema = portalRequestChangedSchema.extend({
  workOrderId: z.number().optional(),
  maintenanceRequestId: z.number().optional(),
});
export const portalCountSchema = z.object({ count: z.number() });
export const portalCodeTargetSchema = z.object({ target: portalTargetSchema });

const summaryOrderSchema = z.object({
  id: z.number(),
  title: z.string(),
  status: z.string(),
  priority: z.string(),
  dueDate: z.date().nullable(),
  createdAt: z.date(),
});
/** GET asset-summary/:id: the asset, its open and latest closed work orders, and its open portal requests. */
export const assetSummarySchema = z.object({
  asset: z.object({ id: z.number(), name: z.string(), number: z.string().nullable(), status: z.string() }),
  openWork: z.array(summaryOrderSchema),
  history: z.array(summaryOrderSchema),
  requests: z.array(
    z.object({
      id: z.number(),
      number: z.string(),
      description: z.string(),
      status: z.enum(PORTAL_STATUSES),
      urgency: z.enum(PORTAL_URGENCIES),
      createdAt: z.date(),
    }),
  ),
});
export const foundAssetSchema = z.object({ asset: z.object({ id: z.number(), name: z.string() }) });
/** POST asset-labels: the API document's description (a PDF is sent as bytes, never serialised). */
export const assetLabelsPdfSchema = fileAnswer('application/pdf', 'The labels as a PDF file');
