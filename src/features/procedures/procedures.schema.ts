import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { listAnswerSchema, listAnswers, messageSchema, pageQuerySchema } from '../../shared/pagination';
import { readingDtoSchema } from '../meters/meters.schema';
import { workOrderDtoSchema } from '../work-orders/work-orders.schema';
import { idField, requiredString } from '../../shared/validation';
import { versionField } from '../../shared/edit-version';

/** What a step asks for. A heading only groups the steps under it; it is never answered. */
export const STEP_KINDS = ['checkbox', 'pass-fail', 'number', 'text', 'choice', 'photo', 'signature', 'sign-off', 'heading'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** A pass/fail/flag step's answers: fail and flag are flagged. */
export const PASS_FAIL_VALUES = ['pass', 'fail', 'flag'] as const;
export type PassFailValue = (typeof PASS_FAIL_VALUES)[number];

/** Kinds whose answer can flag the step (out of range, failed) and so offer a follow-up work order. */
export const FOLLOW_UP_KINDS: readonly StepKind[] = ['number', 'pass-fail'];
/** Kinds answered with an uploaded image (photo, drawn signature). */
export const IMAGE_KINDS: readonly StepKind[] = ['photo', 'signature'];

/**
 * A sign-off step (decision 078) is signed with the signer's password and a meaning: what the signature says
 * the signer did. Its answer is `{ meaning, name, signedAt }`, set only by sign-procedure-step.
 */
export const SIGN_MEANINGS = ['performed', 'verified', 'approved'] as const;
export type SignMeaning = (typeof SIGN_MEANINGS)[number];
export interface SignOffValue {
  meaning: SignMeaning;
  name: string;
  signedAt: string;
}
export const isSignOffValue = (v: unknown): v is SignOffValue =>
  typeof v === 'object' && v !== null && typeof (v as SignOffValue).name === 'string' && SIGN_MEANINGS.includes((v as SignOffValue).meaning);

export const PROCEDURE_MESSAGES = {
  name: 'Procedure name is required',
  noSteps: 'Add at least one step that can be answered',
  label: 'Step label is required',
  kind: `Step type must be one of ${STEP_KINDS.join(', ')}`,
  options: 'A choice step needs at least two options',
  duplicateOption: 'Options must be different',
  range: 'The minimum must not be above the maximum',
  number: 'Enter a number',
  text: 'Enter a text of at most 2000 characters',
  checkbox: 'A checkbox step takes true or false',
  passFail: 'Answer pass, fail or flag',
  choice: 'Choose one of the options',
  image: 'Upload an image for this step (or send null to clear it)',
  heading: 'A heading is not answered',
  alreadyAttached: 'This work order already has a procedure; detach it first',
  followUpNotAllowed: 'This step does not create follow-up work orders',
  followUpNotFlagged: 'Only a failed or out-of-range step creates a follow-up work order',
  followUpExists: 'A follow-up work order already exists for this step',
  notImageStep: 'Only photo and signature steps take an image',
  signOff: 'A sign-off step is signed with your password (sign-procedure-step), or sent null to clear it',
  notSignOffStep: 'Only a sign-off step is signed',
  meaning: 'Choose what your signature means: performed, verified or approved',
  password: 'Enter your password to sign',
  wrongPassword: 'Password is incorrect',
  signed: 'Step signed',
} as const;
const M = PROCEDURE_MESSAGES;

const limitNumber = z
  .number({ error: M.number })
  .refine(Number.isFinite, M.number)
  .refine((n) => Math.abs(n) < 1e12, 'Number is too large');
const optionalLimit = z.preprocess(blankToUndefined, z.coerce.number({ error: M.number }).pipe(limitNumber).optional());

/** One step as the step editor sends it. Fields that do not belong to its kind are ignored (and stored empty). */
export const stepInputSchema = z
  .strictObject({
    kind: z.enum(STEP_KINDS, { error: M.kind }),
    label: requiredString(M.label).max(300, 'Step label must be at most 300 characters'),
    required: z.boolean({ error: 'Required must be true or false' }).optional(),
    unit: z.preprocess(blankToUndefined, z.string().trim().max(40, 'Unit must be at most 40 characters').optional()),
    min: optionalLimit,
    max: optionalLimit,
    options: z
      .array(z.string().trim().min(1, 'Options must not be empty').max(100, 'An option must be at most 100 characters'), {
        error: 'Options must be a list of texts',
      })
      .max(30, 'At most 30 options')
      .optional(),
    followUpOnFailure: z.boolean({ error: 'Follow-up must be true or false' }).optional(),
    meterName: z.preprocess(blankToUndefined, z.string().trim().max(100, 'Meter name must be at most 100 characters').optional()),
  })
  .superRefine((s, ctx) => {
    if (s.kind === 'number' && s.min !== undefined && s.max !== undefined && s.min > s.max) ctx.addIssue({ code: 'custom', message: M.range, path: ['max'] });
    if (s.kind === 'choice') {
      const options = s.options ?? [];
      if (options.length < 2) ctx.addIssue({ code: 'custom', message: M.options, path: ['options'] });
      else if (new Set(options).size !== options.length) ctx.addIssue({ code: 'custom', message: M.duplicateOption, path: ['options'] });
    }
  });
export type StepInput = z.input<typeof stepInputSchema>;

/** add-procedure and update-procedure: a name, a description and the ordered steps (at least one answerable). */
export const procedureInputSchema = z.strictObject({
  name: requiredString(M.name).max(200, 'Procedure name must be at most 200 characters'),
  description: z.preprocess(blankToUndefined, z.string().trim().max(5000, 'Description must be at most 5000 characters').optional()),
  steps: z
    .array(stepInputSchema, { error: M.noSteps })
    .max(200, 'At most 200 steps')
    .refine((steps) => steps.some((s) => s.kind !== 'heading'), M.noSteps),
  /** On update: the version the edit was made from (decision 025). */
  version: versionField,
});
export type ProcedureInput = z.input<typeof procedureInputSchema>;
export type ProcedureValues = z.output<typeof procedureInputSchema>;

export const procedureListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(200, 'Name filter must be at most 200 characters').optional(),
});
export type ProcedureListQuery = z.output<typeof procedureListQuerySchema>;

