import { and, asc, count, desc, eq, gte, ilike, inArray, lt, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { type Bind, bindTo, countAll, isAnyOf, keysetBatch, param, preparedEstimate, preparedRead } from '../../server/db/prepared';
import { sameUpdatedAt, StaleEdit } from '../../server/stale-edit';
import {
  assets,
  parts,
  quotations,
  stockLocations,
  timeTrackingReasons,
  users,
  workOrderAssignees,
  workOrderLabors,
  workOrderOpenDueDayCounts,
  workOrderParts,
  workOrderPriorityCounts,
  workOrderPhotos,
  workOrderProcedureSteps,
  workOrders,
  workOrderStatusCounts,
  pmOccurrences,
  failureCodes,
} from '../../server/db/schema';
import { discardFiles } from '../../server/uploads/storage';
import { requireReferences } from '../../server/db/references';
import { consumeForLine, consumedForLine, defaultLocationId, isStockable, returnForLine } from '../stock/stock.service';
import { partsReadiness } from '../stock/reservations.service';
import { badRequest, conflict, forbidden, notFound } from '../../server/http-error';
import { pagination } from '../../shared/pagination';
import type { AccessClaims } from '../auth/tokens';
import { subtreeIds } from '../locations/location-tree';
import { diffChanges, recordActivities, recordActivity, registerActivityEntity } from '../activity/activity.service';
import { workOrderChanged } from '../request-portal/request-portal.flow';
import { sanitizeHtml } from './sanitize-html';
import {
  CLOCK_SKEW_MINUTES,
  endsByNow,
  LABOR_FUTURE_MESSAGE,
  LABOR_SPAN_MESSAGE,
  MAX_HOURLY_RATE_MINOR,
  MAX_LINE_COST_MINOR,
  MAX_LINE_QUANTITY,
  MAX_SHARE_LINES,
  withinLaborSpan,
  workOrderDisplayId,
  type LaborDto,
  type WorkOrderDto,
  type WorkOrderDueView,
  type WorkOrderListQuery,
  type WorkOrderPartDto,
  type RescheduleWorkOrderInput,
  type WorkOrderCost,
  type WorkOrderCostView,
  type WorkOrderStatistics,
  type WorkOrderStatus,
  type WorkOrderValues,
  type addPartsSchema,
  type laborInputSchema,
} from './work-orders.schema';
import type { z } from 'zod';
import { escapeLike } from '../../server/db/like';
import { dayInZone, dueWindows, moveToDay } from '../../shared/dates';
import { RESCHEDULE_MESSAGES, rescheduleDayProblem } from '../calendar/calendar.schema';
import { emitWebhookEvent, emitWebhookEvents } from '../webhooks/webhooks.service';
import { toMajor, toMinor } from '../../shared/money';
import { formatMinutes } from '../../shared/format';
import { moneySettings, orgTimeZone } from '../organization/organization.service';
import { quotationNumber } from '../quotations/quotations.schema';
import { rowsOf } from '../../server/db/rows';
import { now } from '../../server/clock';
import { notifyAssigned, notifyStatusChanged } from '../notifications/notifications.service';
import { markAssetDown, ownDownInterval, workDone } from '../asset-states/asset-states.service';
import { checkFailureCodesOnClose, findRepeatFailure, notifyRepeatFailure, type FailureCodesOfOrder } from '../failure-codes/failure-codes.service';
import { FAILURE_CODE_MESSAGES, type HoldInput } from '../failure-codes/failure-codes.schema';

// A worker sees the history, notes and bell entries of the orders assigned to them, as they see the orders.
registerActivityEntity(
  'work-order',
  workOrders,
  'Work order',
  ({ orgId, id, userId }) =>
    sql`exists (select 1 from ${workOrderAssignees} where ${workOrderAssignees.orgId} = ${orgId}
    and ${workOrderAssignees.workOrderId} = ${id} and ${workOrderAssignees.userId} = ${userId})`,
);

const ENTITY = 'work-order';
/** Exact counts up to this many matching rows; beyond it the planner's estimate (decision 006). */
export const EXACT_COUNT_CAP = 1_000;
const DUE_SOON_DAYS = 7;
const startOfUtcDay = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
const utcDay = (t: Date) => t.toISOString().slice(0, 10);

const isManager = (actor: AccessClaims) => actor.role === 'admin' || actor.role === 'manager';
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Workers see only the work orders assigned to them (DESIGN 5). */
function visibleTo(orgId: number, actor: AccessClaims): SQL | undefined {
  return isManager(actor) ? undefined : assignedTo(orgId, actor.userId);
}

/** "Assigned to the user": the rule by which a worker sees an order (decision 024); the calendar reads it too. */
export const assignedTo = (orgId: unknown, userId: unknown) =>
  sql`exists (select 1 from ${workOrderAssignees} where ${workOrderAssignees.orgId} = ${orgId}
    and ${workOrderAssignees.workOrderId} = ${workOrders.id} and ${workOrderAssignees.userId} = ${userId})`;

/** The order's assignees as JSON, first name first: read with the order, not in a statement of their own. */
const assigneesOfOrder = sql<WorkOrderDto['assignees']>`coalesce((
  select json_agg(json_build_object('id', ${users.id}, 'firstName', ${users.firstName}, 'lastName', ${users.lastName}) order by ${users.firstName}, ${users.id})
  from ${workOrderAssignees} join ${users} on ${users.orgId} = ${workOrderAssignees.orgId} and ${users.id} = ${workOrderAssignees.userId}
  where ${workOrderAssignees.orgId} = ${workOrders.orgId} and ${workOrderAssignees.workOrderId} = ${workOrders.id}), '[]')`;

/** A failure code's name, read with the order (decision 080). */
function codeName(column: SQLWrapper) {
  return sql<string | null>`(select fc.name from ${failureCodes} fc where fc.org_id = ${workOrders.orgId} and fc.id = ${column})`;
}
/** Made by a preventive-maintenance plan (it has an occurrence); reactive otherwise. */
function fromPmPlanSql(orgId: SQLWrapper, id: SQLWrapper) {
  return sql`exists (select 1 from ${pmOccurrences} where ${pmOccurrences.orgId} = ${orgId} and ${pmOccurrences.workOrderId} = ${id})`;
}

const orderColumns = {
  id: workOrders.id,
  title: workOrders.title,
  duration: workOrders.duration,
  status: workOrders.status,
  priority: workOrders.priority,
  startDate: workOrders.startDate,
  endDate: workOrders.endDate,
  dueDate: workOrders.dueDate,
  instructions: workOrders.instructions,
  assetId: workOrders.assetId,
  assetName: assets.name,
  quotationId: workOrders.quotationId,
  assignees: assigneesOfOrder,
  assetDown: ownDownInterval('work_order_id', workOrders.orgId, workOrders.id),
  createdById: workOrders.createdById,
  reactive: sql<boolean>`not ${fromPmPlanSql(workOrders.orgId, workOrders.id)}`,
  assetCategoryId: assets.assetCategoryId,
  problemCodeId: workOrders.problemCodeId,
  causeCodeId: workOrders.causeCodeId,
  remedyCodeId: workOrders.remedyCodeId,
  problemName: codeName(workOrders.problemCodeId),
  causeName: codeName(workOrders.causeCodeId),
  remedyName: codeName(workOrders.remedyCodeId),
  onHold: workOrders.onHold,
  holdReason: workOrders.holdReason,
  holdNote: workOrders.holdNote,
  heldAt: workOrders.heldAt,
  createdAt: workOrders.createdAt,
  updatedAt: workOrders.updatedAt,
};
type OrderRow = Awaited<ReturnType<typeof selectOrders>>[number];

function toDto(r: OrderRow): WorkOrderDto {
  return {
    id: r.id,
    workOrderId: workOrderDisplayId(r.id),
    title: r.title,
    duration: r.duration,
    status: r.status,
    priority: r.priority,
    startDate: iso(r.startDate),
    endDate: iso(r.endDate),
    dueDate: iso(r.dueDate),
    instructions: r.instructions,
    assetId: r.assetId,
    asset: r.assetId ? { id: r.assetId, name: r.assetName ?? '' } : null,
    quotationId: r.quotationId,
    quotation: r.quotationId ? { id: r.quotationId, number: quotationNumber(r.quotationId) } : null,
    assignees: r.assignees,
    assetDown: r.assetDown,
    createdById: r.createdById,
    reactive: r.reactive,
    assetCategoryId: r.assetCategoryId ?? null,
    problemCodeId: r.problemCodeId,
    causeCodeId: r.causeCodeId,
    remedyCodeId: r.remedyCodeId,
    failure: r.problemName ? { problem: r.problemName, cause: r.causeName, remedy: r.remedyName } : null,
    onHold: r.onHold,
    holdReason: r.holdReason,
    holdNote: r.holdNote,
    heldAt: iso(r.heldAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * Orders with their asset and assignees. `kept`, when given, rides along in every row: an uncorrelated
 * subquery, run once per statement, so a list page and its count are one round trip.
 */
function selectOrders(tx: ReadTx, kept: SQL<number | null> = sql`null`) {
  return tx
    .select({ ...orderColumns, kept })
    .from(workOrders)
    .leftJoin(assets, and(eq(assets.orgId, workOrders.orgId), eq(assets.id, workOrders.assetId)));
}

/** One work order the actor may see; 404 otherwise (a worker's unassigned order does not exist for them). */
export async function getWorkOrder(tx: ReadTx, orgId: number, actor: AccessClaims, id: number): Promise<WorkOrderDto> {
  const [row] = await selectOrders(tx).where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), visibleTo(orgId, actor)));
  if (!row) throw notFound('Work order');
  return toDto(row);
}

/** Orders as the API shows them, in the order of `ids`, whoever reads: what a webhook event carries (decision 043). */
export async function workOrdersAsShown(tx: ReadTx, orgId: number, ids: number[]): Promise<WorkOrderDto[]> {
  const rows = await selectOrders(tx).where(and(eq(workOrders.orgId, orgId), inArray(workOrders.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, toDto(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
const shownOrder = async (tx: ReadTx, orgId: number, id: number) => (await workOrdersAsShown(tx, orgId, [id]))[0];

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

async function checkAsset(tx: Tx, orgId: number, assetId: number | null | undefined) {
  if (!assetId) return;
  const [row] = await tx
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.id, assetId)));
  if (!row) throw badRequest('Asset not found', 'assetId');
}

async function checkQuotation(tx: Tx, orgId: number, quotationId: number | null | undefined) {
  if (!quotationId) return;
  const [row] = await tx
    .select({ id: quotations.id })
    .from(quotations)
    .where(and(eq(quotations.orgId, orgId), eq(quotations.id, quotationId)));
  if (!row) throw badRequest('Quotation not found', 'quotationId');
}

async function checkUsers(tx: Tx, orgId: number, ids: number[], path: string, message: string) {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), inArray(users.id, unique)));
  if (rows.length !== unique.length) throw badRequest(message, path);
  return unique;
}

