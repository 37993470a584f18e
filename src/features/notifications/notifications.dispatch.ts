import { and, eq, getTableColumns, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import type { Mailer } from '../../server/mailer';
import { publicOrigin, type Config } from '../../server/env';
import { mailLanguage } from '../../server/mail-language';
import { notificationDeliveries, notifications, organizations, users, workOrderAssignees, workOrders } from '../../server/db/schema';
import { wallClockText } from '../../shared/dates';
import { peopleWhoMaySee } from '../activity/activity.service';
import { orgTimeZone } from '../organization/organization.service';
import { queuePush } from '../push/push.service';
import { displayNumber, getOrgSettings, mergePreferences, notify, quietUntil, unsubscribeToken } from './notifications.service';
import { notificationMail, sentence, type MailEvent } from './notifications.mail';
import { OVERDUE_LOOKBACK_DAYS } from './notifications.due-orgs';
import type { NotificationKind } from './notifications.schema';
import { notificationPreferences } from './notifications.table';
import { readOrgRows } from '../../server/db/org-rows';

/** What sending needs beyond the transaction: the outbox and the settings that make links (domain, port, secret). */
export interface DispatchDeps {
  mailer: Mailer;
  config: Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain' | 'jwtSecret'>;
}

const OPEN = ['assigned', 'in-progress'] as const;

/** Where each record type opens in the app. */
const PATHS: Record<string, (id: number) => string> = {
  'work-order': (id) => `/dashboard/work-orders?open=${id}`,
  'maintenance-request': (id) => `/dashboard/maintenance-request?open=${id}`,
  'purchase-order': (id) => `/dashboard/purchase-orders?open=${id}`,
  quotation: (id) => `/dashboard/quotations?open=${id}`,
  'maintenance-order': (id) => `/dashboard/maintenance-order?order=${id}`,
  part: () => `/dashboard/parts-inventory`,
  'portal-request': (id) => `/dashboard/requests?open=${id}`,
};
export const recordPath = (entityType: string, id: number) => PATHS[entityType]?.(id) ?? '/dashboard';

/**
 * The scheduled checks of one organisation (decision 074): open work orders due within the lead time, and those
 * past due (the last week), to their assignees (and, overdue, their creator). Each event once per due date.
 */
export async function checkDueWork(tx: Tx, orgId: number, at: Date) {
  const { dueSoonHours } = await getOrgSettings(tx, orgId);
  const zone = await orgTimeZone(tx, orgId);
  const soon = new Date(at.getTime() + dueSoonHours * 3_600_000);
  const since = new Date(at.getTime() - OVERDUE_LOOKBACK_DAYS * 86_400_000);
  const rows = await tx
    .select({ id: workOrders.id, title: workOrders.title, dueDate: workOrders.dueDate, createdById: workOrders.createdById })
    .from(workOrders)
    .where(and(eq(workOrders.orgId, orgId), inArray(workOrders.status, [...OPEN]), gt(workOrders.dueDate, since), lte(workOrders.dueDate, soon)));
  if (!rows.length) return 0;
  const orderIds = rows.map((r) => r.id);
  const assignees = await tx
    .select({ workOrderId: workOrderAssignees.workOrderId, userId: workOrderAssignees.userId })
    .from(workOrderAssignees)
    .where(and(eq(workOrderAssignees.orgId, orgId), inArray(workOrderAssignees.workOrderId, orderIds)));
  for (const order of rows) {
    const due = order.dueDate!;
    const overdue = due.getTime() <= at.getTime();
    const people = assignees.filter((a) => a.workOrderId === order.id).map((a) => a.userId);
    await notify(tx, orgId, {
      kind: overdue ? 'overdue' : 'due-soon',
      entityType: 'work-order',
      entityId: order.id,
      recipients: overdue && order.createdById ? [...people, order.createdById] : people,
      data: { title: order.title, number: displayNumber('work-order', order.id), dueDate: wallClockText(due, zone).slice(0, 16) },
      dedupeKey: `${overdue ? 'overdue' : 'due-soon'}:${order.id}:${due.getTime()}`,
    });
  }
  return rows.length;
}

/**
 * Sends one organisation's messages that are due at `at`: a record's coalesced events as one e-mail, the digest
 * ones of a person as one e-mail, push messages through the push channel. E-mail in the person's quiet hours
 * waits for their end; push then is dropped (the bell keeps it). An event is sent only while its kind's channel
 * is still on and the person may still see the record.
 */
export async function dispatchDue(tx: Tx, orgId: number, deps: DispatchDeps, at: Date) {
  const result = { emails: 0, pushes: 0, held: 0, skipped: 0 };
  const due = await tx
    .select()
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.orgId, orgId), isNull(notificationDeliveries.sentAt), lte(notificationDeliveries.dueAt, at)))
    .orderBy(notificationDeliveries.userId, notificationDeliveries.id)
    .for('update', { skipLocked: true });
  if (!due.length) return result;
  const zone = await orgTimeZone(tx, orgId);
  const [org] = await tx
    .select({ name: organizations.organization, subdomain: organizations.subdomain })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  const origin = publicOrigin(deps.config, org.subdomain);
  const userIds = [...new Set(due.map((d) => d.userId))];
  const people = await readOrgRows(
    tx,
    users,
    { id: users.id, email: users.email, role: users.role, language: users.language, inviteStatus: users.inviteStatus },
    orgId,
    userIds,
  );
  const stored = await tx
    .select()
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.orgId, orgId), inArray(notificationPreferences.userId, userIds)));
  const events = await readOrgRows(
    tx,
    notifications,
    getTableColumns(notifications),
    orgId,
    due.flatMap((d) => d.notificationIds),
  );
  const eventById = new Map(events.map((e) => [e.id, e]));
  const mark = (ids: number[], set: Partial<typeof notificationDeliveries.$inferInsert>) =>
    tx
      .update(notificationDeliveries)
      .set(set)
      .where(and(eq(notificationDeliveries.orgId, orgId), inArray(notificationDeliveries.id, ids)));

  for (const userId of userIds) {
    const person = people.find((p) => p.id === userId);
    const mine = due.filter((d) => d.userId === userId);
    if (!person || person.inviteStatus !== 'ACTIVE') {
      await mark(
        mine.map((d) => d.id),
        { sentAt: at, skipped: 'no such member' },
      );
      result.skipped += mine.length;
      continue;
    }
    const prefs = mergePreferences(person.role, stored.find((s) => s.userId === userId)?.preferences);
    const quiet = quietUntil(at, zone, prefs);
    const lang = mailLanguage(person.language);
    const visible = new Map<string, boolean>();
    /** A delivery's events still wanted on the channel, of records the person may still see. */
    const wanted = async (d: (typeof due)[number], channel: 'email' | 'push') => {
      const key = `${d.entityType}:${d.entityId}`;
      if (!visible.has(key)) visible.set(key, (await peopleWhoMaySee(tx, orgId, d.entityType, d.entityId, [{ id: userId, role: person.role }])).length > 0);
      if (!visible.get(key)) return [];
      return d.notificationIds.map((id) => eventById.get(id)).filter((e) => e !== undefined && prefs.kinds[e.kind][channel]) as typeof events;
    };
    const toMailEvent = (e: (typeof events)[number]): MailEvent => ({ kind: e.kind, data: e.data, link: origin + recordPath(e.entityType, e.entityId) });
    const sendMail = async (list: typeof events, digest: boolean) => {
      const kinds = [...new Set(list.map((e) => e.kind))] as NotificationKind[];
      const unsubscribe = Object.fromEntries(
        kinds.map((k) => [k, `${origin}/api/notifications/unsubscribe?token=${unsubscribeToken(deps.config.jwtSecret, orgId, userId, k)}`]),
      );
      const parts = notificationMail(lang, { organization: org.name, events: list.map(toMailEvent), digest, unsubscribe });
      await deps.mailer.send(
        {
          to: person.email,
          ...parts,
          headers: { 'List-Unsubscribe': `<${unsubscribe[kinds[0]]}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        },
        tx,
      );
      result.emails += 1;
    };

    const mails = mine.filter((d) => d.channel === 'email');
    if (mails.length && quiet) {
      // Held until the quiet hours end; joined there by whatever else comes meanwhile.
      await mark(
        mails.map((d) => d.id),
        { dueAt: quiet },
      );
      result.held += mails.length;
    } else {
      const digestEvents: typeof events = [];
      const digestIds: number[] = [];
      for (const d of mails) {
        const list = await wanted(d, 'email');
        if (d.digest) {
          digestEvents.push(...list);
          digestIds.push(d.id);
          continue;
        }
        if (list.length) await sendMail(list, false);
        else result.skipped += 1;
        await mark([d.id], list.length ? { sentAt: at } : { sentAt: at, skipped: 'not wanted or not visible' });
      }
      if (digestIds.length) {
        if (digestEvents.length) await sendMail(digestEvents, true);
        await mark(digestIds, digestEvents.length ? { sentAt: at } : { sentAt: at, skipped: 'not wanted or not visible' });
      }
    }

    for (const d of mine.filter((x) => x.channel === 'push')) {
      const list = quiet ? [] : await wanted(d, 'push');
      if (!list.length) {
        await mark([d.id], { sentAt: at, skipped: quiet ? 'quiet hours' : 'not wanted or not visible' });
        result.skipped += 1;
        continue;
      }
      const last = list[list.length - 1];
      const number = displayNumber(d.entityType, d.entityId);
      await queuePush(tx, orgId, userId, {
        title: list.length === 1 ? `${number}` : `${number} (${list.length})`,
        body: sentence(lang, last, (s) => s),
        url: recordPath(d.entityType, d.entityId),
        tag: `${d.entityType}-${d.entityId}`,
      });
      await mark([d.id], { sentAt: at });
      result.pushes += 1;
    }
  }
  return result;
}
