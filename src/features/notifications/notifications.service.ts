import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { now } from '../../server/clock';
import { HttpError, notFound } from '../../server/http-error';
import {
  notificationDeliveries,
  notificationOrgSettings,
  notificationPreferences,
  notifications,
  users,
  workOrderFollowers,
  workOrders,
} from '../../server/db/schema';
import { addDays, dayInZone, wallClockText, zonedInstant } from '../../shared/dates';
import { onNoteAdded, peopleWhoMaySee } from '../activity/activity.service';
import { orgTimeZone } from '../organization/organization.service';
import { pushWorkOrderAssigned } from '../push/push.service';
import {
  DEFAULT_ORG_SETTINGS,
  KINDS_OF_ROLE,
  NOTIFICATION_KINDS,
  defaultPreferences,
  mentionHandle,
  mentionedHandles,
  type NotificationData,
  type NotificationItem,
  type NotificationKind,
  type NotificationOrgSettings,
  type NotificationPreferences,
} from './notifications.schema';
import { readOrgRow, readOrgSettings, saveOrgSettings } from '../../server/db/org-rows';

type Role = 'admin' | 'manager' | 'worker';

/** Several changes to one record within this many minutes leave as one message (decision 074). */
export const COALESCE_MINUTES = 5;
/** How many notifications the bell shows. */
const BELL_SIZE = 30;

// ---------------------------------------------------------------- preferences

/** Stored preferences over the role's defaults: a kind added later starts with its defaults. */
export function mergePreferences(role: Role, stored: Partial<NotificationPreferences> | null | undefined): NotificationPreferences {
  const defaults = defaultPreferences(role);
  if (!stored) return defaults;
  const kinds = { ...defaults.kinds };
  for (const kind of NOTIFICATION_KINDS) if (stored.kinds?.[kind]) kinds[kind] = { ...defaults.kinds[kind], ...stored.kinds[kind] };
  return { kinds, quietStart: stored.quietStart ?? null, quietEnd: stored.quietEnd ?? null };
}

export async function preferencesOf(tx: ReadTx, orgId: number, people: { id: number; role: Role }[]) {
  const ids = people.map((p) => p.id);
  const rows = ids.length
    ? await tx
        .select()
        .from(notificationPreferences)
        .where(and(eq(notificationPreferences.orgId, orgId), inArray(notificationPreferences.userId, ids)))
    : [];
  const stored = new Map(rows.map((r) => [r.userId, r.preferences]));
  return new Map(people.map((p) => [p.id, mergePreferences(p.role, stored.get(p.id))]));
}

async function member(tx: ReadTx, orgId: number, userId: number) {
  const row = await readOrgRow(tx, users, { id: users.id, role: users.role }, orgId, userId);
  if (!row) throw notFound('User');
  return row;
}

/** GET preferences: mine, defaults filled in, with the kinds my role receives. */
export async function getPreferences(tx: ReadTx, orgId: number, userId: number) {
  const me = await member(tx, orgId, userId);
  const preferences = (await preferencesOf(tx, orgId, [me])).get(me.id)!;
  return { preferences, kinds: [...KINDS_OF_ROLE[me.role]] };
}

export async function updatePreferences(tx: Tx, orgId: number, userId: number, preferences: NotificationPreferences) {
  await member(tx, orgId, userId);
  await tx
    .insert(notificationPreferences)
    .values({ orgId, userId, preferences })
    .onConflictDoUpdate({ target: [notificationPreferences.orgId, notificationPreferences.userId], set: { preferences } });
  return getPreferences(tx, orgId, userId);
}

/** Turns one kind's e-mail off (the unsubscribe link). */
export async function unsubscribeEmail(tx: Tx, orgId: number, userId: number, kind: NotificationKind) {
  const { preferences } = await getPreferences(tx, orgId, userId);
  preferences.kinds[kind] = { ...preferences.kinds[kind], email: false, digest: false };
  await updatePreferences(tx, orgId, userId, preferences);
}