const writable = (input: WorkOrderValues) => ({
  title: input.title,
  duration: input.duration ?? null,
  priority: input.priority ?? 'medium',
  startDate: input.startDate ?? null,
  endDate: input.endDate ?? null,
  dueDate: input.dueDate ?? null,
  instructions: input.instructions ? sanitizeHtml(input.instructions) : null,
  assetId: input.assetId ?? null,
  // Absent keeps the link (a form without the field), null removes it.
  ...(input.quotationId !== undefined ? { quotationId: input.quotationId } : {}),
});

/** An update's columns: only the fields the body names (left out keeps, null clears; as the users' update). */
const edited = (input: WorkOrderValues) =>
  Object.fromEntries(Object.entries(writable(input)).filter(([key]) => input[key as keyof WorkOrderValues] !== undefined)) as Partial<
    ReturnType<typeof writable>
  >;

/**
 * Creates one work order (its assignees and its "created" history line) and returns its id: add-work-order,
 * and other features' work (a procedure step's follow-up) go through it. `actor.userId` null: made by the system.
 */
export async function createWorkOrder(tx: Tx, orgId: number, actor: { userId: number | null }, input: WorkOrderValues): Promise<number> {
  await checkAsset(tx, orgId, input.assetId);
  await checkQuotation(tx, orgId, input.quotationId);
  const assignees = await checkUsers(tx, orgId, input.assignees ?? [], 'assignees', 'Assignee not found');
  const [created] = await tx
    .insert(workOrders)
    .values({ orgId, ...writable(input), status: input.status ?? 'assigned', createdById: actor.userId })
    .returning({ id: workOrders.id });
  if (assignees.length) await tx.insert(workOrderAssignees).values(assignees.map((userId) => ({ orgId, workOrderId: created.id, userId })));
  await recordActivity(tx, orgId, { entityType: ENTITY, entityId: created.id, userId: actor.userId, action: 'created' });
  await markAssetDown(tx, orgId, input.assetId ?? null, input.assetDown, { setBy: actor.userId, workOrderId: created.id });
  await emitWebhookEvent(tx, orgId, 'work-order.created', () => shownOrder(tx, orgId, created.id));
  if (assignees.length)
    await emitWebhookEvent(tx, orgId, 'work-order.assigned', async () => ({ ...(await shownOrder(tx, orgId, created.id)), added: assignees, removed: [] }));
  await notifyAssigned(tx, orgId, actor.userId, { id: created.id, title: input.title }, assignees);
  return created.id;
}

/** POST add-work-order (managers): the new order and the refreshed list. */
export async function addWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, input: WorkOrderValues, query: WorkOrderListQuery) {
  const id = await createWorkOrder(tx, orgId, actor, input);
  const workOrder = await getWorkOrder(tx, orgId, actor, id);
  return { message: 'Work order added successfully', workOrder, ...(await listWorkOrders(tx, orgId, actor, query)) };
}

/** A work order made by background work (a preventive maintenance plan): every id is one the caller's foreign keys keep valid. */
export interface NewWorkOrder {
  title: string;
  /** Already sanitised HTML (the plan sanitised it when it was saved). */
  instructions: string | null;
  priority: WorkOrderValues['priority'];
  duration: string | null;
  dueDate: Date;
  assetId: number | null;
  assignees: number[];
  parts: { partId: number; quantity: number }[];
  /** Where it came from, kept in its history (e.g. 'PM plan "Oil change"'). */
  source: string;
}

/**
 * Creates many work orders in a few statements (the plan generator): orders, assignees, parts and their
 * "created" history line, in the caller's transaction. Returns their ids in the order of `items`. No list,
 * no per-order reads: at 10,000 orders a run, statements per order are what costs.
 */
