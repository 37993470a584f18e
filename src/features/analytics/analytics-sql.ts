import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { laborCostMinor } from '../work-orders/work-orders.service';
import { subtreeIds } from '../locations/location-tree';
import type { AnalyticsFilters, DayRange } from './analytics.schema';

/*
 * Every figure of the analytics screen (decisions 038, 063), each one function and, where it can, one statement:
 * plain SQL over the rows (work orders, work_order_closures, labour, parts, plans' occurrences), the same SQL with
 * or without a filter (no roll-up, so nothing to drift). Days, weeks and months are those of a time zone (`tz`,
 * an IANA name, 'UTC' by default): a range [from, to] of whole days there. "Open" is assigned or in progress; a
 * work order's completion time is its row in work_order_closures. A work order is planned when a PM plan created
 * it (pm_occurrences), reactive otherwise. Its work stations and teams are its plan's, plus those of the people
 * assigned to it (user_work_stations, team_members).
 */

/** A chart's figures over a range against the period before it, under the filters, days in `tz` (UTC unless given). */
export type PeriodFigures<T> = (tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz?: string) => Promise<T>;

export const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
export const round2 = (v: unknown) => Math.round(num(v) * 100) / 100;

/** The instant day `day` starts in time zone `tz`. */
export const dayStart = (day: string, tz: string) => sql`(${day}::date::timestamp at time zone ${tz}::text)`;
/** The instant the day after `day` starts in `tz` (a range's end, exclusive). */
export const dayEnd = (day: string, tz: string) => sql`((${day}::date + 1)::timestamp at time zone ${tz}::text)`;
/** The day of `tz` an instant falls in. */
export const localDay = (t: SQL, tz: string) => sql`((${t}) at time zone ${tz}::text)::date`;
export const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The work order of each row of a smaller set (labour, parts, closures) as alias `w`, by its key: an index probe
 * per row (lateral, `offset 0` keeps it one). Joined plainly, the planner read all the organisation's orders to
 * hash them (100,000 at the budget's size) for a year's 10,000 rows.
 */
export const orderOf = (orgId: number, id: SQL, f: AnalyticsFilters) =>
  // A team or work-station filter probes a set of orders (ordersOf): per probed row the planner scanned that set
  // (4 s for a year's repairs); joined plainly, both sides are hashed.
  f.teamId || f.workStationId
    ? sql`join work_orders w on w.org_id = ${orgId}::int and w.id = ${id}`
    : sql`cross join lateral (select w.org_id, w.id, w.asset_id, w.created_at, w.status, w.held_seconds, w.problem_code_id from work_orders w
    where w.org_id = ${orgId}::int and w.id = ${id} offset 0) w`;

/** Does a labour or parts figure with these filters need the work order's row (`w`)? The assignee filter of labour is its worker. */
export const needsOrder = (f: AnalyticsFilters, labor: boolean) =>
  !!(f.assetId || f.assetCategoryId || f.locationId || f.workStationId || f.teamId || (f.assigneeId && !labor));

/** Is work order `w` (an alias) one a PM plan created? */
export const plannedOf = (w: string) => sql.raw(`exists (select 1 from pm_occurrences o where o.org_id = ${w}.org_id and o.work_order_id = ${w}.id)`);

/**
 * The work orders of a work station or a team, as a set: those its plans created, and those of the people in it
 * (a station's people: user_work_stations; a team's: team_members). Not correlated with the order being filtered,
 * so a statement builds the set once and probes it by hash (asked per order it took seconds at 1M orders).
 */
export const ordersOf = (orgId: number, by: 'workStation' | 'team', id: number) => {
  const [planColumn, people] =
    by === 'team'
      ? [sql.raw('p.team_id'), sql`select worker_id from team_members where org_id = ${orgId}::int and team_id = ${id}::int`]
      : [sql.raw('p.work_station_id'), sql`select user_id from user_work_stations where org_id = ${orgId}::int and work_station_id = ${id}::int`];
  return sql`(select o.work_order_id from pm_occurrences o join pm_plans p on p.org_id = o.org_id and p.id = o.plan_id
      where o.org_id = ${orgId}::int and ${planColumn} = ${id}::int and o.work_order_id is not null
    union select wa.work_order_id from work_order_assignees wa where wa.org_id = ${orgId}::int and wa.user_id in (${people}))`;
};

/**
 * The (work order, work station) pairs of the orders whose ids `ids` (an array) holds, as a relation to join:
 * two index scans over those ids (the organisation's pairs, 35,000 at the budget's size, took 200 ms to build).
 */
export const orderStations = (orgId: number, ids: SQL) => sql`(select wa.work_order_id as wo_id, s.work_station_id as ws from work_order_assignees wa
      join user_work_stations s on s.org_id = wa.org_id and s.user_id = wa.user_id where wa.org_id = ${orgId}::int and wa.work_order_id = any(${ids})
    union select o.work_order_id, p.work_station_id from pm_occurrences o join pm_plans p on p.org_id = o.org_id and p.id = o.plan_id
      where o.org_id = ${orgId}::int and p.work_station_id is not null and o.work_order_id = any(${ids}))`;

/**
 * The filters as a condition on work order `w` (the organisation is in the caller's WHERE). `laborAlias`: in a
 * labour figure the assignee filter means the person who logged the time.
 */
export function scopeOf(orgId: number, w: string, f: AnalyticsFilters, laborAlias?: string): SQL {
  const parts: SQL[] = assetScope(orgId, w, 'asset_id', f).map((p) => sql`and ${p}`);
  if (f.workStationId) parts.push(sql`and ${sql.raw(w)}.id in ${ordersOf(orgId, 'workStation', f.workStationId)}`);
  if (f.teamId) parts.push(sql`and ${sql.raw(w)}.id in ${ordersOf(orgId, 'team', f.teamId)}`);
  if (f.assigneeId) {
    if (laborAlias) parts.push(sql`and ${sql.raw(laborAlias)}.worker_id = ${f.assigneeId}::int`);
    else
      parts.push(
        sql`and exists (select 1 from work_order_assignees fw where fw.org_id = ${sql.raw(w)}.org_id and fw.work_order_id = ${sql.raw(w)}.id and fw.user_id = ${f.assigneeId}::int)`,
      );
  }
  return sql.join(parts, sql` `);
}

/**
 * The asset filters on the asset column `column` of alias `alias` (a work order, maintenance order or plan
 * occurrence), each one condition: the asset, its category, and a location with everything under it (decision 072).
 */
export function assetScope(orgId: number, alias: string, column: string, f: AnalyticsFilters): SQL[] {
  const a = sql.raw(`${alias}.${column}`);
  const parts: SQL[] = [];
  if (f.assetId) parts.push(sql`${a} = ${f.assetId}::int`);
  if (f.assetCategoryId)
    parts.push(
      sql`exists (select 1 from assets fa where fa.org_id = ${sql.raw(alias)}.org_id and fa.id = ${a} and fa.asset_category_id = ${f.assetCategoryId}::int)`,
    );
  if (f.locationId) parts.push(sql`${a} in ${assetsInLocation(orgId, f.locationId)}`);
  return parts;
}

/** The assets in location `locationId` and everything under it, as a set (built once per statement). */
export const assetsInLocation = (orgId: number, locationId: number) =>
  sql`(select la.id from assets la where la.org_id = ${orgId}::int and la.location_id in ${subtreeIds('locations', sql`${orgId}::int`, sql`${locationId}::int`)})`;

/** The filters on maintenance order `m`: it has an asset but no assignee, team or work station, so those filters leave it out. */
export function maintenanceOrderScope(orgId: number, m: string, f: AnalyticsFilters): SQL {
  if (f.workStationId || f.teamId || f.assigneeId) return sql`and false`;
  return sql.join(
    assetScope(orgId, m, 'asset_id', f).map((p) => sql`and ${p}`),
    sql` `,
  );
}

// ---------- labour and parts (the one place their cost is computed) ----------

/**
 * Labour rows (alias `l` in `where`, a condition such as a range of start times): hours and cost, the rate the
 * line kept when it was logged (`rate_minor`, or a contractor's own rate) through the work orders' one formula
 * `laborCostMinor` (minor units, rounded per row; null without a rate). Every labour figure reads it, as the
 * order's own cost (getWorkOrderCost) reads the same columns with the same formula (decision 063).
 */
export function laborRows(orgId: number, where: SQL): SQL {
  return sql`select l.org_id, l.id, l.work_order_id, l.worker_id, l.reason_id, l.start_date, l.share_id is not null as external,
      extract(epoch from (l.end_date - l.start_date)) / 3600.0 as hours,
      ${laborCostMinor(sql`l.start_date`, sql`l.end_date`, sql`coalesce(l.external_rate_minor, l.rate_minor)`)} as cost
    from work_order_labors l where l.org_id = ${orgId}::int and ${where}`;
}
/** Labour that started in a range of days. */
export const laborIn = (orgId: number, r: DayRange, tz: string) =>
  laborRows(orgId, sql`l.start_date >= ${dayStart(r.from, tz)} and l.start_date < ${dayEnd(r.to, tz)}`);

/**
 * Parts used on work orders (alias `wp` in `where`): quantity x the unit price the line kept when the part was
 * used (minor units), a contractor's parts at the unit price they reported.
 */
export function partRows(orgId: number, where: SQL): SQL {
  return sql`select wp.org_id, wp.work_order_id, wp.created_at, wp.quantity * coalesce(wp.external_unit_price_minor, wp.unit_price_minor, 0) as cost
    from work_order_parts wp where wp.org_id = ${orgId}::int and ${where}`;
}
export const partsIn = (orgId: number, r: DayRange, tz: string) =>
  partRows(orgId, sql`wp.created_at >= ${dayStart(r.from, tz)} and wp.created_at < ${dayEnd(r.to, tz)}`);
