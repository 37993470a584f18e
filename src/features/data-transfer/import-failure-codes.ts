import type { ReadTx, Tx } from '../../server/db/client';
import { badRequest } from '../../server/http-error';
import { assetCategories } from '../../server/db/schema';
import { createFailureCode, listFailureCodes, updateFailureCode } from '../failure-codes/failure-codes.service';
import { failureCodeInputSchema, FAILURE_CODE_MESSAGES, type FailureCodeDto, type FailureCodeInput } from '../failure-codes/failure-codes.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import { type Current, type Importer, type Run, cellsOf, check, eachRow, enumCell, lower, lookup, readyRows } from './import-rows';

// Failure codes import (issue 42), written through the failure-codes service. One row a code, parents above their
// children (as the export writes them). A cause names its problem by code (LEAK), a remedy its problem and cause
// (LEAK > SEAL) or its cause alone when that is unique; the Asset Category says where the problem is. A row is the
// organisation's code at the same place (kind, parent, a problem's category) with its code, else its name.

const COLUMNS = { parentId: 'parent', assetCategoryId: 'assetCategory', kind: 'kind', code: 'code', name: 'name' };
const PARENT_KIND = { problem: null, cause: 'problem', remedy: 'cause' } as const;

type Code = Pick<FailureCodeDto, 'id' | 'kind' | 'parentId' | 'assetCategoryId' | 'code' | 'name'>;

/** The organisation's codes (and those the run writes), found by their place and their code or name. */
class Codes {
  all = new Map<number, Code>();

  add(c: Code) {
    this.all.set(c.id, c);
  }

  /** A code's problem's category (a cause's and a remedy's are their problem's). */
  categoryOf(c: Code): number | null {
    const parent = c.parentId ? this.all.get(c.parentId) : undefined;
    return parent ? this.categoryOf(parent) : c.assetCategoryId;
  }

  /** "LEAK" for a cause, "LEAK > SEAL" for a remedy: the codes from the problem down to the parent. */
  parentPath(c: Code): string {
    const parent = c.parentId ? this.all.get(c.parentId) : undefined;
    if (!parent) return '';
    const above = this.parentPath(parent);
    return above ? `${above} > ${parent.code}` : parent.code;
  }

  /** Codes of a kind under a parent (or in a category, `undefined`: any) that a segment names: by code, else by name. */
  named(kind: Code['kind'], segment: string, parentId: number | null | undefined, categoryId: number | null | undefined) {
    const here = [...this.all.values()].filter(
      (c) => c.kind === kind && (parentId === undefined || c.parentId === parentId) && (categoryId === undefined || this.categoryOf(c) === categoryId),
    );
    const byCode = here.filter((c) => lower(c.code) === lower(segment));
    return byCode.length ? byCode : here.filter((c) => lower(c.name) === lower(segment));
  }

  /** The parent a row's Parent cell names: an id, or the reason it names none. */
  parentOf(kind: Code['kind'], cell: string, categoryId: number | null | undefined): number | 'unknown' | 'ambiguous' {
    const segments = cell
      .split('>')
      .map((s) => s.trim())
      .filter(Boolean);
    const one = (found: Code[]) => (found.length === 1 ? found[0].id : found.length ? 'ambiguous' : 'unknown');
    if (kind === 'cause' && segments.length === 1) return one(this.named('problem', segments[0], null, categoryId));
    if (kind === 'remedy' && segments.length === 1) return one(this.named('cause', segments[0], undefined, categoryId));
    if (kind === 'remedy' && segments.length === 2) {
      const problem = one(this.named('problem', segments[0], null, categoryId));
      return typeof problem === 'number' ? one(this.named('cause', segments[1], problem, undefined)) : problem;
    }
    return 'unknown';
  }
}

async function codesOf(tx: ReadTx, orgId: number) {
  const codes = new Codes();
  for (const c of (await listFailureCodes(tx, orgId)).failureCodes) codes.add(c);
  return codes;
}

/** What a row writes: the checked input, and a parent that is a row above (resolved when written). */
interface CodeRow {
  input: FailureCodeInput;
  parentCell?: string;
  categoryId?: number | null;
}

/** The codes each run writes against (a row above may be the parent of the next). */
const written = new WeakMap<Run, Codes>();

async function liveCodes(tx: Tx, run: Run) {
  const codes = written.get(run) ?? (await codesOf(tx, run.orgId));
  written.set(run, codes);
  return codes;
}

async function inputOf(tx: Tx, run: Run, row: CodeRow): Promise<FailureCodeInput> {
  if (row.parentCell === undefined) return row.input;
  const parentId = (await liveCodes(tx, run)).parentOf(row.input.kind, row.parentCell, row.categoryId);
  if (parentId === 'ambiguous') throw badRequest(IMPORT_MESSAGES.failureParentAmbiguous, 'parentId');
  if (parentId === 'unknown') throw badRequest(IMPORT_MESSAGES.failureParentUnknown, 'parentId');
  return { ...row.input, parentId };
}