export async function createWorkOrders(tx: Tx, orgId: number, items: NewWorkOrder[]): Promise<number[]> {
  const ids: number[] = [];
  const { digits } = items.some((w) => w.parts.length) ? await moneySettings(tx, orgId) : { digits: 2 };
  // Chunks keep each statement well under PostgreSQL's 65,535 parameters.
  for (let i = 0; i < items.length; i += 500) {
    const chunk = items.slice(i, i + 500);
    const created = await tx
      .insert(workOrders)
      .values(
        chunk.map((w) => ({
          orgId,
          title: w.title,
          instructions: w.instructions,
          priority: w.priority ?? 'medium',
          duration: w.duration,
          dueDate: w.dueDate,
          assetId: w.assetId,
          status: 'assigned' as const,
          createdById: null,
        })),
      )
      .returning({ id: workOrders.id });
    // PostgreSQL returns a multi-row VALUES insert's rows in the order given.
    const chunkIds = created.map((c) => c.id);
    ids.push(...chunkIds);
    const assignees = chunk.flatMap((w, j) => [...new Set(w.assignees)].map((userId) => ({ orgId, workOrderId: chunkIds[j], userId })));
    if (assignees.length) await tx.insert(workOrderAssignees).values(assignees);
    const lines = chunk.flatMap((w, j) =>
      w.parts.map((p) => ({
        orgId,
        workOrderId: chunkIds[j],
        partId: p.partId,
        quantity: p.quantity,
        unitPriceMinor: partPriceMinor(orgId, p.partId, digits),
      })),
    );
    if (lines.length) await tx.insert(workOrderParts).values(lines);
    await recordActivities(
      tx,
      orgId,
      chunk.map((w, j) => ({
        entityType: ENTITY,
        entityId: chunkIds[j],
        userId: null,
        action: 'created' as const,
        changes: { source: { from: null, to: w.source } },
      })),
    );
    await emitWebhookEvents(tx, orgId, 'work-order.created', async () =>
      (await workOrdersAsShown(tx, orgId, chunkIds)).map((w, j) => ({ ...w, source: chunk[j].source })),
    );
    const assigned = chunk.flatMap((w, j) => (w.assignees.length ? [j] : []));
    if (assigned.length)
      await emitWebhookEvents(tx, orgId, 'work-order.assigned', async () =>
        (
          await workOrdersAsShown(
            tx,
            orgId,
            assigned.map((j) => chunkIds[j]),
          )
        ).map((w, k) => ({ ...w, added: [...new Set(chunk[assigned[k]].assignees)], removed: [] })),
      );
  }
  return ids;
}

/**
 * A work order is closed only with every required step of its procedure filled (decision 030): the
 * procedures feature's table, read here where the status changes.
 */
async function checkProcedureFilled(tx: Tx, orgId: number, id: number) {
  const s = workOrderProcedureSteps;
  const [{ n }] = await tx
    .select({ n: count() })
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, id), eq(s.required, true), sql`${s.kind} <> 'heading'`, sql`${s.value} is null`));
  if (n > 0)
    throw badRequest(
      n === 1 ? 'Fill the 1 required procedure step before closing this work order' : `Fill the ${n} required procedure steps before closing this work order`,
      'status',
    );
}

