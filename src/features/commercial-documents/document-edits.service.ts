import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import { customerVendors, users } from '../../server/db/schema';
import { badRequest } from '../../server/http-error';
import { diffChanges, recordActivity } from '../activity/activity.service';
import { checkOwnFiles } from '../customers-vendors/customers-vendors.service';
import { discardFiles } from '../../server/uploads/storage';
import { major, type BaseRow, type DocumentKind, type DocumentValues, type ListQuery } from './document-kind.service';
import type { documentQueries } from './document-queries.service';
import type { documentPricing } from './document-pricing.service';
import type { documentStatus } from './document-status.service';
import { readOrgRow } from '../../server/db/org-rows';

/** A kind's add, update and delete, with the lines priced and the history written. */
export function documentEdits(
  k: DocumentKind,
  queries: ReturnType<typeof documentQueries>,
  pricing: ReturnType<typeof documentPricing>,
  status: ReturnType<typeof documentStatus>,
) {
  const T = k.table;
  const L = k.lines;
  const { list, get, getRow } = queries;
  const { resolveLines } = pricing;
  const { announce } = status;

  async function checkOverview(tx: Tx, orgId: number, input: DocumentValues) {
    const partyId = input[k.partyColumn] as number;
    const personId = input[k.personColumn] as number;
    const party = await readOrgRow(tx, customerVendors, { id: customerVendors.id, type: customerVendors.type }, orgId, partyId);
    if (!party) throw badRequest(`${k.partyLabel} not found`, k.partyPath);
    if (party.type !== k.partyType) throw badRequest(k.partyTypeMessage, k.partyPath);
    const person = await readOrgRow(tx, users, { id: users.id }, orgId, personId);
    if (!person) throw badRequest(`${k.personLabel} not found`, k.personPath);
    checkOwnFiles(orgId, input.attachments, 'attachments');
  }

  const overviewValues = (input: DocumentValues, before?: BaseRow) => ({
    [k.partyColumn]: input[k.partyColumn] as number,
    [k.personColumn]: input[k.personColumn] as number,
    [k.dateColumn]: input[k.dateColumn] as Date,
    expirationDate: (input.expirationDate ?? null) as Date | null,
    note: input.note ?? null,
    attachments: input.attachments ?? before?.attachments ?? [],
    ...(input.status ? { status: input.status } : {}),
  });

  async function writeLines(tx: Tx, orgId: number, id: number, rows: Record<string, unknown>[]) {
    await tx.delete(L).where(and(eq(L.orgId, orgId), eq(L[k.lineDocColumn], id)));
    if (rows.length) await tx.insert(L).values(rows.map((r) => ({ orgId, [k.lineDocColumn]: id, ...r })));
  }

  async function add(tx: Tx, orgId: number, userId: number, input: DocumentValues, query: ListQuery) {
    await checkOverview(tx, orgId, input);
    const { rows, totals } = await resolveLines(tx, orgId, input);
    const [created] = await tx
      .insert(T)
      .values({ orgId, ...overviewValues(input), ...totals })
      .returning({ id: T.id });
    await writeLines(tx, orgId, created.id, rows);
    await recordActivity(tx, orgId, { entityType: k.entityType, entityId: created.id, userId, action: 'created' });
    if (input.status) await announce(tx, orgId, created.id, undefined, input.status, userId);
    return {
      message: `${k.label} added successfully`,
      [k.singularKey]: await get(tx, orgId, created.id),
      ...(await list(tx, orgId, query)),
    };
  }

  async function update(tx: Tx, orgId: number, userId: number, id: number, input: DocumentValues, query: ListQuery) {
    // Refuses an edit made from an older copy and locks the document until this edit commits (decision 025).
    const [claimed] = await tx
      .update(T)
      .set({ updatedAt: new Date() })
      .where(and(eq(T.orgId, orgId), eq(T.id, id), sameUpdatedAt(T.updatedAt, input.updatedAt as string | undefined)))
      .returning({ id: T.id });
    if (!claimed) throw new StaleEdit(await get(tx, orgId, id));
    const before = await getRow(tx, orgId, id);
    await checkOverview(tx, orgId, input);
    const { rows, totals, digits } = await resolveLines(tx, orgId, input);
    const next = overviewValues(input, before);
    await tx
      .update(T)
      .set({ ...next, ...totals, updatedAt: new Date() })
      .where(and(eq(T.orgId, orgId), eq(T.id, id)));
    await writeLines(tx, orgId, id, rows);
    const beforeFlat: Record<string, unknown> = {
      [k.partyColumn]: before.partyId,
      [k.personColumn]: before.personId,
      [k.dateColumn]: before.date,
      expirationDate: before.expirationDate,
      note: before.note,
      attachments: before.attachments,
      status: before.status,
      total: major(before.total, digits),
    };
    const changes = diffChanges(beforeFlat, { ...next, total: major(totals.total, digits) }, Object.keys(beforeFlat));
    await recordActivity(tx, orgId, {
      entityType: k.entityType,
      entityId: id,
      userId,
      action: 'updated',
      changes: Object.keys(changes).length ? changes : null,
    });
    if (input.status) await announce(tx, orgId, id, before.status, input.status, userId);
    return {
      message: `${k.label} updated successfully`,
      [k.singularKey]: await get(tx, orgId, id),
      ...(await list(tx, orgId, query)),
    };
  }

  async function remove(tx: Tx, orgId: number, userId: number, id: number, query: ListQuery) {
    const before = await getRow(tx, orgId, id);
    await tx.delete(T).where(and(eq(T.orgId, orgId), eq(T.id, id)));
    discardFiles(
      tx,
      before.attachments.map((a) => a.url),
    );
    await recordActivity(tx, orgId, {
      entityType: k.entityType,
      entityId: id,
      userId,
      action: 'deleted',
      changes: { number: { from: k.numberOf(id), to: null } },
    });
    return { message: `${k.label} deleted successfully`, ...(await list(tx, orgId, query)) };
  }

  return { add, update, remove };
}
