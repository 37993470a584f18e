import { and, eq, inArray } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
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
  const byId = async <R extends { id: number }>(wanted: number[], read: (slice: number[]) => Promise<R[]>) =>
    new Map((wanted.length ? await read(wanted) : []).map((r) => [r.id, r]));
  const assetRows = await byId(
    ids((p) => p.assetIds),
    (w) =>
      tx
        .select({ id: assets.id, name: assets.name, code: assets.assetCode })
        .from(assets)
        .where(and(eq(assets.orgId, orgId), inArray(assets.id, w))),
  );
  const stationRows = await byId(
    ids((p) => p.workStationId),
    (w) =>
      tx
        .select({ id: workStations.id, code: workStations.code })
        .from(workStations)
        .where(and(eq(workStations.orgId, orgId), inArray(workStations.id, w))),
  );
  const procedureRows = await byId(
    ids((p) => p.procedureId),
    (w) =>
      tx
        .select({ id: procedures.id, name: procedures.name })
        .from(procedures)
        .where(and(eq(procedures.orgId, orgId), inArray(procedures.id, w))),
  );
  const userRows = await byId(
    ids((p) => p.assignees),
    (w) =>
      tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(and(eq(users.orgId, orgId), inArray(users.id, w))),
  );
  const partRows = await byId(
    ids((p) => p.parts.map((l) => l.partId)),
    (w) =>
      tx
        .select({ id: parts.id, name: parts.name, sku: parts.skuCode })
        .from(parts)
        .where(and(eq(parts.orgId, orgId), inArray(parts.id, w))),
  );
  const meterRows = await byId(
    ids((p) => p.meterId),
    (w) =>
      tx
        .select({ id: meters.id, name: meters.name })
        .from(meters)
        .where(and(eq(meters.orgId, orgId), inArray(meters.id, w))),
  );
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
