import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import type { AnalyticsFilters, DayRange } from './analytics.schema';
import type { PartsUsage } from './analytics-parts-usage.schema';
import { num, dayStart, dayEnd, scopeOf } from './analytics-sql';

/** Parts usage per asset: the ledger's consumption less returns on the asset's work orders, valued at average cost. */
export async function partsUsage(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<PartsUsage> {
  const org = sql`${orgId}::int`;
  const rows = rowsOf<{ asset_id: number; name: string; quantity: unknown; value: unknown; orders: number }>(
    await tx.execute(sql`with used as (
        select w.asset_id, m.work_order_id, m.part_id,
          sum(case when m.reason = 'consumption' then m.quantity else -m.quantity end) as quantity
        from stock_moves m join work_orders w on w.org_id = m.org_id and w.id = m.work_order_id
        where m.org_id = ${org} and m.reason in ('consumption', 'return') and w.asset_id is not null
          and m.created_at >= ${dayStart(range.from, tz)} and m.created_at < ${dayEnd(range.to, tz)} ${scopeOf(orgId, 'w', f)}
        group by w.asset_id, m.work_order_id, m.part_id)
      select u.asset_id, a.name, sum(u.quantity) as quantity,
        coalesce(sum(round(u.quantity * s.average_cost_minor)), 0) as value,
        count(distinct u.work_order_id) filter (where u.quantity > 0)::int as orders
      from used u join assets a on a.org_id = ${org} and a.id = u.asset_id
        left join stock_part_settings s on s.org_id = ${org} and s.part_id = u.part_id
      group by u.asset_id, a.name having sum(u.quantity) > 0
      order by value desc, quantity desc, u.asset_id limit 20`),
  );
  const assets = rows.map((r) => ({ assetId: r.asset_id, name: r.name, quantity: num(r.quantity), valueMinor: num(r.value), orders: num(r.orders) }));
  return { range, assets, totalValueMinor: assets.reduce((s, a) => s + a.valueMinor, 0) };
}
