import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { escapeLike } from '../../server/db/like';
import type { ReadTx, Tx } from '../../server/db/client';
import { badRequest, conflict, HttpError, notFound } from '../../server/http-error';
import { totalOver, pageAndTotal } from '../../server/db/paging';
import { now } from '../../server/clock';
import { escapeHtml } from '../../server/mailer';
import { reserveIds } from '../../server/db/reserved-ids';
import { assets, organizations, workOrders, workStations } from '../../server/db/schema';
import type { AccessClaims } from '../auth/tokens';
import { hashToken } from '../auth/tokens';
import { pagination } from '../../shared/pagination';
import { assignedTo, createWorkOrder } from '../work-orders/work-orders.service';
import { addMaintenanceRequest } from '../maintenance-requests/maintenance-requests.service';
import { maintenanceRequestInputSchema } from '../maintenance-requests/maintenance-requests.schema';
import { recordActivity } from '../activity/activity.service';
import { addWorkOrderPhoto } from '../my-work/my-work.service';
import { portalCodes, portalReplies, portalRequests, portalSettings } from './request-portal.table';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { describeStatus, organizationAddress, statusTokenOf, statusUrlOf, tellRequesters, type PortalMail } from './request-portal.flow';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { notifyPortalRequest } from '../notifications/notification-events';
import {
  PORTAL_LIMITS,
  portalRequestNumber,
  URGENCY_PRIORITY,
  type PortalAcceptInput,
  type PortalFormDto,
  type PortalListQuery,
  type PortalSettingsInput,
  type PortalStatusDto,
  type PortalSubmitInput,
  type PortalTarget,
  type TargetKind,
} from './request-portal.schema';

export type { PortalMail };

const r = portalRequests;
const DAY = 86_400_000;

/** The public side's one answer for anything it cannot show: no word on whether the organisation, code or request exists. */
const NOT_FOUND = () => new HttpError(404, 'Not found');

// ---------------------------------------------------------------- settings

const DEFAULT_SETTINGS = {
  enabled: false,
  nameField: 'optional',
  emailField: 'optional',
  phoneField: 'hidden',
  notifyRequester: true,
  welcome: null,
  published: [],
} as const;

export async function getPortalSettings(tx: ReadTx, orgId: number) {
  const [row] = await tx.select().from(portalSettings).where(eq(portalSettings.orgId, orgId));
  const settings = row ?? { ...DEFAULT_SETTINGS, published: [] as { kind: TargetKind; id: number }[] };
  return {
    enabled: settings.enabled,
    nameField: settings.nameField,
    emailField: settings.emailField,
    phoneField: settings.phoneField,
    notifyRequester: settings.notifyRequester,
    welcome: settings.welcome,
    published: await targetsOf(tx, orgId, settings.published),
  };
}

export async function savePortalSettings(tx: Tx, orgId: number, input: PortalSettingsInput) {
  const published = dedupe(input.published);
  const found = await targetsOf(tx, orgId, published);
  if (found.length !== published.length) throw badRequest('An asset or work station of the list does not exist', 'published');
  const values = {
    enabled: input.enabled,
    nameField: input.nameField,
    emailField: input.emailField,
    phoneField: input.phoneField,
    notifyRequester: input.notifyRequester,
    welcome: input.welcome ?? null,
    published,
  };
  await tx
    .insert(portalSettings)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: portalSettings.orgId, set: { ...values, updatedAt: new Date() } });
  return { message: 'Portal settings saved', settings: await getPortalSettings(tx, orgId) };
}

const dedupe = (list: { kind: TargetKind; id: number }[]) => [...new Map(list.map((t) => [`${t.kind}:${t.id}`, t])).values()];

