import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { assetCategories, failureCodes, failureCodeSettings } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { rowsOf } from '../../server/db/rows';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { createAssetCategory } from '../master-data/asset-categories.service';
import {
  FAILURE_CODE_MESSAGES as M,
  type FailureCodeDto,
  type FailureCodeInput,
  type FailureCodeKind,
  type FailureCodeSettings,
  type FailureCodeUpdate,
} from './failure-codes.schema';
import { starterLibrary } from './starter-library';
import { notifyRepeatFailurePeople } from '../notifications/notification-events';
import { readOrgRow, readOrgSettings, saveOrgSettings } from '../../server/db/org-rows';

const history = registerActivityEntity('failure-code', failureCodes, 'Failure code');
const DEFAULT_SETTINGS: FailureCodeSettings = { requireCodes: false, repeatDays: 30 };

type Row = {
  id: number;
  kind: FailureCodeKind;
  parentId: number | null;
  assetCategoryId: number | null;
  assetCategory: string | null;
  code: string;
  name: string;
};

function selectCodes(tx: ReadTx) {
  return tx
    .select({
      id: failureCodes.id,
      kind: failureCodes.kind,
      parentId: failureCodes.parentId,
      assetCategoryId: failureCodes.assetCategoryId,
      assetCategory: assetCategories.name,
      code: failureCodes.code,
      name: failureCodes.name,
    })
    .from(failureCodes)
    .leftJoin(assetCategories, and(eq(assetCategories.orgId, failureCodes.orgId), eq(assetCategories.id, failureCodes.assetCategoryId)));
}
const toDto = (r: Row): FailureCodeDto => ({ ...r });

/**
 * GET get-failure-codes: every code of the organisation (tens to hundreds: never paged), problems by name, each
 * cause and remedy after; with `assetCategoryId`, the problems of that category and of all categories, and
 * their causes and remedies.
 */
export async function listFailureCodes(tx: ReadTx, orgId: number, query: { assetCategoryId?: number } = {}): Promise<{ failureCodes: FailureCodeDto[] }> {
  const rows: Row[] = await selectCodes(tx)
    .where(eq(failureCodes.orgId, orgId))
    .orderBy(sql`lower(${failureCodes.name})`, failureCodes.id);
  let codes = rows;
  if (query.assetCategoryId) {
    const problems = new Set(
      rows.filter((r) => r.kind === 'problem' && (r.assetCategoryId === null || r.assetCategoryId === query.assetCategoryId)).map((r) => r.id),
    );
    const causes = new Set(rows.filter((r) => r.kind === 'cause' && problems.has(r.parentId!)).map((r) => r.id));
    codes = rows.filter((r) => problems.has(r.id) || causes.has(r.id) || (r.kind === 'remedy' && causes.has(r.parentId!)));
  }
  return { failureCodes: codes.map(toDto) };
}

async function getFailureCode(tx: ReadTx, orgId: number, id: number): Promise<FailureCodeDto> {
  const [row] = await selectCodes(tx).where(and(eq(failureCodes.orgId, orgId), eq(failureCodes.id, id)));
  if (!row) throw notFound('Failure code');
  return toDto(row);
}

async function checkCategory(tx: Tx, orgId: number, id: number | null | undefined) {
  if (!id) return;
  const row = await readOrgRow(tx, assetCategories, { id: assetCategories.id }, orgId, id);
  if (!row) throw badRequest(M.categoryUnknown, 'assetCategoryId');
}

/** One name per place (a problem: per category; a cause: per problem; a remedy: per cause). */
async function uniqueName<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict(M.nameTaken, 'name');
    throw err;
  }
}

const PARENT_KIND: Record<FailureCodeKind, FailureCodeKind | null> = { problem: null, cause: 'problem', remedy: 'cause' };

