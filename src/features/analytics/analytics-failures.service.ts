import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import type { AnalyticsFilters, DayRange } from './analytics.schema';
import type { FailureModeMtbf, FailurePareto } from './analytics-failures.schema';
import { num, round2, dayStart, dayEnd, orderOf, plannedOf, scopeOf } from './analytics-sql';

/** Failure-code figures of the insights screen (decision 080), from the rows as every figure (decision 063). */

/** Failures by problem code: reactive orders completed in the range (their closure) with a problem code. */
export async function failurePareto(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<FailurePareto> {
  const org = sql`${orgId}::int`;
  const rows = rowsOf<{ id: number; code: string; name: string; n: number }>(
    await tx.execute(sql`select fc.id, fc.code, fc.name, count(*)::int as n
      from work_order_closures c ${orderOf(orgId, sql`c.work_order_id`, f)}
      join failure_codes fc on fc.org_id = ${org} and fc.id = w.problem_code_id
      where c.org_id = ${org} and c.status = 'completed' and c.closed_at >= ${dayStart(range.from, tz)} and c.closed_at < ${dayEnd(range.to, tz)}
        and not ${plannedOf('w')} ${scopeOf(orgId, 'w', f)}
      group by fc.id, fc.code, fc.name
      order by n desc, lower(fc.name), fc.id`),
  );
  const total = rows.reduce((s, r) => s + num(r.n), 0);
  let running = 0;
  return {
    range,
    total,
    problems: rows.map((r) => {
      running += num(r.n);
      return {
        problemCodeId: r.id,
        code: r.code,
        name: r.name,
        count: num(r.n),
        percent: round2((num(r.n) * 100) / total),
        cumulativePercent: round2((running * 100) / total),
      };
    }),
  };
}

/** MTBF per asset and problem code (failure mode): the twenty shortest. */
export async function failureModeMtbf(tx: ReadTx, orgId: number, range: DayRange, f: AnalyticsFilters, tz = 'UTC'): Promise<FailureModeMtbf> {
  const rows = rowsOf<{ asset_id: number; asset: string; problem_id: number; problem: string; failures: number; intervals: number; mtbf: unknown }>(
    await tx.execute(sql`with fail as (
        select w.asset_id, w.problem_code_id, w.created_at,
          lag(c.closed_at) over (partition by w.asset_id, w.problem_code_id order by w.created_at, w.id) as prev_closed
        from work_orders w join work_order_closures c on c.org_id = w.org_id and c.work_order_id = w.id and c.status = 'completed'
        where w.org_id = ${orgId}::int and w.asset_id is not null and w.problem_code_id is not null and w.status = 'completed'
          and w.created_at >= ${dayStart(range.from, tz)} and w.created_at < ${dayEnd(range.to, tz)} and not ${plannedOf('w')} ${scopeOf(orgId, 'w', f)})
      select fail.asset_id, a.name as asset, fail.problem_code_id as problem_id, fc.name as problem, count(*)::int as failures,
        count(fail.prev_closed)::int as intervals,
        avg(greatest(0, extract(epoch from (fail.created_at - fail.prev_closed)) / 3600.0)) filter (where fail.prev_closed is not null) as mtbf
      from fail join assets a on a.org_id = ${orgId}::int and a.id = fail.asset_id
        join failure_codes fc on fc.org_id = ${orgId}::int and fc.id = fail.problem_code_id
      group by fail.asset_id, a.name, fail.problem_code_id, fc.name having count(fail.prev_closed) > 0
      order by mtbf asc, failures desc, fail.asset_id, fail.problem_code_id limit 20`),
  );
  return {
    range,
    modes: rows.map((r) => ({
      assetId: r.asset_id,
      asset: r.asset,
      problemCodeId: r.problem_id,
      problem: r.problem,
      failures: num(r.failures),
      intervals: num(r.intervals),
      mtbfHours: round2(r.mtbf),
    })),
  };
}