/** Names and numbers of assets and work stations, in the order given; missing ones are left out. */
async function targetsOf(tx: ReadTx, orgId: number, list: readonly { kind: TargetKind; id: number }[]): Promise<PortalTarget[]> {
  const assetIds = list.filter((t) => t.kind === 'asset').map((t) => t.id);
  const stationIds = list.filter((t) => t.kind === 'work-station').map((t) => t.id);
  const [assetRows, stationRows] = [
    assetIds.length
      ? await tx
          .select({ id: assets.id, name: assets.name, number: assets.assetCode })
          .from(assets)
          .where(and(eq(assets.orgId, orgId), inArray(assets.id, assetIds)))
      : [],
    stationIds.length
      ? await tx
          .select({ id: workStations.id, name: workStations.name, number: workStations.code })
          .from(workStations)
          .where(and(eq(workStations.orgId, orgId), inArray(workStations.id, stationIds)))
      : [],
  ];
  const byKey = new Map<string, PortalTarget>([
    ...assetRows.map((a) => [`asset:${a.id}`, { kind: 'asset' as const, ...a }] as const),
    ...stationRows.map((s) => [`work-station:${s.id}`, { kind: 'work-station' as const, ...s }] as const),
  ]);
  return list.map((t) => byKey.get(`${t.kind}:${t.id}`)).filter((t): t is PortalTarget => !!t);
}

// ---------------------------------------------------------------- codes

/** A code's token: 128 random bits, base64url (22 characters). */
const newCodeToken = () => randomBytes(16).toString('base64url');

/** The tokens of these assets' (or work stations') codes, made on first use. */
export async function ensureCodes(tx: Tx, orgId: number, kind: TargetKind, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, string>();
  await tx
    .insert(portalCodes)
    .values(unique.map((targetId) => ({ orgId, kind, targetId, token: newCodeToken() })))
    .onConflictDoNothing({ target: [portalCodes.orgId, portalCodes.kind, portalCodes.targetId] });
  const rows = await tx
    .select({ targetId: portalCodes.targetId, token: portalCodes.token })
    .from(portalCodes)
    .where(and(eq(portalCodes.orgId, orgId), eq(portalCodes.kind, kind), inArray(portalCodes.targetId, unique)));
  return new Map(rows.map((row) => [row.targetId, row.token]));
}

/** What a code names, or null (unknown token, or its asset gone). */
async function targetOfCode(tx: ReadTx, orgId: number, token: string) {
  const [code] = await tx
    .select({ kind: portalCodes.kind, targetId: portalCodes.targetId })
    .from(portalCodes)
    .where(and(eq(portalCodes.orgId, orgId), eq(portalCodes.token, token)));
  if (!code) return null;
  const [target] = await targetsOf(tx, orgId, [{ kind: code.kind, id: code.targetId }]);
  return target ?? null;
}

/** GET resolve-code/:token (signed in, the scanner and /r/<token>): what the code names, or 404. */
export async function resolveCode(tx: ReadTx, orgId: number, token: string) {
  const target = await targetOfCode(tx, orgId, token);
  if (!target) throw notFound('Code');
  return { target };
}

// ---------------------------------------------------------------- the public side

async function enabledSettings(tx: ReadTx, orgId: number) {
  const [row] = await tx.select().from(portalSettings).where(eq(portalSettings.orgId, orgId));
  if (!row?.enabled) throw NOT_FOUND();
  return row;
}

async function organizationName(tx: ReadTx, orgId: number) {
  const [org] = await tx.select({ name: organizations.organization }).from(organizations).where(eq(organizations.id, orgId));
  return org?.name ?? '';
}

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

async function repliesOf(tx: ReadTx, orgId: number, requestId: number) {
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

const dto = <T extends { id: number }>(row: T) => ({ ...row, number: portalRequestNumber(row.id) });

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
  const [row] = await tx
    .select(listColumns)
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
  if (!row) throw notFound('Request');
  const replies = await repliesOf(tx, orgId, id);
  return { request: { ...dto(row), replies } };
}

/** The stored photos of a request (the accept route copies them for a maintenance request). */
export async function requestPhotos(tx: ReadTx, orgId: number, id: number) {
  const [row] = await tx
    .select({ photos: r.photos })
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
  if (!row) throw notFound('Request');
  return row.photos;
}

