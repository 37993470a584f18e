import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, ReadTx, Tx } from '../../server/db/client';
import { clearRateLimit, hitRateLimit } from '../../server/rate-limit';
import {
  assets,
  users,
  workOrderAssignees,
  workOrderProcedures,
  workOrderProcedureSteps,
  workOrders,
  customerVendors,
  workOrderShareMessages,
  workOrderShares,
  workOrderLabors,
  workOrderParts,
} from '../../server/db/schema';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../server/http-error';
import type { Mailer } from '../../server/mailer';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { now } from '../../server/clock';
import { escapeLike } from '../../server/db/like';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { pagination } from '../../shared/pagination';
import { toMinor } from '../../shared/money';
import { formatDateTime } from '../../shared/format';
import { hashToken, newOpaqueToken, type AccessClaims } from '../auth/tokens';
import { recordActivity } from '../activity/activity.service';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../activity/activity.schema';
import { checkCurrencyDecimals, getCompany, moneySettings } from '../organization/organization.service';
import { addExternalLabor, addExternalPart, closeWorkOrder, deleteExternalLine, laborCostMinor, listExternalLines } from '../work-orders/work-orders.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { answerStepAsContractor, checkStepTakesImage, setStepImageAsContractor, type IssuedStepRow } from '../procedures/procedures.service';
import { IMAGE_KINDS, progressOf } from '../procedures/procedures.schema';
import type {
  ContractorLaborDto,
  ContractorPartDto,
  ContractorStepDto,
  ShareDto,
  ShareGateDto,
  ShareListQuery,
  ShareMessageDto,
  SharedWorkOrderDto,
  ShareState,
  shareInputSchema,
  contractorLaborSchema,
  contractorPartSchema,
} from './work-order-shares.schema';
import type { z } from 'zod';
import { emitWebhookEvent } from '../webhooks/webhooks.service';

const WORK_ORDER = 'work-order';
const NOT_FOUND = 'Shared work order not found';
/** The one answer for a token that is unknown, altered, expired, revoked or of another organisation. */
const gone = () => new HttpError(404, NOT_FOUND);
const CODE_MINUTES = 10;
/**
 * Per share, whatever the address (issue 45): code mails (one a minute, five an hour) and wrong codes (five an
 * hour), counted in the rate limits table; a new code never gives the tries back.
 */
export const CODE_MAIL_LIMITS = [
  { max: 1, windowSeconds: 60 },
  { max: 5, windowSeconds: 3600 },
];
export const CODE_TRY_LIMIT = { max: 5, windowSeconds: 3600 };

const sameHash = (a: string | null, b: string) => !!a && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Where the mails' links point and the organisation's name in them. */
export interface ShareMail {
  mailer: Mailer;
  origin: string;
}

type ShareRow = typeof workOrderShares.$inferSelect;

// ---- The organisation's side ----

const externalCostOf = sql<number>`(
  coalesce((select sum(${laborCostMinor(workOrderLabors.startDate, workOrderLabors.endDate, workOrderLabors.externalRateMinor)})
    from ${workOrderLabors} where ${workOrderLabors.orgId} = ${workOrderShares.orgId} and ${workOrderLabors.shareId} = ${workOrderShares.id}), 0)
  + coalesce((select sum(${workOrderParts.externalUnitPriceMinor}::bigint * ${workOrderParts.quantity})
    from ${workOrderParts} where ${workOrderParts.orgId} = ${workOrderShares.orgId} and ${workOrderParts.shareId} = ${workOrderShares.id}), 0))`.mapWith(
  Number,
);

const shareColumns = {
  share: workOrderShares,
  workOrderTitle: workOrders.title,
  externalCostMinor: externalCostOf,
};

/** A share's state as the list shows it: expired or revoked once the link no longer works. */
function statusOf(r: Pick<ShareRow, 'state' | 'revokedAt' | 'expiresAt'>, at = now()): ShareDto['status'] {
  if (r.revokedAt) return 'revoked';
  if (r.state !== 'accepted' && r.expiresAt.getTime() <= at.getTime()) return 'expired';
  return r.state;
}

