import { sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import type { ReadTx, Tx } from '../../server/db/client';
import { rowsOf } from '../../server/db/rows';
import { pgCode } from '../../server/db/pg-code';
import { badRequest, conflict, forbidden, HttpError } from '../../server/http-error';
import type { FileExt, Storage } from '../../server/uploads/storage';
import type { AccessClaims } from '../auth/tokens';
import {
  ORGANISATION_ARCHIVE_MAX_UNPACKED,
  ORGANISATION_IMPORT_KINDS,
  type OrganisationImportKind,
  type OrganisationImportResult,
} from './data-transfer.schema';
import { DATA_FORMAT, DATA_VERSION, MOVED, ORGANISATION_SETTINGS, type MovedTable, type Ref } from './organisation-data';

type Row = Record<string, unknown>;
type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
type Read = <T>(fn: (tx: ReadTx) => Promise<T>) => Promise<T>;

const FILE_NAME = /^[0-9a-f-]{36}\.(webp|png|jpg|pdf)$/;
/** A stored file's URL inside a value (decision 061's `/uploads/org-<id>/<uuid>.<ext>`). */
const FILE_URL = /\/uploads\/org-\d+\/([0-9a-f-]{36}\.(?:webp|png|jpg|pdf))/g;

/** Which summary kind a table's rows count towards (tables not named count only in `rows`). */
const KIND_OF: Record<string, OrganisationImportKind> = {
  users: 'users',
  teams: 'teams',
  asset_categories: 'masterData',
  uom_categories: 'masterData',
  uoms: 'masterData',
  product_categories: 'masterData',
  taxes: 'masterData',
  time_tracking_reasons: 'masterData',
  services: 'masterData',
  work_stations: 'masterData',
  customer_vendors: 'customersVendors',
  assets: 'assets',
  meters: 'meters',
  parts: 'parts',
  procedures: 'procedures',
  pm_plans: 'plans',
  maintenance_requests: 'requests',
  maintenance_orders: 'maintenanceOrders',
  work_orders: 'workOrders',
  work_order_labors: 'labor',
  work_order_parts: 'workOrderParts',
  quotations: 'quotations',
  purchase_orders: 'purchaseOrders',
  portal_requests: 'portalRequests',
  activities: 'history',
};

/** What the archive holds, read and checked before anything is written. */
interface Archive {
  organization: Row;
  tables: Map<string, Row[]>;
  files: Map<string, Uint8Array>;
}

/** Reads the ZIP: only the entries an export writes, names checked before anything is unpacked. */
export function readArchive(bytes: Uint8Array): Archive {
  let unpacked = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter(file) {
        if (file.name.endsWith('/')) return false;
        if (/^lists\/[a-z-]+\.csv$/.test(file.name)) return false; // the lists are for people; the rows are in data/
        const known =
          file.name === 'data/manifest.json' ||
          /^data\/[a-z_]+\.ndjson$/.test(file.name) ||
          (file.name.startsWith('files/') && FILE_NAME.test(file.name.slice(6)));
        if (!known) throw badRequest(`The archive holds an entry an export never writes: ${file.name.slice(0, 200)}`);
        unpacked += file.originalSize;
        if (unpacked > ORGANISATION_ARCHIVE_MAX_UNPACKED) throw badRequest('The archive unpacks to more than 1 GB');
        return true;
      },
    });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw badRequest('The file is not a readable ZIP archive');
  }
  const text = (name: string) => (entries[name] ? new TextDecoder().decode(entries[name]) : null);
  const manifestText = text('data/manifest.json');
  if (manifestText === null) throw badRequest('The archive holds no organisation data (data/manifest.json): export the organisation again');
  let manifest: { format?: unknown; version?: unknown; organization?: unknown; tables?: unknown };
  try {
    manifest = JSON.parse(manifestText) as typeof manifest;
  } catch {
    throw badRequest('data/manifest.json is not valid JSON');
  }
  if (manifest.format !== DATA_FORMAT || manifest.version !== DATA_VERSION)
    throw badRequest(`data/manifest.json is not a ${DATA_FORMAT} version ${DATA_VERSION} manifest`);
  if (!isObject(manifest.tables) || !isObject(manifest.organization)) throw badRequest('data/manifest.json names no tables');
  const counts = manifest.tables as Record<string, unknown>;
  const tables = new Map<string, Row[]>();
  for (const name of Object.keys(counts)) {
    if (!MOVED.some((t) => t.name === name)) throw badRequest(`The archive holds a table this version does not know: ${name.slice(0, 100)}`);
  }
  for (const table of MOVED) {
    const body = text(`data/${table.name}.ndjson`);
    if (body === null) {
      if (counts[table.name] === undefined) continue; // an older export without this table
      throw badRequest(`The archive misses data/${table.name}.ndjson`);
    }
    const rows: Row[] = [];
    body.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        throw badRequest(`data/${table.name}.ndjson line ${i + 1} is not valid JSON`);
      }
      if (!isObject(row)) throw badRequest(`data/${table.name}.ndjson line ${i + 1} is not a record`);
      rows.push(row as Row);
    });
    if (counts[table.name] !== rows.length) throw badRequest(`data/${table.name}.ndjson holds ${rows.length} rows, the manifest ${String(counts[table.name])}`);
    tables.set(table.name, rows);
  }
  const files = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(entries)) if (name.startsWith('files/')) files.set(name.slice(6), data);
  return { organization: manifest.organization as Row, tables, files };
}

function isObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every stored file a value names (strings, and inside JSON values). */
function collectFiles(value: unknown, into: Set<string>) {
  if (typeof value === 'string') for (const m of value.matchAll(FILE_URL)) into.add(m[1]);
  else if (Array.isArray(value)) for (const v of value) collectFiles(v, into);
  else if (isObject(value)) for (const v of Object.values(value)) collectFiles(v, into);
}

/** The value with every stored file's URL replaced by the new organisation's copy. */
function rewriteFiles(value: unknown, urls: Map<string, string>): unknown {
  if (typeof value === 'string') return value.includes('/uploads/org-') ? value.replace(FILE_URL, (_, name: string) => urls.get(name) ?? _) : value;
  if (Array.isArray(value)) return value.map((v) => rewriteFiles(v, urls));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteFiles(v, urls)]));
  return value;
}

const targetOf = (ref: Ref, row: Row): string | null => (typeof ref === 'string' ? ref : (ref.tables[String(row[ref.by])] ?? null));

/**
 * Why the organisation is not empty, or null. Empty: no row in any table the archive fills, except the
 * importing admin's own user and history entries about users (what sign-up and a profile edit leave), and the
 * settings rows the archive replaces.
 */
async function whyNotEmpty(tx: ReadTx, orgId: number, adminId: number): Promise<string | null> {
  for (const table of MOVED) {
    if (table.singleton) continue;
    const name = sql.identifier(table.name);
    const extra = table.name === 'users' ? sql` and id <> ${adminId}` : table.name === 'activities' ? sql` and entity_type <> 'user'` : sql``;
    const result = await tx.execute(sql`select exists (select 1 from ${name} where org_id = ${orgId}${extra}) as found`);
    if (rowsOf<{ found: boolean }>(result)[0].found) {
      return `Only an empty organisation can import an archive: this one already holds ${table.name.replace(/_/g, ' ')}. Sign up a new organisation and import there.`;
    }
  }
  return null;
}

/** The columns each table has in this database (a newer archive's unknown column is refused, not dropped). */
async function columnsOf(tx: ReadTx): Promise<Map<string, Set<string>>> {
  const names = MOVED.map((t) => t.name);
  const result = await tx.execute(sql`select c.relname as tbl, a.attname as col from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped and c.relname = any(${sql.param(names)}::text[])`);
  const map = new Map<string, Set<string>>();
  for (const { tbl, col } of rowsOf<{ tbl: string; col: string }>(result)) {
    if (!map.has(tbl)) map.set(tbl, new Set());
    map.get(tbl)!.add(col);
  }
  return map;
}

/**
 * Imports an organisation archive into the caller's organisation (admins; decision 069): checks the whole archive,
 * stores the files it names, then writes every row in one transaction with new ids and rewritten references.
 * A failure of the transaction removes the files stored for it.
 */
