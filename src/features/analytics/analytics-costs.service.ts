import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { moneySettings } from '../organization/organization.service';
import { quotationNumber } from '../quotations/quotations.schema';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import {
  daysIn,
  type AnalyticsFilters,
  type CostFigures,
  type DayRange,
  type DowntimeFigures,
  QUOTED_ROWS_CAP,
  type QuotedActual,
  type QuotedVsActualFigures,
} from './analytics.schema';
import {
  num,
  numOrNull,
  round2,
  dayStart,
  dayEnd,
  localDay,
  orderOf,
  needsOrder,
  orderStations,
  scopeOf,
  assetsInLocation,
  laborRows,
  laborIn,
  partRows,
  partsIn,
  type PeriodFigures,
} from './analytics-sql';
import { now } from '../../server/clock';
import { downMinutesByAsset } from '../asset-states/asset-states.sql';
import { toMinute } from '../asset-states/asset-states.time';

/** Hours and money of the insights screen (decisions 038, 063): downtime, costs, quoted vs actual. SQL helpers: analytics-sql.ts. */

// ---------- downtime ----------

const byCat = (cat: string) => sql.raw(`coalesce(sum(hours) filter (where category = '${cat}'), 0)`);

/**
 * Labour hours by the reason's category (and blocking flag), per asset and per work station (labour stays labour);
 * the assets' down time from their state intervals (decision 079): the "availability downtime" KPI is the hours
 * the assets in scope were down (each asset's overlapping intervals once, open ones up to now), and an asset's
 * availability loss is its down time over the range. Down time belongs to assets: the person, team and work-station
 * filters do not apply to it (its KPI is null then).
 */