function toDto(r: { share: ShareRow; workOrderTitle: string; externalCostMinor: number }): ShareDto {
  const s = r.share;
  return {
    id: s.id,
    workOrderId: s.workOrderId,
    workOrderTitle: r.workOrderTitle,
    vendorId: s.vendorId,
    contractorName: s.contractorName,
    email: s.email,
    canComment: s.canComment,
    canLog: s.canLog,
    canComplete: s.canComplete,
    requireCode: s.requireCode,
    state: s.state,
    status: statusOf(s),
    reviewComment: s.reviewComment,
    expiresAt: s.expiresAt.toISOString(),
    revokedAt: iso(s.revokedAt),
    lastActivityAt: iso(s.lastActivityAt),
    createdAt: s.createdAt.toISOString(),
    externalCostMinor: Number(r.externalCostMinor ?? 0),
  };
}

function stateFilter(states: ShareListQuery['state']): SQL | undefined {
  if (!states?.length) return undefined;
  const at = now();
  const parts: SQL[] = [];
  const live = and(isNull(workOrderShares.revokedAt), sql`${workOrderShares.expiresAt} > ${at}`);
  const plain = states.filter((s): s is ShareState => s !== 'expired' && s !== 'revoked');
  if (plain.length) parts.push(and(live, inArray(workOrderShares.state, plain))!);
  if (states.includes('revoked')) parts.push(sql`${workOrderShares.revokedAt} is not null`);
  if (states.includes('expired')) parts.push(sql`${workOrderShares.revokedAt} is null and ${workOrderShares.expiresAt} <= ${at}`);
  return or(...parts);
}

/** GET list-shares: every share of the organisation, newest first; search by contractor, e-mail or work order title. */
export async function listShares(tx: ReadTx, orgId: number, query: ShareListQuery) {
  const term = query.search ? `%${escapeLike(query.search)}%` : undefined;
  const where = and(
    eq(workOrderShares.orgId, orgId),
    query.workOrderId ? eq(workOrderShares.workOrderId, query.workOrderId) : undefined,
    term ? or(ilike(workOrderShares.contractorName, term), ilike(workOrderShares.email, term), ilike(workOrders.title, term)) : undefined,
    stateFilter(query.state),
  );
  const { rows, total } = await pageAndTotal({ limit: query.pageSize, offset: (query.page - 1) * query.pageSize }, (v) =>
    tx
      .select({ ...shareColumns, total: totalOver() })
      .from(workOrderShares)
      .innerJoin(workOrders, and(eq(workOrders.orgId, workOrderShares.orgId), eq(workOrders.id, workOrderShares.workOrderId)))
      .where(where)
      .orderBy(desc(workOrderShares.createdAt), desc(workOrderShares.id))
      .limit(v.limit)
      .offset(v.offset),
  );
  return { shares: rows.map(toDto), pagination: pagination(total, query.page, query.pageSize) };
}

async function readShare(tx: ReadTx, orgId: number, id: number): Promise<ShareDto> {
  const [row] = await tx
    .select(shareColumns)
    .from(workOrderShares)
    .innerJoin(workOrders, and(eq(workOrders.orgId, workOrderShares.orgId), eq(workOrders.id, workOrderShares.workOrderId)))
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)));
  if (!row) throw notFound('Share');
  return toDto(row);
}