/** POST attach-procedure/{workOrderId}. */
export const attachProcedureSchema = z.strictObject({ procedureId: idField('Procedure is required') });

/**
 * The step's `answeredAt` as the client last saw it (its edit version, decision 025): null when it saw the step
 * unanswered, absent for API clients that send none (last writer wins for them). A step answered since is a 409
 * with the step as it is now: an offline answer never silently overwrites another one.
 */
export const answeredAtField = z.iso.datetime({ offset: true, error: 'Invalid answeredAt' }).nullable().optional();

/** PUT answer-procedure-step/{workOrderId}: the step and its answer (checked against the step's kind by the server). */
export const answerStepSchema = z.strictObject({
  stepId: idField('Step is invalid'),
  value: z.unknown(),
  answeredAt: answeredAtField,
});
export type AnswerStepInput = z.input<typeof answerStepSchema>;

/**
 * POST sign-procedure-step/{workOrderId}: the signer's re-authentication, either their password (checked again) or,
 * for a person who signs in with single sign-on, `reauthProof` (a fresh sign-in with the identity provider for this
 * step, POST /api/auth/finish-sso-reauth), and the signature's meaning.
 */
export const signStepSchema = z
  .strictObject({
    stepId: idField('Step is invalid'),
    password: z.string({ error: M.password }).min(1, M.password).max(200, M.password).optional(),
    reauthProof: z.string({ error: M.password }).min(1, M.password).max(200, M.password).optional(),
    meaning: z.enum(SIGN_MEANINGS, { error: M.meaning }),
    answeredAt: answeredAtField,
  })
  .refine((v) => !!v.password !== !!v.reauthProof, { message: M.password, path: ['password'] });
export type SignStepInput = z.input<typeof signStepSchema>;

/** POST create-follow-up/{workOrderId}. */
export const followUpSchema = z.strictObject({ stepId: idField('Step is invalid') });

const positiveId = idField('Invalid id');
/** add-step-image/{workOrderId}/step/{stepId}. */
export const stepImageParamsSchema = z.strictObject({ workOrderId: positiveId, stepId: positiveId });

/**
 * The text fields of a photo or signature answer's upload (multipart, sent before the file; issue 45): the step's
 * `answeredAt` as the client saw it, '' when it saw the step unanswered (a form field has no null), left out by
 * API clients that send none (last writer wins for them, as for answer-procedure-step).
 */
export const stepImageFieldsSchema = z.strictObject({
  answeredAt: z.preprocess((v) => (v === '' ? null : v), answeredAtField),
});
/** The fields a client sends with a step image: the version the answer was made from. */
export const stepImageFields = (answeredAt: string | null) => ({ answeredAt: answeredAt ?? '' });