/** The row's category (name or code): an id, null when blank, or undefined and the row's problem. */
function categoryOf(run: Run, categories: Map<string, number>, cell: string | undefined, row: number) {
  if (!cell) return null;
  const id = categories.get(lower(cell));
  if (id === undefined) run.problems.push({ row, column: 'assetCategory', message: FAILURE_CODE_MESSAGES.categoryUnknown });
  return id;
}

export const FAILURE_CODE_IMPORTERS: Pick<Record<ImportKind, Importer>, 'failure-codes'> = {
  'failure-codes': {
    async match(tx, run, rows) {
      const codes = await codesOf(tx, run.orgId);
      const categories = await lookup(tx, assetCategories, run.orgId);
      const claimed = new Map<number, number>();
      for (const r of rows) {
        const { kind, code, name, parent, assetCategory } = r.cells;
        const k = enumCell(kind);
        if (k !== 'problem' && k !== 'cause' && k !== 'remedy') continue;
        const categoryId = assetCategory ? categories.get(lower(assetCategory)) : null;
        if (categoryId === undefined) continue;
        const parentId = k === 'problem' ? null : parent ? codes.parentOf(k, parent, assetCategory ? categoryId : undefined) : 'unknown';
        if (typeof parentId === 'string') continue;
        const here = (segment: string | undefined) => (segment ? codes.named(k, segment, parentId, k === 'problem' ? categoryId : undefined) : []);
        const byCode = here(code);
        const found = byCode.length === 1 ? byCode[0] : here(name).length === 1 ? here(name)[0] : undefined;
        if (!found) continue;
        if (claimed.has(found.id)) {
          run.problems.push({ row: r.row, column: 'code', message: IMPORT_MESSAGES.duplicateInFile(claimed.get(found.id)!) });
          continue;
        }
        claimed.set(found.id, r.row);
        // The record as its export writes it; the category as the row names it (for a cause or a remedy, only where to look).
        const cells = cellsOf({ kind: found.kind, code: found.code, name: found.name, parent: codes.parentPath(found), assetCategory });
        r.match = { id: found.id, cells } satisfies Current;
      }
    },
    async prepare(tx, run, rows) {
      const codes = await codesOf(tx, run.orgId);
      const categories = await lookup(tx, assetCategories, run.orgId);
      return readyRows(rows, ({ row, cells }) => {
        const kind = enumCell(cells.kind) as FailureCodeInput['kind'];
        const categoryId = categoryOf(run, categories, cells.assetCategory, row);
        if (kind === 'problem' && cells.parent) run.problems.push({ row, column: 'parent', message: FAILURE_CODE_MESSAGES.parentNone });
        if ((kind === 'cause' || kind === 'remedy') && !cells.parent)
          run.problems.push({ row, column: 'parent', message: FAILURE_CODE_MESSAGES.parentRequired });
        // A parent the organisation has is an id now (an unchanged row compares equal); another is a row above.
        const scope = cells.assetCategory ? categoryId : undefined;
        const found = PARENT_KIND[kind] && cells.parent ? codes.parentOf(kind, cells.parent, scope) : null;
        if (found === 'ambiguous') run.problems.push({ row, column: 'parent', message: IMPORT_MESSAGES.failureParentAmbiguous });
        const body = {
          kind,
          code: cells.code,
          name: cells.name,
          parentId: typeof found === 'number' ? found : undefined,
          assetCategoryId: kind === 'problem' ? (categoryId ?? undefined) : undefined,
        };
        const input = check<FailureCodeInput>(failureCodeInputSchema, body, row, COLUMNS, run.problems);
        if (!input || found === 'ambiguous') return undefined;
        const value: CodeRow = found === 'unknown' ? { input, parentCell: cells.parent, categoryId: scope } : { input };
        return { input: value };
      });
    },
    write: (tx, run, ready) =>
      eachRow<CodeRow>(tx, run, ready, COLUMNS, async (one, value) => {
        const input = await inputOf(one, run, value);
        const id = await createFailureCode(one, run.orgId, run.actor.userId, input);
        (await liveCodes(one, run)).add({
          id,
          kind: input.kind,
          parentId: input.parentId ?? null,
          assetCategoryId: input.assetCategoryId ?? null,
          code: input.code,
          name: input.name,
        });
        return id;
      }),
    update: async (tx, run, current, value) => {
      const { input } = value as CodeRow;
      const answer = await updateFailureCode(tx, run.orgId, run.actor.userId, current.id, {
        code: input.code,
        name: input.name,
        assetCategoryId: input.assetCategoryId,
      });
      (await liveCodes(tx, run)).add(answer.failureCode);
      return answer;
    },
    columnOf: COLUMNS,
  },
};
