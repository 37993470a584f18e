/**
 * Fills a PostgreSQL database with N organisations of realistic, skewed data in every main table (issue 9):
 * people, teams, master data, customers and vendors, assets, parts with their stock, services, work
 * stations, work orders with assignees, labour and parts, maintenance requests and orders, quotations and
 * purchase orders with their lines, and the activity history. One organisation holds a tenth of the work
 * orders (1,000,000 at 10 M rows), one a thousandth (10,000), the others share the rest on a Zipf curve.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/generate/run.ts --orgs 1000 --rows 10000000 --db cmms_bench_10m
 *   DATABASE_URL=… npx tsx bench/generate/run.ts --orgs 20 --rows 200000 --db cmms_bench_small      (a quick check)
 *
 * How: the database is created and migrated by the app's own path (`migrate`), then every table is filled by
 * one set-based statement (INSERT … SELECT over generate_series) as the owner, with triggers and foreign-key
 * checks off (`session_replication_role = replica`) and the secondary indexes dropped; afterwards the indexes
 * are rebuilt from their saved definitions, the per-organisation id counters and the work-order status counts
 * are set by one statement each, every foreign key is re-checked, and the database is vacuumed and analysed.
 * Run again with the same arguments it reports the finished database and does nothing; an unfinished or
 * different one must be dropped first (`--drop`).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate, openDatabase } from '../../src/server/db/client';
import { TITLE_THINGS, TITLE_VERBS, TITLE_WHERE, arr } from '../work-orders/generate';
import { BIG_SUBDOMAIN, SMALL_SUBDOMAIN } from './orgs';
import { requirePostgres } from '../lib/server';

const { values } = parseArgs({
  options: {
    orgs: { type: 'string', default: '20' },
    rows: { type: 'string', default: '200000' },
    db: { type: 'string' },
    drop: { type: 'boolean', default: false },
    // One large tenant on its own (issue 39): --big-wo 100000 --years 5 gives the big organisation that many
    // orders over that many years, with 50 people and 2,000 assets.
    'big-wo': { type: 'string' },
    years: { type: 'string', default: '2' },
  },
});
const adminUrl = requirePostgres('a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres');
const ORGS = Number(values.orgs);
const ROWS = Number(values.rows);
if (!(ORGS >= 2) || !(ROWS >= 10_000)) {
  console.error('--orgs must be at least 2 and --rows at least 10000');
  process.exit(1);
}
const dbName = values.db ?? `cmms_bench_${ORGS}o_${ROWS}`;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) {
  console.error('--db must be a plain lower-case identifier');
  process.exit(1);
}
const BIG_WO = values['big-wo'] ? Number(values['big-wo']) : undefined;
const YEARS = Number(values.years);
const marker = `cmms bench data: orgs=${ORGS} rows=${ROWS}${BIG_WO ? ` big-wo=${BIG_WO}` : ''} years=${YEARS} complete`;

// ---- sizes -------------------------------------------------------------------------------------------------

interface Size {
  orgId: number;
  subdomain: string;
  name: string;
  wo: number;
  users: number;
  teams: number;
  cvs: number;
  assets: number;
  parts: number;
  services: number;
  stations: number;
  mrs: number;
  quotes: number;
  pos: number;
}
const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(n)));

/** Everything else follows from an organisation's work-order count. */
function sizeFor(orgId: number, subdomain: string, name: string, wo: number): Size {
  return {
    orgId,
    subdomain,
    name,
    wo,
    users: clamp(5 + wo / 2_000, 5, 200),
    teams: clamp(1 + wo / 20_000, 1, 25),
    cvs: clamp(10 + wo / 200, 10, 5_000),
    assets: clamp(20 + wo / 100, 20, 10_000),
    parts: clamp(20 + wo / 200, 20, 5_000),
    services: clamp(5 + wo / 1_000, 5, 300),
    stations: clamp(3 + wo / 5_000, 3, 100),
    mrs: clamp(wo / 10, 2, Infinity),
    quotes: clamp(wo / 50, 1, Infinity),
    pos: clamp(wo / 50, 1, Infinity),
  };
}

const FIXED_MASTER_ROWS = 6 + 5 + 2 + 2 + 3 + 4; // asset categories, product categories, uom categories, uoms, taxes, reasons
/** Rows one organisation adds over all tables (the same arithmetic as the statements below). */
function rowsOf(s: Size) {
  const stockable = Math.floor(s.parts / 2);
  const mos = Math.floor((s.mrs + 4) / 5);
  return (
    1 +
    s.users +
    s.teams +
    (s.users - 1) +
    FIXED_MASTER_ROWS +
    s.cvs +
    s.assets +
    s.parts +
    stockable +
    s.stations +
    2 * s.services +
    s.wo * 2 +
    Math.floor(s.wo / 2) +
    Math.floor(s.wo / 3) +
    s.mrs +
    3 * mos +
    4 * s.quotes +
    4 * s.pos +
    (s.wo + s.mrs + s.quotes + s.pos) /* activities */ +
    4 +
    20 +
    12 /* kept counts */
  );
}

