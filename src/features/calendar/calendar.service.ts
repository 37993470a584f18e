import { and, asc, eq, gte, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ReadTx } from '../../server/db/client';
import { param, preparedRead } from '../../server/db/prepared';
import { assets, maintenanceOrders, maintenanceRequests, teamMembers, workOrderAssignees, workOrders } from '../../server/db/schema';
import type { AccessClaims } from '../auth/tokens';
import { assignedTo } from '../work-orders/work-orders.service';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { orderDisplayId } from '../maintenance-orders/maintenance-orders.schema';
import { listPlannedOccurrences } from '../pm-plans/pm-plans.service';
import { orgTimeZone } from '../organization/organization.service';
import { addDays, dayInZone, dayToDate, zonedInstant } from '../../shared/dates';
import { subtreeIds } from '../locations/location-tree';
import { CALENDAR_ENTRY_LIMIT, type CalendarAnswer, type CalendarEntry, type CalendarQuery } from './calendar.schema';
import { pick } from '../../shared/pick';

const isManager = (actor: AccessClaims) => actor.role === 'admin' || actor.role === 'manager';
const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** How an order's entry starts: its kind, its id, the key that sets it apart from every other entry, its display id. */
const orderEntry = (kind: 'work-order' | 'maintenance-order', id: number, displayId: string) => ({ kind, id, key: `${kind}:${id}`, displayId });

/** The day a work order sits on: its due date, or its start when it has none (indexed, work-orders.table.ts). */
export const workOrderCalendarDate = sql<Date>`coalesce(${workOrders.dueDate}, ${workOrders.startDate})`;
/** The day a maintenance order sits on: its due date, or its schedule date (indexed, maintenance-orders.table.ts). */
export const maintenanceOrderCalendarDate = sql<Date>`coalesce(${maintenanceOrders.dueDate}, ${maintenanceOrders.scheduleDate})`;

const OPEN_WORK_ORDER = new Set(['assigned', 'in-progress']);
const OPEN_MAINTENANCE_ORDER = new Set(['new', 'in-progress']);
const startOfUtcDay = (t: Date) => Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());

/**
 * The organisation's days a query covers (decision 064): `from` and `to` sent as days ('YYYY-MM-DD', UTC
 * midnight once parsed) are those days; an instant is the day it falls on in the organisation's zone.
 */
interface Days {
  zone: string;
  /** First day, inclusive, and last day, exclusive. */
  from: string;
  to: string;
}
const isUtcMidnight = (d: Date) => d.getTime() === startOfUtcDay(d);
const queryDay = (d: Date, zone: string) => (isUtcMidnight(d) ? utcDayOf(d) : dayInZone(d, zone));
const utcDayOf = (t: Date) => t.toISOString().slice(0, 10);

/** An assignee of the order is in the team. */
const assigneeInTeam = (orgId: unknown, teamId: unknown) =>
  sql`exists (select 1 from ${workOrderAssignees} join ${teamMembers} on ${teamMembers.orgId} = ${workOrderAssignees.orgId}
    and ${teamMembers.workerId} = ${workOrderAssignees.userId}
    where ${workOrderAssignees.orgId} = ${orgId} and ${workOrderAssignees.workOrderId} = ${workOrders.id} and ${teamMembers.teamId} = ${teamId})`;

/** The order's asset (column `assetId`) is in the location or under it (decision 072). */
const assetInLocation = (assetId: SQLWrapper, orgId: SQLWrapper, locationId: SQLWrapper) =>
  sql`${assetId} in (select la.id from assets la where la.org_id = ${orgId} and la.location_id in ${subtreeIds('locations', orgId, locationId)})`;

/**
 * An order of the organisation on a day of the window (`day`: where it sits), with the asset and location filters
 * when given: the conditions the work orders and the maintenance orders share, over the statement's placeholders.
 */
const inWindowAndPlace = (t: { orgId: PgColumn; assetId: PgColumn }, day: SQL, values: { assetId?: number; locationId?: number }) => [
  eq(t.orgId, param('orgId')),
  gte(day, param('from')),
  lt(day, param('to')),
  values.assetId ? eq(t.assetId, param('assetId')) : undefined,
  values.locationId ? assetInLocation(t.assetId, param('orgId'), param('locationId')) : undefined,
];

