/**
 * The preventive maintenance generator at scale (issue 23): 10,000 active plans across 1,000 organisations
 * (10 each, one asset each, a person assigned and a part), all due today, then ONE generator run that creates
 * their 10,000 work orders (with assignees, parts and history), as the job runs it: each organisation in its own
 * tenant transaction, as the runtime role under RLS. Then a second run, which finds everything created and
 * creates nothing. Prints the figures; target: the first run under a minute on PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/pm-generator/run.ts [--orgs 1000] [--plans 10] [--keep]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate, openDatabase } from '../../src/server/db/client';
import { runPmGenerator } from '../../src/server/jobs/pm-generator.job';
import { requirePostgres } from '../lib/server';

const { values } = parseArgs({
  options: { orgs: { type: 'string', default: '1000' }, plans: { type: 'string', default: '10' }, keep: { type: 'boolean', default: false } },
});
const adminUrl = requirePostgres('a PostgreSQL server (the benchmark creates and drops its own database).');
const ORGS = Number(values.orgs);
const PLANS = Number(values.plans);

const dbName = `cmms_bench_pm_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
const databaseUrl = url.toString();

try {
  const database = await openDatabase({ databaseUrl });
  await migrate(database);
  const today = new Date().toISOString().slice(0, 10);

  // Fill as the database's superuser (no RLS for it): explicit per-organisation ids, set-based statements.
  const fill = new pg.Client({ connectionString: databaseUrl });
  await fill.connect();
  const t0 = performance.now();
  await fill.query('begin');
  await fill.query(
    `insert into organizations (organization, subdomain, number_of_workers) select 'Bench ' || g, 'pmbench' || g, 5 from generate_series(1, $1) g`,
    [ORGS],
  );
  await fill.query(
    `insert into users (org_id, id, email, first_name, role) select id, 1, 'tech@' || subdomain || '.example.com', 'Tech', 'worker' from organizations`,
  );
  await fill.query(`insert into asset_categories (org_id, id, name, code) select id, 1, 'Pumps', 'PMP' from organizations`);
  await fill.query(`insert into product_categories (org_id, id, name) select id, 1, 'Spares' from organizations`);
  await fill.query(`insert into uom_categories (org_id, id, name) select id, 1, 'Unit' from organizations`);
  await fill.query(`insert into uoms (org_id, id, name, category_id, type) select id, 1, 'Each', 1, 'reference' from organizations`);
  await fill.query(`insert into parts (org_id, id, name, type, category_id, unit_of_measure_id, purchase_unit_of_measure_id, sales_price)
    select id, 1, 'Oil filter', 'stockable', 1, 1, 1, 9 from organizations`);
  await fill.query(
    `insert into assets (org_id, id, name, date, asset_category_id) select o.id, g, 'Pump ' || g, $2, 1 from organizations o, generate_series(1, $1) g`,
    [PLANS, today],
  );
  await fill.query(
    `insert into pm_plans (org_id, id, name, title, priority, trigger, frequency, interval, schedule, start_date, lead_days, active_from)
     select o.id, g, 'Plan ' || g, 'Lubricate pump ' || g, 'medium', 'calendar', 'daily', 1, 'fixed', $2, 0, $2 from organizations o, generate_series(1, $1) g`,
    [PLANS, today],
  );
  await fill.query(`insert into pm_plan_assets (org_id, plan_id, asset_id) select org_id, id, id from pm_plans`);
  await fill.query(`insert into pm_plan_assignees (org_id, plan_id, user_id) select org_id, id, 1 from pm_plans`);
  await fill.query(`insert into pm_plan_parts (org_id, plan_id, part_id, quantity) select org_id, id, 1, 2 from pm_plans`);
  await fill.query('commit');
  await fill.query('analyze');
  const plans = Number((await fill.query('select count(*) from pm_plans')).rows[0].count);
  console.log(`filled ${ORGS} organisations, ${plans} active plans due today in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const log = { info: () => {}, warn: (obj: object, msg: string) => console.warn(msg, obj) };
  const cpu0 = process.cpuUsage();
  const r1 = performance.now();
  const first = await runPmGenerator(database, log);
  const firstMs = performance.now() - r1;
  const cpu = process.cpuUsage(cpu0);
  const r2 = performance.now();
  const second = await runPmGenerator(database, log);
  const secondMs = performance.now() - r2;
  const counts = (
    await fill.query(`select (select count(*) from work_orders) as orders, (select count(*) from work_order_assignees) as assignees,
      (select count(*) from work_order_parts) as parts, (select count(*) from pm_occurrences) as occurrences, (select count(*) from activities) as history`)
  ).rows[0];
  console.log('| run | organisations | work orders created | seconds | ms per organisation | orders per second |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| first (all due) | ${first.organisations} | ${first.created} | ${(firstMs / 1000).toFixed(2)} | ${(firstMs / first.organisations).toFixed(2)} | ${Math.round(first.created / (firstMs / 1000))} |`,
  );
  console.log(
    `| second (nothing due) | ${second.organisations} | ${second.created} | ${(secondMs / 1000).toFixed(2)} | ${(secondMs / second.organisations).toFixed(2)} | - |`,
  );
  console.log(
    `first run: node CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; in the database: ${counts.orders} work orders, ${counts.assignees} assignees, ${counts.parts} part lines, ${counts.occurrences} occurrences, ${counts.history} history lines`,
  );
  console.log(`target: first run under 60 s: ${firstMs < 60_000 ? 'met' : 'NOT met'}`);
  await fill.end();
  await database.close();
} finally {
  if (!values.keep) await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
