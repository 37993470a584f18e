import { z } from '../../shared/zod-setup';
import { idField } from '../../shared/validation';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';
import { nameOptionsQuerySchema } from '../../shared/options-query';
import { listAnswers, messageSchema, optionSchema, pageQuerySchema } from '../../shared/pagination';

import { blankToUndefined, optionalRef, renameAliases, textFilter } from '../../shared/reference-fields';
import { rollUpSchema } from '../assets/asset-rollup.schema';

/** Locations (decision 072): the form's and the API's messages. */
export const LOCATION_MESSAGES = {
  ...NAME_MESSAGES,
  codeMax: 'Code must be at most 20 characters',
  parent: 'Parent location is invalid',
  parentUnknown: 'Parent location does not exist in this organization',
  cycle: 'A location cannot be moved under itself or one of its children',
  codeTaken: 'A location with this code already exists',
  nameTaken: 'A location with this name already exists under the same parent',
  hasChildren: 'This location has locations under it; move or delete them first',
  hasContents: 'This location has assets or work stations in it; move them first',
  hasStorerooms: 'This location has storerooms in it; move them first',
  location: 'Location is invalid',
  locationUnknown: 'Location does not exist in this organization',
} as const;
const M = LOCATION_MESSAGES;

/** Add and update body: name, optional code, optional parent (`parentId`, also `parent` / `Parent`, a number or `{ id }`). */
export const locationInputSchema = z.preprocess(
  renameAliases({ parent: 'parentId', Parent: 'parentId' }),
  z.strictObject({
    name: nameField(),
    code: z.preprocess(blankToUndefined, z.string().trim().max(20, M.codeMax).optional()),
    parentId: optionalRef(M.parent).optional(),
  }),
);
export type LocationInput = z.output<typeof locationInputSchema>;

/** POST move-location/{id}: the new parent, or null for the top level. */
export const moveLocationSchema = z.preprocess(renameAliases({ parent: 'parentId', Parent: 'parentId' }), z.strictObject({ parentId: optionalRef(M.parent) }));

/** A location filter of other lists: that location and everything under it. */
export const locationFilterField = z.preprocess(blankToUndefined, idField(M.location).optional());

/** get-locations: page, pageSize, name (name or code contains), under (a location and everything under it). */
export const locationListQuerySchema = pageQuerySchema.extend({
  pageSize: pageQuerySchema.shape.pageSize.default(25),
  name: textFilter,
  under: locationFilterField,
});
export type LocationListQuery = z.output<typeof locationListQuerySchema>;

export const locationOptionsQuerySchema = nameOptionsQuerySchema;

/** A location as the API returns it; `path` is the names from the top, joined by " / ". */
export const locationDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string().nullable(),
  parentId: z.number().nullable(),
  path: z.string(),
  depth: z.number(),
  Parent: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type LocationDto = z.infer<typeof locationDtoSchema>;

/** A node of the whole tree (get-location-tree): the tree screen and the picker build the nesting from parentId. */
export const locationNodeSchema = locationDtoSchema.pick({ id: true, name: true, code: true, parentId: true }).extend({
  /** Assets and work stations directly in it. */
  assets: z.number(),
  workStations: z.number(),
});
export type LocationSummary = z.infer<typeof locationSummarySchema>;
export type LocationNode = z.infer<typeof locationNodeSchema>;

/**
 * What sits in a location and everything under it (the drawer's summary), and the roll-up of its assets
 * (decision 072): "own" the assets in the location itself, "total" those in it and everything under it.
 */
export const locationSummarySchema = rollUpSchema.extend({
  locations: z.number(),
  assets: z.number(),
  workStations: z.number(),
});

export const locationAnswers = {
  ...listAnswers('locations', locationDtoSchema, 'location'),
  detail: z.object({ location: locationDtoSchema, summary: locationSummarySchema }),
  tree: z.object({ locations: z.array(locationNodeSchema), truncated: z.boolean() }),
  moved: messageSchema.extend({ location: locationDtoSchema }),
};
export type LocationList = z.infer<typeof locationAnswers.list>;

export const locationOptionSchema = optionSchema.extend({ code: z.string().nullable(), path: z.string() });
export type LocationOption = z.infer<typeof locationOptionSchema>;

/** The tree screen reads at most this many locations at once. */
export const LOCATION_TREE_CAP = 5000;
