import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { listAnswerSchema, messageSchema, pageQuerySchema } from '../../shared/pagination';
import { idField } from '../../shared/validation';

// The zod contract of the master-data screens (spec document 2, section 5): forms and routes share it.

export const TAX_SCOPES = ['sales', 'purchase'] as const;
export const TAX_COMPUTATIONS = ['fixed', 'percentage_of_price', 'group', 'percentage_of_price_tax_included'] as const;
export const UOM_TYPES = ['reference', 'bigger', 'lesser'] as const;
export const REASON_TYPES = ['productivity', 'availability', 'quality', 'performance'] as const;
export type TaxScope = (typeof TAX_SCOPES)[number];
export type TaxComputation = (typeof TAX_COMPUTATIONS)[number];
export type UomType = (typeof UOM_TYPES)[number];
export type ReasonType = (typeof REASON_TYPES)[number];

/**
 * Cross-field checks run even when another field failed, so a form shows every message at once
 * (zod skips them by default). The checks themselves tolerate invalid values.
 */
const alongside = { when: (p: { value: unknown }) => typeof p.value === 'object' && p.value !== null && !Array.isArray(p.value) };

/** A name of at least 3 characters (spec: "name min 3"), at most 100 (spec section 9). */
export const nameField = (label = 'Name') =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .min(3, `${label} must be at least 3 characters long`)
    .max(100, `${label} must be at most 100 characters long`);

/** A yes/no choice: booleans, or 'yes'/'no'/'true'/'false' from a select. */
export const yesNoField = (message: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const s = v.trim().toLowerCase();
      return s === 'yes' || s === 'true' ? true : s === 'no' || s === 'false' ? false : s === '' ? undefined : v;
    },
    z.boolean({ error: message }),
  );

/**
 * An optional number typed in a form (a number or a numeric string): '', null and absent all mean
 * "missing" (the schema's cross-field check says whether it is required).
 */
const optionalNumberInput = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : blankToUndefined(v)),
    z.number({ error: 'Only numbers are allowed' }).refine(Number.isFinite, 'Only numbers are allowed').optional(),
  );

/** An optional select id: '', null and 0 mean "none". */
const optionalId = (message: string) =>
  z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? null : v), idField(message).nullable().optional());

/**
 * Query of the simple master-data lists (and teams): `name` filters (case-insensitive contains). These
 * screens page on the client (spec), so without `pageSize` the whole list comes back on one page; with
 * it, the server pages like every other list.
 */
export const simpleListQuerySchema = z.object({
  page: pageQuerySchema.shape.page,
  pageSize: pageQuerySchema.shape.pageSize.unwrap().optional(),
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
});
export type SimpleListQuery = z.output<typeof simpleListQuerySchema>;

/** Units of measure page on the server (spec "server paging"), 10 by default, `name` filter. */
export const uomListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
  categoryId: z.preprocess(blankToUndefined, idField('Invalid category').optional()),
});
export type UomListQuery = z.output<typeof uomListQuerySchema>;

export const uomOptionsQuerySchema = z.object({
  pageSize: pageQuerySchema.shape.pageSize,
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
  categoryId: z.preprocess(blankToUndefined, idField('Invalid category').optional()),
});

// ---- Product categories -------------------------------------------------------------------------------

export const productCategoryInputSchema = z.strictObject({
  name: nameField(),
  parentId: optionalId('Invalid parent category'),
});
export type ProductCategoryInput = z.input<typeof productCategoryInputSchema>;

// ---- Taxes --------------------------------------------------------------------------------------------

export const TAX_MESSAGES = {
  childrenRequired: 'Child Taxes are required when Tax Computation is Group',
  amountRequired: 'Amount is required',
  sequence: 'Sequence must be a whole number from 0 to 9999',
  includeBaseAmount: 'Affects base of subsequent taxes must be yes or no',
  percentMin: 'A percentage cannot be less than -100',
  percentMax: 'A percentage cannot be more than 100',
  divisionRange: 'A tax-included percentage must be between -100 and 100',
  tooLarge: 'Amount is too large',
} as const;

/** Odoo's default sequence of a new tax (lower applies first within a group). */
export const DEFAULT_TAX_SEQUENCE = 1;