export const downtimeFigures: PeriodFigures<DowntimeFigures> = async (tx, orgId, range, previous, f, tz = 'UTC') => {
  const hoursOf = (r: DayRange) => sql`select l.hours, w.asset_id, w.id as wo_id, t.type as category, t.is_blocking_reason as blocking
      from (${laborIn(orgId, r, tz)}) l ${orderOf(orgId, sql`l.work_order_id`, f)}
      join time_tracking_reasons t on t.org_id = l.org_id and t.id = l.reason_id
      where true ${scopeOf(orgId, 'w', f, 'l')}`;
  const assetsDown = !(f.workStationId || f.teamId || f.assigneeId);
  const scopeAssets = sql`(select a.id from assets a where a.org_id = ${orgId}::int
      ${f.assetId ? sql`and a.id = ${f.assetId}::int` : sql``} ${f.assetCategoryId ? sql`and a.asset_category_id = ${f.assetCategoryId}::int` : sql``}
      ${f.locationId ? sql`and a.id in ${assetsInLocation(orgId, f.locationId)}` : sql``}
      ${assetsDown ? sql`` : sql`and false`})`;
  const at = sql`${toMinute(now()).toISOString()}::timestamptz`;
  const downOf = (r: DayRange) => downMinutesByAsset(orgId, scopeAssets, dayStart(r.from, tz), dayEnd(r.to, tz), at);
  const [row] = rowsOf<{
    by_category: Record<string, unknown>[] | null;
    by_asset: Record<string, unknown>[] | null;
    by_station: Record<string, unknown>[] | null;
    cur: unknown;
    prev: unknown;
  }>(
    await tx.execute(sql`with h as materialized (${hoursOf(range)}),
      dn as materialized (${downOf(range)}),
      la as (select h.asset_id, ${byCat('availability')} as availability, ${byCat('performance')} as performance,
            ${byCat('quality')} as quality, ${byCat('productivity')} as productivity
          from h group by h.asset_id),
      by_asset as (select s.*, a.name from (
            select coalesce(la.asset_id, dn.asset_id) as asset_id, coalesce(la.availability, 0) as availability, coalesce(la.performance, 0) as performance,
              coalesce(la.quality, 0) as quality, coalesce(la.productivity, 0) as productivity, coalesce(dn.down_minutes, 0) as down_minutes
            from la full join dn on dn.asset_id = la.asset_id
            order by down_minutes desc, availability desc, 1 nulls last limit 50) s
        left join assets a on a.org_id = ${orgId}::int and a.id = s.asset_id),
      by_station as (select s.id as work_station_id, s.name, ${byCat('availability')} as availability, ${byCat('performance')} as performance,
            ${byCat('quality')} as quality, ${byCat('productivity')} as productivity
          from (select h.*, st.ws from h left join ${orderStations(orgId, sql`array(select distinct wo_id from h)`)} st on st.wo_id = h.wo_id) hw
            left join work_stations s on s.org_id = ${orgId}::int and s.id = hw.ws
          group by s.id, s.name order by availability desc, 1 nulls last limit 50)
      select (select json_agg(c order by c.category, c.blocking) from (select category, blocking, sum(hours) as hours from h group by 1, 2) c) as by_category,
        (select json_agg(b order by b.down_minutes desc, b.availability desc, b.asset_id nulls last) from by_asset b) as by_asset,
        (select json_agg(b order by b.availability desc, b.work_station_id nulls last) from by_station b) as by_station,
        (select coalesce(sum(down_minutes), 0) from dn) as cur,
        (select coalesce(sum(down_minutes), 0) from (${downOf(previous)}) p) as prev`),
  );
  const rangeMinutes = daysIn(range) * 24 * 60;
  const cats = (r: Record<string, unknown>) => ({
    availability: round2(r.availability),
    performance: round2(r.performance),
    quality: round2(r.quality),
    productivity: round2(r.productivity),
  });
  return {
    range,
    byCategory: (row.by_category ?? []).map((r) => ({
      category: r.category as DowntimeFigures['byCategory'][number]['category'],
      blocking: r.blocking as boolean,
      hours: round2(r.hours),
    })),
    byAsset: (row.by_asset ?? []).map((r) => ({
      assetId: numOrNull(r.asset_id),
      name: (r.name as string | null) ?? null,
      ...cats(r),
      downHours: round2(num(r.down_minutes) / 60),
      availabilityLoss: Math.round((num(r.down_minutes) / rangeMinutes) * 10_000) / 10_000,
    })),
    byWorkStation: (row.by_station ?? []).map((r) => ({ workStationId: numOrNull(r.work_station_id), name: (r.name as string | null) ?? null, ...cats(r) })),
    availabilityHours: assetsDown ? { current: round2(num(row.cur) / 60), previous: round2(num(row.prev) / 60) } : { current: null, previous: null },
  };
};

// ---------- cost ----------

/**
 * Labour (laborRows) plus parts used (partRows) per asset, work station and month; labour counts by its start,
 * parts by the day they were added to the order. The range's items are read once (one materialised CTE) and
 * every total and breakdown comes out of the same statement.
 */