async function readMessages(tx: ReadTx, orgId: number, shareId: number, sign: (url: string) => string): Promise<ShareMessageDto[]> {
  const m = workOrderShareMessages;
  const rows = await tx
    .select()
    .from(m)
    .where(and(eq(m.orgId, orgId), eq(m.shareId, shareId)))
    .orderBy(m.createdAt, m.id)
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    author: r.authorName,
    fromContractor: r.userId === null,
    body: r.body,
    fileUrl: r.fileUrl ? sign(r.fileUrl) : null,
    fileName: r.fileName,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** GET get-share/{id}: a share and its thread (the team's view; upload URLs are signed by the app for members). */
export async function getShare(tx: ReadTx, orgId: number, id: number) {
  const share = await readShare(tx, orgId, id);
  return { share, messages: await readMessages(tx, orgId, id, (url) => url) };
}

const linkOf = (origin: string, token: string) => `${origin}/shared-work-order?token=${encodeURIComponent(token)}`;

/**
 * POST create-share: shares a work order with a contractor (a vendor of Customers & Vendors or any e-mail).
 * The token is random (32 bytes) and only its SHA-256 is kept; the contractor gets it by e-mail (outbox), and
 * the manager once in the answer (to copy it), never again.
 */
export async function createShare(tx: Tx, orgId: number, actor: AccessClaims, input: z.output<typeof shareInputSchema>, mail: ShareMail) {
  const [order] = await tx
    .select({ id: workOrders.id, title: workOrders.title, dueDate: workOrders.dueDate })
    .from(workOrders)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, input.workOrderId)));
  if (!order) throw badRequest('Work order not found', 'workOrderId');
  if (input.vendorId) {
    const [vendor] = await tx
      .select({ id: customerVendors.id })
      .from(customerVendors)
      .where(and(eq(customerVendors.orgId, orgId), eq(customerVendors.id, input.vendorId)));
    if (!vendor) throw badRequest('Vendor not found', 'vendorId');
  }
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
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: order.id,
    userId: actor.userId,
    action: 'updated',
    changes: { sharedWith: { from: null, to: `${input.contractorName} <${input.email}>` } },
  });
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
  const [row] = await tx
    .select()
    .from(workOrderShares)
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)))
    .for('update');
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
    await recordActivity(tx, orgId, {
      entityType: WORK_ORDER,
      entityId: row.workOrderId,
      userId: actor.userId,
      action: 'updated',
      changes: { sharedWith: { from: row.contractorName, to: null } },
    });
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
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: row.workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { contractorWork: { from: row.contractorName, to: 'accepted' } },
  });
  return { message: 'Work accepted and work order closed', share: await readShare(tx, orgId, id) };
}

async function authorName(tx: ReadTx, orgId: number, userId: number) {
  const [u] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)));
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
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: row.workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { contractorWork: { from: 'done', to: 'sent back' } },
  });
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

// ---- The contractor's side (by token) ----

/** A share found by its link, checked: live (neither expired nor revoked), of this organisation. */
export type LiveShare = ShareRow;

/**
 * The share of a token on this organisation's host, or the same 404 for a token that is unknown, altered,
 * expired, revoked or another organisation's (its hash is looked up inside this organisation only).
 */
export async function findShare(tx: ReadTx, orgId: number, token: string): Promise<LiveShare> {
  const [row] = await tx
    .select()
    .from(workOrderShares)
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.tokenHash, hashToken(token))));
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now().getTime()) throw gone();
  return row;
}

/** True when the browser's key proves the e-mail was confirmed (or no code is asked). */
const confirmed = (share: LiveShare, key: string | undefined) => !share.requireCode || (!!key && sameHash(share.accessHash, hashToken(key)));

/** A share the caller may act on: live, confirmed, not yet accepted, and allowing `right`. */
async function shareFor(tx: ReadTx, orgId: number, token: string, key: string | undefined, right?: 'canComment' | 'canLog' | 'canComplete') {
  const share = await findShare(tx, orgId, token);
  if (!confirmed(share, key)) throw forbidden('Confirm your e-mail address first');
  if (right && !share[right]) throw forbidden('This share does not allow it');
  if (share.state === 'accepted') throw conflict('This work was accepted: the work order is closed');
  return share;
}

