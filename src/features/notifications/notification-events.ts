import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { now } from '../../server/clock';
import { notificationDeliveries, notifications, portalRequests, users, workOrderAssignees, workOrderFollowers, workOrders } from '../../server/db/schema';
import { registerActivityEntity } from '../activity/activity.service';
import { orgTimeZone } from '../organization/organization.service';
import { COALESCE_MINUTES, displayNumber, getOrgSettings, managersOf, nextLocalTime, notify, preferencesOf } from './notifications.service';
import { KINDS_OF_ROLE, type NotificationData } from './notifications.schema';
import { readOrgRow } from '../../server/db/org-rows';
import { chunksOf } from '../../server/db/chunks';

// A portal request is a record people are told of (decision 074): managers and admins see the inbox, workers never.
registerActivityEntity('portal-request', portalRequests, 'Portal request', () => sql`false`);

/**
 * A request filed through the public portal waits for the managers, as a staff-created one does: kind
 * `request-approval`, no actor (the requester is not a member). A held one (a flood, decision 054) tells nobody.
 */
export async function notifyPortalRequest(tx: Tx, orgId: number, request: { id: number; number: string; description: string }) {
  await notify(tx, orgId, {
    kind: 'request-approval',
    entityType: 'portal-request',
    entityId: request.id,
    recipients: await managersOf(tx, orgId),
    data: { title: request.description.slice(0, 120), number: request.number },
  });
}

/**
 * A repeat failure (decision 080) reaches, per person (kind `repeat-failure`), the people on the order (its
 * assignees, its creator, its followers) and the managers; `notify` keeps only those who may see the order and
 * leaves out the one who closed it.
 */
export async function notifyRepeatFailurePeople(
  tx: Tx,
  orgId: number,
  workOrderId: number,
  repeat: { asset: string; problem: string; previous: string; withinDays: number },
  actorId: number | null,
) {
  const order = await readOrgRow(tx, workOrders, { title: workOrders.title, createdById: workOrders.createdById }, orgId, workOrderId);
  if (!order) return;
  const onIt = await tx
    .select({ userId: workOrderAssignees.userId })
    .from(workOrderAssignees)
    .where(and(eq(workOrderAssignees.orgId, orgId), eq(workOrderAssignees.workOrderId, workOrderId)))
    .union(
      tx
        .select({ userId: workOrderFollowers.userId })
        .from(workOrderFollowers)
        .where(and(eq(workOrderFollowers.orgId, orgId), eq(workOrderFollowers.workOrderId, workOrderId))),
    );
  await notify(tx, orgId, {
    kind: 'repeat-failure',
    entityType: 'work-order',
    entityId: workOrderId,
    recipients: [...onIt.map((r) => r.userId), ...(order.createdById ? [order.createdById] : []), ...(await managersOf(tx, orgId))],
    actorId,
    data: {
      title: order.title,
      number: displayNumber('work-order', workOrderId),
      asset: repeat.asset,
      problem: repeat.problem,
      previous: repeat.previous,
      withinDays: repeat.withinDays,
    },
  });
}

/** A work order the PM generator made: its direct assignees, and the plan's team (whose members it is assigned to). */
export interface GeneratedOrder {
  id: number;
  title: string;
  assignees: number[];
  team: { name: string; members: number[] } | null;
}

/**
 * The PM generator's new work reaches its assignees (kind `assigned`), in a fixed number of statements whatever
 * the number of orders (the generator makes hundreds at once): the people, their preferences, one insert of the
 * bell rows and one of the messages. Each recipient is an assignee of the order (the team's members are assigned
 * by the generator), so each may see it; the dispatcher checks again as a message leaves. A member there through
 * the plan's team is told so ("assigned to your team Boilers"). Push leaves on the job's next run (not at once: a
 * night's batch should not buzz as it is made; quiet hours drop it there), e-mail after the coalescing window.
 */
export async function notifyGeneratedWork(tx: Tx, orgId: number, orders: GeneratedOrder[]) {
  const wanted = orders.flatMap((o) => {
    const direct = new Set(o.assignees);
    const all = [...new Set([...o.assignees, ...(o.team?.members ?? [])])];
    return all.map((userId) => ({ order: o, userId, team: direct.has(userId) ? undefined : o.team?.name }));
  });
  if (!wanted.length) return;
  const people = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.orgId, orgId), inArray(users.id, [...new Set(wanted.map((w) => w.userId))]), eq(users.inviteStatus, 'ACTIVE')));
  const receiving = people.filter((p) => KINDS_OF_ROLE[p.role].includes('assigned'));
  const prefs = await preferencesOf(tx, orgId, receiving);
  const at = now();
  const rows = wanted.filter((w) => {
    const c = prefs.get(w.userId)?.kinds.assigned;
    return c && (c.inApp || c.email || c.push);
  });
  if (!rows.length) return;
  const data = (w: (typeof rows)[number]): NotificationData => ({
    title: w.order.title,
    number: displayNumber('work-order', w.order.id),
    ...(w.team ? { team: w.team } : {}),
  });
  // Chunks keep each statement well under PostgreSQL's 65,535 parameters.
  const ids: number[] = [];
  for (const chunk of chunksOf(rows, 1000)) {
    const made = await tx
      .insert(notifications)
      .values(
        chunk.map((w) => ({
          orgId,
          userId: w.userId,
          kind: 'assigned' as const,
          entityType: 'work-order',
          entityId: w.order.id,
          data: data(w),
          shown: prefs.get(w.userId)!.kinds.assigned.inApp,
          createdAt: at,
        })),
      )
      .returning({ id: notifications.id });
    // PostgreSQL returns a multi-row VALUES insert's rows in the order given.
    ids.push(...made.map((m) => m.id));
  }
  const later = new Date(at.getTime() + COALESCE_MINUTES * 60_000);
  let digestAt: Date | undefined;
  if (rows.some((w) => prefs.get(w.userId)!.kinds.assigned.email && prefs.get(w.userId)!.kinds.assigned.digest))
    digestAt = nextLocalTime(at, await orgTimeZone(tx, orgId), (await getOrgSettings(tx, orgId)).digestTime);
  const messages = rows.flatMap((w, i) => {
    const c = prefs.get(w.userId)!.kinds.assigned;
    const base = { orgId, userId: w.userId, entityType: 'work-order', entityId: w.order.id, notificationIds: [ids[i]] };
    return [
      ...(c.email ? [{ ...base, channel: 'email' as const, digest: c.digest, dueAt: c.digest ? digestAt! : later }] : []),
      ...(c.push ? [{ ...base, channel: 'push' as const, digest: false, dueAt: at }] : []),
    ];
  });
  for (const chunk of chunksOf(messages, 1000)) await tx.insert(notificationDeliveries).values(chunk);
}