/** PUT update-work-order/{id}: managers edit anything; an assigned worker edits the order but not its assignees. */
export async function updateWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: WorkOrderValues) {
  // Refuses an edit made from an older copy and locks the order until this edit commits (decision 025).
  const [claimed] = await tx
    .update(workOrders)
    .set({ updatedAt: new Date() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, input.updatedAt)))
    .returning({ id: workOrders.id });
  if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
  const before = await getWorkOrder(tx, orgId, actor, id);
  await checkAsset(tx, orgId, input.assetId);
  await checkQuotation(tx, orgId, input.quotationId);
  const closing = input.status === 'completed' && before.status !== 'completed';
  if (closing) await checkProcedureFilled(tx, orgId, id);
  const assetId = input.assetId === undefined ? before.assetId : input.assetId;
  const codes = closing ? await failureCodesOnClose(tx, orgId, { ...before, assetId }, input) : {};
  const values = { ...edited(input), ...(input.status ? { status: input.status } : {}), ...codes, ...(closing ? resumedOnClose(before) : {}) };
  const startDate = values.startDate === undefined ? before.startDate : values.startDate;
  const endDate = values.endDate === undefined ? before.endDate : values.endDate;
  if (startDate && endDate && new Date(startDate).getTime() > new Date(endDate).getTime()) throw badRequest('End time must be after start time', 'endDate');
  const dueDate = values.dueDate === undefined ? (before.dueDate ? new Date(before.dueDate) : null) : values.dueDate;
  let assigneeChange: { from: number[]; to: number[] } | null = null;
  if (input.assignees) {
    const next = await checkUsers(tx, orgId, input.assignees, 'assignees', 'Assignee not found');
    const prev = before.assignees.map((a) => a.id).sort((a, b) => a - b);
    const sorted = [...next].sort((a, b) => a - b);
    if (JSON.stringify(prev) !== JSON.stringify(sorted)) {
      if (!isManager(actor)) throw forbidden('Only managers can change the assignees');
      await tx.delete(workOrderAssignees).where(and(eq(workOrderAssignees.orgId, orgId), eq(workOrderAssignees.workOrderId, id)));
      if (next.length) await tx.insert(workOrderAssignees).values(next.map((userId) => ({ orgId, workOrderId: id, userId })));
      assigneeChange = { from: prev, to: sorted };
    }
  }
  await tx
    .update(workOrders)
    .set(values)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
  const beforeValues = {
    ...before,
    startDate: before.startDate ? new Date(before.startDate) : null,
    endDate: before.endDate ? new Date(before.endDate) : null,
    dueDate: before.dueDate ? new Date(before.dueDate) : null,
  };
  const changes: Record<string, { from: unknown; to: unknown }> = diffChanges(beforeValues as unknown as Record<string, unknown>, values, Object.keys(values));
  if (assigneeChange) changes.assignees = assigneeChange;
  if (Object.keys(changes).length) await recordActivity(tx, orgId, { entityType: ENTITY, entityId: id, userId: actor.userId, action: 'updated', changes });
  if (Object.keys(changes).length) await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({ ...(await shownOrder(tx, orgId, id)), changes }));
  if (assigneeChange) {
    const { from, to } = assigneeChange;
    await emitWebhookEvent(tx, orgId, 'work-order.assigned', async () => ({
      ...(await shownOrder(tx, orgId, id)),
      added: to.filter((u) => !from.includes(u)),
      removed: from.filter((u) => !to.includes(u)),
    }));
    await notifyAssigned(
      tx,
      orgId,
      actor.userId,
      { id, title: values.title ?? before.title },
      to.filter((u) => !from.includes(u)),
    );
  }
  await markAssetDown(tx, orgId, assetId, input.assetDown, { setBy: actor.userId, workOrderId: id });
  if (input.status && input.status !== before.status) await statusChanged(tx, orgId, id, { ...before, assetId }, input.status, dueDate, actor.userId);
  // Scheduled (or no longer) without a status change: the portal request it came from says so (decision 039).
  else if (changes.dueDate) await workOrderChanged(tx, orgId, id, { status: before.status, dueDate });
  // Closed with a problem code: the same asset and problem within the window is a repeat failure (decision 080).
  if (codes.problemCodeId) await repeatFailureCheck(tx, orgId, id, actor.userId);
  return { message: 'Work order updated successfully', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/**
 * PUT reschedule-work-order/{id} (managers, the calendar's drag): moves the due date to another day and keeps
 * its time of day in the reader's time zone (an order shown on its start date takes the start's time).
 */
export async function rescheduleWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: RescheduleWorkOrderInput) {
  // The claiming UPDATE, as every edit: refuses an older copy and locks the order (decision 025).
  const [claimed] = await tx
    .update(workOrders)
    .set({ updatedAt: new Date() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, input.updatedAt)))
    .returning({ dueDate: workOrders.dueDate, startDate: workOrders.startDate, status: workOrders.status, createdAt: workOrders.createdAt });
  if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
  // Closed work stays where it was done; a move stays within sane days (decision 064).
  if (claimed.status === 'completed' || claimed.status === 'cancelled') throw conflict(RESCHEDULE_MESSAGES[claimed.status]);
  const zone = input.timeZone ?? (await orgTimeZone(tx, orgId));
  const problem = rescheduleDayProblem(input.dueDate, dayInZone(claimed.createdAt, zone), dayInZone(now(), zone));
  if (problem) throw badRequest(problem, 'dueDate');
  // The time of day stays on the organisation's clock (the calendar's days), or the zone the caller names.
  const dueDate = moveToDay(claimed.dueDate ?? claimed.startDate, input.dueDate, zone);
  if (claimed.dueDate?.getTime() !== dueDate.getTime()) {
    await tx
      .update(workOrders)
      .set({ dueDate })
      .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
    await recordActivity(tx, orgId, {
      entityType: ENTITY,
      entityId: id,
      userId: actor.userId,
      action: 'updated',
      changes: { dueDate: { from: iso(claimed.dueDate), to: iso(dueDate) } },
    });
    await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({
      ...(await shownOrder(tx, orgId, id)),
      changes: { dueDate: { from: iso(claimed.dueDate), to: iso(dueDate) } },
    }));
    await workOrderChanged(tx, orgId, id, { status: claimed.status, dueDate });
  }
  return { message: 'Work order rescheduled successfully', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/**
 * What a status change tells the world, in the change's transaction: the webhooks (decision 043: status-changed
 * always, completed too when it is the new one) and the portal request it came from (decision 039).
 */
async function statusChanged(
  tx: Tx,
  orgId: number,
  id: number,
  before: { title: string; status: string; assetId: number | null },
  to: WorkOrderStatus,
  dueDate: Date | null,
  actorId: number | null,
) {
  // Who created it and who follows it (decision 074).
  await notifyStatusChanged(tx, orgId, actorId, id, before.status, to);
  // Completed (or cancelled) work brings its asset back up (decision 079).
  if (to === 'completed' || to === 'cancelled')
    await workDone(tx, orgId, before.assetId, to === 'completed' ? 'any-work' : 'own', { setBy: actorId, workOrderId: id });
  await emitWebhookEvent(tx, orgId, 'work-order.status-changed', async () => ({ ...(await shownOrder(tx, orgId, id)), from: before.status, to }));
  if (to === 'completed') await emitWebhookEvent(tx, orgId, 'work-order.completed', () => shownOrder(tx, orgId, id));
  await workOrderChanged(tx, orgId, id, { status: to, dueDate });
}

/** The failure codes an order is closed with, checked (decision 080; the failure-codes feature's rule). */
function failureCodesOnClose(tx: Tx, orgId: number, before: WorkOrderDto, given: FailureCodesOfOrder) {
  return checkFailureCodesOnClose(tx, orgId, before, given);
}

/** Closing or cancelling an order on hold ends the hold: its span is added to the held time. */
function resumedOnClose(before: WorkOrderDto) {
  if (!before.onHold || !before.heldAt) return {};
  return { onHold: false, holdReason: null, holdNote: null, heldAt: null, heldSeconds: heldSecondsAfter(before.heldAt) };
}
const heldSecondsAfter = (heldAt: string) =>
  sql`${workOrders.heldSeconds} + greatest(0, round(extract(epoch from (${now().toISOString()}::timestamptz - ${heldAt}::timestamptz))))::int`;

/**
 * A repeat failure (decision 080): the bell's entry (`notifyRepeatFailure`) and the webhook event
 * `work-order.repeat-failure`, with the earlier order.
 */
async function repeatFailureCheck(tx: Tx, orgId: number, id: number, actorId: number) {
  const repeat = await findRepeatFailure(tx, orgId, id);
  if (!repeat) return;
  await notifyRepeatFailure(tx, orgId, id, repeat, actorId);
  await emitWebhookEvent(tx, orgId, 'work-order.repeat-failure', async () => ({
    ...(await shownOrder(tx, orgId, id)),
    previousWorkOrderId: repeat.previousWorkOrderId,
    problem: repeat.problem,
    withinDays: repeat.withinDays,
  }));
}

const HOLD_LABELS: Record<string, string> = {
  parts: 'waiting for parts',
  vendor: 'waiting for vendor',
  access: 'waiting for access',
  shutdown: 'waiting for shutdown',
  other: 'other',
};

/**
 * PUT hold-work-order/{id}: an open order waits (decision 080): a flag beside the status, with a reason and a
 * note. It stays in the backlog; the time on hold is left out of its repair time.
 */
export async function holdWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: HoldInput) {
  const [claimed] = await tx
    .update(workOrders)
    .set({ updatedAt: new Date() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, input.updatedAt)))
    .returning({ id: workOrders.id });
  if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
  const before = await getWorkOrder(tx, orgId, actor, id);
  if (before.status === 'completed' || before.status === 'cancelled') throw conflict(FAILURE_CODE_MESSAGES.holdClosed);
  if (before.onHold) throw conflict(FAILURE_CODE_MESSAGES.alreadyHeld);
  await tx
    .update(workOrders)
    .set({ onHold: true, holdReason: input.reason, holdNote: input.note ?? null, heldAt: now() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
  const to = `${HOLD_LABELS[input.reason]}${input.note ? `: ${input.note}` : ''}`;
  await recordActivity(tx, orgId, { entityType: ENTITY, entityId: id, userId: actor.userId, action: 'updated', changes: { onHold: { from: null, to } } });
  await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({
    ...(await shownOrder(tx, orgId, id)),
    changes: { onHold: { from: false, to: true } },
  }));
  return { message: 'Work order put on hold', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/** PUT resume-work-order/{id}: the hold ends; its span is added to the order's held time. */
export async function resumeWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, updatedAt?: string) {
  const [claimed] = await tx
    .update(workOrders)
    .set({ updatedAt: new Date() })
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, updatedAt)))
    .returning({ id: workOrders.id });
  if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
  const before = await getWorkOrder(tx, orgId, actor, id);
  if (!before.onHold) throw conflict(FAILURE_CODE_MESSAGES.notHeld);
  await tx
    .update(workOrders)
    .set(resumedOnClose(before))
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
  const from = `${HOLD_LABELS[before.holdReason ?? 'other']}${before.holdNote ? `: ${before.holdNote}` : ''}`;
  await recordActivity(tx, orgId, { entityType: ENTITY, entityId: id, userId: actor.userId, action: 'updated', changes: { onHold: { from, to: null } } });
  await emitWebhookEvent(tx, orgId, 'work-order.updated', async () => ({
    ...(await shownOrder(tx, orgId, id)),
    changes: { onHold: { from: true, to: false } },
  }));
  return { message: 'Work order resumed', workOrder: await getWorkOrder(tx, orgId, actor, id) };
}

