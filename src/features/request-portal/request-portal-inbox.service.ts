import { and, count, desc, eq, ilike, inArray, isNull, ne, or, sql, getTableColumns } from 'drizzle-orm';
import { escapeLike } from '../../server/db/like';
import type { ReadTx, Tx } from '../../server/db/client';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { totalOver, pageAndTotal } from '../../server/db/paging';
import { now } from '../../server/clock';
import { escapeHtml } from '../../server/mailer';
import type { AccessClaims } from '../auth/tokens';
import { pagination } from '../../shared/pagination';
import { createWorkOrder } from '../work-orders/work-orders.service';
import { addMaintenanceRequest } from '../maintenance-requests/maintenance-requests.service';
import { maintenanceRequestInputSchema } from '../maintenance-requests/maintenance-requests.schema';
import { recordActivity } from '../activity/activity.service';
import { addWorkOrderPhoto } from '../my-work/my-work.service';
import { portalReplies } from './request-portal.table';
import { describeStatus, tellRequesters, type PortalMail } from './request-portal.flow';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { portalRequestNumber, URGENCY_PRIORITY, type PortalAcceptInput, type PortalListQuery } from './request-portal.schema';
import { r, targetsOf } from './request-portal-codes.service';
import { repliesOf } from './request-portal-submit.service';
import { readOrgRow, lockOrgRow } from '../../server/db/org-rows';

// ---------------------------------------------------------------- the inbox

const listColumns = {
  id: r.id,
  description: r.description,
  urgency: r.urgency,
  targetKind: r.targetKind,
  targetId: r.targetId,
  targetName: r.targetName,
  photos: r.photos,
  name: r.name,
  email: r.email,
  phone: r.phone,
  status: r.status,
  declineReason: r.declineReason,
  workOrderId: r.workOrderId,
  maintenanceRequestId: r.maintenanceRequestId,
  mergedIntoId: r.mergedIntoId,
  closedAt: r.closedAt,
  heldAt: r.heldAt,
  createdAt: r.createdAt,
};

export const dto = <T extends { id: number }>(row: T) => ({ ...row, number: portalRequestNumber(row.id) });

/** GET list-requests: new (received) first, then the newest; a page and its total in one statement. */
export async function listPortalRequests(tx: ReadTx, orgId: number, query: PortalListQuery) {
  const where = and(
    eq(r.orgId, orgId),
    query.status === 'open' ? inArray(r.status, ['received', 'accepted', 'scheduled', 'in-progress']) : query.status ? eq(r.status, query.status) : undefined,
  );
  const { rows, total } = await pageAndTotal({ limit: query.pageSize, offset: (query.page - 1) * query.pageSize }, ({ limit, offset }) =>
    tx
      .select({ ...listColumns, total: totalOver() })
      .from(r)
      .where(where)
      // New first, those held for review after them (decision 054).
      .orderBy(desc(sql`(${r.status} = 'received')`), sql`${r.heldAt} is not null`, desc(r.id))
      .limit(limit)
      .offset(offset),
  );
  return { requests: rows.map(({ total: _t, ...row }) => dto(row)), pagination: pagination(total, query.page, query.pageSize) };
}

/**
 * GET get-requests-options: requests another can be merged into (not merged themselves), newest first, found by
 * their number ("PR-0004", "4"), description, requester or what they are about.
 */
export async function portalRequestOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string; excludeId?: number }) {
  const text = query.name ? `%${escapeLike(query.name)}%` : undefined;
  const number = query.name ? Number(query.name.replace(/^pr-?0*/i, '')) : NaN;
  const rows = await tx
    .select({ id: r.id, description: r.description, targetName: r.targetName, name: r.name })
    .from(r)
    .where(
      and(
        eq(r.orgId, orgId),
        isNull(r.mergedIntoId),
        query.excludeId ? ne(r.id, query.excludeId) : undefined,
        text
          ? or(
              ilike(r.description, text),
              ilike(r.name, text),
              ilike(r.email, text),
              ilike(r.targetName, text),
              Number.isSafeInteger(number) && number > 0 ? eq(r.id, number) : undefined,
            )
          : undefined,
      ),
    )
    .orderBy(desc(r.id))
    .limit(query.pageSize);
  const short = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);
  return rows.map((row) => ({ value: row.id, label: [portalRequestNumber(row.id), row.targetName, short(row.description)].filter(Boolean).join(' · ') }));
}

