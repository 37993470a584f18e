import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgChildKeys } from '../../server/db/org-keys';
import { sql } from 'drizzle-orm';
import { orgRowColumns, timestampColumn as ts } from '../../server/db/columns';

import { assets } from '../assets/assets.table';
import { ASSET_STATES } from './asset-states.values';

/**
 * An asset's state over time (decision 079): one row per interval, `ended_at` null while it is open. At most one
 * open interval per asset (the partial unique index). Times are whole minutes (the service truncates them), so
 * availability is minute-exact. `cascaded_from`: the parent's interval that took this child down with it.
 */
export const assetStateIntervals = pgTable(
  'asset_state_intervals',
  {
    ...orgRowColumns(),
    assetId: integer().notNull(),
    state: text({ enum: ASSET_STATES }).notNull(),
    reason: text(),
    startedAt: ts().notNull(),
    endedAt: ts(),
    /** Who set it (informational, no foreign key, as work orders' created_by); null: the system. */
    setBy: integer(),
    /** The work order or request that set it (history: no foreign key, the record may be deleted later). */
    workOrderId: integer(),
    maintenanceRequestId: integer(),
    cascadedFrom: integer(),
  },
  (t) => [
    ...orgChildKeys(t, t.assetId, assets),
    uniqueIndex('asset_state_intervals_one_open_idx')
      .on(t.orgId, t.assetId)
      .where(sql`ended_at is null`),
    index('asset_state_intervals_org_asset_start_idx').on(t.orgId, t.assetId, t.startedAt),
    index('asset_state_intervals_org_cascade_idx')
      .on(t.orgId, t.cascadedFrom)
      .where(sql`cascaded_from is not null`),
    index('asset_state_intervals_org_work_order_idx')
      .on(t.orgId, t.workOrderId)
      .where(sql`work_order_id is not null`),
    index('asset_state_intervals_org_request_idx')
      .on(t.orgId, t.maintenanceRequestId)
      .where(sql`maintenance_request_id is not null`),
  ],
);