/** The manager and the assignees: the bell has the history line; this is their e-mail, by their settings. */
async function notifyTeam(tx: Tx, orgId: number, share: LiveShare, what: string, mailer: Mailer) {
  const assignees = tx
    .select({ id: workOrderAssignees.userId })
    .from(workOrderAssignees)
    .where(and(eq(workOrderAssignees.orgId, orgId), eq(workOrderAssignees.workOrderId, share.workOrderId)));
  const people = await tx
    .select({ email: users.email, settings: users.notificationSettings, language: users.language })
    .from(users)
    .where(
      and(
        eq(users.orgId, orgId),
        eq(users.inviteStatus, 'ACTIVE'),
        or(inArray(users.id, assignees), share.createdById ? eq(users.id, share.createdById) : undefined),
      ),
    );
  const [order] = await tx
    .select({ title: workOrders.title })
    .from(workOrders)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, share.workOrderId)));
  for (const p of people) {
    const wants = { ...DEFAULT_NOTIFICATION_SETTINGS, ...(p.settings ?? {}) }.maintenance;
    if (!wants) continue;
    // In the recipient's own language (decision 065).
    await mailer.send(
      {
        to: p.email,
        ...mailTexts.contractorUpdate(mailLanguage(p.language), {
          contractor: share.contractorName,
          what,
          workOrder: workOrderDisplayId(share.workOrderId),
          title: order?.title ?? null,
        }),
      },
      tx,
    );
  }
}

/** The contractor did something: last activity, and a waiting or sent-back share is in progress (or `state`). */
async function markActive(tx: Tx, orgId: number, share: LiveShare, state?: ShareState, what = 'updated the work') {
  const next = state ?? (share.state === 'waiting' || share.state === 'sent-back' ? 'in-progress' : share.state);
  await tx
    .update(workOrderShares)
    .set({ lastActivityAt: now(), state: next })
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, share.id)));
  // Every change the contractor makes passes here: the one place that tells the webhooks.
  await emitWebhookEvent(tx, orgId, 'work-order-share.contractor-updated', async () => ({ ...(await readShare(tx, orgId, share.id)), change: what }));
}

/** As `markActive`, and the team hears of it by e-mail. */
async function touch(tx: Tx, orgId: number, share: LiveShare, what: string, mailer: Mailer, state?: ShareState) {
  await markActive(tx, orgId, share, state, what);
  await notifyTeam(tx, orgId, share, what, mailer);
}

/** GET shared-work-order: what the contractor's page shows (or, before the code, that a code is needed). */
export async function getSharedWorkOrder(
  tx: ReadTx,
  orgId: number,
  token: string,
  key: string | undefined,
  sign: (url: string) => string,
): Promise<SharedWorkOrderDto | ShareGateDto> {
  const share = await findShare(tx, orgId, token);
  if (!confirmed(share, key)) return { codeRequired: true, emailHint: maskEmail(share.email) };
  const [order] = await tx
    .select({
      id: workOrders.id,
      title: workOrders.title,
      instructions: workOrders.instructions,
      status: workOrders.status,
      priority: workOrders.priority,
      dueDate: workOrders.dueDate,
      onHold: workOrders.onHold,
      holdReason: workOrders.holdReason,
      holdNote: workOrders.holdNote,
      assetName: assets.name,
      assetCode: assets.assetCode,
    })
    .from(workOrders)
    .leftJoin(assets, and(eq(assets.orgId, workOrders.orgId), eq(assets.id, workOrders.assetId)))
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, share.workOrderId)));
  if (!order) throw gone();
  const money = await moneySettings(tx, orgId);
  const company = await getCompany(tx, orgId);
  const [head] = await tx
    .select({ name: workOrderProcedures.name })
    .from(workOrderProcedures)
    .where(and(eq(workOrderProcedures.orgId, orgId), eq(workOrderProcedures.workOrderId, order.id)));
  const s = workOrderProcedureSteps;
  const steps = head
    ? await tx
        .select({
          id: s.id,
          position: s.position,
          kind: s.kind,
          label: s.label,
          required: s.required,
          unit: s.unit,
          min: s.min,
          max: s.max,
          options: s.options,
          value: s.value,
          flagged: s.flagged,
          answeredAt: s.answeredAt,
        })
        .from(s)
        .where(and(eq(s.orgId, orgId), eq(s.workOrderId, order.id)))
        .orderBy(s.position)
    : [];
  const lines = await listExternalLines(tx, orgId, order.id, share.id);
  return {
    organization: company.organization,
    currency: money.currency,
    digits: money.digits,
    contractorName: share.contractorName,
    permissions: { canComment: share.canComment, canLog: share.canLog, canComplete: share.canComplete },
    state: share.state,
    reviewComment: share.reviewComment,
    expiresAt: share.expiresAt.toISOString(),
    workOrder: {
      code: workOrderDisplayId(order.id),
      title: order.title,
      instructions: order.instructions,
      status: order.status,
      priority: order.priority,
      dueDate: iso(order.dueDate),
      asset: order.assetName ? { name: order.assetName, code: order.assetCode } : null,
      onHold: order.onHold,
      holdReason: order.holdReason,
      holdNote: order.holdNote,
    },
    procedure: head ? contractorProcedure(head.name, steps, sign) : null,
    messages: await readMessages(tx, orgId, share.id, sign),
    labors: lines.labors.map(
      (l): ContractorLaborDto => ({
        id: l.id,
        startDate: l.startDate,
        endDate: l.endDate,
        minutes: Math.round((Date.parse(l.endDate) - Date.parse(l.startDate)) / 60_000),
        hourlyRateMinor: l.external!.rateMinor ?? 0,
        costMinor: l.external!.costMinor ?? 0,
      }),
    ),
    parts: lines.parts.map(
      (p): ContractorPartDto => ({
        id: p.id,
        name: p.external!.name,
        quantity: p.quantity,
        unitPriceMinor: p.external!.rateMinor ?? 0,
        costMinor: p.external!.costMinor ?? 0,
      }),
    ),
  };
}

