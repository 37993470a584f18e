import { z } from '../../shared/zod-setup';
import { lowerCasedOrAbsent } from '../../shared/spelling.schema';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';
import { nameOptionsQuerySchema } from '../../shared/options-query';
import { stockMoveDtoSchema } from '../stock/stock.schema';
import { listAnswerSchema, listAnswers, multiValue, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { optionalString, requiredString, idField } from '../../shared/validation';
import { versionField } from '../../shared/edit-version';
import { requiredQuantityField } from '../../shared/schema-parts';
import { amountField, quantityField, renameAliases, requiredRef, textFilter } from '../../shared/reference-fields';

export const PART_TYPES = ['consumable', 'stockable'] as const;
export type PartType = (typeof PART_TYPES)[number];

/** Spec doc 1 section 5 "Part" and the stock rules, with their messages. */
export const PART_MESSAGES = {
  ...NAME_MESSAGES,
  type: 'Type is required',
  category: 'Category is required',
  categoryUnknown: 'Category does not exist in this organization',
  salesPrice: 'Sales price is required',
  salesPriceInvalid: 'Sales price must be a valid number',
  salesPriceNegative: 'Sales price must be a positive number',
  uom: 'Unit of measure is required',
  uomUnknown: 'Unit of measure does not exist in this organization',
  purchaseUom: 'Purchase unit of measure is required',
  purchaseUomUnknown: 'Purchase unit of measure does not exist in this organization',
  quantityInvalid: 'Quantity must be a number',
  quantityNegative: 'Quantity cannot be negative',
  minimumInvalid: 'Minimum quantity must be a number',
  minimumNegative: 'Minimum quantity cannot be negative',
  consumableStock: 'Only stockable parts keep a quantity on hand',
  adjustQuantity: 'Quantity is required',
  adjustZero: 'Quantity must not be zero',
  adjustReason: 'Reason is required',
  belowZero: 'Stock cannot go below zero',
  inUse: 'This part is used by other records and cannot be deleted',
} as const;
const M = PART_MESSAGES;

/**
 * Add and update body. Aliases: `category` for categoryId, `unitOfMeasure` / `uom` and `purchaseUnitOfMeasure`
 * (numbers or `{ id }`) for the unit ids, `sku` for skuCode. `quantityOnHand` on add is the opening stock; on
 * update a different value is booked as a stock count (a stock move with its reason).
 */
export const partInputSchema = z.preprocess(
  renameAliases({
    category: 'categoryId',
    unitOfMeasure: 'unitOfMeasureId',
    uom: 'unitOfMeasureId',
    uomId: 'unitOfMeasureId',
    purchaseUnitOfMeasure: 'purchaseUnitOfMeasureId',
    purchaseUom: 'purchaseUnitOfMeasureId',
    purchaseUomId: 'purchaseUnitOfMeasureId',
    sku: 'skuCode',
  }),
  z.strictObject({
    name: nameField(),
    type: z.preprocess(lowerCasedOrAbsent, z.enum(PART_TYPES, { error: M.type })),
    skuCode: optionalString(100),
    categoryId: requiredRef(M.category),
    salesPrice: amountField({ required: M.salesPrice, invalid: M.salesPriceInvalid, negative: M.salesPriceNegative }),
    unitOfMeasureId: requiredRef(M.uom),
    purchaseUnitOfMeasureId: requiredRef(M.purchaseUom),
    quantityOnHand: quantityField({ invalid: M.quantityInvalid, negative: M.quantityNegative }),
    minimumQuantity: quantityField({ invalid: M.minimumInvalid, negative: M.minimumNegative }),
    image: z.string().max(500).nullable().optional(),
    /** On update: the version the edit was made from (decision 025). */
    version: versionField,
  }),
);
export type PartInput = z.output<typeof partInputSchema>;

/** POST adjust-stock/{id}: a signed change of the quantity on hand and why. */
export const stockAdjustmentSchema = z.strictObject({
  quantity: requiredQuantityField({ required: M.adjustQuantity, invalid: M.quantityInvalid, refused: M.adjustZero }, (n) => n !== 0),
  reason: requiredString(M.adjustReason).max(200, 'Reason must be at most 200 characters'),
});
export type StockAdjustment = z.output<typeof stockAdjustmentSchema>;

const booleanFlag = z.preprocess(
  (v) => (v === 'true' || v === '1' || v === true ? true : v === 'false' || v === '0' || v === false ? false : undefined),
  z.boolean().optional(),
);

/** get-parts: page, pageSize (default 10), name (matches name or SKU), type, categoryId, lowStock. */
export const partListQuerySchema = pageQuerySchema.extend({
  name: textFilter,
  type: multiValue(z.enum(PART_TYPES, { error: 'Type must be consumable or stockable' })),
  categoryId: idField('Invalid category').optional(),
  lowStock: booleanFlag,
});
export type PartListQuery = z.output<typeof partListQuerySchema>;

export const partOptionsQuerySchema = nameOptionsQuerySchema;

export const stockMovesQuerySchema = pageQuerySchema;

const named = z.object({ id: z.number(), name: z.string() });

/** A part as the API returns it, with the spec's nested keys and its stock. */
export const partDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(PART_TYPES),
  skuCode: z.string().nullable(),
  categoryId: z.number(),
  category: named.nullable(),
  salesPrice: z.number(),
  unitOfMeasureId: z.number(),
  purchaseUnitOfMeasureId: z.number(),
  unitOfMeasure: named.nullable(),
  purchaseUnitOfMeasure: named.nullable(),
  image: z.string().nullable(),
  imageLow: z.string().nullable(),
  quantityOnHand: z.number(),
  minimumQuantity: z.number(),
  /** A stockable part whose quantity on hand is under its minimum. */
  isLowStock: z.boolean(),
  /** Bumped by every edit; an update sends it back (decision 025). */
  version: z.number(),
  createdAt: z.string(),
});
export type PartDto = z.infer<typeof partDtoSchema>;

/** The part routes' answers (issue 28). */
export const partAnswers = listAnswers('parts', partDtoSchema, 'part');
export type PartList = z.infer<typeof partAnswers.list>;

export const partOptionSchema = optionSchema.extend({
  salesPrice: z.number(),
  skuCode: z.string().nullable(),
  type: z.enum(PART_TYPES),
  quantityOnHand: z.number(),
  unitOfMeasure: named.nullable(),
});
export type PartOption = z.infer<typeof partOptionSchema>;

export { stockMoveDtoSchema, type StockMoveDto } from '../stock/stock.schema';
export const stockMoveListSchema = listAnswerSchema('stockMoves', stockMoveDtoSchema);
export const stockAdjustedSchema = partAnswers.update.extend({ stockMove: stockMoveDtoSchema });
