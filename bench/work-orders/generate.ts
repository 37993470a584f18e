/**
 * Fills a database with work orders: one target organisation with N orders (with assignees, labour and
 * parts) among `others` organisations that share as many rows again, so the target's queries run next
 * to other tenants' data. Bulk SQL (generate_series) as the owner; the per-row id trigger is paused
 * during the load and the per-organisation counters set afterwards, the status-count trigger stays on.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/work-orders/generate.ts --rows 10000 [--others 20]
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { migrate, openDatabase, type Database } from '../../src/server/db/client';

export const TITLE_VERBS = ['Replace', 'Inspect', 'Lubricate', 'Repair', 'Calibrate', 'Clean', 'Test', 'Realign', 'Tighten', 'Overhaul'];
export const TITLE_THINGS = [
  'mechanical seal',
  'V-belts',
  'bearings',
  'pressure transmitter',
  'condenser coils',
  'hydraulic hose',
  'drive motor',
  'air filter',
  'gearbox oil',
  'coupling',
  'sprinkler riser',
  'emergency lighting',
];
export const TITLE_WHERE = [
  'boiler feed pump',
  'conveyor 3',
  'packaging line',
  'chiller 2',
  'press 4',
  'cooling tower',
  'tank farm',
  'warehouse',
  'Building B',
  'compressor room',
];

export const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;

/** Creates one organisation with people, an asset list, parts and reasons, then `rows` work orders. Returns its id and subdomain. */
async function fillOrganisation(database: Database, tag: string, rows: number) {
  const { db } = database;
  const run = (q: string) => db.execute(sql.raw(q));
  const subdomain = `bench-${tag}-${Date.now().toString(36)}`;
  const org = (await run(
    `insert into organizations (organization, subdomain, number_of_workers) values ('Bench ${tag}', '${subdomain}', 10) returning id`,
  )) as unknown as { rows: { id: number }[] };
  const orgId = org.rows[0].id;
  await run(
    `insert into users (org_id, email, first_name, last_name, role) select ${orgId}, 'user' || g || '@${subdomain}.example.com', 'Tech' || g, 'Bench', case when g = 1 then 'admin' when g = 2 then 'manager' else 'worker' end from generate_series(1, 12) g`,
  );
  await run(`insert into asset_categories (org_id, name, code) values (${orgId}, 'Pumps', 'PMP')`);
  await run(`insert into assets (org_id, name, date, asset_category_id) select ${orgId}, 'Asset ' || g, '2024-01-01', 1 from generate_series(1, 200) g`);
  await run(`insert into product_categories (org_id, name) values (${orgId}, 'Spares')`);
  await run(`insert into uom_categories (org_id, name) values (${orgId}, 'Unit')`);
  await run(`insert into uoms (org_id, name, category_id, type) values (${orgId}, 'Each', 1, 'reference')`);
  await run(
    `insert into parts (org_id, name, type, category_id, sales_price, unit_of_measure_id, purchase_unit_of_measure_id) select ${orgId}, 'Part ' || g, 'consumable', 1, (g % 90) + 9.99, 1, 1 from generate_series(1, 300) g`,
  );
  await run(
    `insert into time_tracking_reasons (org_id, name, type) values (${orgId}, 'Repair', 'productivity'), (${orgId}, 'Waiting for parts', 'availability'), (${orgId}, 'Inspection', 'quality')`,
  );
  if (rows === 0) return { orgId, subdomain };

  await run('alter table work_orders disable trigger org_scoped_id');
  await run('alter table work_order_labors disable trigger org_scoped_id');
  await run('alter table work_order_parts disable trigger org_scoped_id');
  try {
    const batch = 100_000;
    for (let from = 1; from <= rows; from += batch) {
      const to = Math.min(rows, from + batch - 1);
      // Statuses ~30% assigned, 20% in progress, 45% completed, 5% cancelled; due dates over ±1 year; newer ids are more often open.
      await run(`insert into work_orders (org_id, id, title, duration, status, priority, start_date, end_date, due_date, instructions, asset_id, created_by_id, created_at, updated_at)
        select ${orgId}, g,
          (${arr(TITLE_VERBS)})[1 + (g * 7) % ${TITLE_VERBS.length}] || ' ' || (${arr(TITLE_THINGS)})[1 + (g * 13) % ${TITLE_THINGS.length}] || ', ' || (${arr(TITLE_WHERE)})[1 + (g * 17) % ${TITLE_WHERE.length}] || ' #' || g,
          lpad(((g % 8) + 1)::text, 2, '0') || ':' || (array['00','15','30','45'])[1 + g % 4],
          case when r < 0.30 then 'assigned' when r < 0.50 then 'in-progress' when r < 0.95 then 'completed' else 'cancelled' end,
          (array['lowest','low','medium','medium','high','critical'])[1 + (g * 31) % 6],
          now() + ((g::float / ${rows}) * 730 - 365) * interval '1 day',
          now() + ((g::float / ${rows}) * 730 - 365) * interval '1 day' + interval '4 hours',
          now() + ((g::float / ${rows}) * 730 - 360) * interval '1 day',
          case when g % 3 = 0 then '<p>Lock out and tag out before starting.</p>' end,
          1 + g % 200, 1,
          now() - (${rows} - g) * interval '1 minute', now()
        from (select g, random() as r from generate_series(${from}, ${to}) g) s`);
      await run(`insert into work_order_assignees (org_id, work_order_id, user_id) select ${orgId}, g, 3 + g % 10 from generate_series(${from}, ${to}) g`);
      await run(`insert into work_order_labors (org_id, id, work_order_id, worker_id, reason_id, start_date, end_date)
        select ${orgId}, g / 2, g, 3 + g % 10, 1 + g % 3, now() - interval '3 days', now() - interval '3 days' + (30 + g % 120) * interval '1 minute'
        from generate_series(${from}, ${to}) g where g % 2 = 0`);
      await run(`insert into work_order_parts (org_id, id, work_order_id, part_id, quantity)
        select ${orgId}, g / 3, g, 1 + g % 300, 1 + g % 4 from generate_series(${from}, ${to}) g where g % 3 = 0`);
    }
    for (const table of ['work_orders', 'work_order_labors', 'work_order_parts']) {
      await run(`insert into org_counters (org_id, table_name, last_id) select ${orgId}, '${table}', coalesce(max(id), 0) from ${table} where org_id = ${orgId}
        on conflict (org_id, table_name) do update set last_id = excluded.last_id`);
    }
  } finally {
    await run('alter table work_orders enable trigger org_scoped_id');
    await run('alter table work_order_labors enable trigger org_scoped_id');
    await run('alter table work_order_parts enable trigger org_scoped_id');
  }
  return { orgId, subdomain };
}

/** Fills the target organisation (N rows) and `others` organisations sharing N rows, then analyses. */
export async function generate(database: Database, rows: number, others = 20) {
  const started = Date.now();
  const perOther = Math.floor(rows / others);
  for (let i = 0; i < others; i++) await fillOrganisation(database, `other${i}`, perOther);
  const target = await fillOrganisation(database, 'target', rows);
  // Steady state of a live table: statistics and the visibility map (autovacuum's work) are current.
  await database.db.execute(sql.raw('vacuum analyze'));
  console.log(
    `generated ${rows} work orders in the target organisation (+${perOther * others} in ${others} others) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000' }, others: { type: 'string', default: '20' } } });
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? 'memory://' });
  await migrate(database);
  const target = await generate(database, Number(values.rows), Number(values.others));
  console.log(JSON.stringify(target));
  await database.close();
}
