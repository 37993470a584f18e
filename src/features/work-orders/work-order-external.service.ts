import { and, count, eq } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { workOrderLabors, workOrderParts } from '../../server/db/schema';
import { badRequest, notFound } from '../../server/http-error';
import type { AccessClaims } from '../auth/tokens';
import { recordActivity } from '../activity/activity.service';
import type { ActivityItem } from '../activity/activity.schema';
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
} from './work-orders.schema';
import { toMajor } from '../../shared/money';
import { moneySettings } from '../organization/organization.service';
import { now } from '../../server/clock';
import { ENTITY } from './work-order-read.service';
import { minutesLabel, lineCostMessage } from './work-order-rules.service';
import { updateWorkOrderStatus } from './work-order-status.service';
import { listLaborRows } from './work-order-labor.service';
import { listPartRows } from './work-order-parts.service';

/** The work order's history line for a contractor's own line (decision 040), added or removed: by their name, no user. */
const contractorHistory = (tx: Tx, orgId: number, workOrderId: number, by: { name: string }, changes: ActivityItem['changes']) =>
  recordActivity(tx, orgId, { entityType: ENTITY, entityId: workOrderId, actorName: by.name, action: 'updated', changes });

// ---- A contractor's lines (shared work orders, decision 040) ----

/** Who reported a contractor's line: the share, and the contractor's name as history shows it. */
export interface ExternalReporter {
  shareId: number;
  name: string;
}

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
  await contractorHistory(tx, orgId, workOrderId, by, { labor: { from: null, to: `${minutesLabel(input.startTime, input.endTime)} (external)` } });
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
  await contractorHistory(tx, orgId, workOrderId, by, { parts: { from: null, to: `${input.name} x${input.quantity} (external)` } });
  return created.id;
}

/**
 * A contractor deletes a line their share reported (labour or parts), with its history line under their name.
 * Only this share's own external rows of this work order: any other id is a 404 and nothing changes.
 */
export async function deleteExternalLine(tx: Tx, orgId: number, workOrderId: number, by: ExternalReporter, kind: 'labor' | 'part', id: number) {
  const ownLine = (t: typeof workOrderLabors | typeof workOrderParts) =>
    and(eq(t.orgId, orgId), eq(t.workOrderId, workOrderId), eq(t.shareId, by.shareId), eq(t.id, id));
  if (kind === 'labor') {
    const l = workOrderLabors;
    const [row] = await tx.delete(l).where(ownLine(l)).returning({ startDate: l.startDate, endDate: l.endDate });
    if (!row) throw notFound('Labor');
    await contractorHistory(tx, orgId, workOrderId, by, { labor: { from: `${minutesLabel(row.startDate, row.endDate)} (external)`, to: null } });
    return;
  }
  const p = workOrderParts;
  const [row] = await tx.delete(p).where(ownLine(p)).returning({ name: p.externalName, quantity: p.quantity });
  if (!row) throw notFound('Part');
  await contractorHistory(tx, orgId, workOrderId, by, { parts: { from: `${row.name} x${row.quantity} (external)`, to: null } });
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