export async function importOrganisationArchive(
  read: Read,
  write: Write,
  orgId: number,
  actor: AccessClaims,
  storage: Storage,
  bytes: Uint8Array,
): Promise<OrganisationImportResult> {
  if (actor.role !== 'admin') throw forbidden();
  const archive = readArchive(bytes);
  const adminId = actor.userId;
  const { columns, admin } = await read(async (tx) => {
    const why = await whyNotEmpty(tx, orgId, adminId);
    if (why) throw conflict(why);
    const me = rowsOf<{ email: string }>(await tx.execute(sql`select email from users where org_id = ${orgId} and id = ${adminId}`))[0];
    return { columns: await columnsOf(tx), admin: me };
  });

  // ---- Check everything before anything is written ----
  const oldIds = new Map<string, Set<number>>();
  for (const table of MOVED) {
    const rows = archive.tables.get(table.name) ?? [];
    const known = columns.get(table.name) ?? new Set();
    for (const row of rows) {
      for (const key of Object.keys(row))
        if (!known.has(key)) throw badRequest(`data/${table.name}.ndjson has a column this version does not know: ${key.slice(0, 100)}`);
    }
    if (table.singleton && rows.length > 1) throw badRequest(`data/${table.name}.ndjson holds more than one row`);
    if (!table.hasId) continue;
    const ids = new Set<number>();
    for (const row of rows) {
      const id = row.id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2147483647)
        throw badRequest(`data/${table.name}.ndjson has a row without a valid id`);
      if (ids.has(id)) throw badRequest(`data/${table.name}.ndjson has id ${id} twice`);
      ids.add(id);
    }
    oldIds.set(table.name, ids);
  }
  for (const table of MOVED) {
    for (const row of archive.tables.get(table.name) ?? []) {
      for (const [column, ref] of Object.entries(table.refs)) {
        const value = row[column];
        if (value === null || value === undefined) continue;
        const target = targetOf(ref, row);
        if (!target) throw badRequest(`data/${table.name}.ndjson: ${column} points into an unknown kind of record`);
        if (typeof value === 'number' && table.history?.includes(column)) continue;
        if (typeof value !== 'number' || !oldIds.get(target)?.has(value)) {
          throw badRequest(`data/${table.name}.ndjson: ${column} ${String(value).slice(0, 20)} refers to a row of ${target} the archive does not hold`);
        }
      }
    }
  }
  const published = archive.tables.get('portal_settings')?.[0]?.published;
  if (published !== undefined && published !== null) {
    if (!Array.isArray(published)) throw badRequest('data/portal_settings.ndjson: published is not a list');
    for (const entry of published as unknown[]) {
      const target = isObject(entry) ? ({ asset: 'assets', 'work-station': 'work_stations' } as Record<string, string>)[String(entry.kind)] : undefined;
      if (!target || !isObject(entry) || !oldIds.get(target)?.has(entry.id as number))
        throw badRequest('data/portal_settings.ndjson: published names a record the archive does not hold');
    }
  }
  const named = new Set<string>();
  for (const rows of archive.tables.values()) collectFiles(rows, named);
  collectFiles(archive.organization, named);
  for (const name of named) if (!archive.files.has(name)) throw badRequest(`The archive misses the file files/${name}`);

  // ---- Files first: each named file stored under the new organisation ----
  const urls = new Map<string, string>();
  try {
    for (const name of named) urls.set(name, await storage.put(orgId, Buffer.from(archive.files.get(name)!), name.slice(name.lastIndexOf('.') + 1) as FileExt));
    return await write(async (tx) => {
      const why = await whyNotEmpty(tx, orgId, adminId);
      if (why) throw conflict(why);
      return writeRows(tx, orgId, adminId, admin?.email ?? '', archive, urls);
    });
  } catch (err) {
    for (const url of urls.values()) await storage.remove(url).catch(() => {});
    throw err;
  }
}