/** Big, small, then the others on a Zipf curve (1/i^0.9) scaled so the total is about ROWS. */
function planSizes(): Size[] {
  const bigWo = BIG_WO ?? Math.round(ROWS / 10);
  const smallWo = Math.round(ROWS / 1_000);
  const big = sizeFor(1, BIG_SUBDOMAIN, 'Big Manufacturing Co', bigWo);
  if (BIG_WO) Object.assign(big, { users: 50, assets: 2_000 });
  const fixed = [big, sizeFor(2, SMALL_SUBDOMAIN, 'Small Facilities Ltd', smallWo)];
  const others = ORGS - 2;
  const weights = Array.from({ length: others }, (_, i) => 1 / Math.pow(i + 1, 0.9));
  const build = (scale: number) =>
    weights.map((w, i) => sizeFor(i + 3, `bench-${String(i + 3).padStart(4, '0')}`, `Organisation ${i + 3}`, Math.max(20, Math.round(w * scale))));
  const total = (scale: number) => [...fixed, ...build(scale)].reduce((n, s) => n + rowsOf(s), 0);
  let lo = 0;
  let hi = ROWS;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (total(mid) < ROWS) lo = mid;
    else hi = mid;
  }
  return [...fixed, ...build(lo)];
}

// ---- the statements ----------------------------------------------------------------------------------------

const pick = (xs: string[], expr: string) => `(${arr(xs)})[1 + ((${expr}) % ${xs.length})]`;
const FIRST = ['Ahmed', 'Sara', 'John', 'Maria', 'Omar', 'Lina', 'Peter', 'Aisha', 'Carlos', 'Mei', 'Yusuf', 'Elena', 'David', 'Fatima', 'Tom', 'Nadia'];
const LAST = ['Haddad', 'Smith', 'Garcia', 'Khan', 'Novak', 'Rossi', 'Chen', 'Okafor', 'Silva', 'Müller', 'Dubois', 'Ali'];
const JOBS = ['Technician', 'Electrician', 'Mechanic', 'Planner', 'Supervisor', 'HVAC technician', 'Storekeeper'];
const CITIES = ['Riyadh', 'Jeddah', 'Dubai', 'Cairo', 'Amman', 'Casablanca', 'Lyon', 'Manchester', 'Houston', 'Pune'];
const COMPANIES = ['Atlas', 'Nile', 'Summit', 'Harbor', 'Falcon', 'Cedar', 'Orion', 'Delta', 'Granite', 'Oasis', 'Zenith', 'Pioneer'];
const SUFFIX = ['Industries', 'Logistics', 'Foods', 'Plastics', 'Hospitals', 'Hotels', 'Steel', 'Supplies'];
const ASSET_KINDS = [
  'Centrifugal pump',
  'Air compressor',
  'Chiller',
  'Boiler',
  'Conveyor',
  'Forklift',
  'Generator',
  'Cooling tower',
  'AHU',
  'Hydraulic press',
  'Transformer',
  'Packaging machine',
];
const PART_KINDS = [
  'Bearing 6204',
  'V-belt A42',
  'Mechanical seal 35 mm',
  'Air filter 24x24',
  'Hydraulic hose 1/2"',
  'Contactor 40 A',
  'Grease cartridge',
  'Oil filter',
  'Coupling insert',
  'Fuse 10 A',
  'Gasket set',
  'Pressure gauge',
];
const SERVICE_KINDS = [
  'Preventive inspection',
  'Pump overhaul',
  'Motor rewinding',
  'Chiller service',
  'Boiler descaling',
  'Thermal imaging',
  'Vibration analysis',
  'Calibration',
];
const MR_TITLES = ['Leak at', 'Noise from', 'Overheating', 'Not starting', 'Vibration on', 'Pressure drop at', 'Tripping breaker on', 'Routine check of'];

/** A part's and a service's name and price (cents), from its per-organisation id: the lines reuse them. */
const partName = (id: string) => `${pick(PART_KINDS, id)} || ' #' || ${id}`;
const partCents = (id: string) => `((${id} % 90) * 100 + 999)`;
const serviceName = (id: string) => `${pick(SERVICE_KINDS, id)} || ' #' || ${id}`;
const serviceCents = (id: string) => `((${id} % 40) * 2500 + 15000)`;

const YEARS2 = `interval '${Math.round(YEARS * 365)} days'`;
const LABOR_SPAN = `interval '${Math.round(YEARS * 365) + 10} days'`;

