import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import type { PartsReadiness } from './stock.schema';
import { round3 } from './stock-quantity';

// Reservations (decision 081) are computed, not stored: an open work order's (assigned, in progress) inventory
// part line reserves what it has not consumed yet (its quantity minus the ledger's consumption net of returns for
// that order and part) at the line's location (the default location when it names none). Completing, cancelling
// or deleting the order ends its reservations with nothing to write; consuming replaces them.

/** The open reservations of an organisation, one row per work order line, narrowed by `where` (on l, w). */
function reservationRows(orgId: number, where: SQL = sql`true`) {
  return sql`
    select l.work_order_id, l.part_id, coalesce(l.location_id, d.id) as location_id, p.name as part_name,
      greatest(l.quantity - coalesce((
        select sum(case m.reason when 'consumption' then m.quantity when 'return' then -m.quantity else 0 end)
        from stock_moves m where m.org_id = l.org_id and m.work_order_id = l.work_order_id and m.part_id = l.part_id), 0), 0) as remaining
    from work_order_parts l
    join work_orders w on w.org_id = l.org_id and w.id = l.work_order_id
    join parts p on p.org_id = l.org_id and p.id = l.part_id and p.type = 'stockable'
    left join stock_locations d on d.org_id = l.org_id and d.is_default
    where l.org_id = ${orgId} and l.share_id is null and w.status in ('assigned', 'in-progress') and (${where})`;
}

/** What open work orders reserve per part and location: key `${partId}:${locationId}`. */
export async function reservedByLevel(tx: ReadTx, orgId: number, filter: { partId?: number; locationId?: number } = {}): Promise<Map<string, number>> {
  const where = sql.join(
    [
      sql`true`,
      filter.partId ? sql`l.part_id = ${filter.partId}` : sql`true`,
      filter.locationId ? sql`coalesce(l.location_id, d.id) = ${filter.locationId}` : sql`true`,
    ],
    sql` and `,
  );
  const rows = rowsOf<{ part_id: number; location_id: number; reserved: string }>(
    await tx.execute(sql`select r.part_id, r.location_id, sum(r.remaining) as reserved from (${reservationRows(orgId, where)}) r
      group by r.part_id, r.location_id having sum(r.remaining) > 0`),
  );
  return new Map(rows.map((r) => [`${r.part_id}:${r.location_id}`, round3(Number(r.reserved))]));
}

/**
 * Whether each given work order's parts are there. Orders are served first come, first served: a line is short
 * by what the location's quantity on hand lacks once the open orders created before it (lower ids) have taken
 * their reservations. `none`: the order reserves nothing (closed, no stock parts, or all consumed).
 */
export async function partsReadiness(tx: ReadTx, orgId: number, workOrderIds: number[]): Promise<Map<number, PartsReadiness>> {
  const out = new Map<number, PartsReadiness>(workOrderIds.map((id) => [id, { status: 'none', shortages: [] }]));
  if (!workOrderIds.length) return out;
  const ids = sql.join(
    workOrderIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Every open reservation on the parts these orders need, with each location's quantity on hand.
  const rows = rowsOf<{
    work_order_id: number;
    part_id: number;
    location_id: number;
    part_name: string;
    remaining: string;
    on_hand: string;
    location_name: string;
  }>(
    await tx.execute(sql`
      select r.*, coalesce(s.quantity, 0) as on_hand, loc.name as location_name
      from (${reservationRows(orgId, sql`l.part_id in (select x.part_id from work_order_parts x where x.org_id = ${orgId} and x.work_order_id in (${ids}))`)}) r
      left join stock_levels s on s.org_id = ${orgId} and s.part_id = r.part_id and s.location_id = r.location_id
      join stock_locations loc on loc.org_id = ${orgId} and loc.id = r.location_id
      where r.remaining > 0
      order by r.part_id, r.location_id, r.work_order_id`),
  );
  const taken = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.part_id}:${r.location_id}`;
    const ahead = taken.get(key) ?? 0;
    const remaining = Number(r.remaining);
    taken.set(key, ahead + remaining);
    const readiness = out.get(r.work_order_id);
    if (!readiness) continue;
    const free = Math.max(0, Number(r.on_hand) - ahead);
    const short = round3(Math.max(0, remaining - free));
    if (readiness.status === 'none') readiness.status = 'ready';
    if (short > 0) {
      readiness.status = 'short';
      readiness.shortages.push({
        partId: r.part_id,
        part: { id: r.part_id, name: r.part_name },
        location: { id: r.location_id, name: r.location_name },
        quantity: short,
        reserved: round3(remaining),
      });
    }
  }
  return out;
}