// ---------------------------------------------------------------- organisation settings

export async function getOrgSettings(tx: ReadTx, orgId: number): Promise<NotificationOrgSettings> {
  const s = notificationOrgSettings;
  return readOrgSettings(tx, s, { dueSoonHours: s.dueSoonHours, digestTime: s.digestTime }, orgId, DEFAULT_ORG_SETTINGS);
}

export async function updateOrgSettings(tx: Tx, orgId: number, input: NotificationOrgSettings) {
  await saveOrgSettings(tx, notificationOrgSettings, orgId, input);
  return getOrgSettings(tx, orgId);
}

// ---------------------------------------------------------------- times of day

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The next instant, after `at`, that the organisation's clock shows `hhmm`. */
export function nextLocalTime(at: Date, zone: string, hhmm: string): Date {
  const today = zonedInstant(dayInZone(at, zone), zone, hhmm);
  return today.getTime() > at.getTime() ? today : zonedInstant(addDays(dayInZone(at, zone), 1), zone, hhmm);
}

/** When `at` falls in the quiet hours (the organisation's clock), the instant they end; else null. */
export function quietUntil(at: Date, zone: string, prefs: Pick<NotificationPreferences, 'quietStart' | 'quietEnd'>): Date | null {
  if (!prefs.quietStart || !prefs.quietEnd) return null;
  // The organisation's wall clock, not the minutes elapsed since its midnight: on a DST change day those are an
  // hour off (07:30 on the day clocks go forward is only 6 h 30 after midnight).
  const minute = minutesOf(wallClockText(at, zone).slice(11, 16));
  const start = minutesOf(prefs.quietStart);
  const end = minutesOf(prefs.quietEnd);
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  return inside ? nextLocalTime(at, zone, prefs.quietEnd) : null;
}

// ---------------------------------------------------------------- telling people

export interface NotifyEvent {
  kind: NotificationKind;
  entityType: string;
  entityId: number;
  /** The people concerned; the one who did it is left out, and so is anyone who may not see the record. */
  recipients: number[];
  actorId?: number | null;
  data: NotificationData;
  /** A scheduled check's event, written once per person (e.g. 'due-soon:<due date>'). */
  dedupeKey?: string;
}

/**
 * Writes an event for each recipient who may see the record, in the caller's transaction: the bell's row, and
 * the e-mail and push messages their preferences ask for (sent by the dispatch job, coalesced per record).
 */