/** The step fields a library step and an issued step share. */
export const stepDtoSchema = z.object({
  id: z.number(),
  position: z.number(),
  kind: z.enum(STEP_KINDS),
  label: z.string(),
  required: z.boolean(),
  unit: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  options: z.array(z.string()),
  followUpOnFailure: z.boolean(),
  /** Number steps: the answer is also a reading of the work order's asset's meter of this name. */
  meterName: z.string().nullable(),
});
export type StepDto = z.infer<typeof stepDtoSchema>;

/** A procedure in a list (without its steps). */
export const procedureListItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  /** Steps that are answered (headings not counted). */
  stepCount: z.number(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProcedureListItem = z.infer<typeof procedureListItemSchema>;

/** A procedure of the library. */
export const procedureDtoSchema = procedureListItemSchema.extend({ steps: z.array(stepDtoSchema) });
export type ProcedureDto = z.infer<typeof procedureDtoSchema>;

/** A step of a work order's copy of a procedure, with its answer. */
export const issuedStepDtoSchema = stepDtoSchema.extend({
  /** boolean (checkbox), 'pass' | 'fail' | 'flag', number, text, the chosen option, an image URL; null when empty. */
  value: z.unknown(),
  flagged: z.boolean(),
  answeredAt: z.string().nullable(),
  answeredBy: z.object({ id: z.number(), firstName: z.string(), lastName: z.string() }).nullable(),
  followUpWorkOrderId: z.number().nullable(),
});
export type IssuedStepDto = z.infer<typeof issuedStepDtoSchema>;

export const procedureProgressSchema = z.object({
  answered: z.number(),
  total: z.number(),
  requiredLeft: z.number(),
  flagged: z.number(),
});
export type ProcedureProgress = z.infer<typeof procedureProgressSchema>;

/** A work order's procedure: the copy made when it was attached, and its answers. */
export const workOrderProcedureDtoSchema = z.object({
  workOrderId: z.number(),
  procedureId: z.number().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  attachedAt: z.string(),
  steps: z.array(issuedStepDtoSchema),
  progress: procedureProgressSchema,
});
export type WorkOrderProcedureDto = z.infer<typeof workOrderProcedureDtoSchema>;

/** The procedure routes' answers (issue 28). */
const workOrderProcedure = z.object({ procedure: workOrderProcedureDtoSchema.nullable() });
const stepChanged = messageSchema.extend({ step: issuedStepDtoSchema, procedure: workOrderProcedureDtoSchema.nullable() });
export const procedureAnswers = {
  ...listAnswers('procedures', procedureListItemSchema, 'procedure'),
  one: z.object({ procedure: procedureDtoSchema }),
  add: listAnswerSchema('procedures', procedureListItemSchema).extend(messageSchema.shape).extend({ procedure: procedureDtoSchema }),
  update: messageSchema.extend({ procedure: procedureDtoSchema }),
  workOrderProcedure,
  attached: workOrderProcedure.extend(messageSchema.shape),
  /** A number step naming a meter also records a reading (null when none was made). */
  answered: stepChanged.extend({ reading: readingDtoSchema.extend({ meterName: z.string() }).nullable() }),
  imageSaved: stepChanged,
  signed: stepChanged,
  followUp: stepChanged.extend({ followUp: workOrderDtoSchema }),
};

// Zod-free, so a page that shows progress does not load the validation library (My work's first load):
// procedure-progress.ts, re-exported here.
export { isAnswered, isFlagged, progressOf } from './procedure-progress';

/**
 * The answer a step takes, by its kind (the server's check, and the form's): null clears it. Photos and
 * signatures are set through their upload, so here only cleared.
 */
export function answerSchemaFor(step: Pick<StepDto, 'kind' | 'options'>): z.ZodType<unknown> {
  switch (step.kind) {
    case 'checkbox':
      return z.boolean({ error: M.checkbox }).nullable();
    case 'pass-fail':
      return z.enum(PASS_FAIL_VALUES, { error: M.passFail }).nullable();
    case 'number':
      return z
        .number({ error: M.number })
        .refine(Number.isFinite, M.number)
        .refine((n) => Math.abs(n) < 1e12, 'Number is too large')
        .nullable();
    case 'text':
      return z.string({ error: M.text }).trim().max(2000, M.text).nullable();
    case 'choice':
      return z
        .string({ error: M.choice })
        .refine((v) => step.options.includes(v), M.choice)
        .nullable();
    case 'photo':
    case 'signature':
      return z.null({ error: M.image });
    case 'sign-off':
      return z.null({ error: M.signOff });
    default:
      return z.never({ error: M.heading });
  }
}
