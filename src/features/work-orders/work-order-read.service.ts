import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { assets, users, workOrderAssignees, workOrders, pmOccurrences, failureCodes } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { workOrderDisplayId, type WorkOrderDto } from './work-orders.schema';
import { quotationNumber } from '../quotations/quotations.schema';
import { ownDownInterval } from '../asset-states/asset-states.service';

export const ENTITY = 'work-order';
export const DUE_SOON_DAYS = 7;

export const isManager = (actor: AccessClaims) => actor.role === 'admin' || actor.role === 'manager';
export const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
export function fromPmPlanSql(orgId: SQLWrapper, id: SQLWrapper) {
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
export type OrderRow = Awaited<ReturnType<typeof selectOrders>>[number];

export function toDto(r: OrderRow): WorkOrderDto {
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

/** Orders with their asset and assignees. */
export function selectOrders(tx: ReadTx) {
  return tx
    .select(orderColumns)
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
export const shownOrder = async (tx: ReadTx, orgId: number, id: number) => (await workOrdersAsShown(tx, orgId, [id]))[0];
