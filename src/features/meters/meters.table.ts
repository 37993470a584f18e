import { boolean, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgChildKeys, orgRef } from '../../server/db/org-keys';
import { sql } from 'drizzle-orm';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { assets } from '../assets/assets.table';
import { METER_KINDS, READING_SOURCES } from './meters.schema';

/**
 * A meter of an asset (decision 031): a `counter` only goes up (running hours, cycles, km; a reading marked
 * `reset` starts it again), a `gauge` goes up and down (temperature, pressure). The unit is free text.
 * An asset with meters cannot be deleted (no cascade): its meters are deleted first, with their readings.
 */
export const meters = pgTable(
  'meters',
  {
    ...orgRowColumns(),
    assetId: integer().notNull(),
    name: text().notNull(),
    kind: text({ enum: METER_KINDS }).notNull(),
    unit: text().notNull(),
    description: text(),
    /** Bumped by every edit: an edit made from an older version is refused (decision 025). */
    version: integer().notNull().default(1),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    orgRef(t, t.assetId, assets),
    // A meter's name is unique within its asset (CSV rows name a meter by asset and name), whatever the case.
    uniqueIndex('meters_org_asset_name_idx').on(t.orgId, t.assetId, sql`lower(${t.name})`),
  ],
);

/**
 * Readings of a meter. `total` is a counter's usage since its first reading, carried across resets (the sum of
 * its rises, a reset counting from zero): "every N units" compares totals, never raw values that may have
 * restarted. A gauge's total is null. The service keeps totals in order when a reading is added in the past.
 */
export const meterReadings = pgTable(
  'meter_readings',
  {
    ...orgRowColumns(),
    meterId: integer().notNull(),
    value: numeric({ precision: 15, scale: 4, mode: 'number' }).notNull(),
    total: numeric({ precision: 15, scale: 4, mode: 'number' }),
    /** A counter restarted from zero (replaced or reset) before this reading. */
    reset: boolean().notNull().default(false),
    readAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    source: text({ enum: READING_SOURCES }).notNull(),
    /** The work order the reading was taken on: checked on insert, no foreign key, so the reading outlives it. */
    workOrderId: integer(),
    /** Who recorded it (informational: no foreign key, so people can leave without rewriting history). */
    recordedById: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.meterId, meters),
    // "Readings of a meter by time": the chart's range, the latest reading, the neighbours of a new reading.
    index('meter_readings_org_meter_time_idx').on(t.orgId, t.meterId, t.readAt, t.id),
  ],
);
