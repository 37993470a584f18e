import { and, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { importMappings } from '../../server/db/schema';
import type { AccessClaims } from '../auth/tokens';
import { type ImportKind, type ImportProblem, type ImportRequest, type ImportResult } from './data-transfer.schema';
import { type ImportMail, type Importer, type Run, Undo, readCells, rowsWith, eachRow } from './import-rows';
import { IMPORTERS } from './import-kinds';
import { matchRows, REIMPORT, unchangedRows } from './reimport';

/**
 * Checks every row of an import with the feature's own schema, resolves names to ids, and writes the valid
 * rows through the feature's service in one transaction (decision 042). `all` writes nothing when a row has a
 * problem; `valid` writes the others. A dry run does everything and then undoes it.
 */
export async function importRows(
  tx: Tx,
  orgId: number,
  actor: AccessClaims,
  kind: ImportKind,
  request: ImportRequest,
  mail: ImportMail,
): Promise<ImportResult> {
  const problems: ImportProblem[] = [];
  const rows = readCells(kind, request, problems);
  const importer: Importer = { ...IMPORTERS[kind], ...REIMPORT[kind] };
  const run: Run = { orgId, actor, request, problems, mail, refs: new Map(), missing: new Map() };
  if (importer.match) await importer.match(tx, run, rows);
  else await matchRows(tx, run, kind, importer, rows);
  let ready = await importer.prepare(tx, run, rows);

  // Rows flagged before their schema ran (formulas, duplicates, unknown names) are not written either.
  let bad = rowsWith(problems);
  ready = ready.filter((r) => !bad.has(r.row));
  const matched = new Map(rows.flatMap((r) => (r.match ? [[r.row, r.match] as const] : [])));
  const same = await unchangedRows(tx, run, importer, rows, ready);
  const fresh = ready.filter((r) => !matched.has(r.row));
  const changed = ready.filter((r) => matched.has(r.row) && !same.has(r.row));
  const result: ImportResult = {
    total: rows.length,
    valid: rows.length - bad.size,
    imported: 0,
    new: 0,
    updated: 0,
    unchanged: same.size,
    dryRun: request.dryRun,
    problems,
    created: [],
    missing: request.createMissing ? [] : [...run.missing.values()],
  };

  // Written even when an all-or-nothing import already has problems (then undone): the refusals of the
  // features' services (a counter going down, a unit's second reference) are reported with the rest.
  let added = 0;
  let updated = 0;
  try {
    await tx.transaction(async (sp) => {
      // The missing records the rows to write name, when asked to create them.
      const created: string[] = [];
      if (request.createMissing && importer.createMissing) {
        for (const name of new Set([...fresh, ...changed].flatMap((r) => (r.pending ? [r.pending] : [])))) {
          const shown = run.missing.get(name) ?? name;
          run.refs.set(name, await importer.createMissing(sp, run, shown));
          created.push(shown);
        }
      }
      added = await importer.write(sp, run, fresh);
      // After the new rows: an updated row may name one of them (a parent, a child tax).
      if (changed.length && importer.update) {
        const update = importer.update.bind(importer);
        updated = await eachRow(sp, run, changed, importer.columnOf ?? {}, (one, input: unknown, r) => update(one, run, matched.get(r.row)!, input));
      }
      bad = rowsWith(problems);
      result.valid = rows.length - bad.size;
      const aborted = request.mode === 'all' && problems.length > 0;
      // A dry run says what the import would create; an aborted one creates nothing.
      if (!aborted) result.created = created;
      if (aborted && !request.dryRun) added = updated = 0;
      if (request.dryRun || aborted) throw new Undo();
    });
  } catch (err) {
    if (!(err instanceof Undo)) throw err;
  }
  result.new = added;
  result.updated = updated;
  result.imported = request.dryRun ? 0 : added + updated;
  problems.sort((a, b) => a.row - b.row);
  return result;
}

/** The mapping the organisation last used for a kind (file header -> column key), or an empty one. */
export async function getImportMapping(tx: ReadTx, orgId: number, kind: ImportKind) {
  const [row] = await tx
    .select({ mapping: importMappings.mapping })
    .from(importMappings)
    .where(and(eq(importMappings.orgId, orgId), eq(importMappings.kind, kind)));
  return { mapping: row?.mapping ?? {} };
}

/** Remembers a kind's mapping for the organisation (one per kind). */
export async function saveImportMapping(tx: Tx, orgId: number, kind: ImportKind, mapping: Record<string, string>) {
  await tx
    .insert(importMappings)
    .values({ orgId, kind, mapping })
    .onConflictDoUpdate({ target: [importMappings.orgId, importMappings.kind], set: { mapping, updatedAt: sql`now()` } });
  return { message: 'Mapping saved', mapping };
}
