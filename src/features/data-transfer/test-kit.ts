/**
 * The import and export tests' shared set-up: read an export as rows, turn a file into what the wizard sends,
 * post an import, snapshot an organisation, and the export -> edit -> re-import round trip (decision 055).
 * Test code only (imports vitest).
 */
import Papa from 'papaparse';
import { expect } from 'vitest';
import type { TestApp, TestOrg } from '../../server/test/harness';
import { orgSnapshot } from '../../server/test/sql';
import { guessColumn, type ExportList, type ImportKind } from './data-transfer.schema';

export type Client = TestOrg['admin'];
export type ImportRow = Record<string, string | null | undefined>;

/** An organisation's rows but its sessions and counters: what a dry run or a refused import leaves as it was. */
export const snapshotOf = (t: TestApp, org: TestOrg) => orgSnapshot(t.database.db, org.orgId, ['sessions', 'org_counters']);

export const rowsOf = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

/** An export list's file as rows (the header first). */
export async function exported(client: Client, list: ExportList | string) {
  const res = await client.get(`/api/data-transfer/export/${list}`);
  expect(res.status, String(res.body)).toBe(200);
  return rowsOf(String(res.body));
}

/** What the wizard sends for a file: each header mapped to its column as the wizard guesses it (all must be). */
export function asImport(kind: ImportKind, [header, ...rows]: string[][]) {
  const keys = header.map((h) => guessColumn(kind, h));
  expect(keys.filter((k) => !k).length, `unmapped headers of ${kind}: ${header.filter((_, i) => !keys[i]).join(', ')}`).toBe(0);
  return rows.map((cells) => Object.fromEntries(keys.map((k, i) => [k!, cells[i] ?? ''])));
}

/** What the wizard sends for a file whose headers it does not all know: the unknown columns left out. */
export function asImportKnown(kind: ImportKind, [header, ...rows]: string[][]) {
  const keys = header.map((h) => guessColumn(kind, h));
  return rows.map((cells) => Object.fromEntries(keys.flatMap((k, i) => (k ? [[k, cells[i] ?? '']] : []))));
}

export const postImport = (client: Client, kind: ImportKind, rows: ImportRow[], opts: Record<string, unknown> = {}) =>
  client.post(`/api/data-transfer/import/${kind}`, { rows, ...opts });

/** A file's rows in a stable order (an updated line is a new line: it moves in the newest-first export). */
export const sorted = ([header, ...rows]: string[][]) => [
  header,
  ...rows
    .map((r) => r.join('\u0001'))
    .sort()
    .map((r) => r.split('\u0001')),
];

/**
 * Export -> the untouched file re-imports as all unchanged -> one cell of one row edited -> the dry run says
 * 1 updated and changes nothing -> the import writes it -> the new export is the edited file (no duplicate,
 * the other rows as they were). `computed`: the edited row's cells the export computes (ignored by the import),
 * as it now computes them; `anyOrder`: the new export compared whatever the order of its rows.
 */
export async function editRoundTrip(
  t: TestApp,
  org: TestOrg,
  edit: { kind: ImportKind; list: ExportList; header: string; match: (row: Record<string, string>) => boolean; value: string },
  opts: { client?: Client; computed?: Record<string, string>; anyOrder?: boolean } = {},
) {
  const { kind, list, header, match, value } = edit;
  const client = opts.client ?? org.admin;
  const file = await exported(client, list);
  const n = file.length - 1;
  expect(n).toBeGreaterThan(1);
  const same = await postImport(client, kind, asImport(kind, file), { dryRun: true });
  expect(same.body, JSON.stringify(same.body.problems)).toMatchObject({ total: n, new: 0, updated: 0, unchanged: n, problems: [] });

  const column = file[0].indexOf(header);
  expect(column).toBeGreaterThanOrEqual(0);
  const target = file.findIndex((cells, i) => i > 0 && match(Object.fromEntries(file[0].map((h, j) => [h, cells[j]]))));
  expect(target).toBeGreaterThan(0);
  const edited = file.map((cells, i) => (i === target ? cells.map((c, j) => (j === column ? value : c)) : cells));

  const before = await snapshotOf(t, org);
  const dry = await postImport(client, kind, asImport(kind, edited), { dryRun: true });
  expect(dry.body, JSON.stringify(dry.body.problems)).toMatchObject({ total: n, valid: n, imported: 0, new: 0, updated: 1, unchanged: n - 1, problems: [] });
  expect(await snapshotOf(t, org)).toBe(before);

  const real = await postImport(client, kind, asImport(kind, edited));
  expect(real.body, JSON.stringify(real.body.problems)).toMatchObject({ total: n, imported: 1, new: 0, updated: 1, unchanged: n - 1, problems: [] });
  const computed = opts.computed ?? {};
  const expected = edited.map((cells, i) => (i === target ? cells.map((c, j) => computed[file[0][j]] ?? c) : cells));
  if (opts.anyOrder) expect(sorted(await exported(client, list))).toEqual(sorted(expected));
  else expect(await exported(client, list)).toEqual(expected);
}

/** Imports rows that must all be taken (`fresh`: each as a new record). */
export async function seedImport(client: Client, kind: ImportKind, rows: Record<string, string>[], fresh = true) {
  const res = await postImport(client, kind, rows);
  expect(res.body, JSON.stringify(res.body.problems)).toMatchObject({ imported: rows.length, ...(fresh ? { new: rows.length } : {}), problems: [] });
}