/** [table, statement] in foreign-key order; `s` is the per-organisation size row, `g` the per-org id. */
function statements(): [string, string][] {
  const wo = `
    select s.org_id, g,
      ${pick(TITLE_VERBS, 'g * 7')} || ' ' || ${pick(TITLE_THINGS, 'g * 13')} || ', ' || ${pick(TITLE_WHERE, 'g * 17')} || ' #' || g as title,
      lpad(((g % 8) + 1)::text, 2, '0') || ':' || (array['00','15','30','45'])[1 + g % 4] as duration,
      case when r < 0.30 then 'assigned' when r < 0.50 then 'in-progress' when r < 0.95 then 'completed' else 'cancelled' end as status,
      (array['lowest','low','medium','medium','high','critical'])[1 + (g * 31) % 6] as priority,
      now() - ${YEARS2} + (g::float / s.wo) * ${YEARS2} + (g % 14) * interval '1 day' as start_date,
      case when g % 3 = 0 then '<p>Lock out and tag out before starting.</p>' end as instructions,
      1 + (g * 11) % s.assets as asset_id,
      1 + g % least(s.users, 3) as created_by_id,
      case when g % 25 = 0 then 1 + (g / 25) % s.quotes end as quotation_id,
      now() - ${YEARS2} + (g::float / s.wo) * ${YEARS2} as created_at
    from sz s, generate_series(1, s.wo) g, lateral (select random() + g * 0 as r) rr`;
  return [
    [
      'organizations',
      `insert into organizations (id, organization, subdomain, number_of_workers, address_street1, city, zip_code, country, phone_number, website, currency, created_at)
      select org_id, name, subdomain, users, (org_id * 7 % 200 + 1) || ' King Fahd Road', ${pick(CITIES, 'org_id')}, lpad((org_id * 37 % 99999)::text, 5, '0'),
        'Saudi Arabia', '+9665' || lpad((org_id * 7919 % 100000000)::text, 8, '0'), 'https://' || subdomain || '.example.com',
        (array['USD','SAR','EUR'])[1 + org_id % 3], now() - interval '3 years' from sz`,
    ],
    [
      'users',
      `insert into users (org_id, id, email, first_name, last_name, phone_number, job_title, role, hourly_rate, created_at)
      select s.org_id, g, 'user' || g || '@' || s.subdomain || '.example.com', ${pick(FIRST, 'g * 5 + s.org_id')}, ${pick(LAST, 'g * 3 + s.org_id')},
        '+9665' || lpad((g * 104729 % 100000000)::text, 8, '0'), ${pick(JOBS, 'g')},
        case when g = 1 then 'admin' when g <= 1 + s.users / 10 then 'manager' else 'worker' end, 2500 + (g % 10) * 500, now() - interval '3 years' + g * interval '1 hour'
      from sz s, generate_series(1, s.users) g`,
    ],
    [
      'teams',
      `insert into teams (org_id, id, name) select s.org_id, g, ${pick(['Mechanical', 'Electrical', 'HVAC', 'Utilities', 'Facilities'], 'g')} || ' team ' || g
      from sz s, generate_series(1, s.teams) g`,
    ],
    [
      'team_members',
      `insert into team_members (org_id, team_id, worker_id, is_team_lead, is_default_assignee)
      select s.org_id, 1 + g % s.teams, g, g - 2 < s.teams, g - 2 < s.teams from sz s, generate_series(2, s.users) g`,
    ],
    [
      'asset_categories',
      `insert into asset_categories (org_id, id, name, code) select s.org_id, c.i, c.name, c.code from sz s,
      (values (1, 'Pumps', 'PMP'), (2, 'HVAC', 'HVC'), (3, 'Electrical', 'ELC'), (4, 'Conveyors', 'CNV'), (5, 'Vehicles', 'VEH'), (6, 'Buildings', 'BLD')) c(i, name, code)`,
    ],
    [
      'product_categories',
      `insert into product_categories (org_id, id, name) select s.org_id, c.i, c.name from sz s,
      (values (1, 'Spares'), (2, 'Consumables'), (3, 'Lubricants'), (4, 'Filters'), (5, 'Electrical')) c(i, name)`,
    ],
    ['uom_categories', `insert into uom_categories (org_id, id, name) select s.org_id, c.i, c.name from sz s, (values (1, 'Unit'), (2, 'Weight')) c(i, name)`],
    [
      'uoms',
      `insert into uoms (org_id, id, name, category_id, ratio, type) select s.org_id, u.i, u.name, u.cat, u.ratio, u.type from sz s,
      (values (1, 'Units', 1, 1, 'reference'), (2, 'Box of 10', 1, 10, 'bigger'), (3, 'kg', 2, 1, 'reference'), (4, 'g', 2, 1000, 'lesser')) u(i, name, cat, ratio, type)`,
    ],
    [
      'taxes',
      `insert into taxes (org_id, id, name, scope, tax_computation, amount) select s.org_id, t.i, t.name, t.scope, t.comp, t.amount from sz s,
      (values (1, 'VAT 15%', 'sales', 'percentage_of_price', 15), (2, 'VAT 15% (purchases)', 'purchase', 'percentage_of_price', 15), (3, 'Environmental fee', 'sales', 'fixed', 2)) t(i, name, scope, comp, amount)`,
    ],
    [
      'time_tracking_reasons',
      `insert into time_tracking_reasons (org_id, id, name, type, is_blocking_reason) select s.org_id, r.i, r.name, r.type, r.blocking from sz s,
      (values (1, 'Repair', 'productivity', false), (2, 'Waiting for parts', 'availability', true), (3, 'Inspection', 'quality', false), (4, 'Reduced speed', 'performance', false)) r(i, name, type, blocking)`,
    ],
    [
      'customer_vendors',
      `insert into customer_vendors (org_id, id, name, email, type, category, street, city, country, tin_vat, phone, website)
      select s.org_id, g, ${pick(COMPANIES, 'g')} || ' ' || ${pick(SUFFIX, 'g / 12')} || ' ' || g, 'contact' || g || '@' || lower(${pick(COMPANIES, 'g')}) || g || '.example.com',
        case when g % 3 = 0 then 'vendor' else 'customer' end, case when g % 5 = 0 then 'individual' else 'company' end,
        (g % 300 + 1) || ' Industrial Area', ${pick(CITIES, 'g')}, 'Saudi Arabia', '3' || lpad((g * 7907 % 1000000000)::text, 14, '0'),
        '+9661' || lpad((g * 7919 % 100000000)::text, 8, '0'), 'https://' || lower(${pick(COMPANIES, 'g')}) || g || '.example.com'
      from sz s, generate_series(1, s.cvs) g`,
    ],
    [
      'assets',
      `insert into assets (org_id, id, name, description, serial, asset_barcode, asset_code, date, customer_vendor_id, asset_category_id, status, created_at)
      select s.org_id, g, ${pick(ASSET_KINDS, 'g')} || ' ' || g, 'Installed in ' || ${pick(TITLE_WHERE, 'g')}, 'SN-' || lpad((g * 7877)::text, 9, '0'),
        lpad((g * 104723 % 1000000000000)::text, 12, '0'), 'AST-' || lpad(g::text, 5, '0'), date '2015-01-01' + (g * 37 % 3650),
        case when g % 10 = 0 then 1 + 3 * (g % ((s.cvs + 2) / 3)) end, 1 + g % 6, case when g % 11 = 0 then 'Not_Operational' else 'Operational' end,
        now() - interval '3 years' + (g::float / s.assets) * interval '1000 days'
      from sz s, generate_series(1, s.assets) g`,
    ],
    [
      'parts',
      `insert into parts (org_id, id, name, type, sku_code, category_id, sales_price, unit_of_measure_id, purchase_unit_of_measure_id, quantity_on_hand, minimum_quantity)
      select s.org_id, g, ${partName('g')}, case when g % 2 = 0 then 'stockable' else 'consumable' end, 'SKU-' || lpad(g::text, 6, '0'), 1 + g % 5,
        ${partCents('g')} / 100.0, 1, case when g % 4 = 0 then 2 else 1 end, case when g % 2 = 0 then (g * 7) % 50 else 0 end, case when g % 2 = 0 then 5 else 0 end
      from sz s, generate_series(1, s.parts) g`,
    ],
    // The stock on hand is the sum of its moves: one opening move per stockable part.
    [
      'stock_moves',
      `insert into stock_moves (org_id, id, part_id, quantity, reason, user_id, created_at)
      select s.org_id, g / 2, g, (g * 7) % 50, 'initial', 1, now() - interval '2 years' from sz s, generate_series(2, s.parts, 2) g where (g * 7) % 50 > 0`,
    ],
    [
      'work_stations',
      `insert into work_stations (org_id, id, code, name, city, team_id)
      select s.org_id, g, 'WS-' || lpad(g::text, 3, '0'), ${pick(['Workshop', 'Line', 'Bay', 'Plant room', 'Field crew'], 'g')} || ' ' || g, ${pick(CITIES, 'g')}, 1 + g % s.teams
      from sz s, generate_series(1, s.stations) g`,
    ],
    [
      'services',
      `insert into services (org_id, id, title, price, operations) select s.org_id, g, ${serviceName('g')}, ${serviceCents('g')} / 100.0,
      'Isolate, inspect, replace worn items, test and hand over.' from sz s, generate_series(1, s.services) g`,
    ],
    [
      'service_work_stations',
      `insert into service_work_stations (org_id, service_id, work_station_id, operation, time_required, position)
      select s.org_id, g, 1 + g % s.stations, 'Perform ' || lower(${pick(SERVICE_KINDS, 'g')}), lpad((1 + g % 6)::text, 2, '0') || ':00', 0 from sz s, generate_series(1, s.services) g`,
    ],
    [
      'work_orders',
      `insert into work_orders (org_id, id, title, duration, status, priority, start_date, end_date, due_date, instructions, asset_id, quotation_id, created_by_id, created_at, updated_at)
      select org_id, g, title, duration, status, priority, start_date, start_date + interval '4 hours', start_date + interval '5 days', instructions, asset_id, quotation_id, created_by_id,
        created_at, case when status = 'completed' then start_date + interval '6 hours' else created_at end
      from (${wo}) w`,
    ],
    // Preventive plans (one per work station) and their occurrences: every third order was created by one.
    [
      'pm_plans',
      `insert into pm_plans (org_id, id, name, work_station_id, team_id, title, frequency, start_date, active_from)
      select s.org_id, g, 'Plan ' || g, g, 1 + g % s.teams, 'Preventive round ' || g, 'weekly', (now() - ${YEARS2})::date, (now() - ${YEARS2})::date
      from sz s, generate_series(1, s.stations) g`,
    ],
    [
      'pm_occurrences',
      `insert into pm_occurrences (org_id, id, plan_id, asset_id, due_date, status, work_order_id)
      select s.org_id, g / 3 + 1, 1 + (g / 3) % s.stations, 1 + (g * 11) % s.assets, (now() - ${YEARS2} + (g::float / s.wo) * ${YEARS2})::date, 'created', g
      from sz s, generate_series(0, s.wo, 3) g where g > 0 on conflict do nothing`,
    ],
    [
      'work_order_assignees',
      `insert into work_order_assignees (org_id, work_order_id, user_id) select s.org_id, g, 1 + (g * 7) % s.users from sz s, generate_series(1, s.wo) g`,
    ],
    // Each line keeps the rate and the price in force when it was written (decision 063): the generator's users'
    // rates (2500 + (id % 10) * 500) and parts' prices.
    [
      'work_order_labors',
      `insert into work_order_labors (org_id, id, work_order_id, worker_id, reason_id, start_date, end_date, created_at, rate_minor)
      select s.org_id, g / 2, g, 1 + (g * 7) % s.users, 1 + g % 4, t, t + (30 + g % 120) * interval '1 minute', t + interval '3 hours', 2500 + ((1 + (g * 7) % s.users) % 10) * 500
      from sz s, generate_series(2, s.wo, 2) g, lateral (select now() - ${YEARS2} + (g::float / s.wo) * ${LABOR_SPAN} as t) x`,
    ],
    [
      'work_order_parts',
      `insert into work_order_parts (org_id, id, work_order_id, part_id, quantity, unit_price_minor, created_at)
      select s.org_id, g / 3, g, 1 + g % s.parts, 1 + g % 4, ${partCents('(1 + g % s.parts)')}, now() - ${YEARS2} + (g::float / s.wo) * ${YEARS2} from sz s, generate_series(3, s.wo, 3) g`,
    ],
    [
      'maintenance_requests',
      `insert into maintenance_requests (org_id, id, title, problem_description, maintenance_type, requester, customer_id, priority, state, assigned_to,
        date_of_request, asset_id, failure_reason, urgency_level, risk_level, schedule_date, frequency, sensor_data, condition, created_at)
      select s.org_id, g, ${pick(MR_TITLES, 'g')} || ' ' || lower(${pick(ASSET_KINDS, 'g * 11')}) || ' ' || (1 + (g * 11) % s.assets),
        'Reported by the operator during the ' || ${pick(['morning', 'evening', 'night'], 'g')} || ' shift.', t.type,
        case when g % 4 = 0 then 'customer' else 'employee' end, case when g % 4 = 0 then 1 + 3 * (g % ((s.cvs + 2) / 3)) end,
        ${pick(['lowest', 'low', 'medium', 'high', 'critical'], 'g * 3')}, st.state, case when st.state <> 'new' then 1 + (g * 5) % s.users end,
        d, 1 + (g * 11) % s.assets, case when t.type in ('corrective', 'emergency') then 'Wear' end,
        case when t.type in ('corrective', 'emergency') then ${pick(['critical', 'high', 'medium', 'low', 'lowest'], 'g')} end,
        ${pick(['trivial', 'low', 'medium', 'high', 'severe'], 'g * 7')},
        case when t.type in ('preventive', 'predictive', 'proactive') then d + interval '14 days' end,
        case when t.type in ('preventive', 'predictive', 'proactive') then ${pick(['daily', 'weekly', 'monthly', 'quarterly', 'annually'], 'g')} end,
        case when t.type = 'predictive' then 'Vibration ' || (2 + g % 9) || '.' || (g % 10) || ' mm/s RMS' end,
        case when t.type = 'predictive' then ${pick(['Bearing wear rising', 'Temperature trending up', 'Oil particle count high'], 'g')} end, d
      from sz s, generate_series(1, s.mrs) g,
        lateral (select (array['corrective','preventive','predictive','emergency','proactive'])[1 + g % 5] as type) t,
        lateral (select case when g > s.mrs * 0.9 then (array['new','approved','in-progress'])[1 + g % 3]
                             else (array['completed','completed','completed','approved','rejected','cancelled','in-progress'])[1 + g % 7] end as state) st,
        lateral (select now() - ${YEARS2} + (g::float / s.mrs) * ${YEARS2} as d) dd`,
    ],
    // Preventive requests (g % 5 = 1) are planned as maintenance orders, one each.
    [
      'maintenance_orders',
      `insert into maintenance_orders (org_id, id, status, maintenance_request_id, maintenance_type, asset_id, schedule_date, due_date, completion_date, created_at)
      select s.org_id, (g + 4) / 5, st, g, 'preventive', 1 + (g * 11) % s.assets, d + interval '14 days', d + interval '21 days',
        case when st = 'validate' then d + interval '20 days' end, d + interval '1 day'
      from sz s, generate_series(1, s.mrs, 5) g,
        lateral (select case when g > s.mrs * 0.9 then 'new' else (array['validate','validate','in-progress','new','cancel'])[1 + g % 5] end as st,
                        now() - ${YEARS2} + (g::float / s.mrs) * ${YEARS2} as d) x`,
    ],
    [
      'maintenance_order_parts',
      `insert into maintenance_order_parts (org_id, maintenance_order_id, part_id)
      select s.org_id, (g + 4) / 5, 1 + g % s.parts from sz s, generate_series(1, s.mrs, 5) g`,
    ],
    [
      'maintenance_order_services',
      `insert into maintenance_order_services (org_id, maintenance_order_id, service_id)
      select s.org_id, (g + 4) / 5, 1 + g % s.services from sz s, generate_series(1, s.mrs, 5) g`,
    ],
    [
      'quotations',
      `insert into quotations (org_id, id, status, customer_id, sales_person_id, quotation_date, expiration_date, note, created_at, updated_at)
      select s.org_id, g, ${pick(['draft', 'sendForApproval', 'quotation', 'quotationSent', 'salesOrder', 'salesOrder'], 'g')},
        1 + 3 * (g % ((s.cvs + 2) / 3)), 1 + (g * 3) % s.users, d, d + interval '30 days', case when g % 4 = 0 then 'Prices valid for 30 days.' end, d, d
      from sz s, generate_series(1, s.quotes) g, lateral (select now() - ${YEARS2} + (g::float / s.quotes) * ${YEARS2} as d) x`,
    ],
    ['quotation_lines', linesStatement('quotation_lines', 'quotation_id', 'quotes', 1)],
    [
      'purchase_orders',
      `insert into purchase_orders (org_id, id, status, vendor_id, requester_id, purchase_order_date, expiration_date, note, created_at, updated_at)
      select s.org_id, g, ${pick(['draft', 'sendForApproval', 'purchaseSent', 'purchaseOrder', 'purchaseOrder'], 'g')},
        3 * (1 + g % (s.cvs / 3)), 1 + (g * 5) % s.users, d, d + interval '45 days', case when g % 5 = 0 then 'Deliver to the main store.' end, d, d
      from sz s, generate_series(1, s.pos) g, lateral (select now() - ${YEARS2} + (g::float / s.pos) * ${YEARS2} as d) x`,
    ],
    ['purchase_order_lines', linesStatement('purchase_order_lines', 'purchase_order_id', 'pos', 2)],
    // The history: each record's "created" entry at its creation time, by its creator.
    [
      'activities',
      `insert into activities (org_id, id, entity_type, entity_id, user_id, action, created_at)
      select s.org_id, g, 'work-order', g, 1 + g % least(s.users, 3), 'created', now() - ${YEARS2} + (g::float / s.wo) * ${YEARS2} from sz s, generate_series(1, s.wo) g
      union all
      select s.org_id, s.wo + g, 'maintenance-request', g, 1 + (g * 5) % s.users, 'created', now() - ${YEARS2} + (g::float / s.mrs) * ${YEARS2} from sz s, generate_series(1, s.mrs) g
      union all
      select s.org_id, s.wo + s.mrs + g, 'quotation', g, 1 + (g * 3) % s.users, 'created', now() - ${YEARS2} + (g::float / s.quotes) * ${YEARS2} from sz s, generate_series(1, s.quotes) g
      union all
      select s.org_id, s.wo + s.mrs + s.quotes + g, 'purchase-order', g, 1 + (g * 5) % s.users, 'created', now() - ${YEARS2} + (g::float / s.pos) * ${YEARS2} from sz s, generate_series(1, s.pos) g`,
    ],
  ];
}