export async function notify(tx: Tx, orgId: number, event: NotifyEvent) {
  const ids = [...new Set(event.recipients)].filter((id) => id !== event.actorId);
  if (!ids.length) return;
  const people = (
    await tx
      .select({ id: users.id, role: users.role, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(and(eq(users.orgId, orgId), inArray(users.id, ids), eq(users.inviteStatus, 'ACTIVE')))
  ).filter((p) => KINDS_OF_ROLE[p.role].includes(event.kind));
  const allowed = new Set(await peopleWhoMaySee(tx, orgId, event.entityType, event.entityId, people));
  const seeing = people.filter((p) => allowed.has(p.id));
  if (!seeing.length) return;
  const prefs = await preferencesOf(tx, orgId, seeing);
  const at = now();
  let digestAt: Date | undefined;
  for (const person of seeing) {
    const channels = prefs.get(person.id)!.kinds[event.kind];
    if (!channels.inApp && !channels.email && !channels.push) continue;
    const [row] = await tx
      .insert(notifications)
      .values({
        orgId,
        userId: person.id,
        kind: event.kind,
        entityType: event.entityType,
        entityId: event.entityId,
        actorId: event.actorId ?? null,
        data: event.data,
        shown: channels.inApp,
        dedupeKey: event.dedupeKey ?? null,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: notifications.id });
    if (!row) continue;
    if (channels.email) {
      if (channels.digest) {
        digestAt ??= nextLocalTime(at, await orgTimeZone(tx, orgId), (await getOrgSettings(tx, orgId)).digestTime);
        await queueDelivery(tx, orgId, person.id, 'email', event, row.id, digestAt, true);
      } else await queueDelivery(tx, orgId, person.id, 'email', event, row.id, new Date(at.getTime() + COALESCE_MINUTES * 60_000), false);
    }
    if (!channels.push) continue;
    // New work is pushed at once, the technician told now (decision 075); other kinds wait to coalesce. Quiet
    // hours drop a push (the bell keeps it), as the dispatcher does.
    if (event.kind === 'assigned' && event.entityType === 'work-order') {
      const quiet = quietUntil(at, await orgTimeZone(tx, orgId), prefs.get(person.id)!) !== null;
      if (!quiet) await pushWorkOrderAssigned(tx, orgId, event.entityId, String(event.data?.title ?? ''), [person.id]);
      // kept as the dispatcher keeps what it sent or dropped
      await tx.insert(notificationDeliveries).values({
        orgId,
        userId: person.id,
        channel: 'push',
        entityType: event.entityType,
        entityId: event.entityId,
        notificationIds: [row.id],
        dueAt: at,
        sentAt: at,
        skipped: quiet ? 'quiet hours' : null,
      });
    } else await queueDelivery(tx, orgId, person.id, 'push', event, row.id, new Date(at.getTime() + COALESCE_MINUTES * 60_000), false);
  }
}

/** Joins the record's message still waiting for this person and channel, or starts one due at `dueAt`. */
async function queueDelivery(
  tx: Tx,
  orgId: number,
  userId: number,
  channel: 'email' | 'push',
  event: Pick<NotifyEvent, 'entityType' | 'entityId'>,
  notificationId: number,
  dueAt: Date,
  digest: boolean,
) {
  const joined = await tx
    .update(notificationDeliveries)
    .set({ notificationIds: sql`array_append(${notificationDeliveries.notificationIds}, ${notificationId}::int)` })
    .where(
      and(
        eq(notificationDeliveries.orgId, orgId),
        eq(notificationDeliveries.userId, userId),
        eq(notificationDeliveries.channel, channel),
        eq(notificationDeliveries.entityType, event.entityType),
        eq(notificationDeliveries.entityId, event.entityId),
        eq(notificationDeliveries.digest, digest),
        isNull(notificationDeliveries.sentAt),
      ),
    )
    .returning({ id: notificationDeliveries.id });
  if (joined.length) return;
  await tx
    .insert(notificationDeliveries)
    .values({ orgId, userId, channel, entityType: event.entityType, entityId: event.entityId, digest, notificationIds: [notificationId], dueAt });
}

/** The organisation's managers and admins (approvals, stock alerts). */
export async function managersOf(tx: ReadTx, orgId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), inArray(users.role, ['admin', 'manager'])));
  return rows.map((r) => r.id);
}

/** A work order's assignees changed: the ones added hear of it. */
export async function notifyAssigned(tx: Tx, orgId: number, actorId: number | null, order: { id: number; title: string }, added: number[]) {
  if (!added.length) return;
  await notify(tx, orgId, {
    kind: 'assigned',
    entityType: 'work-order',
    entityId: order.id,
    recipients: added,
    actorId,
    data: { title: order.title, number: displayNumber('work-order', order.id) },
  });
}

/** A work order's status changed: who created it and who follows it hear of it. */
export async function notifyStatusChanged(tx: Tx, orgId: number, actorId: number | null, orderId: number, from: string, to: string) {
  const order = await readOrgRow(tx, workOrders, { title: workOrders.title, createdById: workOrders.createdById }, orgId, orderId);
  if (!order) return;
  const followers = await tx
    .select({ userId: workOrderFollowers.userId })
    .from(workOrderFollowers)
    .where(and(eq(workOrderFollowers.orgId, orgId), eq(workOrderFollowers.workOrderId, orderId)));
  const recipients = [...followers.map((f) => f.userId), ...(order.createdById ? [order.createdById] : [])];
  await notify(tx, orgId, {
    kind: 'status-changed',
    entityType: 'work-order',
    entityId: orderId,
    recipients,
    actorId,
    data: { title: order.title, number: displayNumber('work-order', orderId), from, to },
  });
}

