import { and, asc, count, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { notifyPortalRequest } from '../notifications/notification-events';
import { badRequest, HttpError } from '../../server/http-error';
import { now } from '../../server/clock';
import { reserveIds } from '../../server/db/reserved-ids';
import { hashToken } from '../auth/tokens';
import { portalReplies } from './request-portal.table';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { organizationAddress, statusTokenOf, statusUrlOf, type PortalMail } from './request-portal.flow';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import {
  PORTAL_LIMITS,
  portalRequestNumber,
  type PortalFormDto,
  type PortalStatusDto,
  type PortalSubmitInput,
  type PortalTarget,
  type TargetKind,
} from './request-portal.schema';
import { r, DAY, NOT_FOUND, targetsOf, targetOfCode, enabledSettings, organizationName } from './request-portal-codes.service';

/** GET form[/:token]: the form's settings and where it is for (the code's asset, or the published list). */
export async function getPortalForm(tx: ReadTx, orgId: number, token: string | undefined): Promise<PortalFormDto> {
  const settings = await enabledSettings(tx, orgId);
  const target = token ? await targetOfCode(tx, orgId, token) : null;
  if (token && !target) throw NOT_FOUND();
  return {
    organization: await organizationName(tx, orgId),
    welcome: settings.welcome,
    fields: { name: settings.nameField, email: settings.emailField, phone: settings.phoneField },
    target,
    published: token ? [] : await targetsOf(tx, orgId, settings.published),
  };
}

/**
 * Checks a submission against the organisation's portal before any photo is processed (a refused request
 * costs no image work): the portal is on, the place exists, required contact fields are there, the inbox
 * is not full. Returns what the insert needs.
 */
export async function checkSubmission(tx: ReadTx, orgId: number, input: PortalSubmitInput, held = false) {
  const settings = await enabledSettings(tx, orgId);
  let target: PortalTarget | null = null;
  if (input.code) {
    target = await targetOfCode(tx, orgId, input.code);
    if (!target) throw NOT_FOUND();
  } else if (input.where) {
    const [kind, id] = input.where.split(':') as [TargetKind, string];
    const listed = settings.published.some((p) => p.kind === kind && p.id === Number(id));
    [target] = listed ? await targetsOf(tx, orgId, [{ kind, id: Number(id) }]) : [];
    if (!target) throw badRequest('Choose where', 'where');
  } else if (settings.published.length) {
    throw badRequest('Choose where', 'where');
  }
  for (const field of ['name', 'email', 'phone'] as const) {
    const mode = settings[`${field}Field`];
    if (mode === 'required' && !input[field])
      throw badRequest(field === 'name' ? 'Name is required' : field === 'email' ? 'Email is required' : 'Phone is required', field);
  }
  // Held requests have a box of their own: a flood held for review never fills the one real requesters use.
  const [{ open }] = await tx
    .select({ open: count() })
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.status, 'received'), held ? isNotNull(r.heldAt) : isNull(r.heldAt)));
  if (open >= (held ? PORTAL_LIMITS.heldPerOrganization : PORTAL_LIMITS.openPerOrganization))
    throw new HttpError(503, 'The request box is full just now. Please try again later.');
  return { settings, target };
}

/**
 * POST submit-request: stores the request (photos already stored) and mails the requester their status link.
 * `held` (past the hourly budget or the address's share, decision 054): kept for review, with no mail (a flood
 * must not make us write to addresses others typed) and no webhook; the requester still gets the link in the answer.
 */
export async function submitPortalRequest(tx: Tx, orgId: number, input: PortalSubmitInput, photos: string[], mail: PortalMail, held = false) {
  const { settings, target } = await checkSubmission(tx, orgId, input, held);
  // The id first: the status token is derived from it (decision 060), so every later mail can carry the link.
  const id = await reserveIds(tx, orgId, r, 1);
  const token = statusTokenOf(mail.config.jwtSecret, orgId, id);
  const keep = (field: 'name' | 'email' | 'phone') => (settings[`${field}Field`] === 'hidden' ? null : (input[field] ?? null));
  const [created] = await tx
    .insert(r)
    .values({
      orgId,
      id,
      description: input.description,
      urgency: input.urgency,
      targetKind: target?.kind ?? null,
      targetId: target?.id ?? null,
      targetName: target?.name ?? null,
      language: input.language ?? 'en',
      photos,
      name: keep('name'),
      email: keep('email'),
      phone: keep('phone'),
      statusTokenHash: hashToken(token),
      heldAt: held ? now() : null,
    })
    .returning({ id: r.id, email: r.email, language: r.language });
  const org = await organizationAddress(tx, orgId);
  const statusUrl = statusUrlOf(mail.config, org.subdomain, token);
  const number = portalRequestNumber(created.id);
  if (held) return { message: 'Request received', number, statusToken: token, statusUrl };
  // The organisation's own endpoints hear of it (decision 043); the requester's contact stays in the inbox.
  await emitWebhookEvent(tx, orgId, 'request.received', {
    id: created.id,
    number,
    description: input.description,
    urgency: input.urgency,
    target: target ? { kind: target.kind, id: target.id, name: target.name } : null,
    photos: photos.length,
  });
  await notifyPortalRequest(tx, orgId, { id: created.id, number, description: input.description });
  if (created.email) {
    await mail.mailer.send(
      { to: created.email, ...mailTexts.portalReceived(mailLanguage(created.language), { organization: org.name, number, statusUrl }) },
      tx,
    );
  }
  return { message: 'Request received', number, statusToken: token, statusUrl };
}

