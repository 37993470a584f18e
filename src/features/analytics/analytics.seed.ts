import { and, asc, eq } from 'drizzle-orm';
import { writeUser } from '../auth/identity-writes';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Tx } from '../../server/db/client';
import { assets, parts, quotations, timeTrackingReasons, users, workOrderAssignees, workOrderLabors, workOrderParts, workOrders } from '../../server/db/schema';
import type { WorkOrderPriority } from '../work-orders/work-orders.schema';
import { partPriceMinor, workerRateMinor } from '../work-orders/work-orders.service';
import { moneySettings } from '../organization/organization.service';

const TITLES = [
  'Pump seal leaking',
  'Motor overheating',
  'Conveyor belt misaligned',
  'Compressor tripped',
  'Hydraulic pressure low',
  'Bearing noise on fan',
  'Valve stuck open',
  'Sensor fault on line 2',
  'Gearbox oil leak',
  'Electrical panel breaker trips',
];
const PRIORITIES: WorkOrderPriority[] = ['low', 'medium', 'high', 'critical', 'medium'];

/**
 * Six months of history for the demo organisation, so every chart of the insights screen shows something
 * (decision 038): ~150 work orders on its assets, most repaired within hours or days, a few cancelled, some
 * still open at every age; labour under each time tracking reason, parts, hourly rates for the workers, and a
 * tenth of the orders linked to the demo's quotations.
 * Deterministic (a fixed pseudo-random sequence) and written in four multi-row inserts, to keep the seed fast.
 */
export async function seedAnalyticsHistory(tx: Tx, orgId: number) {
  const [assetRows, partRows, reasonRows, people, quoteRows] = await Promise.all([
    tx.select({ id: assets.id }).from(assets).where(eq(assets.orgId, orgId)).orderBy(asc(assets.id)).limit(10),
    tx.select({ id: parts.id }).from(parts).where(eq(parts.orgId, orgId)).orderBy(asc(parts.id)).limit(6),
    tx.select({ id: timeTrackingReasons.id }).from(timeTrackingReasons).where(eq(timeTrackingReasons.orgId, orgId)).orderBy(asc(timeTrackingReasons.id)),
    tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(users.inviteStatus, 'ACTIVE')))
      .orderBy(asc(users.id)),
    tx.select({ id: quotations.id }).from(quotations).where(eq(quotations.orgId, orgId)).orderBy(asc(quotations.id)).limit(4),
  ]);
  if (!assetRows.length) return;
  for (const [i, p] of people.entries()) {
    await writeUser(tx, orgId, p.id, { hourlyRate: 3500 + 500 * (i % 4) });
  }
  let state = 42;
  const rand = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const hour = 3_600_000;
  const now = Date.now();
  const orders = Array.from({ length: 150 }, (_, i) => {
    // Older orders thin out: more recent work, as a growing team records more.
    const created = new Date(now - Math.floor(180 * Math.pow(rand(), 1.4) * 24) * hour - Math.floor(rand() * hour));
    const roll = rand();
    const repairHours = 1 + Math.floor(Math.pow(rand(), 2) * 96);
    const closedAt = new Date(created.getTime() + repairHours * hour);
    const status =
      roll < 0.06
        ? ('cancelled' as const)
        : roll < 0.84 && closedAt.getTime() < now
          ? ('completed' as const)
          : roll < 0.92
            ? ('in-progress' as const)
            : ('assigned' as const);
    const due = new Date(created.getTime() + (12 + Math.floor(rand() * 120)) * hour);
    return {
      orgId,
      title: TITLES[i % TITLES.length],
      status,
      priority: PRIORITIES[Math.floor(rand() * PRIORITIES.length)],
      assetId: assetRows[Math.floor(Math.pow(rand(), 1.8) * assetRows.length)].id,
      createdAt: created,
      updatedAt: status === 'completed' || status === 'cancelled' ? closedAt : created,
      dueDate: due,
      createdById: people[0]?.id ?? null,
      // Every tenth order was quoted to a customer first (quoted vs actual).
      quotationId: quoteRows.length && i % 10 === 3 ? quoteRows[Math.floor(i / 10) % quoteRows.length].id : null,
    };
  });
  const rows = await tx.insert(workOrders).values(orders).returning({ id: workOrders.id });
  const workers = people.filter((p) => p.role === 'worker');
  const crew = workers.length ? workers : people;
  if (!crew.length) return;
  await tx.insert(workOrderAssignees).values(rows.map((r, i) => ({ orgId, workOrderId: r.id, userId: crew[i % crew.length].id })));
  const { digits } = await moneySettings(tx, orgId);
  const labors: PgInsertValue<typeof workOrderLabors>[] = [];
  const used: PgInsertValue<typeof workOrderParts>[] = [];
  rows.forEach((r, i) => {
    const o = orders[i];
    if (o.status === 'assigned' || o.status === 'cancelled' || !reasonRows.length) return;
    const pieces = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < pieces; k++) {
      const start = new Date(o.createdAt.getTime() + (1 + k * 3) * hour);
      if (start.getTime() > now) break;
      const minutes = 30 + Math.floor(rand() * 180);
      const workerId = crew[(i + k) % crew.length].id;
      labors.push({
        orgId,
        workOrderId: r.id,
        workerId,
        rateMinor: workerRateMinor(orgId, workerId),
        reasonId: reasonRows[Math.floor(rand() * reasonRows.length)].id,
        startDate: start,
        endDate: new Date(start.getTime() + minutes * 60_000),
      });
    }
    if (partRows.length && rand() < 0.4)
      used.push({
        orgId,
        workOrderId: r.id,
        partId: partRows[i % partRows.length].id,
        unitPriceMinor: partPriceMinor(orgId, partRows[i % partRows.length].id, digits),
        quantity: 1 + Math.floor(rand() * 3),
        createdAt: new Date(o.createdAt.getTime() + 2 * hour),
      });
  });
  if (labors.length) await tx.insert(workOrderLabors).values(labors);
  if (used.length) await tx.insert(workOrderParts).values(used);
}
