import { and, count, desc, eq, gte, ilike, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { type Bind, bindTo, countAll, isAnyOf, keysetBatch, param, preparedEstimate, preparedRead } from '../../server/db/prepared';
import {
  parts,
  timeTrackingReasons,
  users,
  workOrderAssignees,
  workOrderLabors,
  workOrderOpenDueDayCounts,
  workOrderParts,
  workOrderPriorityCounts,
  workOrders,
  workOrderStatusCounts,
} from '../../server/db/schema';
import { pagination } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { subtreeIds } from '../locations/location-tree';
import { type WorkOrderDueView, type WorkOrderListQuery, type WorkOrderStatistics } from './work-orders.schema';
import { escapeLike } from '../../server/db/like';
import { dueWindows } from '../../shared/dates';
import { now } from '../../server/clock';
import {
  EXACT_COUNT_CAP,
  DUE_SOON_DAYS,
  startOfUtcDay,
  utcDay,
  isManager,
  assignedTo,
  fromPmPlanSql,
  OrderRow,
  toDto,
  selectOrders,
} from './work-order-read.service';

/**
 * The trigger-kept count of the orders in the filter's statuses (all of them without one), whatever the
 * organisation's size (decision 006): a list's total when only statuses filter, a bound on it otherwise.
 * A scalar subquery, so it rides in the page's statement.
 */
function keptCount(filter: ListFilter, bind: Bind): SQL<number> {
  const c = workOrderStatusCounts;
  const byStatus = filter.values.status ? sql` and ${isAnyOf(c.status, bind('status'))}` : sql``;
  return sql<number>`(select coalesce(sum(${c.n}), 0)::int from ${c} where ${c.orgId} = ${bind('orgId')}${byStatus})`;
}

/** Only statuses filter: the total is kept, not counted. */
const totalIsKept = (filter: ListFilter) => {
  const v = filter.values;
  return !v.userId && !v.title && !v.assetId && !v.locationId && !v.dueBefore && !v.mineId && !v.unassigned && !v.pm && !v.onHold;
};

/**
 * totalRecords without counting a million rows. Only statuses filter: the kept count, read with the page.
 * Otherwise (a title, or a worker's own orders): a page that is not full gives the total outright; where the
 * kept count says at most ESTIMATE_TRUSTED_FROM orders can match, they are counted exactly; beyond that a
 * match the planner expects to be common takes its estimate, since confirming more than EXACT_COUNT_CAP
 * matches walks ten times as many of a big organisation's newest orders (decision 006), and anything else is
 * counted exactly up to the cap, with the estimate beyond it.
 */
async function countOrders(tx: ReadTx, filter: ListFilter, query: WorkOrderListQuery, page: OrderRow[]) {
  const offset = (query.page - 1) * query.pageSize;
  if (!page.length && offset === 0) return 0;
  // A page past the end (rare) reads the kept count on its own.
  const kept = page.length ? page[0].kept! : (await tx.select({ n: keptCount(filter, bindTo(filter.values)) }).from(sql`(values (1)) as one`))[0].n;
  if (totalIsKept(filter)) return kept;
  if (page.length < query.pageSize && page.length > 0) return offset + page.length;
  const counted = (cap?: number) =>
    preparedRead(
      tx,
      'workOrders.count',
      () => {
        const matches = tx
          .select({ one: sql`1` })
          .from(workOrders)
          .where(filter.where(param));
        // Newest first, as the list: for a common match the planner walks the organisation's index and stops at
        // the cap; for a rare one it reads the trigram index. Unordered, it may build a bitmap of every match.
        return tx.select({ n: countAll() }).from((cap ? matches.orderBy(desc(workOrders.id)).limit(param('cap')) : matches).as('matches'));
      },
      { ...filter.values, cap },
    ).then(([row]) => row.n);
  if (kept <= ESTIMATE_TRUSTED_FROM) return counted();
  const estimate = await estimateOrders(tx, filter);
  if (estimate >= ESTIMATE_TRUSTED_FROM) return estimate;
  const n = await counted(EXACT_COUNT_CAP + 1);
  return n <= EXACT_COUNT_CAP ? n : Math.max(EXACT_COUNT_CAP + 1, estimate);
}

/** Ten times the exact-count cap: an estimate this high is far past the cap even when the planner is off by a few times. */
const ESTIMATE_TRUSTED_FROM = EXACT_COUNT_CAP * 10;

/** The planner's estimate of the matching rows (EXPLAIN plans, it does not run). */
const estimateOrders = (tx: ReadTx, filter: ListFilter): Promise<number> =>
  preparedEstimate(
    tx,
    'workOrders.matches',
    () =>
      tx
        .select({ one: sql`1` })
        .from(workOrders)
        .where(filter.where(param)),
    filter.values,
  );

/** GET get-work-orders: newest first, filtered by status (any of) and title (contains, case-insensitive). */
export async function listWorkOrders(tx: ReadTx, orgId: number, actor: AccessClaims, query: WorkOrderListQuery) {
  const filter = listFilter(orgId, actor, query);
  // The page, its assignees and the kept count (the total, or a bound on it): one statement.
  const rows = await preparedRead(
    tx,
    'workOrders.list',
    () => selectOrders(tx, keptCount(filter, param)).where(filter.where(param)).orderBy(desc(workOrders.id)).limit(param('limit')).offset(param('offset')),
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

/**
 * The three cards: pending (assigned), open and due in the next 7 days, high priority still assigned. One
 * statement: the window's instants are its values, so only the caller's kind (manager or worker) changes its
 * text.
 */
export async function getStatistics(tx: ReadTx, orgId: number, actor: AccessClaims, now = new Date()): Promise<WorkOrderStatistics> {
  const manager = isManager(actor);
  const until = new Date(now.getTime() + DUE_SOON_DAYS * 86_400_000);
  // For managers, the whole UTC days inside the window come from the kept day counts; only the part days at
  // its two ends (a day's worth together) are counted in the index (decision 006).
  const firstWholeDay = new Date(startOfUtcDay(now).getTime() + 86_400_000);
  const lastPartDay = startOfUtcDay(until);
  const values = {
    orgId,
    // A worker counts their own orders; a manager's counts come from kept counts where they can.
    userId: manager ? undefined : actor.userId,
    // Not a placeholder: a flag, so that the statement with the kept day counts is kept under its own shape.
    wholeDays: (manager && firstWholeDay < lastPartDay) || undefined,
    // ISO strings: the same instant whatever the server's time zone.
    now: now.toISOString(),
    firstWholeDay: firstWholeDay.toISOString(),
    lastPartDay: lastPartDay.toISOString(),
    until: until.toISOString(),
    fromDay: utcDay(firstWholeDay),
    toDay: utcDay(lastPartDay),
  };
  const build = () => {
    const counted = (...conds: (SQL | undefined)[]) =>
      tx
        .select({ n: count() })
        .from(workOrders)
        .where(and(eq(workOrders.orgId, param('orgId')), values.userId ? assignedTo(param('orgId'), param('userId')) : undefined, ...conds));
    // Written as the open-due index's own predicate (work-orders.table.ts), so the planner can use it.
    const openDue = (from: string, to: string) =>
      counted(gte(workOrders.dueDate, param(from)), lt(workOrders.dueDate, param(to)), sql`${workOrders.status} in ('assigned', 'in-progress')`);
    const d = workOrderOpenDueDayCounts;
    const dueNext7Days = values.wholeDays
      ? sql`(${openDue('now', 'firstWholeDay')}) + (${tx
          .select({ n: sql`coalesce(sum(${d.n}), 0)` })
          .from(d)
          .where(and(eq(d.orgId, param('orgId')), gte(d.dueDay, param('fromDay')), lt(d.dueDay, param('toDay'))))}) + (${openDue('lastPartDay', 'until')})`
      : sql`(${openDue('now', 'until')})`;
    // Pending and high-priority pending: for managers from the trigger-kept counts, whatever the organisation's
    // size; a worker counts their own orders.
    const c = workOrderPriorityCounts;
    const keptPending = (high: boolean) =>
      tx
        .select({ n: sql`coalesce(sum(${c.n}), 0)` })
        .from(c)
        .where(and(eq(c.orgId, param('orgId')), eq(c.status, 'assigned'), high ? eq(c.priority, 'high') : undefined));
    const [totalPending, highPriorityPending] = values.userId
      ? [counted(eq(workOrders.status, 'assigned')), counted(eq(workOrders.priority, 'high'), eq(workOrders.status, 'assigned'))]
      : [keptPending(false), keptPending(true)];
    // The three cards in one statement: one round trip.
    return tx
      .select({
        totalPending: sql<number>`(${totalPending})::int`.mapWith(Number),
        dueNext7Days: sql<number>`(${dueNext7Days})::int`.mapWith(Number),
        highPriorityPending: sql<number>`(${highPriorityPending})::int`.mapWith(Number),
      })
      .from(sql`(values (1)) as cards`);
  };
  // A manager's cards are lookups in kept counts and in the open-due index, bounded by the organisation: one
  // plan serves every organisation (decision 019). A worker's counts go through their assignments: planned per run.
  const [row] = await preparedRead(tx, 'workOrders.cards', build, values, { onePlan: !values.userId });
  return row;
}