export const taxInputSchema = z
  .strictObject({
    name: z.string({ error: 'Tax Name is required' }).trim().min(1, 'Tax Name is required').max(100, 'Tax Name must be at most 100 characters long'),
    scope: z.enum(TAX_SCOPES, { error: 'Scope is required' }),
    taxComputation: z.enum(TAX_COMPUTATIONS, { error: 'Tax Computation type is required' }),
    amount: optionalNumberInput(),
    isPriceIncluded: yesNoField('Price Included selection is required'),
    // Odoo's sequence and include_base_amount (decision 036): the order within a group, and whether the
    // tax's amount joins the base of the taxes after it.
    sequence: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : blankToUndefined(v)),
      z
        .number({ error: TAX_MESSAGES.sequence })
        .int(TAX_MESSAGES.sequence)
        .min(0, TAX_MESSAGES.sequence)
        .max(9999, TAX_MESSAGES.sequence)
        .default(DEFAULT_TAX_SEQUENCE),
    ),
    includeBaseAmount: yesNoField(TAX_MESSAGES.includeBaseAmount).optional().default(false),
    children: z.preprocess(
      (v) => (v === null ? undefined : v),
      z.array(idField('Invalid child tax'), { error: 'Child taxes must be a list of tax ids' }).optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (!(TAX_COMPUTATIONS as readonly string[]).includes(v.taxComputation)) return;
    if (v.taxComputation === 'group') {
      if (!v.children || v.children.length === 0) ctx.addIssue({ code: 'custom', path: ['children'], message: TAX_MESSAGES.childrenRequired });
      return;
    }
    if (v.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: TAX_MESSAGES.amountRequired });
      return;
    }
    // Negative amounts are withholdings (Odoo): a percentage from -100 to 100; a tax-included one strictly
    // inside, since its price is divided by (1 - rate).
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['amount'], message });
    if (v.taxComputation === 'fixed') {
      if (Math.abs(v.amount) > 1_000_000_000) issue(TAX_MESSAGES.tooLarge);
    } else if (v.taxComputation === 'percentage_of_price_tax_included') {
      if (v.amount <= -100 || v.amount >= 100) issue(TAX_MESSAGES.divisionRange);
    } else if (v.amount < -100) issue(TAX_MESSAGES.percentMin);
    else if (v.amount > 100) issue(TAX_MESSAGES.percentMax);
  }, alongside)
  // A group has no amount of its own; other taxes have no children.
  .transform((v) =>
    v.taxComputation === 'group'
      ? { ...v, amount: null, includeBaseAmount: false, children: [...new Set(v.children)] }
      : { ...v, amount: v.amount!, children: [] as number[] },
  );
export type TaxInput = z.input<typeof taxInputSchema>;

// ---- Units of measure ---------------------------------------------------------------------------------

export const uomCategoryInputSchema = z.strictObject({ name: nameField() });
export type UomCategoryInput = z.input<typeof uomCategoryInputSchema>;

export const uomInputSchema = z
  .strictObject({
    name: nameField(),
    categoryId: z.preprocess(blankToUndefined, idField('Category ID is required')),
    type: z.enum(UOM_TYPES, { error: 'Type is required' }),
    // A reference unit hides the ratio field: its ratio is always 1.
    ratio: optionalNumberInput(),
  })
  .superRefine((v, ctx) => {
    if (!(UOM_TYPES as readonly string[]).includes(v.type) || v.type === 'reference') return;
    if (v.ratio === undefined) ctx.addIssue({ code: 'custom', path: ['ratio'], message: 'Ratio is required' });
    else if (v.ratio <= 0) ctx.addIssue({ code: 'custom', path: ['ratio'], message: 'The number must be greater than 0' });
    else if (v.ratio > 1e8) ctx.addIssue({ code: 'custom', path: ['ratio'], message: 'Ratio is too large' });
  }, alongside)
  .transform((v) => ({ ...v, ratio: v.type === 'reference' ? 1 : v.ratio! }));
export type UomInput = z.input<typeof uomInputSchema>;

// ---- Asset categories ---------------------------------------------------------------------------------

const codeField = z
  .string({ error: 'Short code is required' })
  .trim()
  .min(1, 'Short code is required')
  .min(3, 'Short code must be at least 3 characters long')
  .max(20, 'Short code must be at most 20 characters long');

