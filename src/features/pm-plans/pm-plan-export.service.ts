import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import type { ReadTx } from '../../server/db/client';
import { readOrgRows, type OrgRowTable } from '../../server/db/org-rows';
import { assets, meters, parts, pmOccurrences, users, workStations } from '../../server/db/schema';
import { procedures } from '../procedures/procedures.table';
import { type PlanDto, type PlanListQuery } from './pm-plans.schema';
import { listPlans } from './pm-plan-list.service';

/** Which work orders came from plans (analytics): occurrence, plan and due day of each given work order. */
export async function planOfWorkOrders(tx: ReadTx, orgId: number, workOrderIds: number[]) {
  if (!workOrderIds.length) return [];
  return tx
    .select({ workOrderId: pmOccurrences.workOrderId, planId: pmOccurrences.planId, occurrenceId: pmOccurrences.id, dueDate: pmOccurrences.dueDate })
    .from(pmOccurrences)
    .where(and(eq(pmOccurrences.orgId, orgId), inArray(pmOccurrences.workOrderId, workOrderIds)));
}

/** The records a plan names, as an export writes them (decision 059): what another organisation can look up. */
export interface PlanExportNames {
  assets: string[];
  workStation: string | null;
  procedure: string | null;
  assignees: string[];
  parts: { part: string; quantity: number }[];
  meter: string | null;
}

/**
 * A page of plans for the export with the names of what they refer to: assets by code (else name), the station by
 * code, the procedure and meter by name, people by e-mail, parts by SKU (else name).
 */
export async function exportPlansPage(tx: ReadTx, orgId: number, page: number, limit: number, now: Date = new Date()) {
  const { plans } = await listPlans(tx, orgId, { page, pageSize: limit } as PlanListQuery, now);
  return namePlans(tx, orgId, plans);
}

/** The plans with the names of the records they refer to (`PlanExportNames`). */
export async function namePlans(tx: ReadTx, orgId: number, plans: PlanDto[]) {
  const ids = <T extends number | null>(f: (p: PlanDto) => T | T[]) => [...new Set(plans.flatMap((p) => f(p)).filter((v): v is NonNullable<T> => v !== null))];
  // The organisation's rows of one table, among the ids `of` the plans give, by id.
  const byId = async <C extends SelectedFields>(table: OrgRowTable, columns: C & { id: PgColumn }, of: (p: PlanDto) => number | null | (number | null)[]) => {
    const wanted = ids(of);
    return new Map((wanted.length ? await readOrgRows(tx, table, columns, orgId, wanted) : []).map((r) => [r.id, r]));
  };
  const assetRows = await byId(assets, { id: assets.id, name: assets.name, code: assets.assetCode }, (p) => p.assetIds);
  const stationRows = await byId(workStations, { id: workStations.id, code: workStations.code }, (p) => p.workStationId);
  const procedureRows = await byId(procedures, { id: procedures.id, name: procedures.name }, (p) => p.procedureId);
  const userRows = await byId(users, { id: users.id, email: users.email }, (p) => p.assignees);
  const partRows = await byId(parts, { id: parts.id, name: parts.name, sku: parts.skuCode }, (p) => p.parts.map((l) => l.partId));
  const meterRows = await byId(meters, { id: meters.id, name: meters.name }, (p) => p.meterId);
  return plans.map((p) => ({
    ...p,
    names: {
      assets: p.assetIds.map((id) => assetRows.get(id)?.code || assetRows.get(id)?.name || ''),
      workStation: p.workStationId ? (stationRows.get(p.workStationId)?.code ?? null) : null,
      procedure: p.procedureId ? (procedureRows.get(p.procedureId)?.name ?? null) : null,
      assignees: p.assignees.map((id) => userRows.get(id)?.email ?? ''),
      parts: p.parts.map((l) => ({ part: partRows.get(l.partId)?.sku || l.name, quantity: l.quantity })),
      meter: p.meterId ? (meterRows.get(p.meterId)?.name ?? null) : null,
    } satisfies PlanExportNames,
  }));
}