export async function createFailureCode(tx: Tx, orgId: number, actorId: number | null, input: FailureCodeInput): Promise<number> {
  const parentKind = PARENT_KIND[input.kind];
  if (!parentKind && input.parentId) throw badRequest(M.parentNone, 'parentId');
  if (parentKind && !input.parentId) throw badRequest(M.parentRequired, 'parentId');
  if (input.kind !== 'problem' && input.assetCategoryId) throw badRequest(M.categoryOnProblem, 'assetCategoryId');
  if (input.parentId) {
    const parent = await readOrgRow(tx, failureCodes, { kind: failureCodes.kind }, orgId, input.parentId);
    if (!parent) throw badRequest(M.parentUnknown, 'parentId');
    if (parent.kind !== parentKind) throw badRequest(M.parentKind, 'parentId');
  }
  await checkCategory(tx, orgId, input.assetCategoryId);
  const [row] = await uniqueName(() =>
    tx
      .insert(failureCodes)
      .values({
        orgId,
        kind: input.kind,
        parentId: input.parentId ?? null,
        assetCategoryId: input.assetCategoryId ?? null,
        code: input.code,
        name: input.name,
      })
      .returning({ id: failureCodes.id }),
  );
  await history(tx, orgId, row.id, actorId, 'created');
  return row.id;
}

/** POST add-failure-code (managers): returns the code and the refreshed list. */
export async function addFailureCode(tx: Tx, orgId: number, actorId: number, input: FailureCodeInput) {
  const id = await createFailureCode(tx, orgId, actorId, input);
  return { message: 'Failure code added successfully', failureCode: await getFailureCode(tx, orgId, id), ...(await listFailureCodes(tx, orgId)) };
}

/** PUT update-failure-code/{id} (managers): code, name and a problem's category. */
export async function updateFailureCode(tx: Tx, orgId: number, actorId: number, id: number, input: FailureCodeUpdate) {
  const before = await getFailureCode(tx, orgId, id);
  if (before.kind !== 'problem' && input.assetCategoryId) throw badRequest(M.categoryOnProblem, 'assetCategoryId');
  await checkCategory(tx, orgId, input.assetCategoryId);
  const values = {
    code: input.code,
    name: input.name,
    ...(before.kind === 'problem' && input.assetCategoryId !== undefined ? { assetCategoryId: input.assetCategoryId } : {}),
  };
  await uniqueName(() =>
    tx
      .update(failureCodes)
      .set(values)
      .where(and(eq(failureCodes.orgId, orgId), eq(failureCodes.id, id))),
  );
  const changes = diffChanges(before as Record<string, unknown>, values, Object.keys(values));
  if (Object.keys(changes).length) await history(tx, orgId, id, actorId, 'updated', changes);
  return { message: 'Failure code updated successfully', failureCode: await getFailureCode(tx, orgId, id), ...(await listFailureCodes(tx, orgId)) };
}

/** DELETE delete-failure-code/{id} (managers): its causes and remedies go with it; a code work orders were closed with stays. */
export async function deleteFailureCode(tx: Tx, orgId: number, actorId: number, id: number) {
  let rows: { id: number }[];
  try {
    rows = await tx
      .delete(failureCodes)
      .where(and(eq(failureCodes.orgId, orgId), eq(failureCodes.id, id)))
      .returning({ id: failureCodes.id });
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict(M.used);
    throw err;
  }
  if (!rows.length) throw notFound('Failure code');
  await history(tx, orgId, id, actorId, 'deleted');
  return { message: 'Failure code deleted successfully', ...(await listFailureCodes(tx, orgId)) };
}

/**
 * POST import-starter-library (managers): the starter library in one language. Each group goes to the asset
 * category of its name or code (created when the organisation has none); a code already there by name is kept
 * (importing twice adds nothing).
 */