/** PUT update-status/{id}: any status may follow any other (spec section 4). */
export async function updateWorkOrderStatus(
  tx: Tx,
  orgId: number,
  actor: AccessClaims,
  id: number,
  status: WorkOrderStatus,
  updatedAt?: string,
  given: FailureCodesOfOrder = {},
) {
  // Sent with the version it was made from (decision 041): the claiming UPDATE, as for any edit (decision 025).
  if (updatedAt !== undefined) {
    const [claimed] = await tx
      .update(workOrders)
      .set({ updatedAt: new Date() })
      .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id), sameUpdatedAt(workOrders.updatedAt, updatedAt)))
      .returning({ id: workOrders.id });
    if (!claimed) throw new StaleEdit(await getWorkOrder(tx, orgId, actor, id));
  }
  const before = await getWorkOrder(tx, orgId, actor, id);
  if (before.status !== status) {
    if (status === 'completed') await checkProcedureFilled(tx, orgId, id);
    const codes = status === 'completed' ? await failureCodesOnClose(tx, orgId, before, given) : {};
    await tx
      .update(workOrders)
      .set({ status, ...codes, ...(status === 'completed' || status === 'cancelled' ? resumedOnClose(before) : {}) })
      .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)));
    await recordActivity(tx, orgId, {
      entityType: ENTITY,
      entityId: id,
      userId: actor.userId,
      action: 'status',
      changes: { status: { from: before.status, to: status } },
    });
    await statusChanged(tx, orgId, id, before, status, before.dueDate ? new Date(before.dueDate) : null, actor.userId);
    if (codes.problemCodeId) await repeatFailureCheck(tx, orgId, id, actor.userId);
  }
  const order = await getWorkOrder(tx, orgId, actor, id);
  return { message: 'Work order status updated successfully', order, workOrder: order };
}

/** DELETE delete-work-order/{id} (managers): labour, parts and its procedure (photos, signatures) go with it; returns the refreshed list. */
export async function deleteWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, id: number, query: WorkOrderListQuery) {
  // Its files leave storage with it: the procedure's photo and signature answers and the technician's photos
  // (decision 041), read in one statement.
  const s = workOrderProcedureSteps;
  const p = workOrderPhotos;
  const images = await tx
    .select({ url: sql<string>`${s.value} #>> '{}'` })
    .from(s)
    .where(and(eq(s.orgId, orgId), eq(s.workOrderId, id), sql`${s.kind} in ('photo', 'signature')`, sql`jsonb_typeof(${s.value}) = 'string'`))
    .unionAll(
      tx
        .select({ url: sql<string>`${p.url}` })
        .from(p)
        .where(and(eq(p.orgId, orgId), eq(p.workOrderId, id))),
    );
  discardFiles(
    tx,
    images.map((r) => r.url),
  );
  const rows = await tx
    .delete(workOrders)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.id, id)))
    .returning({ id: workOrders.id });
  if (!rows.length) throw notFound('Work order');
  // A portal request accepted into it is told the work will not be done (its link then expires as any closed one's).
  await workOrderChanged(tx, orgId, id, null);
  await recordActivity(tx, orgId, { entityType: ENTITY, entityId: id, userId: actor.userId, action: 'deleted' });
  return { message: 'Work order deleted successfully', ...(await listWorkOrders(tx, orgId, actor, query)) };
}

// ---- Labour ----

/**
 * The one formula of a labour line's cost in minor units: whole minutes (rounded) x an hourly rate in minor units
 * / 60, rounded half up per line (null without a rate). Every figure reads it: the labour list, get-cost, the
 * shares' list and analytics' `laborRows` (decision 040).
 */
export const laborCostMinor = (start: SQL | AnyColumn, end: SQL | AnyColumn, rateMinor: SQL | AnyColumn) =>
  sql<number | null>`round(round(extract(epoch from (${end} - ${start})) / 60) * ${rateMinor} / 60.0)`.mapWith((v) => (v === null ? null : Number(v)));

/**
 * A labour line's rate as it is written (decision 063): the worker's hourly rate in force now, kept on the line
 * so a later change of the rate does not rewrite past costs. A SQL value for an insert's `rateMinor`.
 */
export const workerRateMinor = (orgId: number, workerId: number) =>
  sql<number | null>`(select ${users.hourlyRate} from ${users} where ${users.orgId} = ${orgId}::int and ${users.id} = ${workerId}::int)`;

/** A part line's unit price as it is written (decision 063): the part's sales price now, in minor units. A SQL value for an insert's `unitPriceMinor`. */
export const partPriceMinor = (orgId: number, partId: number, digits: number) =>
  sql<number>`(select round(${parts.salesPrice} * ${10 ** digits}::int) from ${parts} where ${parts.orgId} = ${orgId}::int and ${parts.id} = ${partId}::int)`;

/** Whether the reader sees amounts (rates, prices, costs): managers do, workers do not (as people's hourly rates, issue 24). */
const seesAmounts = (actor: AccessClaims) => isManager(actor);

/** A work order's labour lines; `showAmounts` false (workers) leaves contractors' rates and costs out. */
async function listLaborRows(tx: ReadTx, orgId: number, workOrderId: number, showAmounts: boolean): Promise<LaborDto[]> {
  const rows = await tx
    .select({
      id: workOrderLabors.id,
      workOrderId: workOrderLabors.workOrderId,
      workerId: workOrderLabors.workerId,
      reasonId: workOrderLabors.reasonId,
      startDate: workOrderLabors.startDate,
      endDate: workOrderLabors.endDate,
      createdAt: workOrderLabors.createdAt,
      shareId: workOrderLabors.shareId,
      externalName: workOrderLabors.externalName,
      externalRateMinor: workOrderLabors.externalRateMinor,
      externalCostMinor: laborCostMinor(workOrderLabors.startDate, workOrderLabors.endDate, workOrderLabors.externalRateMinor),
      firstName: users.firstName,
      lastName: users.lastName,
      reasonName: timeTrackingReasons.name,
    })
    .from(workOrderLabors)
    // Left joins: a contractor's time (decision 040) has no worker and no reason.
    .leftJoin(users, and(eq(users.orgId, workOrderLabors.orgId), eq(users.id, workOrderLabors.workerId)))
    .leftJoin(timeTrackingReasons, and(eq(timeTrackingReasons.orgId, workOrderLabors.orgId), eq(timeTrackingReasons.id, workOrderLabors.reasonId)))
    .where(and(eq(workOrderLabors.orgId, orgId), eq(workOrderLabors.workOrderId, workOrderId)))
    .orderBy(asc(workOrderLabors.startDate), asc(workOrderLabors.id));
  return rows.map((r) => {
    const external =
      r.shareId !== null && r.externalName !== null
        ? {
            shareId: r.shareId,
            name: r.externalName,
            rateMinor: showAmounts ? (r.externalRateMinor ?? 0) : null,
            costMinor: showAmounts ? (r.externalCostMinor ?? 0) : null,
          }
        : null;
    return {
      id: r.id,
      workOrderId: r.workOrderId,
      workerId: r.workerId,
      reasonId: r.reasonId,
      Worker: external ? { id: null, firstName: external.name, lastName: '' } : { id: r.workerId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' },
      TimeTrackReason: { id: r.reasonId, name: r.reasonName ?? '' },
      startDate: r.startDate.toISOString(),
      endDate: r.endDate.toISOString(),
      createdAt: r.createdAt.toISOString(),
      external,
    };
  });
}

/** The labour list under both names the screens use ("labor list"). */
const laborList = (labors: LaborDto[]) => ({ labors, workOrderLabors: labors });

/** GET get-labors/{id}. */
export async function listLabors(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  return laborList(await listLaborRows(tx, orgId, workOrderId, seesAmounts(actor)));
}

/** A labour line's length as the history says it ("1h 30m"). */
const minutesLabel = (start: Date, end: Date) => formatMinutes((end.getTime() - start.getTime()) / 60_000);

/** POST add-labor/{id}: a worker logs their own time; a manager may name the worker. */
export async function addLabor(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, input: z.output<typeof laborInputSchema>) {
  // As a contractor's (issue 45): the schema bounds the span and the end by the checking machine's clock; the
  // server's own `now()` decides here.
  if (!endsByNow(input, now().getTime())) throw badRequest(LABOR_FUTURE_MESSAGE, 'endTime');
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const [reason] = await tx
    .select({ id: timeTrackingReasons.id, name: timeTrackingReasons.name })
    .from(timeTrackingReasons)
    .where(and(eq(timeTrackingReasons.orgId, orgId), eq(timeTrackingReasons.id, input.reason)));
  if (!reason) throw badRequest('Reason is required', 'reason');
  let workerId = actor.userId;
  if (input.workerId && input.workerId !== actor.userId) {
    if (!isManager(actor)) throw forbidden('Workers can only log their own time');
    await checkUsers(tx, orgId, [input.workerId], 'workerId', 'Worker not found');
    workerId = input.workerId;
  }
  const [created] = await tx
    .insert(workOrderLabors)
    .values({
      orgId,
      workOrderId,
      workerId,
      reasonId: reason.id,
      startDate: input.startTime,
      endDate: input.endTime,
      rateMinor: workerRateMinor(orgId, workerId),
    })
    .returning({ id: workOrderLabors.id });
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { labor: { from: null, to: `${minutesLabel(input.startTime, input.endTime)} (${reason.name})` } },
  });
  const labors = await listLaborRows(tx, orgId, workOrderId, seesAmounts(actor));
  return { message: 'Work order labor added successfully', labor: labors.find((l) => l.id === created.id)!, ...laborList(labors) };
}

