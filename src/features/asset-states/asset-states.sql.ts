import { sql, type SQL } from 'drizzle-orm';

/**
 * Down time per asset in a period, whole minutes (decision 079), as plain SQL over the intervals: `assetIds` is a
 * subquery of the assets in scope, `from` / `to` the period's instants, `at` the application's now (open
 * intervals count up to it). Each interval is clipped to the period; an asset's overlapping or adjacent down
 * intervals are merged (gaps and islands) so a minute is counted once. Rows: `asset_id`, `down_minutes`.
 * The analytics figures and the asset routes both read it: one formula.
 */
export function downMinutesByAsset(orgId: number, assetIds: SQL, from: SQL, to: SQL, at: SQL): SQL {
  return sql`select g.asset_id, sum(extract(epoch from (g.e - g.s)) / 60)::float8 as down_minutes from (
      select m.asset_id, min(m.s) as s, max(m.e) as e from (
        select c.asset_id, c.s, c.e, sum(c.island) over (partition by c.asset_id order by c.s, c.e rows unbounded preceding) as grp from (
          select v.asset_id, v.s, v.e,
            case when v.s <= max(v.e) over (partition by v.asset_id order by v.s, v.e rows between unbounded preceding and 1 preceding) then 0 else 1 end as island
          from (
            select i.asset_id, greatest(i.started_at, ${from}) as s, least(coalesce(i.ended_at, ${at}), ${to}) as e
            from asset_state_intervals i
            where i.org_id = ${orgId}::int and i.state = 'down' and i.asset_id in ${assetIds}
              and i.started_at < ${to} and coalesce(i.ended_at, ${at}) > ${from}
          ) v where v.e > v.s
        ) c
      ) m group by m.asset_id, m.grp
    ) g group by g.asset_id`;
}
