import { z } from '../../shared/zod-setup';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';
import { versionField } from '../../shared/edit-version';
import { listAnswers, multiValue, optionSchema, pageQuerySchema, optionsPageSize } from '../../shared/pagination';
import { idField, optionalString } from '../../shared/validation';
import { calendarDateField } from '../../shared/dates';
import { ASSET_STATES as ASSET_STATES_OVER_TIME } from '../asset-states/asset-states.values';
import { locationFilterField } from '../locations/locations.schema';
import { rollUpSchema } from './asset-rollup.schema';
import { blankToUndefined, optionalRef, renameAliases, requiredRef, textFilter } from '../../shared/reference-fields';

export const ASSET_STATUSES = ['Operational', 'Not_Operational'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

/** Spec doc 1 section 5 "Asset" ('Name' max 100, date and category required), with its messages. */
export const ASSET_MESSAGES = {
  ...NAME_MESSAGES,
  date: 'Date is required',
  dateInvalid: 'Date must be a valid date',
  category: 'Category is required',
  categoryUnknown: 'Category does not exist in this organization',
  customerVendor: 'Customer/Vendor is invalid',
  customerVendorUnknown: 'Customer/Vendor does not exist in this organization',
  status: 'Status must be Operational or Not_Operational',
  inUse: 'This asset is used by other records and cannot be deleted',
  parent: 'Parent asset is invalid',
  parentUnknown: 'Parent asset does not exist in this organization',
  cycle: 'An asset cannot be moved under itself or one of its children',
  hasChildren: 'This asset has child assets; move or delete them first',
  location: 'Location is invalid',
  locationUnknown: 'Location does not exist in this organization',
} as const;
const M = ASSET_MESSAGES;

/** `operational`, `Not Operational`, `not-operational`… to the canonical value; anything else unchanged. */
export function canonicalAssetStatus(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (s === 'operational') return 'Operational';
  if (s === 'not_operational') return 'Not_Operational';
  return v;
}

/**
 * Add and update body. The spec's nested names are accepted too (DESIGN 11): `AssetCategory` / `category` /
 * `categoryId` for assetCategoryId, `CustomerVendor` / `customerVendor` / `owner` for customerVendorId.
 */
export const assetInputSchema = z.preprocess(
  renameAliases({
    AssetCategory: 'assetCategoryId',
    assetCategory: 'assetCategoryId',
    category: 'assetCategoryId',
    categoryId: 'assetCategoryId',
    CustomerVendor: 'customerVendorId',
    customerVendor: 'customerVendorId',
    owner: 'customerVendorId',
    barcode: 'assetBarcode',
    code: 'assetCode',
    parent: 'parentId',
    Parent: 'parentId',
    location: 'locationId',
    Location: 'locationId',
  }),
  z.strictObject({
    name: nameField(),
    description: optionalString(5000),
    serial: optionalString(100),
    assetBarcode: optionalString(100),
    assetCode: optionalString(100),
    date: calendarDateField(M.date, M.dateInvalid),
    customerVendorId: optionalRef(M.customerVendor).optional(),
    assetCategoryId: requiredRef(M.category),
    status: z.preprocess((v) => canonicalAssetStatus(blankToUndefined(v)), z.enum(ASSET_STATUSES, { error: M.status }).default('Operational')),
    /** Where it is (decision 072); null clears it, absent keeps it on an update. */
    locationId: optionalRef(M.location).optional(),
    /** The asset it is part of (decision 072); null clears it, absent keeps it on an update. */
    parentId: optionalRef(M.parent).optional(),
    /** Stays up when its parent goes down (decision 079); absent keeps it on an update. */
    independent: z.boolean({ error: 'Independent must be true or false' }).optional(),
    /** On update: the version the edit was made from (decision 025). */
    version: versionField,
  }),
);
export type AssetInput = z.output<typeof assetInputSchema>;

/** get-assets: page, pageSize (default 10), name (matches name, serial, code or barcode), status, categoryId. */
export const assetListQuerySchema = pageQuerySchema.extend({
  name: textFilter,
  status: multiValue(z.preprocess(canonicalAssetStatus, z.enum(ASSET_STATUSES, { error: M.status }))),
  categoryId: idField('Invalid category').optional(),
  /** Only the records related to this user (spec section 3: the user's related_* records; the UI sends the signed-in user for "Only mine"). */
  relatedTo: idField('Invalid user').optional(),
  /** A location and everything under it (decision 072). */
  locationId: locationFilterField,
});
export type AssetListQuery = z.output<typeof assetListQuerySchema>;

/** get-assets-options: pageSize 5 by default (spec section 9), name. */
export const assetOptionsQuerySchema = z.object({
  pageSize: optionsPageSize(5),
  name: textFilter,
  /** A location and everything under it (decision 072). */
  locationId: locationFilterField,
});

/** An asset as the API returns it, with the spec's nested keys. */
export const assetDtoSchema = z.object({
  id: z.number(),
  /** Display id, AS-0001. */
  assetId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  serial: z.string().nullable(),
  assetBarcode: z.string().nullable(),
  assetCode: z.string().nullable(),
  /** YYYY-MM-DD */
  date: z.string(),
  status: z.enum(ASSET_STATUSES),
  customerVendorId: z.number().nullable(),
  assetCategoryId: z.number(),
  CustomerVendor: z.object({ id: z.number(), name: z.string(), type: z.enum(['customer', 'vendor']) }).nullable(),
  AssetCategory: z.object({ id: z.number(), name: z.string(), code: z.string() }).nullable(),
  locationId: z.number().nullable(),
  Location: z.object({ id: z.number(), name: z.string() }).nullable(),
  parentId: z.number().nullable(),
  Parent: z.object({ id: z.number(), name: z.string(), assetId: z.string() }).nullable(),
  /** Stays up when its parent goes down (decision 079). */
  independent: z.boolean(),
  /** The state now (decision 079): the open interval's, running without one. */
  state: z.enum(ASSET_STATES_OVER_TIME),
  /** Bumped by every edit; an update sends it back (decision 025). */
  version: z.number(),
  createdAt: z.string(),
});
export type AssetDto = z.infer<typeof assetDtoSchema>;

/** The asset routes' answers (issue 28). */
export const assetAnswers = listAnswers('assets', assetDtoSchema, 'asset');
export type AssetList = z.infer<typeof assetAnswers.list>;

export const assetOptionSchema = optionSchema.extend({ assetId: z.string() });
export type AssetOption = z.infer<typeof assetOptionSchema>;

/** POST move-asset/{id}: under another asset (with everything under it), or to the top (null). */
export const moveAssetSchema = z.preprocess(renameAliases({ parent: 'parentId', Parent: 'parentId' }), z.strictObject({ parentId: optionalRef(M.parent) }));

/** A node of the asset tree (get-asset-tree): the screen builds the nesting from parentId. */
export const assetNodeSchema = z.object({
  id: z.number(),
  assetId: z.string(),
  name: z.string(),
  status: z.enum(ASSET_STATUSES),
  parentId: z.number().nullable(),
  locationId: z.number().nullable(),
});
export type AssetNode = z.infer<typeof assetNodeSchema>;

/** The tree screen reads at most this many assets at once. */
export const ASSET_TREE_CAP = 5000;

/** get-asset-tree: the whole tree, or the assets of a location (and under it) with their ancestors. */
export const assetTreeQuerySchema = z.object({ locationId: locationFilterField });

/** The drawer's parent and children and the roll-up of the asset with all its descendants. */
export const assetSummarySchema = rollUpSchema.extend({
  children: z.array(z.object({ id: z.number(), assetId: z.string(), name: z.string() })),
  descendants: z.number(),
});
export type AssetSummary = z.infer<typeof assetSummarySchema>;