/** DELETE delete-labor/{workOrderId}/labor/{laborId}: workers delete only their own entries. */
export async function deleteLabor(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, laborId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const where = and(eq(workOrderLabors.orgId, orgId), eq(workOrderLabors.workOrderId, workOrderId), eq(workOrderLabors.id, laborId));
  const [row] = await tx
    .select({ workerId: workOrderLabors.workerId, startDate: workOrderLabors.startDate, endDate: workOrderLabors.endDate })
    .from(workOrderLabors)
    .where(where);
  if (!row) throw notFound('Labor');
  if (!isManager(actor) && row.workerId !== actor.userId) throw forbidden('Workers can only delete their own time');
  await tx.delete(workOrderLabors).where(where);
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { labor: { from: minutesLabel(row.startDate, row.endDate), to: null } },
  });
  return { message: 'Work order labor deleted successfully', ...laborList(await listLaborRows(tx, orgId, workOrderId, seesAmounts(actor))) };
}

// ---- Parts ----

/** A work order's parts; `showAmounts` false (workers) leaves contractors' prices and costs out. */
async function listPartRows(tx: ReadTx, orgId: number, workOrderId: number, showAmounts: boolean): Promise<WorkOrderPartDto[]> {
  const rows = await tx
    .select({
      id: workOrderParts.id,
      workOrderId: workOrderParts.workOrderId,
      partId: workOrderParts.partId,
      quantity: workOrderParts.quantity,
      shareId: workOrderParts.shareId,
      externalName: workOrderParts.externalName,
      externalUnitPriceMinor: workOrderParts.externalUnitPriceMinor,
      unitPriceMinor: workOrderParts.unitPriceMinor,
      locationId: workOrderParts.locationId,
      name: parts.name,
      salesPrice: parts.salesPrice,
    })
    .from(workOrderParts)
    // A left join: a contractor's part (decision 040) is none of the inventory's.
    .leftJoin(parts, and(eq(parts.orgId, workOrderParts.orgId), eq(parts.id, workOrderParts.partId)))
    .where(and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId)))
    .orderBy(asc(workOrderParts.id));
  const digits = rows.length ? (await moneySettings(tx, orgId)).digits : 2;
  return rows.map((r) => {
    const external =
      r.shareId !== null && r.externalName !== null
        ? {
            shareId: r.shareId,
            name: r.externalName,
            rateMinor: showAmounts ? (r.externalUnitPriceMinor ?? 0) : null,
            costMinor: showAmounts ? (r.externalUnitPriceMinor ?? 0) * r.quantity : null,
          }
        : null;
    return {
      id: r.id,
      workOrderId: r.workOrderId,
      partId: r.partId,
      Part: external
        ? { id: null, name: external.name, salesPrice: external.rateMinor === null ? null : toMajor(external.rateMinor, digits) }
        : // The price the line kept when the part was used (decision 063), so the tab's totals are the order's cost.
          {
            id: r.partId,
            name: r.name ?? '',
            salesPrice: showAmounts ? (r.unitPriceMinor !== null ? toMajor(r.unitPriceMinor, digits) : Number(r.salesPrice)) : null,
          },
      quantity: r.quantity,
      locationId: r.locationId,
      external,
    };
  });
}

/**
 * What a work order costs so far, in minor units: its people's time at the rate each line kept (`rateMinor`,
 * the formula `laborCostMinor`), parts at the price each line kept, contractors' time at their own rates and
 * their parts at their own prices (decisions 040, 063). The same lines and formulas as analytics' laborRows and
 * partRows, so the order's cost is what the insights count for it. One statement over its labour and parts.
 */
export async function getWorkOrderCost(tx: ReadTx, orgId: number, workOrderId: number): Promise<WorkOrderCost> {
  const l = workOrderLabors;
  const p = workOrderParts;
  const minutes = sql`extract(epoch from (${l.endDate} - ${l.startDate})) / 60`;
  const internalCost = laborCostMinor(l.startDate, l.endDate, l.rateMinor);
  const externalCost = laborCostMinor(l.startDate, l.endDate, l.externalRateMinor);
  const result = await tx.execute(sql`
    select
      (select coalesce(sum(round(${minutes})), 0) from ${l} where ${l.orgId} = ${orgId} and ${l.workOrderId} = ${workOrderId} and ${l.shareId} is null) as labor_minutes,
      (select coalesce(sum(${internalCost}), 0) from ${l} where ${l.orgId} = ${orgId} and ${l.workOrderId} = ${workOrderId} and ${l.shareId} is null) as labor,
      (select coalesce(sum(round(${minutes})), 0) from ${l} where ${l.orgId} = ${orgId} and ${l.workOrderId} = ${workOrderId} and ${l.shareId} is not null) as ext_minutes,
      (select coalesce(sum(${externalCost}), 0) from ${l} where ${l.orgId} = ${orgId} and ${l.workOrderId} = ${workOrderId} and ${l.shareId} is not null) as ext_labor,
      (select coalesce(sum(coalesce(${p.unitPriceMinor}, 0) * ${p.quantity}), 0) from ${p} where ${p.orgId} = ${orgId} and ${p.workOrderId} = ${workOrderId} and ${p.shareId} is null) as parts,
      (select coalesce(sum(${p.externalUnitPriceMinor}::bigint * ${p.quantity}), 0) from ${p} where ${p.orgId} = ${orgId} and ${p.workOrderId} = ${workOrderId} and ${p.shareId} is not null) as ext_parts
  `);
  const [row] = rowsOf<Record<'labor_minutes' | 'labor' | 'ext_minutes' | 'ext_labor' | 'parts' | 'ext_parts', string | number | null>>(result);
  const laborMinor = Number(row.labor ?? 0);
  const partsMinor = Number(row.parts ?? 0);
  const externalLaborMinor = Number(row.ext_labor ?? 0);
  const externalPartsMinor = Number(row.ext_parts ?? 0);
  return {
    laborMinutes: Number(row.labor_minutes ?? 0),
    laborMinor,
    externalLaborMinutes: Number(row.ext_minutes ?? 0),
    externalLaborMinor,
    partsMinor,
    externalPartsMinor,
    totalMinor: laborMinor + partsMinor + externalLaborMinor + externalPartsMinor,
  };
}