/** `code` is the entity's name for it; the form calls it `shortCode` (DESIGN 11): either is accepted. */
export const assetCategoryInputSchema = z
  .strictObject({ name: nameField(), code: codeField.optional(), shortCode: codeField.optional() })
  .superRefine((v, ctx) => {
    if (v.code === undefined && v.shortCode === undefined) ctx.addIssue({ code: 'custom', path: ['code'], message: 'Short code is required' });
  }, alongside)
  .transform((v) => ({ name: v.name, code: (v.code ?? v.shortCode)! }));
export type AssetCategoryInput = z.input<typeof assetCategoryInputSchema>;

// ---- Time tracking reasons ----------------------------------------------------------------------------

/** `is_blocking_reason` is the entity's name; `isBlockingReason` is accepted too (DESIGN 11). */
export const timeTrackingReasonInputSchema = z
  .strictObject({
    name: nameField(),
    type: z.enum(REASON_TYPES, { error: 'Type is required' }),
    // spec: the blocking flag is required and its message reads 'Type is required'
    is_blocking_reason: yesNoField('Type is required').optional(),
    isBlockingReason: yesNoField('Type is required').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.is_blocking_reason === undefined && v.isBlockingReason === undefined)
      ctx.addIssue({ code: 'custom', path: ['is_blocking_reason'], message: 'Type is required' });
  }, alongside)
  .transform((v) => ({ name: v.name, type: v.type, isBlockingReason: (v.is_blocking_reason ?? v.isBlockingReason)! }));
export type TimeTrackingReasonInput = z.input<typeof timeTrackingReasonInputSchema>;

// ---- Response shapes (the routes' response schemas, issue 28) --------------------------------------------

const ref = z.object({ id: z.number(), name: z.string() });

/** A master-data record as it leaves the server: its id and name, the list's own fields, when it was created. */
const recordDto = <S extends z.ZodRawShape>(own: S) => z.object({ ...ref.shape, ...own, createdAt: z.string() });

export const productCategoryDtoSchema = recordDto({ parentId: z.number().nullable(), parent: ref.nullable() });
export type ProductCategoryDto = z.infer<typeof productCategoryDtoSchema>;

export const taxChildDtoSchema = z.object({
  ...ref.shape,
  scope: z.enum(TAX_SCOPES),
  taxComputation: z.enum(TAX_COMPUTATIONS),
  amount: z.number().nullable(),
  sequence: z.number(),
  includeBaseAmount: z.boolean(),
});
export type TaxChildDto = z.infer<typeof taxChildDtoSchema>;

export const taxDtoSchema = recordDto({ ...taxChildDtoSchema.shape, isPriceIncluded: z.boolean(), Children: z.array(taxChildDtoSchema) });
export type TaxDto = z.infer<typeof taxDtoSchema>;

export const uomCategoryDtoSchema = recordDto({ isReferenceSet: z.boolean() });
export type UomCategoryDto = z.infer<typeof uomCategoryDtoSchema>;

export const uomDtoSchema = recordDto({ categoryId: z.number(), ratio: z.number(), type: z.enum(UOM_TYPES), category: ref.nullable() });
export type UomDto = z.infer<typeof uomDtoSchema>;

export const uomOptionSchema = z.object({ value: z.number(), label: z.string(), categoryId: z.number(), type: z.enum(UOM_TYPES) });

export const assetCategoryDtoSchema = recordDto({ code: z.string(), shortCode: z.string() });
export type AssetCategoryDto = z.infer<typeof assetCategoryDtoSchema>;

export const timeTrackingReasonDtoSchema = recordDto({ type: z.enum(REASON_TYPES), is_blocking_reason: z.boolean(), isBlockingReason: z.boolean() });
export type TimeTrackingReasonDto = z.infer<typeof timeTrackingReasonDtoSchema>;

/**
 * The four answers of a simple list (master data, teams): the list; an add (the list, a message and the record
 * under `added`); an update (a message and the record under each of `updated`); a delete (the list and a message).
 */
export function simpleListAnswers<K extends string, T extends z.ZodType, A extends string, U extends string>(plural: K, item: T, added: A, updated: U[]) {
  const list = listAnswerSchema(plural, item);
  return {
    list,
    add: list.extend(messageSchema.shape).extend({ [added]: item } as { [P in A]: T }),
    update: messageSchema.extend(Object.fromEntries(updated.map((key) => [key, item])) as { [P in U]: T }),
    remove: list.extend(messageSchema.shape),
  };
}