/** The request behind a status link, or the same 404 for unknown and expired links. */
async function requestOfToken(tx: ReadTx, orgId: number, token: string) {
  const [row] = await tx
    .select()
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.statusTokenHash, hashToken(token))));
  if (!row || isExpired(row.closedAt)) throw NOT_FOUND();
  return row;
}

const expiryOf = (closedAt: Date | null) => (closedAt ? new Date(closedAt.getTime() + PORTAL_LIMITS.linkDaysAfterClose * DAY) : null);
const isExpired = (closedAt: Date | null) => {
  const expires = expiryOf(closedAt);
  return !!expires && expires.getTime() <= now().getTime();
};

export async function repliesOf(tx: ReadTx, orgId: number, requestId: number) {
  return tx
    .select({
      id: portalReplies.id,
      author: portalReplies.author,
      body: portalReplies.body,
      photos: portalReplies.photos,
      createdAt: portalReplies.createdAt,
      userId: portalReplies.userId,
    })
    .from(portalReplies)
    .where(and(eq(portalReplies.orgId, orgId), eq(portalReplies.requestId, requestId)))
    .orderBy(asc(portalReplies.id));
}

/** GET status/:token: the requester's own request, its status and the public replies. */
export async function getPortalStatus(tx: ReadTx, orgId: number, token: string): Promise<PortalStatusDto> {
  const row = await requestOfToken(tx, orgId, token);
  const replies = await repliesOf(tx, orgId, row.id);
  const target = row.targetKind && row.targetId ? { kind: row.targetKind, id: row.targetId, name: row.targetName ?? '', number: null } : null;
  return {
    number: portalRequestNumber(row.id),
    organization: await organizationName(tx, orgId),
    status: row.status,
    declineReason: row.declineReason,
    description: row.description,
    urgency: row.urgency,
    target,
    photos: row.photos,
    replies: replies.map((x) => ({ id: x.id, author: x.author, body: x.body, photos: x.photos, createdAt: x.createdAt.toISOString() })),
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    expiresAt: expiryOf(row.closedAt)?.toISOString() ?? null,
    canComment: replies.filter((x) => x.author === 'requester').length < PORTAL_LIMITS.commentsPerRequest,
  };
}

/** Checks a requester's comment before its photo is processed: the link works and the caps leave room. */
export async function checkComment(tx: ReadTx, orgId: number, token: string, withPhoto: boolean) {
  const row = await requestOfToken(tx, orgId, token);
  const replies = await repliesOf(tx, orgId, row.id);
  const own = replies.filter((x) => x.author === 'requester');
  if (own.length >= PORTAL_LIMITS.commentsPerRequest) throw new HttpError(429, 'This request has as many comments as it can take');
  if (withPhoto && own.reduce((n, x) => n + x.photos.length, 0) >= PORTAL_LIMITS.photosLater)
    throw new HttpError(413, `At most ${PORTAL_LIMITS.photosLater} more photos`);
  return row;
}

/** POST status/:token/add-comment: the requester adds a comment or a photo. */
export async function addPortalComment(tx: Tx, orgId: number, token: string, body: string | undefined, photos: string[]) {
  const row = await checkComment(tx, orgId, token, photos.length > 0);
  if (!body && !photos.length) throw badRequest('Write a comment or add a photo', 'body');
  await tx.insert(portalReplies).values({ orgId, requestId: row.id, author: 'requester', body: body ?? '', photos });
  await tx
    .update(r)
    .set({ updatedAt: new Date() })
    .where(and(eq(r.orgId, orgId), eq(r.id, row.id)));
  return { message: 'Comment added', status: await getPortalStatus(tx, orgId, token) };
}
