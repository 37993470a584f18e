import { z } from '../../shared/zod-setup';
import { NAME_MESSAGES, nameField, languageField } from '../../shared/record-fields.schema';
import { messageSchema } from '../../shared/pagination';
import { requiredString, idField } from '../../shared/validation';
import { blankToUndefined, optionalRef } from '../../shared/reference-fields';
import { updatedAtField } from '../../shared/edit-version';
import { FAILURE_CODE_KINDS, HOLD_REASONS } from './failure-code-values';

export { FAILURE_CODE_KINDS, HOLD_REASONS, type FailureCodeKind, type HoldReason } from './failure-code-values';

/** Failure codes and on hold (decision 080): the form's and the API's messages. */
export const FAILURE_CODE_MESSAGES = {
  kind: 'Kind must be one of problem, cause, remedy',
  ...NAME_MESSAGES,
  code: 'Code is required',
  codeMax: 'Code must be at most 20 characters',
  parent: 'Parent code is invalid',
  parentRequired: 'A cause belongs to a problem and a remedy to a cause',
  parentNone: 'A problem has no parent code',
  parentKind: 'A cause belongs to a problem and a remedy to a cause',
  parentUnknown: 'Parent code does not exist in this organization',
  category: 'Asset category is invalid',
  categoryUnknown: 'Asset category does not exist in this organization',
  categoryOnProblem: 'Only a problem names an asset category',
  nameTaken: 'A code with this name already exists here',
  used: 'This code is used by closed work orders and cannot be deleted',
  repeatDays: 'Repeat failure window must be between 0 and 3650 days',
  required: 'Select the problem, cause and remedy before closing this reactive work order',
  codeInvalid: 'Failure code is invalid',
  problemUnknown: 'The problem code does not apply to this asset',
  causeUnknown: 'The cause does not belong to the problem',
  remedyUnknown: 'The remedy does not belong to the cause',
  holdReason: 'Reason must be one of parts, vendor, access, shutdown, other',
  holdNoteMax: 'Note must be at most 500 characters',
  holdOtherNote: 'Describe the reason in the note',
  alreadyHeld: 'This work order is already on hold',
  notHeld: 'This work order is not on hold',
  holdClosed: 'A closed or cancelled work order cannot be put on hold',
  language: 'Language must be en or ar',
} as const;
const M = FAILURE_CODE_MESSAGES;

/** POST add-failure-code: a problem (optionally for one asset category), a cause under a problem, a remedy under a cause. */
export const failureCodeInputSchema = z.strictObject({
  kind: z.enum(FAILURE_CODE_KINDS, { error: M.kind }),
  parentId: optionalRef(M.parent).optional(),
  assetCategoryId: optionalRef(M.category).optional(),
  code: requiredString(M.code).max(20, M.codeMax),
  name: nameField(),
});
export type FailureCodeInput = z.output<typeof failureCodeInputSchema>;

/** PUT update-failure-code/{id}: its code, name and (a problem's) asset category; the kind and the parent stay. */
export const failureCodeUpdateSchema = z.strictObject({
  code: requiredString(M.code).max(20, M.codeMax),
  name: nameField(),
  assetCategoryId: optionalRef(M.category).optional(),
});
export type FailureCodeUpdate = z.output<typeof failureCodeUpdateSchema>;

/** get-failure-codes: all of them, or those that apply to an asset category (its own and the ones for all). */
export const failureCodeListQuerySchema = z.object({
  assetCategoryId: z.preprocess(blankToUndefined, idField(M.category).optional()),
});

export const failureCodeDtoSchema = z.object({
  id: z.number(),
  kind: z.enum(FAILURE_CODE_KINDS),
  parentId: z.number().nullable(),
  assetCategoryId: z.number().nullable(),
  /** The category's name (a problem's), null for all categories. */
  assetCategory: z.string().nullable(),
  code: z.string(),
  name: z.string(),
});
export type FailureCodeDto = z.infer<typeof failureCodeDtoSchema>;

export const failureCodeSettingsSchema = z.strictObject({
  requireCodes: z.boolean({ error: 'requireCodes must be true or false' }),
  repeatDays: z.coerce.number({ error: M.repeatDays }).int(M.repeatDays).min(0, M.repeatDays).max(3650, M.repeatDays),
});
export type FailureCodeSettings = z.output<typeof failureCodeSettingsSchema>;

/** POST import-starter-library: the names in English or Arabic. */
export const starterLibraryInputSchema = z.strictObject({ language: languageField().default('en') });

/** The codes a work order is closed with (problem > cause > remedy). */
export const failureCodesOfOrderSchema = {
  problemCodeId: optionalRef(M.codeInvalid).optional(),
  causeCodeId: optionalRef(M.codeInvalid).optional(),
  remedyCodeId: optionalRef(M.codeInvalid).optional(),
};

/** PUT hold-work-order/{id}: why it waits; "other" needs a note. */
export const holdInputSchema = z
  .strictObject({
    reason: z.enum(HOLD_REASONS, { error: M.holdReason }),
    note: z.preprocess((v) => (v === '' ? null : v), z.string().trim().max(500, M.holdNoteMax).nullable().optional()),
    updatedAt: updatedAtField,
  })
  .refine((v) => v.reason !== 'other' || !!v.note, { message: M.holdOtherNote, path: ['note'] });
export type HoldInput = z.output<typeof holdInputSchema>;

const list = z.object({ failureCodes: z.array(failureCodeDtoSchema) });
export const failureCodeAnswers = {
  list,
  add: list.extend(messageSchema.shape).extend({ failureCode: failureCodeDtoSchema }),
  update: list.extend(messageSchema.shape).extend({ failureCode: failureCodeDtoSchema }),
  remove: list.extend(messageSchema.shape),
  imported: list.extend(messageSchema.shape).extend({ added: z.number() }),
  settings: z.object({ settings: failureCodeSettingsSchema }),
  settingsSaved: messageSchema.extend({ settings: failureCodeSettingsSchema }),
};

/** PUT resume-work-order/{id}: only the copy the change was made from (decision 025). */
export const resumeInputSchema = z.strictObject({ updatedAt: updatedAtField });