/** The people a note mentions (`@JaneDoe`) hear of it, when they may see the record. */
async function notifyMentions(tx: Tx, orgId: number, note: { entityType: string; entityId: number; userId: number; note: string }) {
  const handles = new Set(mentionedHandles(note.note));
  if (!handles.size) return;
  const people = await tx.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.orgId, orgId));
  const mentioned = people.filter((p) => handles.has(mentionHandle(p).toLowerCase())).map((p) => p.id);
  const [author] = people.filter((p) => p.id === note.userId);
  await notify(tx, orgId, {
    kind: 'mention',
    entityType: note.entityType,
    entityId: note.entityId,
    recipients: mentioned,
    actorId: note.userId,
    data: {
      number: displayNumber(note.entityType, note.entityId),
      excerpt: note.note.slice(0, 200),
      actorName: author ? `${author.firstName} ${author.lastName}`.trim() : undefined,
    },
  });
}
onNoteAdded(notifyMentions);

const PREFIXES: Record<string, string> = { 'work-order': 'WO', 'maintenance-request': 'MR', 'purchase-order': 'PO', quotation: 'Q', 'maintenance-order': 'PM' };
/** "WO-0004" for numbered records, "#4" for the rest. */
export const displayNumber = (entityType: string, id: number) => (PREFIXES[entityType] ? `${PREFIXES[entityType]}-${String(id).padStart(4, '0')}` : `#${id}`);

// ---------------------------------------------------------------- the bell

const toItem = (r: typeof notifications.$inferSelect): NotificationItem => ({
  id: r.id,
  kind: r.kind,
  entityType: r.entityType,
  entityId: r.entityId,
  data: r.data ?? {},
  read: r.readAt !== null,
  createdAt: r.createdAt.toISOString(),
});

async function unreadCount(tx: ReadTx, orgId: number, userId: number) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.orgId, orgId), eq(notifications.userId, userId), eq(notifications.shown, true), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/**
 * My bell: my newest notifications and how many are unread. A record I may no longer see (a work order taken
 * from me) drops out: the rule is checked again as it is read.
 */
export async function listMyNotifications(tx: ReadTx, orgId: number, viewer: { userId: number; role: Role }, unreadOnly = false) {
  const rows = await tx
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.orgId, orgId),
        eq(notifications.userId, viewer.userId),
        eq(notifications.shown, true),
        unreadOnly ? isNull(notifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(BELL_SIZE);
  const visible: NotificationItem[] = [];
  const seen = new Map<string, boolean>();
  for (const r of rows) {
    const key = `${r.entityType}:${r.entityId}`;
    if (!seen.has(key)) seen.set(key, (await peopleWhoMaySee(tx, orgId, r.entityType, r.entityId, [{ id: viewer.userId, role: viewer.role }])).length > 0);
    if (seen.get(key)) visible.push(toItem(r));
  }
  return { notifications: visible, unread: await unreadCount(tx, orgId, viewer.userId) };
}

export async function markRead(tx: Tx, orgId: number, userId: number, ids?: number[]) {
  await tx
    .update(notifications)
    .set({ readAt: now() })
    .where(
      and(
        eq(notifications.orgId, orgId),
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids ? inArray(notifications.id, ids.length ? ids : [0]) : undefined,
      ),
    );
  return { unread: await unreadCount(tx, orgId, userId) };
}

// ---------------------------------------------------------------- following

