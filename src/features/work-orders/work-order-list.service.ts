import { and, count, desc, eq, gte, ilike, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { type Bind, bindTo, countAll, isAnyOf, keysetBatch, param, preparedRead } from '../../server/db/prepared';
import { parts, timeTrackingReasons, users, workOrderAssignees, workOrderLabors, workOrderParts, workOrders } from '../../server/db/schema';
import { pagination } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { subtreeIds } from '../locations/location-tree';
import { type WorkOrderDueView, type WorkOrderListQuery, type WorkOrderStatistics } from './work-orders.schema';
import { escapeLike } from '../../server/db/like';
import { dueWindows } from '../../shared/dates';
import { now } from '../../server/clock';
import { DUE_SOON_DAYS, isManager, assignedTo, fromPmPlanSql, OrderRow, toDto, selectOrders } from './work-order-read.service';

/**
 * totalRecords: a page that is not full gives it outright; otherwise the filter's orders are counted, exactly
 * (decision 086: at 100,000 orders a count is an index scan of a few tens of milliseconds, no kept counts).
 */
async function countOrders(tx: ReadTx, filter: ListFilter, query: WorkOrderListQuery, page: OrderRow[]) {
  const offset = (query.page - 1) * query.pageSize;
  if (page.length > 0 && page.length < query.pageSize) return offset + page.length;
  if (!page.length && offset === 0) return 0;
  const [row] = await preparedRead(tx, 'workOrders.count', () => tx.select({ n: countAll() }).from(workOrders).where(filter.where(param)), filter.values);
  return row.n;
}

/** GET get-work-orders: newest first, filtered by status (any of) and title (contains, case-insensitive). */
export async function listWorkOrders(tx: ReadTx, orgId: number, actor: AccessClaims, query: WorkOrderListQuery) {
  const filter = listFilter(orgId, actor, query);
  const rows = await preparedRead(
    tx,
    'workOrders.list',
    () => selectOrders(tx).where(filter.where(param)).orderBy(desc(workOrders.id)).limit(param('limit')).offset(param('offset')),
    { ...filter.values, limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  const totalRecords = await countOrders(tx, filter, query, rows);
  return { workOrders: rows.map(toDto), pagination: pagination(totalRecords, query.page, query.pageSize) };
}

/**
 * The list's filter values (absent ones undefined) and its condition over them, as placeholders for
 * `preparedRead` (`param`) or bound to the values (`bindTo`). A worker's list is their assigned orders.
 */
function listFilter(orgId: number, actor: AccessClaims, query: WorkOrderListQuery, at = now()) {
  const due = query.due ? dueRange(query.due, at, query.timeZone) : undefined;
  const values = {
    orgId,
    status: query.status?.length ? query.status : undefined,
    title: query.title ? `%${escapeLike(query.title)}%` : undefined,
    userId: isManager(actor) ? undefined : actor.userId,
    assetId: query.assetId,
    locationId: query.locationId,
    // The due views (decision 066): open orders due in [dueFrom, dueBefore), instants as ISO strings.
    dueFrom: due?.from,
    dueBefore: due?.before,
    mineId: query.assigned === 'me' ? actor.userId : undefined,
    // Flags, not placeholders: each names its own statement.
    unassigned: query.assigned === 'none' || undefined,
    pm: query.pm || undefined,
    onHold: query.onHold || undefined,
  };
  const where = (bind: Bind) =>
    and(
      eq(workOrders.orgId, bind('orgId')),
      values.status ? isAnyOf(workOrders.status, bind('status')) : undefined,
      values.title ? ilike(workOrders.title, bind('title')) : undefined,
      values.assetId ? eq(workOrders.assetId, bind('assetId')) : undefined,
      // the assets of a location and everything under it (decision 072)
      values.locationId
        ? sql`${workOrders.assetId} in (select a.id from assets a where a.org_id = ${bind('orgId')} and a.location_id in ${subtreeIds('locations', bind('orgId'), bind('locationId'))})`
        : undefined,
      values.userId ? assignedTo(bind('orgId'), bind('userId')) : undefined,
      values.dueBefore ? sql`${workOrders.status} in ('assigned', 'in-progress')` : undefined,
      values.dueFrom ? gte(workOrders.dueDate, sql`${bind('dueFrom')}::timestamptz`) : undefined,
      values.dueBefore ? lt(workOrders.dueDate, sql`${bind('dueBefore')}::timestamptz`) : undefined,
      values.mineId ? assignedTo(bind('orgId'), bind('mineId')) : undefined,
      values.unassigned
        ? sql`not exists (select 1 from ${workOrderAssignees} where ${workOrderAssignees.orgId} = ${workOrders.orgId} and ${workOrderAssignees.workOrderId} = ${workOrders.id})`
        : undefined,
      values.pm ? fromPmPlan(workOrders.orgId, workOrders.id) : undefined,
      values.onHold ? eq(workOrders.onHold, true) : undefined,
    );
  return { values, where };
}

/**
 * The number of orders of the list's filter (a worker's are their own), as a scalar subquery: the dashboard puts
 * several in one statement (decision 066).
 */
export function countWorkOrdersSql(tx: ReadTx, orgId: number, actor: AccessClaims, query: Partial<WorkOrderListQuery>, at: Date): SQL<number> {
  const filter = listFilter(orgId, actor, query as WorkOrderListQuery, at);
  return sql<number>`(${tx
    .select({ n: countAll() })
    .from(workOrders)
    .where(filter.where(bindTo(filter.values)))})`;
}

/** "Created by a preventive-maintenance plan": the order has an occurrence (the dashboard's PM figure). */
export const fromPmPlan = (orgId: SQLWrapper, id: SQLWrapper) => fromPmPlanSql(orgId, id);

/**
 * The instants of a due view in the reader's zone (decision 066): overdue is before now; today and week run from
 * now to the end of today, or of the sixth day after it. Open orders only (the caller adds the statuses).
 */
export function dueRange(view: WorkOrderDueView, at: Date, zone = 'UTC'): { from?: string; before: string } {
  const w = dueWindows(at, zone);
  if (view === 'overdue') return { before: at.toISOString() };
  return { from: at.toISOString(), before: (view === 'today' ? w.tomorrowStart : w.weekEnd).toISOString() };
}
type ListFilter = ReturnType<typeof listFilter>;

/**
 * One batch of the list's rows for an export (decision 042): the list's own filter (a worker's is their
 * assigned orders), newest first, ids below `before` (keyset), `limit` rows at a time.
 */
export async function exportWorkOrdersBatch(tx: ReadTx, orgId: number, actor: AccessClaims, query: WorkOrderListQuery, before: number, limit: number) {
  const filter = listFilter(orgId, actor, query);
  const rows = await keysetBatch(
    tx,
    'workOrders.export',
    () => selectOrders(tx),
    workOrders.id,
    { values: filter.values, where: () => filter.where(param) },
    before,
    limit,
  );
  return rows.map(toDto);
}

/**
 * The organisation's labour lines for an export (decision 059): the team's time (a contractor's, logged through a
 * share, is the share's), newest first, ids below `before` (keyset); the worker by e-mail, the reason by name.
 */
export function exportLaborBatch(tx: ReadTx, orgId: number, before: number, limit: number) {
  const l = workOrderLabors;
  const select = () =>
    tx
      .select({ id: l.id, workOrderId: l.workOrderId, worker: users.email, reason: timeTrackingReasons.name, startDate: l.startDate, endDate: l.endDate })
      .from(l)
      .leftJoin(users, and(eq(users.orgId, l.orgId), eq(users.id, l.workerId)))
      .leftJoin(timeTrackingReasons, and(eq(timeTrackingReasons.orgId, l.orgId), eq(timeTrackingReasons.id, l.reasonId)));
  return keysetBatch(
    tx,
    'workOrders.exportLabor',
    select,
    l.id,
    { values: { orgId }, where: () => and(eq(l.orgId, param('orgId')), sql`${l.shareId} is null`) },
    before,
    limit,
  );
}

/** The organisation's parts lines for an export (decision 059): inventory parts only (a contractor's are the share's), newest first. */
export function exportPartLinesBatch(tx: ReadTx, orgId: number, before: number, limit: number) {
  const p = workOrderParts;
  const select = () =>
    tx
      .select({ id: p.id, workOrderId: p.workOrderId, skuCode: parts.skuCode, name: parts.name, quantity: p.quantity })
      .from(p)
      .innerJoin(parts, and(eq(parts.orgId, p.orgId), eq(parts.id, p.partId)));
  return keysetBatch(tx, 'workOrders.exportParts', select, p.id, { values: { orgId }, where: () => eq(p.orgId, param('orgId')) }, before, limit);
}

/** The ~50 most recent orders the actor sees, for get-app-data (screens page from the server). */
export async function listRecentWorkOrders(tx: ReadTx, orgId: number, actor: AccessClaims) {
  const { workOrders: rows } = await listWorkOrders(tx, orgId, actor, { page: 1, pageSize: 50 } as WorkOrderListQuery);
  return rows;
}

/** The three cards: pending (assigned), open and due in the next 7 days, high priority still assigned; a worker's are their own orders. */
export async function getStatistics(tx: ReadTx, orgId: number, actor: AccessClaims, now = new Date()): Promise<WorkOrderStatistics> {
  const values = {
    orgId,
    userId: isManager(actor) ? undefined : actor.userId,
    // ISO strings: the same instant whatever the server's time zone.
    now: now.toISOString(),
    until: new Date(now.getTime() + DUE_SOON_DAYS * 86_400_000).toISOString(),
  };
  const build = () => {
    const counted = (...conds: (SQL | undefined)[]) =>
      sql<number>`(${tx
        .select({ n: count() })
        .from(workOrders)
        .where(and(eq(workOrders.orgId, param('orgId')), values.userId ? assignedTo(param('orgId'), param('userId')) : undefined, ...conds))})::int`.mapWith(
        Number,
      );
    return tx
      .select({
        totalPending: counted(eq(workOrders.status, 'assigned')),
        // Written as the open-due index's own predicate (work-orders.table.ts), so the planner can use it.
        dueNext7Days: counted(
          gte(workOrders.dueDate, param('now')),
          lt(workOrders.dueDate, param('until')),
          sql`${workOrders.status} in ('assigned', 'in-progress')`,
        ),
        highPriorityPending: counted(eq(workOrders.priority, 'high'), eq(workOrders.status, 'assigned')),
      })
      .from(sql`(values (1)) as cards`);
  };
  const [row] = await preparedRead(tx, 'workOrders.cards', build, values);
  return row;
}
