import { Readable } from 'node:stream';
import type { ZipArchive } from 'archiver';
import { forbidden, HttpError } from '../../server/http-error';
import { now } from '../../server/clock';
import type { Storage } from '../../server/uploads/storage';
import type { AccessClaims } from '../auth/tokens';
import { csvLine } from '../../shared/csv';
import { EXPORT_LISTS, type ExportList } from './data-transfer.schema';
import { EXPORTERS, type Reader, type Step } from './export-lists';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/rows';
import { DATA_FORMAT, DATA_VERSION, MOVED, ORGANISATION_SETTINGS, type MovedTable } from './organisation-data';

export type { Reader } from './export-lists';

/** Rows read per statement: a 1M-row export holds one batch at a time. */
export const EXPORT_BATCH = 2000;

/** The largest id: the first keyset batch starts below it. */
const MAX_ID = 2147483647;

/**
 * A list as CSV (UTF-8 with a BOM, so Excel reads Arabic), with the list's filters and the named columns in
 * their order (all when none is named), streamed: batches of `EXPORT_BATCH` rows, read as the client takes
 * them. The caller's right to the list and the query are checked before the first byte (403, 400).
 */
export function exportListCsv(read: Reader, orgId: number, actor: AccessClaims, list: ExportList, rawQuery: Record<string, unknown>, batchSize = EXPORT_BATCH) {
  const exporter = EXPORTERS[list];
  if (!exporter.access.includes(actor.role)) throw forbidden();
  const { columns: wanted, ...filters } = rawQuery;
  const parsed = exporter.query.safeParse(filters);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new HttpError(400, issues[0]?.message ?? 'Invalid filter', issues);
  }
  const keys = typeof wanted === 'string' && wanted.trim() ? wanted.split(',').map((k) => k.trim()) : [];
  const columns = (keys.length ? keys.flatMap((k) => exporter.columns.filter(([key]) => key === k)) : exporter.columns).map(([key, header, value]) => ({
    header,
    value: value ?? ((row: object) => (row as Record<string, unknown>)[key]),
  }));
  if (!columns.length) throw new HttpError(400, 'No known column to export', [{ path: 'columns', message: 'No known column to export' }]);
  const query = parsed.data;

  async function* lines() {
    yield `\uFEFF${csvLine(columns.map((c) => c.header))}`;
    const step: Step = { page: 1, before: MAX_ID };
    for (;;) {
      const rows = await read((tx) => exporter.read(tx, orgId, actor, query, step, batchSize));
      let chunk = '';
      for (const row of rows) chunk += csvLine(columns.map((c) => c.value(row)));
      if (chunk) yield chunk;
      if (rows.length < batchSize) return;
      step.page += 1;
      step.before = rows[rows.length - 1].id;
    }
  }
  return { stream: Readable.from(lines(), { objectMode: false }), filename: `${list}-${now().toISOString().slice(0, 10)}.csv` };
}

/**
 * Appends one entry and waits until the archive has written it, so one source is read at a time. An archive
 * closed first (the client went away) ends the wait and the source.
 */
function appendEntry(zip: ZipArchive, source: Readable, name: string) {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      source.off('error', done);
      zip.off('entry', written);
      zip.off('close', closed);
      if (!err) return resolve();
      source.destroy();
      reject(err);
    };
    const written = () => done();
    const closed = () => done(new Error('The archive was closed'));
    source.once('error', done);
    zip.once('entry', written);
    zip.once('close', closed);
    zip.append(source, { name });
  });
}

/**
 * The whole organisation as one ZIP (admins, decision 042): `lists/<list>.csv` for every exported list (all
 * rows, all columns), `data/<table>.ndjson` and `data/manifest.json` (the rows as stored, for an import; decision
 * 069) and `files/<name>` for every file the organisation uploaded (its own storage folder only).
 * Streamed: each entry is read as the archive is written, one at a time, and the archive as the client takes it.
 */
export async function exportOrganisationZip(read: Reader, orgId: number, actor: AccessClaims, storage: Storage) {
  if (actor.role !== 'admin') throw forbidden();
  // Loaded on first use: one route's library stays out of the server's start (decision 013).
  const { ZipArchive } = await import('archiver');
  const zip = new ZipArchive({ zlib: { level: 6 } });
  void (async () => {
    for (const list of EXPORT_LISTS) await appendEntry(zip, exportListCsv(read, orgId, actor, list, {}).stream, `lists/${list}.csv`);
    // The rows themselves, for an import into another organisation (decision 069).
    const tables: Record<string, number> = {};
    for (const table of MOVED) {
      const counted = { n: 0 };
      await appendEntry(zip, Readable.from(tableLines(read, orgId, table, counted), { objectMode: false }), `data/${table.name}.ndjson`);
      tables[table.name] = counted.n;
    }
    const organization = await read(async (tx) => {
      const columns = sql.join(
        ORGANISATION_SETTINGS.map((c) => sql.identifier(c)),
        sql`, `,
      );
      return rowsOf<Record<string, unknown>>(await tx.execute(sql`select ${columns} from organizations where id = ${orgId}`))[0] ?? {};
    });
    const manifest = { format: DATA_FORMAT, version: DATA_VERSION, exportedAt: now().toISOString(), organization, tables };
    await appendEntry(zip, Readable.from([JSON.stringify(manifest, null, 2)]), 'data/manifest.json');
    for await (const file of storage.files(orgId)) {
      const source = await file.open(); // null: deleted since it was listed
      if (source) await appendEntry(zip, source, `files/${file.url.slice(file.url.lastIndexOf('/') + 1)}`);
    }
    await zip.finalize();
  })().catch((err: Error) => zip.destroy(err));
  return { stream: zip, filename: `organisation-${now().toISOString().slice(0, 10)}.zip` };
}

/**
 * One moved table's rows of the organisation as JSON lines (`to_jsonb` of the row, secret columns left out),
 * batch by batch on the id for tables that have one; `counted.n` is the number written.
 */
async function* tableLines(read: Reader, orgId: number, table: MovedTable, counted: { n: number }, batchSize = EXPORT_BATCH) {
  const name = sql.identifier(table.name);
  const row = (table.secret ?? []).reduce((acc, column) => sql`${acc} - ${column}::text`, sql`to_jsonb(r)`);
  let atMost = MAX_ID;
  for (;;) {
    const rows = await read(async (tx) =>
      rowsOf<{ row: Record<string, unknown> }>(
        await tx.execute(
          table.hasId
            ? sql`select ${row} as row from ${name} r where r.org_id = ${orgId} and r.id <= ${atMost} order by r.id desc limit ${batchSize}`
            : sql`select ${row} as row from ${name} r where r.org_id = ${orgId}`,
        ),
      ),
    );
    const objects = rows.map((r) => (typeof r.row === 'string' ? (JSON.parse(r.row) as Record<string, unknown>) : r.row));
    let chunk = '';
    for (const r of objects) chunk += `${JSON.stringify(r)}\n`;
    counted.n += objects.length;
    if (chunk) yield chunk;
    if (!table.hasId || objects.length < batchSize) return;
    atMost = Number(objects[objects.length - 1].id) - 1;
  }
}