export async function importStarterLibrary(tx: Tx, orgId: number, actorId: number, language: 'en' | 'ar') {
  const categories = await tx
    .select({ id: assetCategories.id, name: assetCategories.name, code: assetCategories.code })
    .from(assetCategories)
    .where(eq(assetCategories.orgId, orgId));
  const existing = await tx
    .select({
      id: failureCodes.id,
      kind: failureCodes.kind,
      parentId: failureCodes.parentId,
      assetCategoryId: failureCodes.assetCategoryId,
      name: failureCodes.name,
    })
    .from(failureCodes)
    .where(eq(failureCodes.orgId, orgId));
  const key = (kind: string, parentId: number | null, categoryId: number | null, name: string) =>
    `${kind}|${parentId ?? 0}|${categoryId ?? 0}|${name.toLowerCase()}`;
  const known = new Map(existing.map((e) => [key(e.kind, e.parentId, e.assetCategoryId, e.name), e.id]));
  let added = 0;
  const ensure = async (kind: FailureCodeKind, parentId: number | null, assetCategoryId: number | null, code: string, name: string) => {
    const k = key(kind, parentId, assetCategoryId, name);
    const found = known.get(k);
    if (found) return found;
    const id = await createFailureCode(tx, orgId, actorId, { kind, parentId, assetCategoryId, code, name });
    known.set(k, id);
    added++;
    return id;
  };
  for (const group of starterLibrary) {
    let categoryId: number | null = null;
    if (group.category) {
      const g = group.category;
      const names = [g.en, g.ar, g.code].map((n) => n.toLowerCase());
      const match = categories.find((c) => names.includes(c.name.toLowerCase()) || names.includes(c.code.toLowerCase()));
      categoryId = match?.id ?? (await createStarterCategory(tx, orgId, actorId, g.code, g[language]));
      if (!match) categories.push({ id: categoryId, name: g[language], code: g.code });
    }
    for (const p of group.problems) {
      const problemId = await ensure('problem', null, categoryId, p.code, p[language]);
      for (const c of p.causes) {
        const causeId = await ensure('cause', problemId, null, c.code, c[language]);
        for (const r of c.remedies) await ensure('remedy', causeId, null, r.code, r[language]);
      }
    }
  }
  return { message: 'Starter library imported successfully', added, ...(await listFailureCodes(tx, orgId)) };
}

/** A category the library needs: its short code, or the code with a number when that one is taken under another name. */
async function createStarterCategory(tx: Tx, orgId: number, actorId: number, code: string, name: string) {
  for (let n = 0; ; n++) {
    const candidate = n ? `${code}${n}` : code;
    const [taken] = await tx
      .select({ id: assetCategories.id })
      .from(assetCategories)
      .where(and(eq(assetCategories.orgId, orgId), sql`lower(${assetCategories.code}) = lower(${candidate})`));
    if (!taken) return createAssetCategory(tx, orgId, actorId, { name, code: candidate });
  }
}

// ---------- settings ----------

export async function getFailureCodeSettings(tx: ReadTx, orgId: number): Promise<FailureCodeSettings> {
  const s = failureCodeSettings;
  return readOrgSettings(tx, s, { requireCodes: s.requireCodes, repeatDays: s.repeatDays }, orgId, DEFAULT_SETTINGS);
}

/** PUT update-failure-code-settings (managers). */
export async function updateFailureCodeSettings(tx: Tx, orgId: number, settings: FailureCodeSettings) {
  await saveOrgSettings(tx, failureCodeSettings, orgId, settings);
  return { message: 'Settings saved successfully', settings: await getFailureCodeSettings(tx, orgId) };
}

// ---------- closing a work order ----------

export interface FailureCodesOfOrder {
  problemCodeId?: number | null;
  causeCodeId?: number | null;
  remedyCodeId?: number | null;
}

/**
 * The codes a work order is being closed with, checked (decision 080): a chain problem > cause > remedy, the
 * problem one of the asset's category's (or of all categories). When the organisation requires codes, a
 * reactive order on an asset is refused without the three; codes it already has (closed before) count.
 * Returns the columns to write (empty: nothing changes).
 */
