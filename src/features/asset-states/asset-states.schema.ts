import { z } from '../../shared/zod-setup';
import { optionalDateField } from '../../shared/dates';
import { optionalString } from '../../shared/validation';
import { optionalIdField } from '../../shared/validation';
import { ASSET_STATES } from './asset-states.values';

export { ASSET_STATES, type AssetState } from './asset-states.values';

/** The messages of asset states (decision 079); the UI shows them in English or Arabic. */
export const ASSET_STATE_MESSAGES = {
  state: 'State must be running, down, standby or planned-maintenance',
  at: 'Time must be a valid date',
  atFuture: 'The time a state starts cannot be in the future',
  atBeforeOpen: 'The time must be after the start of the current state',
  from: 'From must be a valid date',
  to: 'To must be a valid date',
  range: 'To must be after From',
  oneScope: 'Give at most one of asset, location and category',
  updated: 'Asset state updated successfully',
} as const;
const M = ASSET_STATE_MESSAGES;

/** POST set-asset-state/{id}: the new state, why, and optionally since when (not in the future, not before the current state began). */
export const setAssetStateSchema = z.strictObject({
  state: z.enum(ASSET_STATES, { error: M.state }),
  reason: optionalString(500),
  at: optionalDateField(M.at),
});
export type SetAssetStateInput = z.output<typeof setAssetStateSchema>;

/** A period of instants (ISO 8601); absent: the last 30 days up to now. */
const periodFields = {
  from: optionalDateField(M.from),
  to: optionalDateField(M.to),
};
const toAfterFrom = <T extends { from?: Date; to?: Date }>(v: T) => !v.from || !v.to || v.to.getTime() > v.from.getTime();

/** GET list-asset-states/{id}: the intervals that meet the period. */
export const assetStatesQuerySchema = z.strictObject(periodFields).refine(toAfterFrom, { message: M.range, path: ['to'] });

/** GET get-asset-availability: one asset, a location (and everything under it) or a category; none: the organisation's assets. */
export const availabilityQuerySchema = z
  .strictObject({
    ...periodFields,
    assetId: optionalIdField('Asset is invalid'),
    locationId: optionalIdField('Location is invalid'),
    assetCategoryId: optionalIdField('Asset category is invalid'),
  })
  .refine(toAfterFrom, { message: M.range, path: ['to'] })
  .refine((v) => [v.assetId, v.locationId, v.assetCategoryId].filter(Boolean).length <= 1, { message: M.oneScope, path: ['assetId'] });
export type AvailabilityQuery = z.output<typeof availabilityQuerySchema>;

export const assetStateIntervalSchema = z.object({
  id: z.number(),
  assetId: z.number(),
  state: z.enum(ASSET_STATES),
  reason: z.string().nullable(),
  startedAt: z.string(),
  /** Null while open. */
  endedAt: z.string().nullable(),
  setBy: z.object({ id: z.number(), name: z.string() }).nullable(),
  workOrderId: z.number().nullable(),
  maintenanceRequestId: z.number().nullable(),
  /** The parent's interval that took this asset down with it. */
  cascadedFrom: z.number().nullable(),
});
export type AssetStateInterval = z.infer<typeof assetStateIntervalSchema>;

export const assetStatesAnswerSchema = z.object({
  state: z.enum(ASSET_STATES),
  from: z.string(),
  to: z.string(),
  intervals: z.array(assetStateIntervalSchema),
});
export type AssetStatesAnswer = z.infer<typeof assetStatesAnswerSchema>;

/** Availability = time not down / time in the period, in whole minutes; null when the scope has no asset. */
export const availabilitySchema = z.object({
  from: z.string(),
  to: z.string(),
  periodMinutes: z.number(),
  assets: z.number(),
  /** Down minutes summed over the assets (each asset's overlapping intervals counted once). */
  downMinutes: z.number(),
  availability: z.number().nullable(),
  /** The assets with the most down time (up to 50). */
  byAsset: z.array(z.object({ id: z.number(), assetId: z.string(), name: z.string(), downMinutes: z.number(), availability: z.number() })),
});
export type Availability = z.infer<typeof availabilitySchema>;