/** Claims a request still waiting for triage (locks it until the caller's transaction ends), or says why not. */
async function claimReceived(tx: Tx, orgId: number, id: number) {
  const [row] = await tx
    .select()
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.id, id)))
    .for('update');
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
  const [row] = await tx
    .select({ id: r.id })
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.id, id)));
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

// ---------------------------------------------------------------- labels

/**
 * What the label PDF prints: each asset's and work station's name, number and code token (made on first use),
 * and the logo. Assets first, then work stations, each in the order given.
 */
export async function labelData(tx: Tx, orgId: number, assetIds: number[], workStationIds: number[] = []) {
  const labels: { name: string; number: string; token: string }[] = [];
  for (const [kind, ids] of [
    ['asset', assetIds],
    ['work-station', workStationIds],
  ] as const) {
    const unique = [...new Set(ids)];
    if (!unique.length) continue;
    const found = await targetsOf(
      tx,
      orgId,
      unique.map((id) => ({ kind, id })),
    );
    if (found.length !== unique.length) throw notFound(kind === 'asset' ? 'Asset' : 'Work station');
    const tokens = await ensureCodes(tx, orgId, kind, unique);
    labels.push(...found.map((t) => ({ name: t.name, number: t.number ?? `#${t.id}`, token: tokens.get(t.id)! })));
  }
  const [org] = await tx
    .select({ name: organizations.organization, logo: organizations.profilePicture })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return { organization: org?.name ?? '', logo: org?.logo ?? null, labels };
}

// ---------------------------------------------------------------- the asset a code names, for the signed-in scan

/**
 * GET asset-summary/:id (signed in; the landing of a scanned label): the asset, its open work orders and its
 * latest closed ones (a worker sees only those assigned to them, as in the work orders list), and the portal
 * requests about it still open.
 */
export async function assetSummary(tx: ReadTx, orgId: number, actor: AccessClaims, id: number) {
  const [asset] = await tx
    .select({ id: assets.id, name: assets.name, number: assets.assetCode, status: assets.status })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.id, id)));
  if (!asset) throw notFound('Asset');
  const visible = actor.role === 'worker' ? assignedTo(orgId, actor.userId) : undefined;
  const orders = await tx
    .select({
      id: workOrders.id,
      title: workOrders.title,
      status: workOrders.status,
      priority: workOrders.priority,
      dueDate: workOrders.dueDate,
      createdAt: workOrders.createdAt,
    })
    .from(workOrders)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.assetId, id), visible))
    .orderBy(desc(workOrders.id))
    .limit(50);
  const requests = await tx
    .select({ id: r.id, description: r.description, status: r.status, urgency: r.urgency, createdAt: r.createdAt })
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.targetKind, 'asset'), eq(r.targetId, id), inArray(r.status, ['received', 'accepted', 'scheduled', 'in-progress'])))
    .orderBy(desc(r.id))
    .limit(20);
  const open = orders.filter((o) => o.status === 'assigned' || o.status === 'in-progress');
  return { asset, openWork: open, history: orders.filter((o) => !open.includes(o)).slice(0, 10), requests: requests.map(dto) };
}

/** GET find-asset?number= (signed in; the scanner's typed fallback): the asset whose number (code) or barcode is this. */
export async function findAssetByNumber(tx: ReadTx, orgId: number, number: string) {
  const [asset] = await tx
    .select({ id: assets.id, name: assets.name })
    .from(assets)
    .where(
      and(
        eq(assets.orgId, orgId),
        or(
          sql`lower(${assets.assetCode}) = lower(${number})`,
          sql`lower(${assets.assetBarcode}) = lower(${number})`,
          sql`lower(${assets.serial}) = lower(${number})`,
        ),
      ),
    )
    .limit(1);
  if (!asset) throw notFound('Asset');
  return { asset };
}
