import { z } from '../../shared/zod-setup';
import { lowerCasedOrAbsent } from '../../shared/spelling.schema';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';
import { listAnswerSchema, listAnswers, messageSchema, multiValue, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { optionalString, idField } from '../../shared/validation';
import { blankToUndefined, optionalRef, quantityField, requiredRef, textFilter } from '../../shared/reference-fields';
import { requiredQuantityField } from '../../shared/schema-parts';
import { locationFilterField } from '../locations/locations.schema';

export const LOCATION_KINDS = ['storeroom', 'van', 'site-store'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];
export const MOVE_REASONS = ['count', 'consumption', 'return', 'receipt', 'transfer', 'initial'] as const;
export type MoveReason = (typeof MOVE_REASONS)[number];

/** The stock rules' messages (decision 071). */
export const STOCK_MESSAGES = {
  ...NAME_MESSAGES,
  nameTaken: 'A location with this name already exists',
  kind: 'Kind must be storeroom, van or site-store',
  defaultKept: 'The default location cannot be deleted',
  locationInUse: 'This location has stock or history and cannot be deleted',
  part: 'Part is required',
  partUnknown: 'Part does not exist in this organization',
  location: 'Location is required',
  locationUnknown: 'Location does not exist in this organization',
  fromLocation: 'From location is required',
  toLocation: 'To location is required',
  sameLocation: 'Choose two different locations',
  quantity: 'Quantity is required',
  quantityInvalid: 'Quantity must be a number',
  quantityPositive: 'The number must be greater than 0',
  counted: 'Counted quantity is required',
  countedNegative: 'Counted quantity cannot be negative',
  notStockable: 'Only stockable parts keep a quantity on hand',
  noteMax: 'Note must be at most 200 characters',
  reorderNegative: 'Reorder values cannot be negative',
  place: 'Location is invalid',
} as const;
const M = STOCK_MESSAGES;

const kindField = z.preprocess(lowerCasedOrAbsent, z.enum(LOCATION_KINDS, { error: M.kind }));

/** add-location and update-location/{id}. */
export const locationInputSchema = z.strictObject({
  name: nameField(),
  kind: kindField.default('storeroom'),
  /** Where it is in the location tree (issue 42); null clears it, absent keeps it on an update. */
  locationId: optionalRef(M.place).optional(),
});
export type LocationInput = z.output<typeof locationInputSchema>;

export const locationListQuerySchema = pageQuerySchema.extend({
  name: textFilter,
  kind: multiValue(z.enum(LOCATION_KINDS, { error: M.kind })),
  /** A location of the tree and everything under it (decision 072). */
  locationId: locationFilterField,
});
export type LocationListQuery = z.output<typeof locationListQuerySchema>;

export const locationDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(LOCATION_KINDS),
  isDefault: z.boolean(),
  /** Its place in the location tree (issue 42), with the place's path from the top ("Plant / Hall A"). */
  locationId: z.number().nullable(),
  location: z.object({ id: z.number(), name: z.string(), path: z.string() }).nullable(),
  createdAt: z.string(),
});
export type LocationDto = z.infer<typeof locationDtoSchema>;
export const locationAnswers = listAnswers('locations', locationDtoSchema, 'location');
export type LocationList = z.infer<typeof locationAnswers.list>;
export const locationOptionSchema = optionSchema.extend({ kind: z.enum(LOCATION_KINDS), isDefault: z.boolean() });

/** A positive quantity (3 decimals), number or numeric string. */
const positiveQuantity = requiredQuantityField(
  { required: M.quantity, invalid: M.quantityInvalid, refused: M.quantityPositive },
  (n) => Math.round(n * 1000) > 0,
);

/** POST transfer-stock: a quantity of one part from one location to another. */
export const transferInputSchema = z
  .strictObject({
    partId: requiredRef(M.part),
    fromLocationId: requiredRef(M.fromLocation),
    toLocationId: requiredRef(M.toLocation),
    quantity: positiveQuantity,
    note: optionalString(200),
  })
  .refine((v) => v.fromLocationId !== v.toLocationId, { message: M.sameLocation, path: ['toLocationId'] });
export type TransferInput = z.output<typeof transferInputSchema>;

/** POST count-stock: what was counted of one part at one location; the difference is posted as a move. */
export const countInputSchema = z.strictObject({
  partId: requiredRef(M.part),
  locationId: requiredRef(M.location),
  countedQuantity: requiredQuantityField({ required: M.counted, invalid: M.quantityInvalid, refused: M.countedNegative }, (n) => n >= 0),
  note: optionalString(200),
});
export type CountInput = z.output<typeof countInputSchema>;

/** PUT update-stock-level: a part's reorder point, reorder quantity and bin at one location. */
export const levelSettingsInputSchema = z.strictObject({
  partId: requiredRef(M.part),
  locationId: requiredRef(M.location),
  reorderPoint: quantityField({ invalid: M.quantityInvalid, negative: M.reorderNegative }),
  reorderQuantity: quantityField({ invalid: M.quantityInvalid, negative: M.reorderNegative }),
  bin: optionalString(50),
});
export type LevelSettingsInput = z.output<typeof levelSettingsInputSchema>;

const idFilter = (message: string) => z.preprocess(blankToUndefined, idField(message).optional());

/** get-stock-levels: a part's levels (partId) or a location's (locationId). */
export const levelQuerySchema = pageQuerySchema.extend({ partId: idFilter('Invalid part'), locationId: idFilter('Invalid location') });
export type LevelQuery = z.output<typeof levelQuerySchema>;