export async function costFigures(tx: ReadTx, orgId: number, range: DayRange, previous: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<CostFigures> {
  const { currency } = await moneySettings(tx, orgId);
  const items = (r: DayRange) => sql`
      select w.id as wo_id, w.asset_id, ${localDay(sql`l.start_date`, tz)} as at, coalesce(l.cost, 0) as labor, 0::numeric as parts, case when l.cost is null then l.hours else 0 end as unrated
        from (${laborIn(orgId, r, tz)}) l ${orderOf(orgId, sql`l.work_order_id`, f)} where true ${scopeOf(orgId, 'w', f, 'l')}
      union all
      select w.id, w.asset_id, ${localDay(sql`pr.created_at`, tz)}, 0, pr.cost, 0
        from (${partsIn(orgId, r, tz)}) pr ${orderOf(orgId, sql`pr.work_order_id`, f)} where true ${scopeOf(orgId, 'w', f)}`;
  // The period before: its total alone, from the lines without their orders when no filter needs them.
  const previousTotal =
    needsOrder(f, true) || needsOrder(f, false)
      ? sql`select coalesce(sum(labor + parts), 0) from (${items(previous)}) p`
      : sql`select coalesce((select sum(l.cost) from (${laborIn(orgId, previous, tz)}) l where true ${scopeOf(orgId, 'w', f, 'l')}), 0)
          + coalesce((select sum(pr.cost) from (${partsIn(orgId, previous, tz)}) pr), 0)`;
  const [row] = rowsOf<{
    totals: Record<string, unknown>;
    by_asset: Record<string, unknown>[] | null;
    by_station: Record<string, unknown>[] | null;
    by_month: Record<string, unknown>[] | null;
  }>(
    await tx.execute(sql`with i as materialized (${items(range)}),
      by_asset as (select s.asset_id, a.name, s.labor, s.parts from (
          select asset_id, sum(labor) as labor, sum(parts) as parts from i group by 1 order by sum(labor) + sum(parts) desc, 1 nulls last limit 50) s
        left join assets a on a.org_id = ${orgId}::int and a.id = s.asset_id),
      by_station as (select s.id as work_station_id, s.name, sum(labor) as labor, sum(parts) as parts
        from (select st.ws, i.labor, i.parts from i left join ${orderStations(orgId, sql`array(select distinct wo_id from i)`)} st on st.wo_id = i.wo_id) st
          left join work_stations s on s.org_id = ${orgId}::int and s.id = st.ws group by 1, 2 order by sum(labor + parts) desc, 1 nulls last limit 50),
      by_month as (select to_char(at, 'YYYY-MM') as month, sum(labor) as labor, sum(parts) as parts from i group by 1 order by 1)
      select (select json_build_object('labor', coalesce(sum(labor), 0), 'parts', coalesce(sum(parts), 0), 'unrated', coalesce(sum(unrated), 0),
            'prev', (${previousTotal})) from i) as totals,
        (select json_agg(b order by b.labor + b.parts desc, b.asset_id nulls last) from by_asset b) as by_asset,
        (select json_agg(b order by b.labor + b.parts desc, b.work_station_id nulls last) from by_station b) as by_station,
        (select json_agg(b order by b.month) from by_month b) as by_month`),
  );
  const totals = row.totals;
  const money = (r: Record<string, unknown>) => ({ labor: num(r.labor), parts: num(r.parts), total: num(r.labor) + num(r.parts) });
  return {
    range,
    currency,
    laborCost: num(totals.labor),
    partsCost: num(totals.parts),
    unratedHours: round2(totals.unrated),
    byAsset: (row.by_asset ?? []).map((r) => ({ assetId: numOrNull(r.asset_id), name: (r.name as string | null) ?? null, ...money(r) })),
    byWorkStation: (row.by_station ?? []).map((r) => ({ workStationId: numOrNull(r.work_station_id), name: (r.name as string | null) ?? null, ...money(r) })),
    byMonth: (row.by_month ?? []).map((r) => ({ month: r.month as string, ...money(r) })),
    total: { current: num(totals.labor) + num(totals.parts), previous: num(totals.prev) },
  };
}

// ---------- quoted vs actual ----------

/**
 * Work orders linked to a quotation (work_orders.quotation_id) and created in the range, with the filters: the
 * quotation's stored amounts (the tax engine's, src/shared/tax.ts) against the order's actual cost, all its
 * labour (laborRows) and parts (partRows) whenever logged. Per quotation: its amounts once, against the sum of
 * those orders. Difference = actual - the quoted amount before tax (cost carries no tax). The totals and counts
 * are over all of them; the lists hold the QUOTED_ROWS_CAP quotations and orders with the largest absolute
 * difference (decision 038, fourth addendum).
 */
export async function quotedVsActualFigures(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<QuotedVsActualFigures> {
  const { currency } = await moneySettings(tx, orgId);
  type Sums = { labor: unknown; parts: unknown; unrated: unknown; untaxed: unknown; total: unknown };
  type OrderRow = Sums & { id: number; title: string; status: string; quotation_id: number };
  type QuotationRow = Sums & { quotation_id: number; orders: number; q_status: string; customer: string | null };
  const linked = sql`(select id from o)`;
  const [row] = rowsOf<{
    totals: { quoted: unknown; untaxed: unknown; actual: unknown; quotations: unknown; orders: unknown };
    quotations: QuotationRow[] | null;
    work_orders: OrderRow[] | null;
  }>(
    await tx.execute(sql`with o as materialized (select w.id, w.title, w.status, w.quotation_id from work_orders w
          where w.org_id = ${orgId}::int and w.quotation_id is not null and w.created_at >= ${dayStart(range.from, tz)} and w.created_at < ${dayEnd(range.to, tz)}
            ${scopeOf(orgId, 'w', f)}),
      lab as (select l.work_order_id, sum(coalesce(l.cost, 0)) as labor, sum(case when l.cost is null then l.hours else 0 end) as unrated
        from (${laborRows(orgId, sql`l.work_order_id in ${linked}`)}) l group by 1),
      par as (select p.work_order_id, sum(p.cost) as parts from (${partRows(orgId, sql`wp.work_order_id in ${linked}`)}) p group by 1),
      k as materialized (select o.*, coalesce(lab.labor, 0) as labor, coalesce(par.parts, 0) as parts, coalesce(lab.unrated, 0) as unrated
        from o left join lab on lab.work_order_id = o.id left join par on par.work_order_id = o.id),
      qa as materialized (select s.quotation_id, s.orders, s.labor, s.parts, s.unrated, q.status as q_status, q.untaxed, q.total, q.customer_id,
          s.labor + s.parts - q.untaxed as difference
        from (select quotation_id, count(*)::int as orders, sum(labor) as labor, sum(parts) as parts, sum(unrated) as unrated from k group by quotation_id) s
          join quotations q on q.org_id = ${orgId}::int and q.id = s.quotation_id),
      top_q as (select t.*, cv.name as customer
        from (select * from qa order by abs(difference) desc, quotation_id limit ${QUOTED_ROWS_CAP}::int) t
          left join customer_vendors cv on cv.org_id = ${orgId}::int and cv.id = t.customer_id),
      top_w as (select k.*, qa.untaxed, qa.total, k.labor + k.parts - qa.untaxed as difference
        from k join qa on qa.quotation_id = k.quotation_id order by abs(k.labor + k.parts - qa.untaxed) desc, k.id limit ${QUOTED_ROWS_CAP}::int)
      select (select json_build_object('quoted', coalesce(sum(total), 0), 'untaxed', coalesce(sum(untaxed), 0), 'actual', coalesce(sum(labor + parts), 0),
            'quotations', count(*), 'orders', coalesce(sum(orders), 0)) from qa) as totals,
        (select json_agg(t order by abs(t.difference) desc, t.quotation_id) from top_q t) as quotations,
        (select json_agg(t order by abs(t.difference) desc, t.id) from top_w t) as work_orders`),
  );
  const amounts = (r: Sums): QuotedActual => {
    const labor = num(r.labor);
    const parts = num(r.parts);
    return {
      quoted: num(r.total),
      quotedUntaxed: num(r.untaxed),
      labor,
      parts,
      actual: labor + parts,
      difference: labor + parts - num(r.untaxed),
      unratedHours: round2(r.unrated),
    };
  };
  const totals = row.totals;
  return {
    range,
    currency,
    workOrders: (row.work_orders ?? []).map((r) => ({
      workOrderId: r.id,
      number: workOrderDisplayId(r.id),
      title: r.title,
      status: r.status,
      quotationId: r.quotation_id,
      quotationNumber: quotationNumber(r.quotation_id),
      ...amounts(r),
    })),
    workOrderCount: num(totals.orders),
    quotations: (row.quotations ?? []).map((r) => ({
      quotationId: r.quotation_id,
      number: quotationNumber(r.quotation_id),
      customer: r.customer,
      status: r.q_status,
      workOrders: num(r.orders),
      ...amounts(r),
    })),
    quotationCount: num(totals.quotations),
    total: { quoted: num(totals.quoted), quotedUntaxed: num(totals.untaxed), actual: num(totals.actual), difference: num(totals.actual) - num(totals.untaxed) },
  };
}
