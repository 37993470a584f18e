import { and, asc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, timeTrackingReasons, users, workOrderLabors } from '../../server/db/schema';
import { badRequest, forbidden, notFound } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { historyOf } from '../activity/activity.service';
import { endsByNow, LABOR_FUTURE_MESSAGE, type LaborDto, type laborInputSchema } from './work-orders.schema';
import type { z } from 'zod';
import { now } from '../../server/clock';
import { ENTITY, isManager, getWorkOrder } from './work-order-read.service';
import { checkUsers, seesAmounts, minutesLabel, externalLine } from './work-order-rules.service';
import { pick } from '../../shared/pick';
import { readOrgRow } from '../../server/db/org-rows';
import { groupByWorkOrder } from './by-work-order';

const history = historyOf(ENTITY);

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

/** Work orders' labour lines, by order; `showAmounts` false (workers) leaves contractors' rates and costs out. */
export async function laborRowsByOrder(tx: ReadTx, orgId: number, workOrderIds: number[], showAmounts: boolean): Promise<Map<number, LaborDto[]>> {
  if (!workOrderIds.length) return new Map();
  const rows = await tx
    .select({
      ...pick(workOrderLabors, 'id', 'workOrderId', 'workerId', 'reasonId', 'startDate', 'endDate', 'createdAt', 'shareId', 'externalName'),
      ...pick(workOrderLabors, 'externalRateMinor'),
      externalCostMinor: laborCostMinor(workOrderLabors.startDate, workOrderLabors.endDate, workOrderLabors.externalRateMinor),
      firstName: users.firstName,
      lastName: users.lastName,
      reasonName: timeTrackingReasons.name,
    })
    .from(workOrderLabors)
    // Left joins: a contractor's time (decision 040) has no worker and no reason.
    .leftJoin(users, and(eq(users.orgId, workOrderLabors.orgId), eq(users.id, workOrderLabors.workerId)))
    .leftJoin(timeTrackingReasons, and(eq(timeTrackingReasons.orgId, workOrderLabors.orgId), eq(timeTrackingReasons.id, workOrderLabors.reasonId)))
    .where(and(eq(workOrderLabors.orgId, orgId), inArray(workOrderLabors.workOrderId, workOrderIds)))
    .orderBy(asc(workOrderLabors.startDate), asc(workOrderLabors.id));
  return groupByWorkOrder(workOrderIds, rows, (r) => {
    const external = externalLine(r, showAmounts, r.externalRateMinor ?? 0, r.externalCostMinor ?? 0);
    return {
      ...pick(r, 'id', 'workOrderId', 'workerId', 'reasonId'),
      Worker: external ? { id: null, firstName: external.name, lastName: '' } : { id: r.workerId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' },
      TimeTrackReason: { id: r.reasonId, name: r.reasonName ?? '' },
      startDate: r.startDate.toISOString(),
      endDate: r.endDate.toISOString(),
      createdAt: r.createdAt.toISOString(),
      external,
    };
  });
}

/** A work order's labour lines; `showAmounts` false (workers) leaves contractors' rates and costs out. */
export async function listLaborRows(tx: ReadTx, orgId: number, workOrderId: number, showAmounts: boolean): Promise<LaborDto[]> {
  return (await laborRowsByOrder(tx, orgId, [workOrderId], showAmounts)).get(workOrderId)!;
}

/** The labour list under both names the screens use ("labor list"). */
const laborList = (labors: LaborDto[]) => ({ labors, workOrderLabors: labors });

/** GET get-labors/{id}. */
export async function listLabors(tx: ReadTx, orgId: number, actor: AccessClaims, workOrderId: number) {
  await getWorkOrder(tx, orgId, actor, workOrderId);
  return laborList(await listLaborRows(tx, orgId, workOrderId, seesAmounts(actor)));
}

/** POST add-labor/{id}: a worker logs their own time; a manager may name the worker. */
export async function addLabor(tx: Tx, orgId: number, actor: AccessClaims, workOrderId: number, input: z.output<typeof laborInputSchema>) {
  // As a contractor's (issue 45): the schema bounds the span and the end by the checking machine's clock; the
  // server's own `now()` decides here.
  if (!endsByNow(input, now().getTime())) throw badRequest(LABOR_FUTURE_MESSAGE, 'endTime');
  await getWorkOrder(tx, orgId, actor, workOrderId);
  const reason = await readOrgRow(tx, timeTrackingReasons, { id: timeTrackingReasons.id, name: timeTrackingReasons.name }, orgId, input.reason);
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
  await history(tx, orgId, workOrderId, actor.userId, 'updated', {
    labor: { from: null, to: `${minutesLabel(input.startTime, input.endTime)} (${reason.name})` },
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
  await history(tx, orgId, workOrderId, actor.userId, 'updated', { labor: { from: minutesLabel(row.startDate, row.endDate), to: null } });
  return { message: 'Work order labor deleted successfully', ...laborList(await listLaborRows(tx, orgId, workOrderId, seesAmounts(actor))) };
}