/**
 * The work order's procedure as the contractor fills it: each step's kind, its limits and options, its answer
 * (a photo or signature as a signed URL, as the thread's files) and the progress. No meter, follow-up or person.
 */
function contractorProcedure(name: string, rows: ContractorStepRow[], sign: (url: string) => string): NonNullable<SharedWorkOrderDto['procedure']> {
  const steps = rows.map((r) => contractorStep(r, sign));
  return { name, steps, progress: progressOf(steps) };
}

type ContractorStepRow = Pick<
  IssuedStepRow,
  'id' | 'position' | 'kind' | 'label' | 'required' | 'unit' | 'min' | 'max' | 'options' | 'value' | 'flagged' | 'answeredAt'
>;

/** One step as the contractor sees it (also the `current` of a stale answer's 409). */
function contractorStep(r: ContractorStepRow, sign: (url: string) => string): ContractorStepDto {
  return {
    id: r.id,
    position: r.position,
    kind: r.kind,
    label: r.label,
    required: r.required,
    unit: r.unit,
    min: r.min,
    max: r.max,
    options: r.options ?? [],
    meterName: null,
    value: IMAGE_KINDS.includes(r.kind) && typeof r.value === 'string' ? sign(r.value) : (r.value ?? null),
    flagged: r.flagged,
    answeredAt: iso(r.answeredAt),
  };
}

