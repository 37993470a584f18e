import { z } from './zod-setup';

/**
 * Edits carry the version of the record they were made from (decision 025). Both fields are optional, so API
 * clients that omit them keep working (last writer wins for them); the app's drawers always send them.
 */
export const STALE_EDIT_MESSAGE = 'This record was changed by someone else';

/** `version` of a record whose table keeps a counter (assets, parts, maintenance requests and orders). */
export const versionField = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  z.coerce.number({ error: 'Invalid version' }).int('Invalid version').min(1, 'Invalid version').max(2147483647, 'Invalid version').optional(),
);

/** `updatedAt` of a record whose table keeps its last change time (work orders, quotations, purchase orders). */
export const updatedAtField = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  z.iso.datetime({ offset: true, error: 'Invalid updatedAt' }).optional(),
);

/** The 409 body of a stale edit: the record as it is now, so the client can show it and reload. */
export interface StaleEditBody<R = unknown> {
  error: string;
  current: R;
}
