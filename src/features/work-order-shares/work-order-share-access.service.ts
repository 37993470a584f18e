import { randomInt } from 'node:crypto';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db, ReadTx, Tx } from '../../server/db/client';
import { clearRateLimit, hitRateLimit } from '../../server/rate-limit';
import { assets, users, workOrderAssignees, workOrderProcedures, workOrderProcedureSteps, workOrders, workOrderShares } from '../../server/db/schema';
import { badRequest, conflict, forbidden, HttpError } from '../../server/http-error';
import type { Mailer } from '../../server/mailer';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { now } from '../../server/clock';
import { hashToken, newOpaqueToken } from '../auth/tokens';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../activity/activity.schema';
import { getCompany, moneySettings } from '../organization/organization.service';
import { listExternalLines } from '../work-orders/work-orders.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { stepColumns, type IssuedStepRow } from '../procedures/procedures.service';
import { IMAGE_KINDS, progressOf } from '../procedures/procedures.schema';
import type { ContractorLaborDto, ContractorPartDto, ContractorStepDto, ShareGateDto, SharedWorkOrderDto, ShareState } from './work-order-shares.schema';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { gone, CODE_MINUTES, CODE_MAIL_LIMITS, CODE_TRY_LIMIT, sameHash, iso, ShareRow, readShare, readMessages } from './work-order-share-list.service';
import { pick } from '../../shared/pick';
import { readOrgRow } from '../../server/db/org-rows';

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
export async function shareFor(tx: ReadTx, orgId: number, token: string, key: string | undefined, right?: 'canComment' | 'canLog' | 'canComplete') {
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
  const order = await readOrgRow(tx, workOrders, { title: workOrders.title }, orgId, share.workOrderId);
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
export async function markActive(tx: Tx, orgId: number, share: LiveShare, state?: ShareState, what = 'updated the work') {
  const next = state ?? (share.state === 'waiting' || share.state === 'sent-back' ? 'in-progress' : share.state);
  await tx
    .update(workOrderShares)
    .set({ lastActivityAt: now(), state: next })
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, share.id)));
  // Every change the contractor makes passes here: the one place that tells the webhooks.
  await emitWebhookEvent(tx, orgId, 'work-order-share.contractor-updated', async () => ({ ...(await readShare(tx, orgId, share.id)), change: what }));
}

/** As `markActive`, and the team hears of it by e-mail. */
export async function touch(tx: Tx, orgId: number, share: LiveShare, what: string, mailer: Mailer, state?: ShareState) {
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
      ...pick(workOrders, 'id', 'title', 'instructions', 'status', 'priority', 'dueDate', 'onHold', 'holdReason', 'holdNote'),
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
        .select({ id: s.id, ...stepColumns(s), value: s.value, flagged: s.flagged, answeredAt: s.answeredAt })
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
      ...pick(order, 'title', 'instructions', 'status', 'priority'),
      dueDate: iso(order.dueDate),
      asset: order.assetName ? { name: order.assetName, code: order.assetCode } : null,
      ...pick(order, 'onHold', 'holdReason', 'holdNote'),
    },
    procedure: head ? contractorProcedure(head.name, steps, sign) : null,
    messages: await readMessages(tx, orgId, share.id, sign),
    labors: lines.labors.map(
      (l): ContractorLaborDto => ({
        ...pick(l, 'id', 'startDate', 'endDate'),
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
export function contractorStep(r: ContractorStepRow, sign: (url: string) => string): ContractorStepDto {
  return {
    ...pick(r, 'id', 'position', 'kind', 'label', 'required', 'unit', 'min', 'max'),
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