/**
 * The work orders in the range that the actor sees (a worker: those assigned to them, decision 024), with the
 * query's filters: one statement, the first CALENDAR_ENTRY_LIMIT (+1, to know there are more) by date.
 */
async function workOrderEntries(tx: ReadTx, orgId: number, actor: AccessClaims, query: CalendarQuery, days: Days, now: Date) {
  const values = {
    orgId,
    // From the organisation's midnight of the first day to that of the day after the last.
    from: zonedInstant(days.from, days.zone).toISOString(),
    to: zonedInstant(days.to, days.zone).toISOString(),
    ...pick(query, 'assetId', 'locationId', 'teamId', 'assigneeId'),
    userId: isManager(actor) ? undefined : actor.userId,
    limit: CALENDAR_ENTRY_LIMIT + 1,
  };
  const rows = await preparedRead(
    tx,
    'calendar.workOrders',
    () =>
      tx
        .select({
          ...pick(workOrders, 'id', 'title', 'status', 'priority', 'dueDate', 'startDate', 'assetId'),
          assetName: assets.name,
          updatedAt: workOrders.updatedAt,
        })
        .from(workOrders)
        .leftJoin(assets, and(eq(assets.orgId, workOrders.orgId), eq(assets.id, workOrders.assetId)))
        .where(
          and(
            ...inWindowAndPlace(workOrders, workOrderCalendarDate, values),
            values.assigneeId ? assignedTo(param('orgId'), param('assigneeId')) : undefined,
            values.teamId ? assigneeInTeam(param('orgId'), param('teamId')) : undefined,
            values.userId ? assignedTo(param('orgId'), param('userId')) : undefined,
          ),
        )
        .orderBy(asc(workOrderCalendarDate), asc(workOrders.id))
        .limit(param('limit')),
    values,
  );
  return rows.map(
    (r): CalendarEntry => ({
      ...orderEntry('work-order', r.id, workOrderDisplayId(r.id)),
      title: r.title,
      date: (r.dueDate ?? r.startDate)!.toISOString(),
      day: dayInZone((r.dueDate ?? r.startDate)!, days.zone),
      allDay: false,
      status: r.status,
      priority: r.priority,
      asset: r.assetId ? { id: r.assetId, name: r.assetName ?? '' } : null,
      overdue: OPEN_WORK_ORDER.has(r.status) && !!r.dueDate && r.dueDate.getTime() < now.getTime(),
      updatedAt: iso(r.updatedAt),
      version: null,
      createOn: null,
    }),
  );
}

/**
 * The maintenance orders in the range (every member reads them, decision 012), by asset. They have no
 * assignees, so a team or assignee filter leaves them out.
 */
async function maintenanceOrderEntries(tx: ReadTx, orgId: number, query: CalendarQuery, days: Days, now: Date) {
  if (query.teamId || query.assigneeId) return [];
  const o = maintenanceOrders;
  // They keep days (at UTC midnight): the range's days as they are.
  const values = {
    orgId,
    from: dayToDate(days.from).toISOString(),
    to: dayToDate(days.to).toISOString(),
    assetId: query.assetId,
    locationId: query.locationId,
    limit: CALENDAR_ENTRY_LIMIT + 1,
  };
  const rows = await preparedRead(
    tx,
    'calendar.maintenanceOrders',
    () =>
      tx
        .select({
          ...pick(o, 'id', 'status', 'dueDate', 'scheduleDate', 'assetId'),
          assetName: assets.name,
          requestTitle: maintenanceRequests.title,
          version: o.version,
        })
        .from(o)
        .leftJoin(assets, and(eq(assets.orgId, o.orgId), eq(assets.id, o.assetId)))
        .leftJoin(maintenanceRequests, and(eq(maintenanceRequests.orgId, o.orgId), eq(maintenanceRequests.id, o.maintenanceRequestId)))
        .where(and(...inWindowAndPlace(o, maintenanceOrderCalendarDate, values)))
        .orderBy(asc(maintenanceOrderCalendarDate), asc(o.id))
        .limit(param('limit')),
    values,
  );
  const today = dayToDate(dayInZone(now, days.zone)).getTime();
  return rows.map(
    (r): CalendarEntry => ({
      ...orderEntry('maintenance-order', r.id, orderDisplayId(r.id)),
      title: r.requestTitle ?? orderDisplayId(r.id),
      date: (r.dueDate ?? r.scheduleDate)!.toISOString(),
      day: utcDayOf((r.dueDate ?? r.scheduleDate)!),
      allDay: true,
      status: r.status,
      priority: null,
      asset: r.assetId ? { id: r.assetId, name: r.assetName ?? '' } : null,
      // Orders keep days: due today (the organisation's) is not late yet.
      overdue: OPEN_MAINTENANCE_ORDER.has(r.status) && !!r.dueDate && startOfUtcDay(r.dueDate) < today,
      updatedAt: null,
      version: r.version,
      createOn: null,
    }),
  );
}

