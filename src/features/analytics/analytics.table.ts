import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, foreignKey, index, integer, numeric, pgTable, primaryKey, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { organizations } from '../organization/organization.table';
import { orgIdColumn } from '../../server/db/columns';
import { workOrders } from '../work-orders/work-orders.table';

/**
 * When each closed work order was closed (completed or cancelled), kept by a row trigger on work_orders
 * (custom migration): throughput, backlog over time, MTTR and MTBF read a completion time from an index instead
 * of the history lines (decision 038). A reopened order loses its row; an order inserted closed takes its
 * updated_at (imports, the demo seed, the benchmark generator).
 */
export const workOrderClosures = pgTable(
  'work_order_closures',
  {
    orgId: orgIdColumn(),
    workOrderId: integer().notNull(),
    status: text({ enum: ['completed', 'cancelled'] }).notNull(),
    closedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.workOrderId] }),
    foreignKey({ columns: [t.orgId, t.workOrderId], foreignColumns: [workOrders.orgId, workOrders.id] }).onDelete('cascade'),
    index('work_order_closures_org_closed_idx').on(t.orgId, t.closedAt),
  ],
);

/**
 * The daily roll-up (decision 038): per organisation and UTC day, work orders created, closed (completed or
 * cancelled) and completed, kept by statement triggers on work_orders and work_order_closures (custom migration),
 * and `planned`: those created that day that a PM plan created (kept by triggers on pm_occurrences and
 * work_orders). Throughput, the backlog over time and the planned share of orders read it when no filter is set,
 * instead of a year of a big organisation's rows.
 */
export const workOrderDailyCounts = pgTable(
  'work_order_daily_counts',
  {
    orgId: orgIdColumn(),
    day: date({ mode: 'string' }).notNull(),
    created: integer().notNull().default(0),
    closed: integer().notNull().default(0),
    completed: integer().notNull().default(0),
    planned: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] }), foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade')],
);

/** The sums both labour and parts roll-ups keep (numeric: sums of the raw figures' own expressions, exact). */
const costSums = () => ({
  hours: numeric().notNull().default('0'),
  /** Labour cost in minor units: hours x rate rounded per labour row (laborRows), summed. */
  laborCost: numeric().notNull().default('0'),
  /** Labour hours by people without a rate. */
  unratedHours: numeric().notNull().default('0'),
  /** Catalogue parts: quantity x price in major units (prices fit the currency's decimals, so x 10^digits is exact). */
  partsMajor: numeric().notNull().default('0'),
  /** A contractor's parts at their own unit price, minor units. */
  partsMinor: numeric().notNull().default('0'),
});

/**
 * Labour and parts per organisation, UTC day (labour by its start, parts by the day they were added), asset,
 * time tracking reason (null for parts) and planned or not (decision 038). Kept by statement triggers (custom
 * migration) that compute the days a change touches again from the rows: labour, parts, occurrences, an order's
 * asset, a person's rate, a part's price. Downtime, the planned share of hours and cost read it without filters.
 */
export const workOrderCostDaily = pgTable(
  'work_order_cost_daily',
  {
    orgId: orgIdColumn(),
    day: date({ mode: 'string' }).notNull(),
    assetId: integer(),
    reasonId: integer(),
    planned: boolean().notNull(),
    ...costSums(),
  },
  (t) => [
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
    index('work_order_cost_daily_org_day_idx').on(t.orgId, t.day),
    /** The asset-months a refresh sums again. */
    index('work_order_cost_daily_org_asset_day_idx').on(t.orgId, t.assetId, t.day),
  ],
);

/**
 * The same per work station of the order (its plan's and its assignees' stations; null: none; an order in two
 * stations counts in both, as the raw figure), day and reason. Also kept when assignments, people's stations and
 * plans' stations change.
 */