async function writeRows(
  tx: Tx,
  orgId: number,
  adminId: number,
  adminEmail: string,
  archive: Archive,
  urls: Map<string, string>,
): Promise<OrganisationImportResult> {
  // New ids: one block per table, in the old ids' order; the admin's exported self (same e-mail) is the importer.
  const newIds = new Map<string, Map<number, number>>();
  const users = archive.tables.get('users') ?? [];
  const self = users.find((u) => typeof u.email === 'string' && u.email.toLowerCase() === adminEmail.toLowerCase());
  for (const table of MOVED) {
    if (!table.hasId) continue;
    const rows = (archive.tables.get(table.name) ?? []).filter((r) => r !== self);
    const map = new Map<number, number>();
    if (self && table.name === 'users') map.set(self.id as number, adminId);
    if (rows.length) {
      const first = await reserveByName(tx, orgId, table.name, rows.length);
      [...rows].sort((a, b) => (a.id as number) - (b.id as number)).forEach((r, i) => map.set(r.id as number, first + i));
    }
    newIds.set(table.name, map);
  }
  const counts = Object.fromEntries(ORGANISATION_IMPORT_KINDS.map((k) => [k, 0])) as Record<OrganisationImportKind, number>;
  let total = 0;
  for (const table of MOVED) {
    let rows = archive.tables.get(table.name) ?? [];
    if (table.name === 'users') rows = rows.filter((r) => r !== self);
    if (table.singleton) await tx.execute(sql`delete from ${sql.identifier(table.name)} where org_id = ${orgId}`);
    // A completed order's closure is written by the database when the order is inserted: the archive's replaces it.
    if (table.name === 'work_order_closures') await tx.execute(sql`delete from work_order_closures where org_id = ${orgId}`);
    const out = rows.map((row) => moveRow(table, row, orgId, newIds, urls));
    await insertRows(tx, table, out);
    total += out.length;
    const kind = KIND_OF[table.name];
    if (kind) counts[kind] += out.length;
  }
  counts.files = urls.size;
  const settings = rewriteFiles(archive.organization, urls) as Row;
  const assignments = ORGANISATION_SETTINGS.filter((c) => c in settings).map((c) => sql`${sql.identifier(c)} = ${settings[c] as string | null}`);
  if (assignments.length) await tx.execute(sql`update organizations set ${sql.join(assignments, sql`, `)} where id = ${orgId}`);
  return { message: 'Organisation imported', counts, rows: total };
}

/** `reserveIds` by table name (the per-organisation ids of `name`). */
async function reserveByName(tx: Tx, orgId: number, name: string, count: number): Promise<number> {
  const result = await tx.execute(sql`select reserve_org_ids(${orgId}::int, ${name}::text, ${count}::int) as first`);
  return Number(rowsOf<{ first: number }>(result)[0].first);
}

function moveRow(table: MovedTable, row: Row, orgId: number, newIds: Map<string, Map<number, number>>, urls: Map<string, string>): Row {
  const out = rewriteFiles(row, urls) as Row;
  out.org_id = orgId;
  if (table.hasId) out.id = newIds.get(table.name)!.get(row.id as number)!;
  for (const [column, ref] of Object.entries(table.refs)) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    const moved = newIds.get(targetOf(ref, row)!)!.get(value as number);
    // Only a history column reaches here without its row (checked before anything is written).
    out[column] = moved ?? null;
  }
  if (table.name === 'users') {
    // Passwords never leave an organisation: the people come in invited, and set one through the invitation.
    out.password_hash = null;
    out.invite_status = 'PENDING';
    out.token_version = 0;
  }
  if (table.name === 'portal_settings' && Array.isArray(row.published)) {
    const targets: Record<string, string> = { asset: 'assets', 'work-station': 'work_stations' };
    out.published = (row.published as { kind: string; id: number }[]).map((p) => ({ ...p, id: newIds.get(targets[p.kind])!.get(p.id)! }));
  }
  return out;
}

const CHUNK = 1000;

/** The rows as the database types them (`jsonb_populate_recordset` of the table's own row type), in chunks. */
async function insertRows(tx: Tx, table: MovedTable, rows: Row[]) {
  if (!rows.length) return;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const names = sql.join(
    keys.map((k) => sql.identifier(k)),
    sql`, `,
  );
  const name = sql.identifier(table.name);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + CHUNK));
    try {
      await tx.execute(sql`insert into ${name} (${names}) select ${names} from jsonb_populate_recordset(null::${name}, ${chunk}::jsonb)`);
    } catch (err) {
      const code = pgCode(err) ?? '';
      if (code.startsWith('22') || code.startsWith('23'))
        throw badRequest(`data/${table.name}.ndjson holds a value this database refuses: ${(err as Error).message.slice(0, 200)}`);
      throw err;
    }
  }
}