/**
 * GET get-cost/{id}: the work order's cost so far (a work order the actor sees). Amounts are for managers: a
 * worker gets the minutes and null for every amount.
 */
export async function getWorkOrderCostFor(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number): Promise<{ cost: WorkOrderCostView }> {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const cost = await getWorkOrderCost(tx, orgId, workOrderId);
  if (seesAmounts(actor)) return { cost };
  return { cost: { ...cost, laborMinor: null, externalLaborMinor: null, partsMinor: null, externalPartsMinor: null, totalMinor: null } };
}

/** A work order's part lines and whether they are there (decision 081). */
async function partsAnswer(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  return {
    workOrderParts: await listPartRows(tx, orgId, workOrderId, seesAmounts(actor)),
    partsReadiness: (await partsReadiness(tx, orgId, [workOrderId])).get(workOrderId)!,
  };
}

/**
 * POST use-parts/{id}: the technician takes what the order reserves (lines the PM generator planned, decision
 * 081): each stockable line's quantity not consumed yet leaves its location as a consumption (409 on a shortage
 * unless negative stock is allowed). `partId` narrows it to one line.
 */
export async function useReservedParts(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, partId?: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const lines = await tx
    .select({ partId: workOrderParts.partId, quantity: workOrderParts.quantity, locationId: workOrderParts.locationId })
    .from(workOrderParts)
    .where(
      and(
        eq(workOrderParts.orgId, orgId),
        eq(workOrderParts.workOrderId, workOrderId),
        sql`${workOrderParts.shareId} is null`,
        partId ? eq(workOrderParts.partId, partId) : undefined,
      ),
    )
    .orderBy(asc(workOrderParts.partId));
  if (partId && !lines.length) throw notFound('Part');
  const defaultLocation = await defaultLocationId(tx, orgId);
  const used: string[] = [];
  for (const line of lines) {
    if (line.partId === null || !(await isStockable(tx, orgId, line.partId))) continue;
    const remaining = line.quantity - (await consumedForLine(tx, orgId, workOrderId, line.partId));
    if (remaining <= 0) continue;
    const locationId = line.locationId ?? defaultLocation;
    if (line.locationId === null)
      await tx
        .update(workOrderParts)
        .set({ locationId })
        .where(and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId), eq(workOrderParts.partId, line.partId)));
    await consumeForLine(tx, orgId, actor.userId, { workOrderId, partId: line.partId, locationId, quantity: remaining });
    used.push(`part ${line.partId} x${remaining}`);
  }
  if (used.length)
    await recordActivity(tx, orgId, {
      entityType: ENTITY,
      entityId: workOrderId,
      userId: actor.userId,
      action: 'updated',
      changes: { partsUsed: { from: null, to: used.join(', ') } },
    });
  return { message: 'Work order parts used successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** GET get-parts/{id}. */
export async function listParts(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  return { ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** POST add-parts/{id}: each part is attached once; adding it again adds to its quantity. */
export async function addParts(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, input: z.output<typeof addPartsSchema>) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const wanted = new Map<number, number>();
  const from = new Map<number, number>();
  for (const line of input.parts) {
    const { partId, quantity, locationId } = typeof line === 'number' ? { partId: line, quantity: 1, locationId: undefined } : line;
    wanted.set(partId, (wanted.get(partId) ?? 0) + quantity);
    if (locationId !== undefined) from.set(partId, locationId);
  }
  // One lock order for every taker of stock (decision 071): parts by id.
  const ids = [...wanted.keys()].sort((a, b) => a - b);
  const found = await tx
    .select({ id: parts.id, name: parts.name, salesPrice: parts.salesPrice, type: parts.type })
    .from(parts)
    .where(and(eq(parts.orgId, orgId), inArray(parts.id, ids)));
  if (found.length !== ids.length) throw badRequest('Part not found', 'parts');
  const locations = [...new Set(from.values())];
  if (locations.length) await requireReferences(tx, orgId, stockLocations, locations, 'parts', 'Location does not exist in this organization');
  const defaultLocation = await defaultLocationId(tx, orgId);
  const { digits } = await moneySettings(tx, orgId);
  // The price when used is kept on the line (decision 063); adding more of a part already on the order keeps the
  // line's price and its location.
  const lines = await tx
    .insert(workOrderParts)
    .values(
      ids.map((partId) => ({
        orgId,
        workOrderId,
        partId,
        quantity: wanted.get(partId)!,
        unitPriceMinor: toMinor(found.find((p) => p.id === partId)!.salesPrice, digits),
        locationId: from.get(partId) ?? defaultLocation,
      })),
    )
    .onConflictDoUpdate({
      target: [workOrderParts.orgId, workOrderParts.workOrderId, workOrderParts.partId],
      set: { quantity: sql`${workOrderParts.quantity} + excluded.quantity`, locationId: sql`coalesce(${workOrderParts.locationId}, excluded.location_id)` },
    })
    .returning({ partId: workOrderParts.partId, quantity: workOrderParts.quantity, locationId: workOrderParts.locationId });
  // The line as it now is (adding again adds up): a refusal rolls the whole add back.
  for (const line of lines) {
    const part = found.find((p) => p.id === line.partId)!;
    if (line.quantity > MAX_LINE_QUANTITY) throw badRequest(`${part.name}: the quantity on a work order must be at most ${MAX_LINE_QUANTITY}`, 'parts');
    if (line.quantity * toMinor(part.salesPrice, digits) > MAX_LINE_COST_MINOR)
      throw badRequest(lineCostMessage(`${part.name}: quantity × sales price`, digits), 'parts');
    if (from.has(part.id) && from.get(part.id) !== line.locationId)
      throw badRequest(`${part.name} is already on this work order from another location`, 'parts');
  }
  // What is used leaves stock (decision 071): a consumption move per stockable part, 409 when the location has too little.
  for (const partId of ids) {
    if (found.find((p) => p.id === partId)!.type !== 'stockable') continue;
    const line = lines.find((l) => l.partId === partId)!;
    await consumeForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId: line.locationId ?? defaultLocation, quantity: wanted.get(partId)! });
  }
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { parts: { from: null, to: found.map((p) => `${p.name} x${wanted.get(p.id)}`).join(', ') } },
  });
  return { message: 'Work order parts added successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** PUT update-part/{workOrderId}/part/{partId}: the line's new quantity; more is taken from its location, less goes back. */
export async function updatePartQuantity(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, partId: number, quantity: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const where = and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId), eq(workOrderParts.partId, partId));
  const [line] = await tx
    .select({ quantity: workOrderParts.quantity, locationId: workOrderParts.locationId, unitPriceMinor: workOrderParts.unitPriceMinor })
    .from(workOrderParts)
    .where(where)
    .for('update');
  if (!line) throw notFound('Part');
  if (quantity * (line.unitPriceMinor ?? 0) > MAX_LINE_COST_MINOR)
    throw badRequest(lineCostMessage('Quantity × sales price', (await moneySettings(tx, orgId)).digits), 'quantity');
  await tx.update(workOrderParts).set({ quantity }).where(where);
  const delta = quantity - line.quantity;
  if (delta !== 0 && (await isStockable(tx, orgId, partId))) {
    const locationId = line.locationId ?? (await defaultLocationId(tx, orgId));
    if (delta > 0) await consumeForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId, quantity: delta });
    else await returnForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId, quantity: -delta });
  }
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { parts: { from: `part ${partId} x${line.quantity}`, to: `part ${partId} x${quantity}` } },
  });
  return { message: 'Work order part updated successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

/** DELETE delete-part/{workOrderId}/part/{partId}: partId names the part (DESIGN 11); what the line took goes back to its location. */
export async function deletePart(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, partId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const rows = await tx
    .delete(workOrderParts)
    .where(and(eq(workOrderParts.orgId, orgId), eq(workOrderParts.workOrderId, workOrderId), eq(workOrderParts.partId, partId)))
    .returning({ id: workOrderParts.id, locationId: workOrderParts.locationId });
  if (!rows.length) throw notFound('Part');
  if (await isStockable(tx, orgId, partId)) {
    await returnForLine(tx, orgId, actor.userId, { workOrderId, partId, locationId: rows[0].locationId ?? (await defaultLocationId(tx, orgId)) });
  }
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    userId: actor.userId,
    action: 'updated',
    changes: { parts: { from: `part ${partId}`, to: null } },
  });
  return { message: 'Work order part deleted successfully', ...(await partsAnswer(tx, orgId, actor, workOrderId)) };
}