export const workOrderStationDaily = pgTable(
  'work_order_station_daily',
  {
    orgId: orgIdColumn(),
    day: date({ mode: 'string' }).notNull(),
    workStationId: integer(),
    reasonId: integer(),
    ...costSums(),
  },
  (t) => [foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'), index('work_order_station_daily_org_day_idx').on(t.orgId, t.day)],
);

/**
 * The labour and parts roll-up without the asset (decision 038, addendum): per organisation, UTC day, reason
 * (null for parts) and planned or not, a few rows a day whatever the number of assets. Totals, categories, KPIs,
 * months and the planned share of hours read it without filters. Kept by analytics_daily_refresh with the two
 * above (the same days, computed again from the same rows).
 */
export const workOrderReasonDaily = pgTable(
  'work_order_reason_daily',
  {
    orgId: orgIdColumn(),
    day: date({ mode: 'string' }).notNull(),
    reasonId: integer(),
    planned: boolean().notNull(),
    ...costSums(),
  },
  (t) => [foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'), index('work_order_reason_daily_org_day_idx').on(t.orgId, t.day)],
);

/**
 * work_order_cost_daily summed per calendar month (`month`: its first day), asset and reason: the per-asset lists
 * (downtime, cost) read the range's whole months here and its partial months from the daily table. Kept by
 * analytics_daily_refresh: the asset-months a refresh touches are summed again from work_order_cost_daily.
 */
export const workOrderAssetMonthly = pgTable(
  'work_order_asset_monthly',
  {
    orgId: orgIdColumn(),
    month: date({ mode: 'string' }).notNull(),
    assetId: integer(),
    reasonId: integer(),
    ...costSums(),
  },
  (t) => [foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'), index('work_order_asset_monthly_org_month_idx').on(t.orgId, t.month)],
);

/**
 * Open work orders (assigned or in progress) now, per organisation and UTC day: `createdOpen` of those created
 * that day, `dueOpen` of those due that day (decision 038, addendum). Kept by statement triggers on work_orders
 * (a delta per change, +1 for each new open row and -1 for each old one, so exact). The backlog's open count, age
 * buckets and overdue count read whole days here and the boundary day's rows from the open orders' indexes.
 */
export const workOrderOpenDaily = pgTable(
  'work_order_open_daily',
  {
    orgId: orgIdColumn(),
    day: date({ mode: 'string' }).notNull(),
    createdOpen: integer().notNull().default(0),
    dueOpen: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] }), foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade')],
);

/** A repair's time, creation to completion, in microseconds (exact: timestamps are whole microseconds). */
const REPAIR_US = `(extract(epoch from closed_at - created_at) * 1000000)::bigint`;
const HOUR_US = 3_600_000_000;
/**
 * Buckets of repair time, ascending with it (the median walk needs that): one hour wide below 48 h, a day wide to
 * 32 days, then doubling; -1 for a completion recorded before the creation.
 */
const REPAIR_BUCKET = `(case when ${REPAIR_US} < 0 then -1 when ${REPAIR_US} < ${48 * HOUR_US} then ${REPAIR_US} / ${HOUR_US}
  when ${REPAIR_US} < ${768 * HOUR_US} then 48 + (${REPAIR_US} - ${48 * HOUR_US}) / ${24 * HOUR_US}
  else 78 + least(floor(log(${REPAIR_US}::float8 / ${768 * HOUR_US}) / log(2)), 40) end)::smallint`;

/**
 * Reactive work orders that are not cancelled, one row each (decision 038, second addendum): the "failures" MTBF
 * counts and, those with `closedAt` (completed), the repairs MTTR times. Per row its asset, creation and completion
 * times, its assignees (MTTR by team joins them to today's team members) and, per asset, the creation and
 * completion of the asset's previous failure (by creation time, then id): MTBF's pairs without a window over the
 * year's orders. Kept by statement triggers (custom migration) through `work_order_failures_refresh(org, ids)`,
 * which builds the orders' rows again from work_orders, work_order_closures, pm_occurrences and
 * work_order_assignees, then the previous-failure columns of the assets they belong to (before or after).
 * Unfiltered MTTR and MTBF read it; with a filter they read the rows.
 */
export const workOrderFailures = pgTable(
  'work_order_failures',
  {
    orgId: orgIdColumn(),
    workOrderId: integer().notNull(),
    assetId: integer(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** Completion time (work_order_closures, status completed); null while not completed. */
    closedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The people assigned to the order, ascending. */
    assignees: integer().array().notNull().default(sql`'{}'`),
    /** The asset's category (null without an asset): MTTR by category, kept; an asset's new category refreshes its rows. */
    assetCategoryId: integer(),
    /** Microseconds from creation to completion (null while not completed): what MTTR's mean and median are of. */
    repairUs: bigint({ mode: 'number' }).generatedAlwaysAs(sql.raw(REPAIR_US)),
    /** The repair's bucket of time (`REPAIR_BUCKET`): MTTR's median reads only the bucket that holds it. */
    repairBucket: smallint().generatedAlwaysAs(sql.raw(REPAIR_BUCKET)),
    /** The asset's previous failure (by created_at, then id): its creation and completion times; null for the first or without an asset. */
    prevCreatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    prevClosedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * Running sums along the asset's chain up to this failure (inclusive): failures, intervals (this one and its
     * previous, completed), and their hours (creation minus the previous completion, at least 0). A range's MTBF of
     * an asset is the difference between its last failure in the range and its first (whose own interval starts
     * before the range).
     */
    runFailures: integer(),
    runIntervals: integer(),
    runIntervalHours: doublePrecision(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.workOrderId] }),
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
    /** MTTR: the range's repairs (the migration adds the columns MTTR reads, index-only). */
    index('work_order_failures_org_closed_idx').on(t.orgId, t.closedAt).where(sql`closed_at is not null`),
    /** MTTR's medians: one bucket's repairs of a range (the migration adds the columns they are ranked by, index-only). */
    index('work_order_failures_org_bucket_idx').on(t.orgId, t.repairBucket, t.closedAt).where(sql`closed_at is not null`),
    /** MTBF: the range's failures. */
    index('work_order_failures_org_created_idx').on(t.orgId, t.createdAt),
    /** An asset's chain, computed again by the refresh; MTBF's first and last failure of each asset in a range. */
    index('work_order_failures_org_asset_idx').on(t.orgId, t.assetId, t.createdAt, t.workOrderId),
  ],
);