/** 404 unless the work order exists and the person may see it. */
async function requireVisibleOrder(tx: ReadTx, orgId: number, viewer: { userId: number; role: Role }, workOrderId: number) {
  const order = await readOrgRow(tx, workOrders, { id: workOrders.id }, orgId, workOrderId);
  const visible = order && (await peopleWhoMaySee(tx, orgId, 'work-order', workOrderId, [{ id: viewer.userId, role: viewer.role }])).length > 0;
  if (!visible) throw notFound('Work order');
}

export async function isFollowing(tx: ReadTx, orgId: number, viewer: { userId: number; role: Role }, workOrderId: number) {
  await requireVisibleOrder(tx, orgId, viewer, workOrderId);
  const [row] = await tx
    .select({ userId: workOrderFollowers.userId })
    .from(workOrderFollowers)
    .where(and(eq(workOrderFollowers.orgId, orgId), eq(workOrderFollowers.workOrderId, workOrderId), eq(workOrderFollowers.userId, viewer.userId)));
  return { following: Boolean(row) };
}

export async function setFollowing(tx: Tx, orgId: number, viewer: { userId: number; role: Role }, workOrderId: number, following: boolean) {
  await requireVisibleOrder(tx, orgId, viewer, workOrderId);
  if (following) await tx.insert(workOrderFollowers).values({ orgId, workOrderId, userId: viewer.userId }).onConflictDoNothing();
  else
    await tx
      .delete(workOrderFollowers)
      .where(and(eq(workOrderFollowers.orgId, orgId), eq(workOrderFollowers.workOrderId, workOrderId), eq(workOrderFollowers.userId, viewer.userId)));
  return { following };
}

// ---------------------------------------------------------------- the mention picker

/** People a note on the record may mention: those who may see it (a mention of anyone else would reach nobody). */
export async function mentionCandidates(tx: ReadTx, orgId: number, viewer: { userId: number; role: Role }, entityType: string, entityId: number, q?: string) {
  if ((await peopleWhoMaySee(tx, orgId, entityType, entityId, [{ id: viewer.userId, role: viewer.role }])).length === 0)
    throw new HttpError(404, 'Record not found');
  const people = await tx
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, role: users.role })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.inviteStatus, 'ACTIVE'), ne(users.id, viewer.userId)))
    .orderBy(users.firstName, users.lastName, users.id);
  const needle = (q ?? '').toLowerCase();
  const matching = people.filter(
    (p) => !needle || `${p.firstName} ${p.lastName}`.toLowerCase().includes(needle) || mentionHandle(p).toLowerCase().includes(needle),
  );
  const allowed = new Set(await peopleWhoMaySee(tx, orgId, entityType, entityId, matching.slice(0, 50)));
  return {
    users: matching
      .filter((p) => allowed.has(p.id))
      .slice(0, 10)
      .map((p) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName, handle: mentionHandle(p) })),
  };
}

// ---------------------------------------------------------------- the unsubscribe link

const unsubscribeKey = (secret: string) => createHmac('sha256', secret).update('cmms notifications unsubscribe v1').digest();

/** A signed token naming the organisation, the person and the kind: the mail's one-click unsubscribe. */
export function unsubscribeToken(secret: string, orgId: number, userId: number, kind: NotificationKind) {
  const body = `${orgId}.${userId}.${kind}`;
  const mac = createHmac('sha256', unsubscribeKey(secret)).update(body).digest('base64url');
  return `${Buffer.from(body).toString('base64url')}.${mac}`;
}

/** The token's person and kind when it is valid and of this organisation; else null. */
export function readUnsubscribeToken(secret: string, orgId: number, token: string): { userId: number; kind: NotificationKind } | null {
  const [encoded, mac] = token.split('.');
  if (!encoded || !mac) return null;
  const body = Buffer.from(encoded, 'base64url').toString();
  const expected = createHmac('sha256', unsubscribeKey(secret)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [org, user, kind] = body.split('.');
  if (Number(org) !== orgId || !NOTIFICATION_KINDS.includes(kind as NotificationKind)) return null;
  return { userId: Number(user), kind: kind as NotificationKind };
}