// ---- A contractor's lines (shared work orders, decision 040) ----

/** Who reported a contractor's line: the share, and the contractor's name as history shows it. */
export interface ExternalReporter {
  shareId: number;
  name: string;
}

/** A line's cost over MAX_LINE_COST_MINOR, said in the organisation's currency. */
const lineCostMessage = (what: string, digits: number) => `${what} must be at most ${toMajor(MAX_LINE_COST_MINOR, digits)}`;

/**
 * A contractor's time entry (issue 45): at most 24 hours, ending between the share's making and now (give or take
 * a phone's clock), at a bounded rate; a share holds at most MAX_SHARE_LINES.
 */
async function checkExternalLabor(tx: Tx, orgId: number, by: ExternalReporter & { since: Date }, input: { startTime: Date; endTime: Date; rateMinor: number }) {
  const skew = CLOCK_SKEW_MINUTES * 60_000;
  if (!withinLaborSpan(input)) throw badRequest(LABOR_SPAN_MESSAGE, 'endTime');
  if (!endsByNow(input, now().getTime())) throw badRequest(LABOR_FUTURE_MESSAGE, 'endTime');
  // It ends inside the share's life (give or take the clock skew: the page's times are to the minute); it may have
  // begun before (the day's work the link came for), 24 hours at most.
  if (input.endTime.getTime() < by.since.getTime() - skew) throw badRequest('End time cannot be before the work order was shared with you', 'endTime');
  const { digits } = await moneySettings(tx, orgId);
  if (input.rateMinor > MAX_HOURLY_RATE_MINOR) throw badRequest(`Hourly rate must be at most ${toMajor(MAX_HOURLY_RATE_MINOR, digits)}`, 'hourlyRate');
  await checkShareLines(tx, orgId, workOrderLabors, by.shareId, 'time entries');
}

async function checkShareLines(tx: Tx, orgId: number, table: typeof workOrderLabors | typeof workOrderParts, shareId: number, what: string) {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.orgId, orgId), eq(table.shareId, shareId)));
  if (n >= MAX_SHARE_LINES) throw badRequest(`A shared work order takes at most ${MAX_SHARE_LINES} ${what}`);
}

/**
 * A contractor's time on a work order, at their own hourly rate (minor units), with its history line under the
 * contractor's name. For the work-order-shares feature, which has checked the share and its rights.
 */
export async function addExternalLabor(
  tx: Tx,
  orgId: number,
  workOrderId: number,
  by: ExternalReporter & { since: Date },
  input: { startTime: Date; endTime: Date; rateMinor: number },
) {
  await checkExternalLabor(tx, orgId, by, input);
  const [created] = await tx
    .insert(workOrderLabors)
    .values({
      orgId,
      workOrderId,
      shareId: by.shareId,
      externalName: by.name,
      externalRateMinor: input.rateMinor,
      startDate: input.startTime,
      endDate: input.endTime,
    })
    .returning({ id: workOrderLabors.id });
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    actorName: by.name,
    action: 'updated',
    changes: { labor: { from: null, to: `${minutesLabel(input.startTime, input.endTime)} (external)` } },
  });
  return created.id;
}

/** A contractor's part (their name for it, a quantity and their unit price in minor units), with its history line. */
export async function addExternalPart(
  tx: Tx,
  orgId: number,
  workOrderId: number,
  by: ExternalReporter,
  input: { name: string; quantity: number; unitPriceMinor: number },
) {
  if (input.quantity > MAX_LINE_QUANTITY) throw badRequest('Quantity is too large', 'quantity');
  if (input.quantity * input.unitPriceMinor > MAX_LINE_COST_MINOR)
    throw badRequest(lineCostMessage('Quantity × unit price', (await moneySettings(tx, orgId)).digits), 'unitPrice');
  await checkShareLines(tx, orgId, workOrderParts, by.shareId, 'parts');
  const [created] = await tx
    .insert(workOrderParts)
    .values({ orgId, workOrderId, shareId: by.shareId, externalName: input.name, externalUnitPriceMinor: input.unitPriceMinor, quantity: input.quantity })
    .returning({ id: workOrderParts.id });
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    actorName: by.name,
    action: 'updated',
    changes: { parts: { from: null, to: `${input.name} x${input.quantity} (external)` } },
  });
  return created.id;
}

/**
 * A contractor deletes a line their share reported (labour or parts), with its history line under their name.
 * Only this share's own external rows of this work order: any other id is a 404 and nothing changes.
 */
export async function deleteExternalLine(tx: Tx, orgId: number, workOrderId: number, by: ExternalReporter, kind: 'labor' | 'part', id: number) {
  if (kind === 'labor') {
    const l = workOrderLabors;
    const [row] = await tx
      .delete(l)
      .where(and(eq(l.orgId, orgId), eq(l.workOrderId, workOrderId), eq(l.shareId, by.shareId), eq(l.id, id)))
      .returning({ startDate: l.startDate, endDate: l.endDate });
    if (!row) throw notFound('Labor');
    await recordActivity(tx, orgId, {
      entityType: ENTITY,
      entityId: workOrderId,
      actorName: by.name,
      action: 'updated',
      changes: { labor: { from: `${minutesLabel(row.startDate, row.endDate)} (external)`, to: null } },
    });
    return;
  }
  const p = workOrderParts;
  const [row] = await tx
    .delete(p)
    .where(and(eq(p.orgId, orgId), eq(p.workOrderId, workOrderId), eq(p.shareId, by.shareId), eq(p.id, id)))
    .returning({ name: p.externalName, quantity: p.quantity });
  if (!row) throw notFound('Part');
  await recordActivity(tx, orgId, {
    entityType: ENTITY,
    entityId: workOrderId,
    actorName: by.name,
    action: 'updated',
    changes: { parts: { from: `${row.name} x${row.quantity} (external)`, to: null } },
  });
}

/** The lines a share reported (labour and parts), for the contractor's own page (their own amounts). */
export async function listExternalLines(tx: ReadTx, orgId: number, workOrderId: number, shareId: number) {
  const [labors, partRows] = [await listLaborRows(tx, orgId, workOrderId, true), await listPartRows(tx, orgId, workOrderId, true)];
  return { labors: labors.filter((l) => l.external?.shareId === shareId), parts: partRows.filter((p) => p.external?.shareId === shareId) };
}

/** A manager closes a work order whose contractor's work was accepted: the status rule (required procedure steps) applies. */
export async function closeWorkOrder(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number) {
  return updateWorkOrderStatus(tx, orgId, actor, workOrderId, 'completed');
}
