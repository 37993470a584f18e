import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { workOrderLabors, workOrderParts } from '../../server/db/schema';
import type { AccessClaims } from '../auth/tokens';
import { type WorkOrderCost, type WorkOrderCostView } from './work-orders.schema';
import { rowsOf } from '../../server/db/rows';
import { getWorkOrder } from './work-order-read.service';
import { seesAmounts } from './work-order-rules.service';
import { laborCostMinor } from './work-order-labor.service';

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