/** get-stock-moves: the ledger, newest first, by part, location (in or out), reason and work order. */
export const moveListQuerySchema = pageQuerySchema.extend({
  partId: idFilter('Invalid part'),
  locationId: idFilter('Invalid location'),
  workOrderId: idFilter('Invalid work order'),
  reason: multiValue(z.enum(MOVE_REASONS, { error: `Reason must be one of ${MOVE_REASONS.join(', ')}` })),
});
export type MoveListQuery = z.output<typeof moveListQuerySchema>;

export const stockSettingsInputSchema = z.strictObject({ allowNegativeStock: z.boolean({ error: 'allowNegativeStock must be true or false' }) });
export const stockSettingsDtoSchema = z.object({ allowNegativeStock: z.boolean() });
export type StockSettings = z.infer<typeof stockSettingsDtoSchema>;

const named = z.object({ id: z.number(), name: z.string() });

export const stockLevelDtoSchema = z.object({
  partId: z.number(),
  locationId: z.number(),
  part: named,
  location: named,
  quantity: z.number(),
  reorderPoint: z.number(),
  reorderQuantity: z.number(),
  bin: z.string().nullable(),
  /** What open work orders reserve here (decision 081) and what is left: quantity - reserved. */
  reserved: z.number(),
  available: z.number(),
});
export type StockLevelDto = z.infer<typeof stockLevelDtoSchema>;
export const stockLevelListSchema = listAnswerSchema('stockLevels', stockLevelDtoSchema);

export const stockMoveDtoSchema = z.object({
  id: z.number(),
  partId: z.number(),
  part: named.nullable(),
  fromLocation: named.nullable(),
  toLocation: named.nullable(),
  quantity: z.number(),
  unitCostMinor: z.number().nullable(),
  reason: z.enum(MOVE_REASONS),
  note: z.string().nullable(),
  workOrderId: z.number().nullable(),
  purchaseOrderId: z.number().nullable(),
  createdAt: z.string(),
  user: z.object({ id: z.number(), firstName: z.string(), lastName: z.string() }).nullable(),
});
export type StockMoveDto = z.infer<typeof stockMoveDtoSchema>;
export const stockMoveListSchema = listAnswerSchema('stockMoves', stockMoveDtoSchema);
export type StockMoveList = z.infer<typeof stockMoveListSchema>;

/** transfer-stock and count-stock: the part's levels after it, and the move (none when a count found no difference). */
export const stockChangedSchema = messageSchema.extend({
  stockMove: stockMoveDtoSchema.nullable(),
  stockLevels: z.array(stockLevelDtoSchema),
});

/** Whether a work order's parts are there (decision 081): `short` lists what lacks where. */
export const partsReadinessSchema = z.object({
  status: z.enum(['none', 'ready', 'short']),
  shortages: z.array(z.object({ partId: z.number(), part: named, location: named, quantity: z.number(), reserved: z.number() })),
});
export type PartsReadiness = z.infer<typeof partsReadinessSchema>;

// ---- Receiving, reorder, valuation (decision 081) ----

/** A purchase order's receiving status, beside the spec's status (which it leaves as it is). */
export const RECEIVING_STATUSES = ['not-received', 'partly-received', 'fully-received'] as const;
export type ReceivingStatus = (typeof RECEIVING_STATUSES)[number];

/** POST receive-purchase-order/{id}: what came in, per part, into one location. */
export const receiptInputSchema = z.strictObject({
  locationId: requiredRef(M.location),
  lines: z
    .array(z.strictObject({ partId: requiredRef(M.part), quantity: positiveQuantity }), { error: 'Lines are required' })
    .min(1, 'Receive at least one line')
    .max(200, 'At most 200 lines at once'),
  note: optionalString(200),
});
export type ReceiptInput = z.output<typeof receiptInputSchema>;

export const receivingLineSchema = z.object({
  partId: z.number(),
  part: named,
  ordered: z.number(),
  received: z.number(),
  outstanding: z.number(),
  /** The line's unit price less its discount, minor units: what a receipt costs each. */
  unitCostMinor: z.number(),
});
export const receivingDtoSchema = z.object({
  purchaseOrderId: z.number(),
  receivingStatus: z.enum(RECEIVING_STATUSES),
  lines: z.array(receivingLineSchema),
});
export type ReceivingDto = z.infer<typeof receivingDtoSchema>;
export const receivedSchema = messageSchema.extend({ receiving: receivingDtoSchema, stockMoves: z.array(stockMoveDtoSchema) });

/** PUT update-part-stock-settings: the vendor reorders of a part go to. */
export const partStockSettingsInputSchema = z.strictObject({
  partId: requiredRef(M.part),
  preferredVendorId: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'Invalid vendor' }).int('Invalid vendor').min(1, 'Invalid vendor').nullable().optional(),
  ),
});
export type PartStockSettingsInput = z.output<typeof partStockSettingsInputSchema>;
export const partStockSettingsDtoSchema = z.object({
  partId: z.number(),
  preferredVendor: named.nullable(),
  /** Moving average unit cost, minor units; null until a receipt. */
  averageCostMinor: z.number().nullable(),
});
export type PartStockSettingsDto = z.infer<typeof partStockSettingsDtoSchema>;

/** POST draft-reorders: what the reorder run drafted. */
export const reorderResultSchema = messageSchema.extend({
  purchaseOrders: z.array(z.object({ id: z.number(), number: z.string(), vendor: named, lines: z.number() })),
  drafted: z.number(),
  withoutVendor: z.array(named),
});
export type ReorderResult = z.infer<typeof reorderResultSchema>;

/** GET get-stock-valuation: per location, quantity × average cost (minor units). */
export const valuationSchema = z.object({
  locations: z.array(z.object({ location: named, valueMinor: z.number(), parts: z.number(), unvaluedParts: z.number() })),
  totalMinor: z.number(),
});
export type Valuation = z.infer<typeof valuationSchema>;
