import { z } from '../../shared/zod-setup';
import { pageQuerySchema, listAnswerSchema, messageSchema, fileAnswer, errorAnswerSchema } from '../../shared/pagination';

/** What a row of the audit log says was done (decision 078). */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'sign-in', 'sign-in-failed', 'sign-off', 'sign-up', 'other'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_MESSAGES = {
  day: 'Dates must be YYYY-MM-DD',
  retention: 'Retention must be a whole number of months from 1 to 240, or empty to keep every row',
  saved: 'Audit settings saved',
} as const;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, AUDIT_MESSAGES.day)
  .refine((d) => !Number.isNaN(Date.parse(d)), AUDIT_MESSAGES.day);
const optionalId = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional());
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().max(100).optional());

/** The filters of the audit log (its list and its CSV export): person, record, dates (UTC days, inclusive), action. */
export const auditFilterSchema = z.strictObject({
  userId: optionalId,
  entityType: optionalText,
  entityId: optionalId,
  from: z.preprocess((v) => (v === '' ? undefined : v), day.optional()),
  to: z.preprocess((v) => (v === '' ? undefined : v), day.optional()),
  action: z.preprocess((v) => (v === '' ? undefined : v), z.enum(AUDIT_ACTIONS).optional()),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;
export const auditListQuerySchema = auditFilterSchema.extend(pageQuerySchema.shape);
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

const recordSchema = z.object({
  entityType: z.string(),
  entityId: z.number(),
  action: z.string(),
  changes: z
    .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }))
    .nullable()
    .optional(),
});

/** One row of the log as an admin reads it. */
export const auditEntrySchema = z.object({
  seq: z.number(),
  createdAt: z.string(),
  actorKind: z.string(),
  user: z.object({ id: z.number(), firstName: z.string(), lastName: z.string() }).nullable(),
  apiKeyId: z.number().nullable(),
  actorLabel: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  method: z.string(),
  route: z.string(),
  action: z.string(),
  entityType: z.string().nullable(),
  entityId: z.number().nullable(),
  records: z.array(recordSchema),
  input: z.unknown(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The chain check's answer: ok, or the first row that breaks it and why. */
export const auditCheckSchema = z.object({
  ok: z.boolean(),
  checked: z.number(),
  /** Rows removed by retention before this one: the chain starts at a signed anchor. */
  anchorSeq: z.number(),
  broken: z
    .object({
      seq: z.number(),
      reason: z.enum(['edited', 'missing', 'anchor', 'tail']),
    })
    .nullable(),
});
export type AuditCheck = z.infer<typeof auditCheckSchema>;

export const auditSettingsSchema = z.strictObject({
  retentionMonths: z
    .number({ error: AUDIT_MESSAGES.retention })
    .int(AUDIT_MESSAGES.retention)
    .min(1, AUDIT_MESSAGES.retention)
    .max(240, AUDIT_MESSAGES.retention)
    .nullable(),
});
export type AuditSettings = z.infer<typeof auditSettingsSchema>;

export const auditAnswers = {
  list: listAnswerSchema('entries', auditEntrySchema),
  check: z.object({ check: auditCheckSchema }),
  settings: z.object({ settings: auditSettingsSchema }),
  settingsSaved: messageSchema.extend({ settings: auditSettingsSchema }),
  csv: {
    200: fileAnswer('text/csv', 'The filtered audit log as a CSV file: UTF-8 with a BOM, CRLF line ends'),
    400: errorAnswerSchema,
    401: errorAnswerSchema,
    403: errorAnswerSchema,
  },
};