/** GET new-requests-count: the side menu's and the bell's figure (held ones are not news: the inbox lists them). */
export async function countNewPortalRequests(tx: ReadTx, orgId: number) {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.status, 'received'), isNull(r.heldAt)));
  return { count: n };
}

export async function getPortalRequest(tx: ReadTx, orgId: number, id: number) {
  const row = await readOrgRow(tx, r, listColumns, orgId, id);
  if (!row) throw notFound('Request');
  const replies = await repliesOf(tx, orgId, id);
  return { request: { ...dto(row), replies } };
}

/** The stored photos of a request (the accept route copies them for a maintenance request). */
export async function requestPhotos(tx: ReadTx, orgId: number, id: number) {
  const row = await readOrgRow(tx, r, { photos: r.photos }, orgId, id);
  if (!row) throw notFound('Request');
  return row.photos;
}

/** Claims a request still waiting for triage (locks it until the caller's transaction ends), or says why not. */
async function claimReceived(tx: Tx, orgId: number, id: number) {
  const row = await lockOrgRow(tx, r, getTableColumns(r), orgId, id);
  if (!row) throw notFound('Request');
  if (row.status !== 'received' || row.mergedIntoId) throw conflict('This request has already been triaged');
  return row;
}

/** Tells requesters by mail (the request's own mailer, when the organisation lets it). */
const tell = (
  tx: Tx,
  orgId: number,
  ids: number[],
  mail: PortalMail,
  what: Parameters<typeof tellRequesters>[3],
  subject?: Parameters<typeof tellRequesters>[5],
) => tellRequesters(tx, orgId, ids, what, mail, subject);

/** Statuses of the request's duplicates follow it (merged requests carry its links). */
async function setStatus(tx: Tx, orgId: number, id: number, values: Partial<typeof r.$inferInsert>) {
  const changed = await tx
    .update(r)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(r.orgId, orgId), or(eq(r.id, id), eq(r.mergedIntoId, id))))
    .returning({ id: r.id });
  return changed.map((c) => c.id);
}

/**
 * POST accept-request/:id (managers): makes a work order or a maintenance request of it, carrying the text,
 * the asset, the urgency and the contact over. `photoCopies`, copies of the request's photo files made by the
 * caller, become a maintenance request's images or a work order's photos; the request keeps its own.
 */
export async function acceptPortalRequest(
  tx: Tx,
  orgId: number,
  actor: AccessClaims,
  id: number,
  input: PortalAcceptInput,
  mail: PortalMail,
  photoCopies: string[] = [],
) {
  const row = await claimReceived(tx, orgId, id);
  const number = portalRequestNumber(id);
  const contact = [row.name, row.email, row.phone].filter(Boolean).join(', ');
  const assetId = row.targetKind === 'asset' ? row.targetId : null;
  const assetExists = assetId ? (await targetsOf(tx, orgId, [{ kind: 'asset', id: assetId }])).length > 0 : false;
  let link: { workOrderId?: number; maintenanceRequestId?: number };
  if (input.into === 'work-order') {
    const lines = [
      `<p>${escapeHtml(row.description)}</p>`,
      row.targetKind === 'work-station' && row.targetName ? `<p>Where: ${escapeHtml(row.targetName)}</p>` : '',
      `<p>From request portal: ${number}${contact ? ` (${escapeHtml(contact)})` : ''}; urgency ${row.urgency}${photoCopies.length ? `; ${photoCopies.length} photo(s) in this work order's photos` : ''}.</p>`,
    ];
    const workOrderId = await createWorkOrder(tx, orgId, actor, {
      title: input.title,
      priority: input.priority,
      instructions: lines.join(''),
      assetId: assetExists ? assetId! : undefined,
      assignees: input.assignees,
    } as Parameters<typeof createWorkOrder>[3]);
    // Copies of the photos (made by the caller) as the order's photos: whoever may see the order sees them (my-work's service).
    for (const url of photoCopies) await addWorkOrderPhoto(tx, orgId, actor, workOrderId, url);
    link = { workOrderId };
  } else {
    if (!assetExists) throw badRequest('A maintenance request needs an asset: accept this one into a work order', 'into');
    const parsed = maintenanceRequestInputSchema.safeParse({
      title: input.title,
      problemDescription: `${row.description}\n\nFrom request portal: ${number}${contact ? ` (${contact})` : ''}`.slice(0, 5000),
      maintenanceType: 'corrective',
      requester: 'employee',
      priority: input.priority,
      assignedTo: input.assignees?.[0] ?? actor.userId,
      dateOfRequest: row.createdAt.toISOString(),
      assetId,
      failureReason: row.description.slice(0, 2000),
      urgencyLevel: URGENCY_PRIORITY[row.urgency],
      riskLevel: 'medium',
      // Copies of the photos' files (made by the caller): the request's own stay with it, whatever becomes of the maintenance request.
      images: photoCopies.map((url, i) => ({ url, name: `${number}-photo-${i + 1}.webp` })),
    });
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request', 'into');
    const made = await addMaintenanceRequest(tx, orgId, actor, parsed.data, { page: 1, pageSize: 10 } as never);
    link = { maintenanceRequestId: made.maintenanceRequest.id };
  }
  const ids = await setStatus(tx, orgId, id, { status: 'accepted', ...link });
  await recordActivity(
    tx,
    orgId,
    link.workOrderId
      ? { entityType: 'work-order', entityId: link.workOrderId, userId: actor.userId, action: 'updated', note: `Made from request portal ${number}` }
      : {
          entityType: 'maintenance-request',
          entityId: link.maintenanceRequestId!,
          userId: actor.userId,
          action: 'updated',
          note: `Made from request portal ${number}`,
        },
  );
  await tell(tx, orgId, ids, mail, describeStatus);
  return { message: 'Request accepted', ...link, ...(await getPortalRequest(tx, orgId, id)) };
}