export async function checkFailureCodesOnClose(
  tx: Tx,
  orgId: number,
  order: { assetId: number | null; reactive: boolean; problemCodeId: number | null; causeCodeId: number | null; remedyCodeId: number | null },
  given: FailureCodesOfOrder,
): Promise<FailureCodesOfOrder> {
  const codes = {
    problemCodeId: given.problemCodeId ?? null,
    causeCodeId: given.causeCodeId ?? null,
    remedyCodeId: given.remedyCodeId ?? null,
  };
  const any = codes.problemCodeId || codes.causeCodeId || codes.remedyCodeId;
  if (!any) {
    const kept = order.problemCodeId && order.causeCodeId && order.remedyCodeId;
    if (order.reactive && order.assetId && !kept && (await getFailureCodeSettings(tx, orgId)).requireCodes) throw badRequest(M.required, 'problemCodeId');
    return {};
  }
  const ids = [codes.problemCodeId, codes.causeCodeId, codes.remedyCodeId].filter((v): v is number => !!v);
  const rows = await tx
    .select({ id: failureCodes.id, kind: failureCodes.kind, parent_id: failureCodes.parentId, asset_category_id: failureCodes.assetCategoryId })
    .from(failureCodes)
    .where(and(eq(failureCodes.orgId, orgId), inArray(failureCodes.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const problem = codes.problemCodeId ? byId.get(codes.problemCodeId) : undefined;
  const cause = codes.causeCodeId ? byId.get(codes.causeCodeId) : undefined;
  const remedy = codes.remedyCodeId ? byId.get(codes.remedyCodeId) : undefined;
  if (!problem || problem.kind !== 'problem') throw badRequest(M.problemUnknown, 'problemCodeId');
  if (problem.asset_category_id !== null) {
    const category = order.assetId
      ? rowsOf<{ c: number }>(await tx.execute(sql`select asset_category_id as c from assets where org_id = ${orgId}::int and id = ${order.assetId}::int`))[0]
          ?.c
      : undefined;
    if (category !== problem.asset_category_id) throw badRequest(M.problemUnknown, 'problemCodeId');
  }
  if (codes.causeCodeId && (!cause || cause.kind !== 'cause' || cause.parent_id !== problem.id)) throw badRequest(M.causeUnknown, 'causeCodeId');
  if (codes.remedyCodeId && (!remedy || remedy.kind !== 'remedy' || !cause || remedy.parent_id !== cause.id)) throw badRequest(M.remedyUnknown, 'remedyCodeId');
  if (order.reactive && order.assetId && (!cause || !remedy) && (await getFailureCodeSettings(tx, orgId)).requireCodes)
    throw badRequest(M.required, cause ? 'remedyCodeId' : 'causeCodeId');
  return codes;
}

/**
 * A repeat failure (decision 080): another work order of the same asset closed with the same problem, created
 * within the organisation's window before this one; both reactive (a plan's order is no failure, as in the
 * Pareto). The earlier order and the problem's name, or null.
 */
export async function findRepeatFailure(tx: ReadTx, orgId: number, workOrderId: number) {
  const { repeatDays } = await getFailureCodeSettings(tx, orgId);
  if (!repeatDays) return null;
  const [row] = rowsOf<{ previous_id: number; problem: string; asset: string; asset_id: number; problem_id: number }>(
    await tx.execute(sql`select p.id as previous_id, fc.name as problem, a.name as asset, w.asset_id, w.problem_code_id as problem_id
      from work_orders w
      join work_orders p on p.org_id = w.org_id and p.asset_id = w.asset_id and p.problem_code_id = w.problem_code_id and p.id <> w.id
        and p.created_at <= w.created_at and p.created_at > w.created_at - make_interval(days => ${repeatDays}::int)
        and not exists (select 1 from pm_occurrences po where po.org_id = p.org_id and po.work_order_id = p.id)
      join failure_codes fc on fc.org_id = w.org_id and fc.id = w.problem_code_id
      join assets a on a.org_id = w.org_id and a.id = w.asset_id
      where w.org_id = ${orgId}::int and w.id = ${workOrderId}::int and w.problem_code_id is not null
        and not exists (select 1 from pm_occurrences wo where wo.org_id = w.org_id and wo.work_order_id = w.id)
      order by p.created_at desc, p.id desc limit 1`),
  );
  return row
    ? {
        previousWorkOrderId: row.previous_id,
        problemCodeId: row.problem_id,
        problem: row.problem,
        assetId: row.asset_id,
        asset: row.asset,
        withinDays: repeatDays,
      }
    : null;
}
export type RepeatFailure = NonNullable<Awaited<ReturnType<typeof findRepeatFailure>>>;

/**
 * A repeat failure is told: one line of the work order's history (a system note), and a per-person notification
 * (kind `repeat-failure`, decision 074's channels) to the people on the order and the managers who may see it.
 */
export async function notifyRepeatFailure(tx: Tx, orgId: number, workOrderId: number, repeat: RepeatFailure, actorId: number | null = null) {
  const previous = `WO-${String(repeat.previousWorkOrderId).padStart(4, '0')}`;
  await notifyRepeatFailurePeople(tx, orgId, workOrderId, { ...repeat, previous }, actorId);
  await recordActivity(tx, orgId, {
    entityType: 'work-order',
    entityId: workOrderId,
    userId: null,
    actorName: 'CMMS',
    action: 'note',
    note: `Repeat failure: ${repeat.asset} failed again with "${repeat.problem}" within ${repeat.withinDays} days (after ${previous})`,
  });
}