/**
 * Three lines per document (a service, then two parts), priced from the catalogue, tax `taxId` (15 %) added,
 * a 10 % discount on every fourth document; figures as src/shared/tax.ts computes them (half-up per figure).
 */
function linesStatement(table: string, docColumn: string, sizeColumn: string, taxId: number) {
  return `insert into ${table} (org_id, id, ${docColumn}, kind, service_id, part_id, name, quantity, unit_price, tax_id, discount, tax_amount, subtotal, uom_id, position)
    select org_id, (doc - 1) * 3 + k, doc, kind, service_id, part_id, name, qty, price, ${taxId}, disc, tax, base + tax, 1, k - 1
    from (
      select s.org_id, doc, k, l.kind, l.service_id, l.part_id, l.name, l.qty, l.price, l.disc,
        round(l.qty * l.price * (100 - l.disc) / 100.0)::bigint as base,
        round(round(l.qty * l.price * (100 - l.disc) / 100.0) * 15 / 100.0)::bigint as tax
      from sz s, generate_series(1, 3 * s.${sizeColumn}) m,
        lateral (select (m + 2) / 3 as doc, m - 3 * ((m + 2) / 3 - 1) as k) dk,
        lateral (select 1 + (doc * 3 + k) % s.services as sid, 1 + (doc * 7 + k) % s.parts as pid) ids,
        lateral (select case when k = 1 then 'service' else 'part' end as kind,
                        case when k = 1 then ids.sid end as service_id, case when k > 1 then ids.pid end as part_id,
                        case when k = 1 then ${serviceName('ids.sid')} else ${partName('ids.pid')} end as name,
                        1 + (doc + k) % 5 as qty,
                        case when k = 1 then ${serviceCents('ids.sid')} else ${partCents('ids.pid')} end as price,
                        case when doc % 4 = 0 then 10 else 0 end as disc) l
    ) x`;
}

