import { and, eq, getTableColumns } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { users, workOrders, customerVendors, workOrderShareMessages, workOrderShares } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { now } from '../../server/clock';
import { formatDateTime } from '../../shared/format';
import { newOpaqueToken, type AccessClaims } from '../auth/tokens';
import { historyOf } from '../activity/activity.service';
import { getCompany } from '../organization/organization.service';
import { closeWorkOrder } from '../work-orders/work-orders.service';
import type { shareInputSchema } from './work-order-shares.schema';
import type { z } from 'zod';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { WORK_ORDER, ShareMail, readShare, getShare, linkOf } from './work-order-share-list.service';
import { requireReference } from '../../server/db/references';
import { readOrgRow, lockOrgRow } from '../../server/db/org-rows';

const history = historyOf(WORK_ORDER);

/**
 * POST create-share: shares a work order with a contractor (a vendor of Customers & Vendors or any e-mail).
 * The token is random (32 bytes) and only its SHA-256 is kept; the contractor gets it by e-mail (outbox), and
 * the manager once in the answer (to copy it), never again.
 */
export async function createShare(tx: Tx, orgId: number, actor: AccessClaims, input: z.output<typeof shareInputSchema>, mail: ShareMail) {
  const order = await readOrgRow(tx, workOrders, { id: workOrders.id, title: workOrders.title, dueDate: workOrders.dueDate }, orgId, input.workOrderId);
  if (!order) throw badRequest('Work order not found', 'workOrderId');
  if (input.vendorId) await requireReference(tx, orgId, customerVendors, input.vendorId, 'vendorId', 'Vendor not found');
  const { token, hash: tokenHash } = newOpaqueToken();
  const language =
    input.language ??
    mailLanguage(
      (
        await tx
          .select({ language: users.language })
          .from(users)
          .where(and(eq(users.orgId, orgId), eq(users.id, actor.userId)))
      )[0]?.language,
    );
  const expiresAt = new Date(now().getTime() + input.days * 86_400_000);
  const [created] = await tx
    .insert(workOrderShares)
    .values({
      orgId,
      workOrderId: order.id,
      vendorId: input.vendorId ?? null,
      contractorName: input.contractorName,
      email: input.email,
      language,
      tokenHash,
      canComment: input.canComment,
      canLog: input.canLog,
      canComplete: input.canComplete,
      requireCode: input.requireCode,
      expiresAt,
      createdById: actor.userId,
    })
    .returning({ id: workOrderShares.id });
  await history(tx, orgId, order.id, actor.userId, 'updated', { sharedWith: { from: null, to: `${input.contractorName} <${input.email}>` } });
  const company = await getCompany(tx, orgId);
  const link = linkOf(mail.origin, token);
  // The due moment on the organisation's clock, in the mail's language (decision 064).
  const due = order.dueDate ? formatDateTime(order.dueDate, language, company.timeZone) : undefined;
  await mail.mailer.send(
    { to: input.email, ...mailTexts.share(language, { link, organization: company.organization, workOrder: order.title, days: input.days, due }) },
    tx,
  );
  await emitWebhookEvent(tx, orgId, 'work-order-share.created', () => readShare(tx, orgId, created.id));
  return { message: 'Work order shared successfully', share: await readShare(tx, orgId, created.id), link };
}

/** Locks one share of the organisation for a change; 404 when it is not theirs. */
async function lockShare(tx: Tx, orgId: number, id: number) {
  const row = await lockOrgRow(tx, workOrderShares, getTableColumns(workOrderShares), orgId, id);
  if (!row) throw notFound('Share');
  return row;
}

/** PUT revoke-share/{id}: the link stops working with the next request. */
export async function revokeShare(tx: Tx, orgId: number, actor: AccessClaims, id: number) {
  const row = await lockShare(tx, orgId, id);
  if (!row.revokedAt) {
    await tx
      .update(workOrderShares)
      .set({ revokedAt: now() })
      .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)));
    await history(tx, orgId, row.workOrderId, actor.userId, 'updated', { sharedWith: { from: row.contractorName, to: null } });
    await emitWebhookEvent(tx, orgId, 'work-order-share.revoked', () => readShare(tx, orgId, id));
  }
  return { message: 'Share revoked', share: await readShare(tx, orgId, id) };
}

/** PUT extend-share/{id}: `days` more, counted from the expiry or from now when it has passed. */
export async function extendShare(tx: Tx, orgId: number, id: number, days: number) {
  const row = await lockShare(tx, orgId, id);
  if (row.revokedAt) throw conflict('A revoked share cannot be extended');
  const from = Math.max(row.expiresAt.getTime(), now().getTime());
  await tx
    .update(workOrderShares)
    .set({ expiresAt: new Date(from + days * 86_400_000) })
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)));
  return { message: 'Share extended', share: await readShare(tx, orgId, id) };
}

/** PUT accept-share/{id}: the contractor's work done for review is accepted, and the work order is closed (its procedure's rule applies). */
export async function acceptShare(tx: Tx, orgId: number, actor: AccessClaims, id: number) {
  const row = await lockShare(tx, orgId, id);
  if (row.state !== 'done') throw conflict('Only work marked as done can be accepted');
  await closeWorkOrder(tx, orgId, actor, row.workOrderId);
  await tx
    .update(workOrderShares)
    .set({ state: 'accepted', reviewComment: null })
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)));
  await history(tx, orgId, row.workOrderId, actor.userId, 'updated', { contractorWork: { from: row.contractorName, to: 'accepted' } });
  return { message: 'Work accepted and work order closed', share: await readShare(tx, orgId, id) };
}

async function authorName(tx: ReadTx, orgId: number, userId: number) {
  const u = await readOrgRow(tx, users, { firstName: users.firstName, lastName: users.lastName, email: users.email }, orgId, userId);
  return u ? `${u.firstName} ${u.lastName}`.trim() || u.email : 'Team';
}

/** PUT send-back-share/{id}: the work is not done yet; the comment goes to the contractor's thread and mailbox. */
export async function sendBackShare(tx: Tx, orgId: number, actor: AccessClaims, id: number, comment: string, mail: ShareMail) {
  const row = await lockShare(tx, orgId, id);
  if (row.state !== 'done') throw conflict('Only work marked as done can be sent back');
  await tx
    .update(workOrderShares)
    .set({ state: 'sent-back', reviewComment: comment })
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)));
  await tx
    .insert(workOrderShareMessages)
    .values({ orgId, shareId: id, userId: actor.userId, authorName: await authorName(tx, orgId, actor.userId), body: comment });
  await history(tx, orgId, row.workOrderId, actor.userId, 'updated', { contractorWork: { from: 'done', to: 'sent back' } });
  await mail.mailer.send({ to: row.email, ...mailTexts.shareSentBack(mailLanguage(row.language), comment) }, tx);
  return { message: 'Work sent back', share: await readShare(tx, orgId, id) };
}

/** POST add-share-comment/{id}: the team answers in the contractor's thread (and by e-mail). */
export async function addTeamComment(tx: Tx, orgId: number, actor: AccessClaims, id: number, body: string, mail: ShareMail) {
  const row = await lockShare(tx, orgId, id);
  await tx.insert(workOrderShareMessages).values({ orgId, shareId: id, userId: actor.userId, authorName: await authorName(tx, orgId, actor.userId), body });
  await mail.mailer.send({ to: row.email, ...mailTexts.shareComment(mailLanguage(row.language), body) }, tx);
  return getShare(tx, orgId, id);
}
