import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { procedures } from '../../server/db/schema';
import { addProcedure, getProcedure, updateProcedure } from '../procedures/procedures.service';
import { procedureInputSchema, stepInputSchema, type ProcedureListQuery, type ProcedureValues } from '../procedures/procedures.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import {
  type Cells,
  type Current,
  type Importer,
  type Ready,
  type Row,
  type Run,
  cellsOf,
  check,
  eachRow,
  listCell,
  listOf,
  lower,
  rowsWith,
  yesNo,
} from './import-rows';

// Procedures import (decision 059): one row per step, the rows of a procedure grouped by its name; a procedure the
// organisation has (by name, in this organisation only) is updated through `updateProcedure`, claiming its version.

/** The list the add service returns with the new procedure: one row is enough, the import reads none of it. */
const ONE_ROW: ProcedureListQuery = { page: 1, pageSize: 1 };

/** The steps of a matched procedure as the export writes them: unchanged-detection reads them back. */
const stepsOf = new WeakMap<Current, Cells[]>();

const STEP_COLUMNS = (path: readonly PropertyKey[]) => {
  const [field, , part] = path.map(String);
  if (field === 'steps') return part ?? 'label';
  return field === 'name' ? 'procedure' : (field ?? null);
};

/** The rows of each procedure named by the file (lower-case name -> rows in file order). */
function groups(rows: Row[]) {
  const byName = new Map<string, Row[]>();
  for (const r of rows) {
    if (!r.cells.procedure) continue;
    const key = lower(r.cells.procedure);
    byName.set(key, [...(byName.get(key) ?? []), r]);
  }
  return byName;
}

export const PROCEDURE_IMPORTERS: Pick<Record<ImportKind, Importer>, 'procedures'> = {
  procedures: {
    // A procedure is named by its name: every row of a known procedure's group names that procedure.
    async match(tx, run, rows) {
      const names = [...groups(rows).keys()];
      const found = new Map<string, number[]>();
      for (let i = 0; i < names.length; i += 1000) {
        const slice = names.slice(i, i + 1000);
        const hits = await tx
          .select({ id: procedures.id, name: procedures.name })
          .from(procedures)
          .where(and(eq(procedures.orgId, run.orgId), inArray(sql`lower(${procedures.name})`, slice)));
        for (const h of hits) found.set(lower(h.name), [...(found.get(lower(h.name)) ?? []), h.id]);
      }
      for (const [name, group] of groups(rows)) {
        const ids = found.get(name) ?? [];
        if (ids.length > 1) {
          for (const r of group) run.problems.push({ row: r.row, column: 'procedure', message: IMPORT_MESSAGES.procedureAmbiguous });
          continue;
        }
        if (!ids.length) continue;
        const p = await getProcedure(tx, run.orgId, ids[0]);
        const current: Current = { id: p.id, version: p.version, cells: cellsOf({ procedure: p.name, description: p.description }) };
        stepsOf.set(
          current,
          p.steps.map((s) =>
            cellsOf({
              procedure: p.name,
              description: p.description,
              kind: s.kind,
              label: s.label,
              required: s.required,
              unit: s.unit,
              min: s.min,
              max: s.max,
              options: listCell(s.options),
              followUpOnFailure: s.followUpOnFailure,
              meterName: s.meterName,
            }),
          ),
        );
        for (const r of group) r.match = current;
      }
    },
    // One ready input per procedure, at its first row; a problem in any of its rows keeps the whole procedure out.
    async prepare(_tx, run, rows) {
      const ready: Ready[] = [];
      // The unchanged check hands the matched records' own cells: their steps are the record's.
      const expanded = rows.flatMap((r) => {
        const steps = r.match && r.cells === r.match.cells ? stepsOf.get(r.match) : undefined;
        if (!steps) return [r];
        return r === rows.find((o) => o.match === r.match) ? steps.map((cells) => ({ ...r, cells })) : [];
      });
      for (const group of groups(expanded).values()) {
        const first = group[0];
        const steps = group.map(({ row, cells }) => {
          const required = yesNo(run, cells.required, row, 'required');
          const followUpOnFailure = yesNo(run, cells.followUpOnFailure, row, 'followUpOnFailure');
          const body = {
            kind: lower(cells.kind ?? ''),
            label: cells.label,
            required,
            unit: cells.unit,
            min: cells.min,
            max: cells.max,
            options: listOf(cells.options),
            followUpOnFailure,
            meterName: cells.meterName,
          };
          return check(stepInputSchema, body, row, STEP_COLUMNS, run.problems);
        });
        if (steps.some((s) => !s)) continue;
        const input = check<ProcedureValues>(
          procedureInputSchema,
          { name: first.cells.procedure, description: first.cells.description, steps },
          first.row,
          STEP_COLUMNS,
          run.problems,
        );
        const bad = rowsWith(run.problems);
        if (input && !group.some((r) => bad.has(r.row))) ready.push({ row: first.row, input });
      }
      return ready;
    },
    write: (tx, run, ready) =>
      eachRow<ProcedureValues>(tx, run, ready, STEP_COLUMNS, (one, input) => addProcedure(one, run.orgId, run.actor.userId, input, ONE_ROW)),
    update: (tx: Tx, run: Run, c: Current, input: unknown) =>
      updateProcedure(tx, run.orgId, run.actor.userId, c.id, { ...(input as ProcedureValues), version: c.version }),
    columnOf: STEP_COLUMNS,
  },
};