/**
 * MTTR's histograms (decision 038, fifth addendum): the organisation's repairs (`work_order_failures` with a
 * completion) per UTC calendar month of completion and bucket of time, how many and their time: per asset category
 * here (the overall figure sums the categories), per assignee set in the next table. Kept by
 * `work_order_failures_refresh` itself (the repairs it deletes count -1, those it inserts +1), so a range's whole
 * months are summed here and only its partial months, and the bucket holding each median, read repairs.
 */
export const workOrderRepairMonthly = pgTable(
  'work_order_repair_monthly',
  {
    orgId: orgIdColumn(),
    month: date({ mode: 'string' }).notNull(),
    /** Null: repairs without an asset. */
    assetCategoryId: integer(),
    bucket: smallint().notNull(),
    repairs: integer().notNull(),
    /** The sum of the repairs' times in microseconds: whole numbers, so a repair taken out cancels exactly. */
    micros: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    unique('work_order_repair_monthly_key').on(t.orgId, t.month, t.assetCategoryId, t.bucket).nullsNotDistinct(),
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
  ],
);

/**
 * The same per assignee set (repairs with at least one assignee). Teams are not kept: a team's repairs are those
 * of the sets holding one of its members today, each repair once, so a change of membership needs no refresh.
 */
export const workOrderRepairAssigneeMonthly = pgTable(
  'work_order_repair_assignee_monthly',
  {
    orgId: orgIdColumn(),
    month: date({ mode: 'string' }).notNull(),
    assignees: integer().array().notNull(),
    bucket: smallint().notNull(),
    repairs: integer().notNull(),
    micros: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.month, t.assignees, t.bucket] }),
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
  ],
);

/**
 * Work orders linked to a quotation, one row each, with their actual cost so far (decision 038, third addendum):
 * the sums of all their labour (laborRows: cost in minor units rounded per row, hours without a rate) and parts
 * (partRows: catalogue parts as quantity x price in major units, scaled by the currency at read time; a
 * contractor's at their own price in minor units). Kept by statement triggers (custom migration) through
 * `work_order_quoted_refresh(org, ids)`: labour and parts rows, an order's link, creation time, title or status, a person's rate,
 * a part's price. Quoted vs actual reads the range's linked orders here (index by creation) instead of probing
 * every order's labour and parts.
 */
export const workOrderQuotedActuals = pgTable(
  'work_order_quoted_actuals',
  {
    orgId: orgIdColumn(),
    workOrderId: integer().notNull(),
    quotationId: integer().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** The order's title and status, copied: reading 20,000 scattered orders a year for them took 45 ms at 1M orders. */
    title: text().notNull(),
    status: text().notNull(),
    laborCost: numeric().notNull().default('0'),
    unratedHours: numeric().notNull().default('0'),
    partsMajor: numeric().notNull().default('0'),
    partsMinor: numeric().notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.workOrderId] }),
    foreignKey({ columns: [t.orgId, t.workOrderId], foreignColumns: [workOrders.orgId, workOrders.id] }).onDelete('cascade'),
    index('work_order_quoted_actuals_org_created_idx').on(t.orgId, t.createdAt),
  ],
);