/**
 * The plans' occurrences not created yet (pm-plans' projection), on their due days. A worker sees those whose
 * work order would be assigned to them, directly or through the plan's team: as they will see the order.
 */
async function plannedEntries(tx: ReadTx, orgId: number, actor: AccessClaims, query: CalendarQuery, days: Days) {
  let assigneeId = query.assigneeId;
  if (!isManager(actor)) {
    if (assigneeId && assigneeId !== actor.userId) return [];
    assigneeId = actor.userId;
  }
  // The projection takes days, `to` included.
  const occurrences = await listPlannedOccurrences(tx, orgId, {
    from: days.from,
    to: addDays(days.to, -1),
    assetId: query.assetId,
    teamId: query.teamId,
    assigneeId,
  });
  const inLocation = query.locationId ? await assetsInLocation(tx, orgId, query.locationId) : null;
  return occurrences
    .filter((p) => !inLocation || (p.assetId !== null && inLocation.has(p.assetId)))
    .map(
      (p): CalendarEntry => ({
        kind: 'planned',
        id: p.planId,
        key: `planned:${p.planId}:${p.assetId ?? 0}:${p.dueDate}`,
        displayId: p.planName,
        title: p.title,
        date: `${p.dueDate}T00:00:00.000Z`,
        day: p.dueDate,
        allDay: true,
        status: 'planned',
        priority: p.priority,
        asset: p.assetId ? { id: p.assetId, name: p.assetName ?? '' } : null,
        overdue: false,
        updatedAt: null,
        version: null,
        createOn: p.createOn,
      }),
    );
}

/** The ids of the assets in a location and everything under it. */
async function assetsInLocation(tx: ReadTx, orgId: number, locationId: number): Promise<Set<number>> {
  const rows = await tx
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), sql`${assets.locationId} in ${subtreeIds('locations', sql`${orgId}::int`, sql`${locationId}::int`)}`));
  return new Set(rows.map((r) => r.id));
}

/** GET list-calendar-entries: what falls in the range, by date; at most CALENDAR_ENTRY_LIMIT of each kind. */
export async function listCalendarEntries(tx: ReadTx, orgId: number, actor: AccessClaims, query: CalendarQuery, now = new Date()): Promise<CalendarAnswer> {
  const zone = await orgTimeZone(tx, orgId);
  const days: Days = { zone, from: queryDay(query.from, zone), to: queryDay(query.to, zone) };
  const kinds = [
    await workOrderEntries(tx, orgId, actor, query, days, now),
    await maintenanceOrderEntries(tx, orgId, query, days, now),
    await plannedEntries(tx, orgId, actor, query, days),
  ];
  const truncated = kinds.some((list) => list.length > CALENDAR_ENTRY_LIMIT);
  const entries = kinds
    .flatMap((list) => list.slice(0, CALENDAR_ENTRY_LIMIT))
    .sort((a, b) => a.day.localeCompare(b.day) || a.date.localeCompare(b.date) || a.key.localeCompare(b.key));
  return { entries, truncated, timeZone: zone };
}