/** Document totals = the sums of their lines (raw, discount, untaxed, tax, total). */
const totalsStatement = (
  doc: string,
  lines: string,
  docColumn: string,
) => `update ${doc} d set raw_subtotal = t.raw, total_discount = t.raw - t.untaxed, untaxed = t.untaxed, total_tax = t.tax, total = t.untaxed + t.tax
  from (select org_id, ${docColumn} as id, sum(quantity * unit_price)::bigint as raw, sum(subtotal - tax_amount)::bigint as untaxed, sum(tax_amount)::bigint as tax
        from ${lines} group by org_id, ${docColumn}) t
  where d.org_id = t.org_id and d.id = t.id`;

/** Analytics' one kept table (work_order_closures, decision 063), from the loaded rows, after the indexes are back. */
const ANALYTICS_KEPT = [
  `delete from work_order_closures`,
  `insert into work_order_closures (org_id, work_order_id, status, closed_at) select org_id, id, status, updated_at from work_orders where status in ('completed', 'cancelled')`,
];

// ---- the run -----------------------------------------------------------------------------------------------

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

async function main() {
  const started = performance.now();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const url = new URL(adminUrl!);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  try {
    const existing = await admin.query(`select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1`, [dbName]);
    if (existing.rowCount) {
      if (values.drop) {
        await admin.query(`drop database ${dbName} with (force)`);
        console.log(`dropped ${dbName}`);
      } else if (existing.rows[0].note === marker) {
        console.log(`${dbName} is already complete (${marker}); nothing to do. --drop to regenerate.`);
        return;
      } else {
        console.error(
          `${dbName} exists but is not a finished load of these arguments (${existing.rows[0].note ?? 'no marker'}).\nDrop it first: rerun with --drop, or dropdb -h 127.0.0.1 -U postgres ${dbName}`,
        );
        process.exitCode = 1;
        return;
      }
    }
    await admin.query(`create database ${dbName}`);
  } finally {
    await admin.end();
  }

  // The app's own startup path: migrations, then the tenancy wall.
  const database = await openDatabase({ databaseUrl });
  await migrate(database);
  await database.close();
  console.log(`created and migrated ${dbName} in ${seconds(started)} s`);

  const sizes = planSizes();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = (text: string, params?: unknown[]) => client.query(text, params);
  // Owner session: no triggers, no foreign-key checks (re-checked below), one core, big sorts in memory.
  await q(`set session_replication_role = replica`);
  await q(`set synchronous_commit = off`);
  await q(`set jit = off`); // compiling these wide expressions costs more than running them
  await q(`set maintenance_work_mem = '512MB'`);
  await q(`set work_mem = '64MB'`);
  await q(`set max_parallel_maintenance_workers = 0`);
  await q(`set max_parallel_workers_per_gather = 0`);

  await q(
    `create temp table sz (org_id int primary key, subdomain text, name text, wo int, users int, teams int, cvs int, assets int, parts int, services int, stations int, mrs int, quotes int, pos int)`,
  );
  await q(
    `insert into sz select * from unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[])`,
    (['orgId', 'subdomain', 'name', 'wo', 'users', 'teams', 'cvs', 'assets', 'parts', 'services', 'stations', 'mrs', 'quotes', 'pos'] as const).map((k) =>
      sizes.map((s) => s[k]),
    ),
  );
  const woCounts = sizes.map((s) => s.wo).sort((a, b) => b - a);
  console.log(
    `${ORGS} organisations, work orders: ${sizes[0].wo.toLocaleString('en-US')} (${BIG_SUBDOMAIN}), ${sizes[1].wo.toLocaleString('en-US')} (${SMALL_SUBDOMAIN}), others ${woCounts.at(-1)} to ${sizes[2]?.wo ?? 0}; planned ${sizes.reduce((n, s) => n + rowsOf(s), 0).toLocaleString('en-US')} rows`,
  );

  // Secondary indexes go during the load and come back from their own definitions (built once, sorted).
  const loaded = statements().map(([t]) => t);
  const { rows: indexes } = await q(
    `select ic.relname as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class tc on tc.oid = i.indrelid join pg_namespace n on n.oid = tc.relnamespace
      where n.nspname = 'public' and tc.relname = any($1) and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    [loaded],
  );
  for (const ix of indexes) await q(`drop index ${ix.name}`);

  const counts: [string, number, string][] = [];
  for (const [table, statement] of statements()) {
    const t0 = performance.now();
    const res = await q(statement);
    counts.push([table, res.rowCount ?? 0, seconds(t0)]);
    console.log(`  ${table.padEnd(28)} ${String(res.rowCount).padStart(10)} rows  ${seconds(t0).padStart(6)} s`);
  }
  let t0 = performance.now();
  await q(totalsStatement('quotations', 'quotation_lines', 'quotation_id'));
  await q(totalsStatement('purchase_orders', 'purchase_order_lines', 'purchase_order_id'));
  console.log(`document totals from their lines in ${seconds(t0)} s`);
  await q(`select setval(pg_get_serial_sequence('organizations', 'id'), (select max(id) from organizations))`);

  // What the triggers would have kept: the per-organisation id counters.
  t0 = performance.now();
  const { rows: idTables } = await q(
    `select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = 'public' and c.column_name = 'org_id' and t.table_type = 'BASE TABLE' and c.table_name <> 'org_counters'
        and exists (select 1 from information_schema.columns i where i.table_schema = 'public' and i.table_name = c.table_name and i.column_name = 'id')`,
  );
  for (const { table_name: t } of idTables) {
    await q(`insert into org_counters (org_id, table_name, last_id) select org_id, '${t}', max(id) from ${t} group by org_id
      on conflict (org_id, table_name) do update set last_id = greatest(org_counters.last_id, excluded.last_id)`);
  }
  console.log(`id counters (${idTables.length} tables) in ${seconds(t0)} s`);

  t0 = performance.now();
  for (const ix of indexes) {
    const t1 = performance.now();
    await q(ix.def);
    if (performance.now() - t1 > 5_000) console.log(`  index ${ix.name} ${seconds(t1)} s`);
  }
  console.log(`${indexes.length} secondary indexes rebuilt in ${seconds(t0)} s`);

  // What analytics' one kept table holds (decision 063): closures (an order loaded closed closed at its updated_at,
  // as the migration's backfill).
  t0 = performance.now();
  for (const statement of ANALYTICS_KEPT) await q(statement);
  console.log(`analytics closures in ${seconds(t0)} s`);

  // Every foreign key the load skipped, checked once per constraint (NOT VALID + VALIDATE scans with a join).
  t0 = performance.now();
  const { rows: fks } = await q(
    `select conrelid::regclass::text as tbl, conname from pg_constraint k join pg_namespace n on n.oid = k.connamespace
      where k.contype = 'f' and n.nspname = 'public' and conrelid::regclass::text = any($1)`,
    [loaded],
  );
  await q(`set session_replication_role = origin`);
  for (const fk of fks) {
    const {
      rows: [def],
    } = await q(`select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1 and conrelid = $2::regclass`, [fk.conname, fk.tbl]);
    await q(`begin`);
    await q(`alter table ${fk.tbl} drop constraint ${fk.conname}`);
    await q(`alter table ${fk.tbl} add constraint ${fk.conname} ${def.def} not valid`);
    await q(`alter table ${fk.tbl} validate constraint ${fk.conname}`);
    await q(`commit`);
  }
  console.log(`${fks.length} foreign keys validated in ${seconds(t0)} s`);

  t0 = performance.now();
  await q(`vacuum (analyze)`);
  console.log(`vacuum analyze in ${seconds(t0)} s`);
  await q(`comment on database ${dbName} is '${marker}'`);
  await client.end();

  const total = counts.reduce((n, [, c]) => n + c, 0);
  console.log(`\n| table | rows | s |\n|---|---|---|`);
  for (const [t, c, s] of counts) console.log(`| ${t} | ${c.toLocaleString('en-US')} | ${s} |`);
  console.log(`| **total** | **${total.toLocaleString('en-US')}** | |`);
  console.log(`\n${dbName}: ${ORGS} organisations, ${total.toLocaleString('en-US')} rows in ${seconds(started)} s`);
}

await main();