function maskEmail(email: string) {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}${'•'.repeat(Math.max(1, local.length - 1))}@${domain}`;
}

/** The live share of a link, for the per-share limits counted before the code's scope (404 as any other). */
export async function liveShareId(tx: ReadTx, orgId: number, token: string) {
  return (await findShare(tx, orgId, token)).id;
}

const waitText = (seconds: number) => (seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);
const tooMany = (message: string, seconds: number) => Object.assign(new HttpError(429, message), { retryAfter: seconds });

/** Counts a code mail of the share against its limits; 429 past one (nothing is sent). */
export async function countCodeMail(db: Db, orgId: number, shareId: number) {
  for (const [i, limit] of CODE_MAIL_LIMITS.entries()) {
    const hit = await hitRateLimit(db, `shareCodeMail:${i}:${orgId}:${shareId}`, limit.windowSeconds);
    if (hit.hits > limit.max) throw tooMany(`Please wait ${waitText(hit.retryAfter)} before asking for another code`, hit.retryAfter);
  }
}

/** Counts a try of the share's code before it is checked (concurrent tries count too); 429 past the limit. */
export async function countCodeTry(db: Db, orgId: number, shareId: number) {
  const hit = await hitRateLimit(db, codeTryKey(orgId, shareId), CODE_TRY_LIMIT.windowSeconds);
  if (hit.hits > CODE_TRY_LIMIT.max) throw tooMany(`Too many wrong codes. Please try again in ${waitText(hit.retryAfter)}`, hit.retryAfter);
}

/** The right code: the share's tries start again. */
export const clearCodeTries = (db: Db, orgId: number, shareId: number) => clearRateLimit(db, codeTryKey(orgId, shareId));
const codeTryKey = (orgId: number, shareId: number) => `shareCodeTry:${orgId}:${shareId}`;

/** POST send-share-code: a new 6-digit code to the share's address (10 minutes; the tries are the share's, CODE_TRY_LIMIT). */
export async function sendShareCode(tx: Tx, orgId: number, token: string, mailer: Mailer) {
  const share = await findShare(tx, orgId, token);
  if (!share.requireCode) return { message: 'No code is needed' };
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await tx
    .update(workOrderShares)
    .set({ codeHash: hashToken(`${share.id}:${code}`), codeExpiresAt: new Date(now().getTime() + CODE_MINUTES * 60_000) })
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, share.id)));
  await mailer.send({ to: share.email, ...mailTexts.shareCode(mailLanguage(share.language), code, CODE_MINUTES) }, tx);
  return { message: 'Code sent', emailHint: maskEmail(share.email) };
}

/** POST confirm-share-code: the right code gives this browser a key (kept by the page) that opens the share. */
export async function confirmShareCode(tx: Tx, orgId: number, token: string, code: string) {
  const share = await findShare(tx, orgId, token);
  if (!share.requireCode) throw badRequest('No code is needed');
  const where = and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, share.id));
  // The tries are counted per share before this (countCodeTry), so a new code never resets them.
  const live = share.codeHash && share.codeExpiresAt && share.codeExpiresAt.getTime() > now().getTime();
  if (!live || !sameHash(share.codeHash, hashToken(`${share.id}:${code}`))) return { ok: false as const };
  const { token: key, hash: accessHash } = newOpaqueToken();
  await tx.update(workOrderShares).set({ accessHash, codeHash: null, codeExpiresAt: null }).where(where);
  return { ok: true as const, key };
}

/** POST add-shared-comment: the contractor's comment, in the thread and in the work order's notes. */
export async function addContractorComment(tx: Tx, orgId: number, token: string, key: string | undefined, body: string, mailer: Mailer) {
  const share = await shareFor(tx, orgId, token, key, 'canComment');
  await tx.insert(workOrderShareMessages).values({ orgId, shareId: share.id, userId: null, authorName: share.contractorName, body });
  await recordActivity(tx, orgId, { entityType: WORK_ORDER, entityId: share.workOrderId, actorName: share.contractorName, action: 'note', note: body });
  await touch(tx, orgId, share, 'commented', mailer);
  return { message: 'Comment added' };
}

/** Checks, before any upload is read, that the share may add files. */
export async function checkContractorUpload(tx: ReadTx, orgId: number, token: string, key: string | undefined) {
  await shareFor(tx, orgId, token, key, 'canComment');
}

/** POST upload-shared-files: files the contractor added (already checked and stored), in the thread and the history. */
export async function addContractorFiles(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  files: { url: string; name: string }[],
  mailer: Mailer,
) {
  const share = await shareFor(tx, orgId, token, key, 'canComment');
  await tx
    .insert(workOrderShareMessages)
    .values(files.map((f) => ({ orgId, shareId: share.id, userId: null, authorName: share.contractorName, fileUrl: f.url, fileName: f.name })));
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: share.workOrderId,
    actorName: share.contractorName,
    action: 'attachment',
    changes: { files: { from: null, to: files.map((f) => f.name).join(', ') } },
  });
  await touch(tx, orgId, share, 'added files', mailer);
  return { message: 'Files uploaded' };
}

/** POST add-shared-labor: the contractor's time at their own rate (counted in the work order's cost, external). */
export async function addContractorLabor(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  input: z.output<typeof contractorLaborSchema>,
  mailer: Mailer,
) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  const money = await moneySettings(tx, orgId);
  checkCurrencyDecimals(input.hourlyRate, money, 'hourlyRate');
  const { digits } = money;
  await addExternalLabor(
    tx,
    orgId,
    share.workOrderId,
    { shareId: share.id, name: share.contractorName, since: share.createdAt },
    { startTime: input.startTime, endTime: input.endTime, rateMinor: toMinor(input.hourlyRate, digits) },
  );
  await touch(tx, orgId, share, 'logged time', mailer);
  return { message: 'Time logged' };
}

/** POST add-shared-part: a part the contractor used, at their own unit price. */
export async function addContractorPart(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  input: z.output<typeof contractorPartSchema>,
  mailer: Mailer,
) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  const money = await moneySettings(tx, orgId);
  checkCurrencyDecimals(input.unitPrice, money, 'unitPrice');
  const { digits } = money;
  await addExternalPart(
    tx,
    orgId,
    share.workOrderId,
    { shareId: share.id, name: share.contractorName },
    { name: input.name, quantity: input.quantity, unitPriceMinor: toMinor(input.unitPrice, digits) },
  );
  await touch(tx, orgId, share, 'reported a part', mailer);
  return { message: 'Part added' };
}

/** POST mark-shared-done: the contractor's work is done, for the manager to accept or send back. */
export async function markContractorDone(tx: Tx, orgId: number, token: string, key: string | undefined, comment: string | undefined, mailer: Mailer) {
  const share = await shareFor(tx, orgId, token, key, 'canComplete');
  if (share.state === 'done') return { message: 'Already marked as done' };
  if (comment) await tx.insert(workOrderShareMessages).values({ orgId, shareId: share.id, userId: null, authorName: share.contractorName, body: comment });
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: share.workOrderId,
    actorName: share.contractorName,
    action: 'updated',
    changes: { contractorWork: { from: share.state, to: 'done for review' } },
    ...(comment ? { note: comment } : {}),
  });
  await touch(tx, orgId, share, 'marked the work as done for review', mailer, 'done');
  return { message: 'Marked as done' };
}

/** POST answer-shared-step: the contractor fills a step of the work order's procedure (a right of `canLog`: reporting the work); the history line reaches the bell. */
export async function answerContractorStep(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  input: { stepId: number; value: unknown; answeredAt?: string | null },
  sign: (url: string) => string,
) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await answerStepAsContractor(tx, orgId, share.workOrderId, share.contractorName, input, (step) => contractorStep(step, sign));
  await markActive(tx, orgId, share);
  return { message: 'Answer saved' };
}

/** Before an image is read: the share may fill the procedure, and the step is a photo or signature step of its work order. */
export async function checkContractorStepImage(tx: ReadTx, orgId: number, token: string, key: string | undefined, stepId: number) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await checkStepTakesImage(tx, orgId, share.workOrderId, stepId);
}

/**
 * POST add-shared-step-image/{stepId}: the stored image (photo, drawn signature) answers the step, under the
 * contractor's name; made from the step's `answeredAt` as the page showed it (answered since: 409 with the step now).
 */
export async function setContractorStepImage(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  stepId: number,
  url: string,
  answeredAt: string | null | undefined,
  sign: (url: string) => string,
) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await setStepImageAsContractor(tx, orgId, share.workOrderId, share.contractorName, stepId, url, answeredAt, (step) => contractorStep(step, sign));
  await markActive(tx, orgId, share);
  return { message: 'Image saved' };
}

/**
 * DELETE delete-shared-labor/{id} and delete-shared-part/{id}: the contractor removes a line they reported (only
 * their share's own, while the link works and the work is not accepted; any other id is a 404).
 */
export async function deleteContractorLine(tx: Tx, orgId: number, token: string, key: string | undefined, kind: 'labor' | 'part', id: number) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await deleteExternalLine(tx, orgId, share.workOrderId, { shareId: share.id, name: share.contractorName }, kind, id);
  await markActive(tx, orgId, share);
  return { message: kind === 'labor' ? 'Time deleted' : 'Part deleted' };
}