/** POST decline-request/:id (managers): closes it with a reason the requester is told. */
export async function declinePortalRequest(tx: Tx, orgId: number, id: number, reason: string, mail: PortalMail) {
  await claimReceived(tx, orgId, id);
  const ids = await setStatus(tx, orgId, id, { status: 'declined', declineReason: reason, closedAt: now() });
  await tell(tx, orgId, ids, mail, describeStatus);
  return { message: 'Request declined', ...(await getPortalRequest(tx, orgId, id)) };
}

/** POST merge-request/:id (managers): the request duplicates `intoId`; it follows that request's status from now on. */
export async function mergePortalRequest(tx: Tx, orgId: number, id: number, intoId: number, mail: PortalMail) {
  if (id === intoId) throw badRequest('A request cannot be merged into itself', 'intoId');
  await claimReceived(tx, orgId, id);
  const [target] = await tx
    .select()
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.id, intoId)));
  if (!target) throw badRequest('Choose the request to merge into', 'intoId');
  if (target.mergedIntoId) throw badRequest('That request is itself merged into another', 'intoId');
  // Its own duplicates move along with it.
  await tx
    .update(r)
    .set({ mergedIntoId: intoId })
    .where(and(eq(r.orgId, orgId), eq(r.mergedIntoId, id)));
  await tx
    .update(r)
    .set({
      mergedIntoId: intoId,
      status: target.status,
      declineReason: target.declineReason,
      workOrderId: target.workOrderId,
      maintenanceRequestId: target.maintenanceRequestId,
      closedAt: target.closedAt,
      updatedAt: new Date(),
    })
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
  await tx.insert(portalReplies).values({
    orgId,
    requestId: id,
    author: 'team',
    body: `This problem was already reported (${portalRequestNumber(intoId)}); your request follows that one.`,
  });
  await tell(tx, orgId, [id], mail, describeStatus);
  return { message: 'Request merged', ...(await getPortalRequest(tx, orgId, id)) };
}

/** POST reply-request/:id (managers): a public reply the requester sees on their page (and by e-mail). */
export async function replyPortalRequest(tx: Tx, orgId: number, actor: AccessClaims, id: number, body: string, mail: PortalMail) {
  const row = await readOrgRow(tx, r, { id: r.id }, orgId, id);
  if (!row) throw notFound('Request');
  await tx.insert(portalReplies).values({ orgId, requestId: id, author: 'team', userId: actor.userId, body });
  await tell(
    tx,
    orgId,
    [id],
    mail,
    (to) => mailTexts.portalReply(mailLanguage(to.language), body),
    ({ number, language }) => mailTexts.portalReplySubject(mailLanguage(language), number),
  );
  return { message: 'Reply sent', ...(await getPortalRequest(tx, orgId, id)) };
}
