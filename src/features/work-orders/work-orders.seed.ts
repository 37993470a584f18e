import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { assets, parts, timeTrackingReasons, users, workOrderAssignees, workOrderLabors, workOrderParts, workOrders } from '../../server/db/schema';
import type { WorkOrderPriority, WorkOrderStatus } from './work-orders.schema';
import { partPriceMinor, workerRateMinor } from './work-orders.service';
import { consumeForLine, defaultLocationId, levelQuantity, postCount } from '../stock/stock.service';
import { moneySettings } from '../organization/organization.service';

const SAMPLES: { title: string; status: WorkOrderStatus; priority: WorkOrderPriority; dueInDays: number; duration: string; instructions: string }[] = [
  {
    title: 'Replace mechanical seal on boiler feed pump',
    status: 'assigned',
    priority: 'high',
    dueInDays: 2,
    duration: '03:00',
    instructions:
      '<p>Lock out and tag out the pump before starting.</p><ol><li>Drain the casing</li><li>Remove the coupling guard</li><li>Replace the seal and check shaft runout</li></ol>',
  },
  {
    title: 'Quarterly HVAC filter change, Building B',
    status: 'assigned',
    priority: 'medium',
    dueInDays: 5,
    duration: '02:00',
    instructions: '<p>Use MERV 13 filters. Record the differential pressure before and after.</p>',
  },
  {
    title: 'Investigate vibration on conveyor drive motor',
    status: 'in-progress',
    priority: 'high',
    dueInDays: 1,
    duration: '01:30',
    instructions: '<p>Take readings at the drive end and non-drive end bearings.</p>',
  },
  {
    title: 'Lubricate packaging line bearings',
    status: 'assigned',
    priority: 'low',
    dueInDays: 9,
    duration: '00:45',
    instructions: '<p>Grease points are marked in yellow. Do not over-grease.</p>',
  },
  { title: 'Repair leaking compressed air line at station 4', status: 'assigned', priority: 'critical', dueInDays: 0.5, duration: '01:00', instructions: '' },
  {
    title: 'Calibrate pressure transmitters on tank farm',
    status: 'completed',
    priority: 'medium',
    dueInDays: -3,
    duration: '04:00',
    instructions: '<p>Use the certified calibrator; attach the certificates to the order.</p>',
  },
  {
    title: 'Inspect fire sprinkler risers',
    status: 'completed',
    priority: 'high',
    dueInDays: -7,
    duration: '02:30',
    instructions: '<p>Annual inspection per NFPA 25.</p>',
  },
  {
    title: 'Replace worn V-belts on cooling tower fan',
    status: 'in-progress',
    priority: 'medium',
    dueInDays: 4,
    duration: '01:15',
    instructions: '<p>Replace as a matched set.</p>',
  },
  { title: 'Clean condenser coils on chiller 2', status: 'assigned', priority: 'lowest', dueInDays: 20, duration: '03:30', instructions: '' },
  {
    title: 'Test emergency lighting, warehouse',
    status: 'cancelled',
    priority: 'low',
    dueInDays: -1,
    duration: '01:00',
    instructions: '<p>Postponed: replaced by the quarterly electrical audit.</p>',
  },
  {
    title: 'Realign pump and motor coupling, cooling water',
    status: 'assigned',
    priority: 'high',
    dueInDays: 12,
    duration: '02:00',
    instructions: '<p>Laser alignment; tolerance 0.05 mm.</p>',
  },
  {
    title: 'Replace hydraulic hose on press 3',
    status: 'in-progress',
    priority: 'critical',
    dueInDays: 3,
    duration: '01:30',
    instructions: '<p>Relieve accumulator pressure first.</p>',
  },
];

/** Demo work orders with assignees, logged labour and parts, using the organisation's own assets, parts, reasons and people. */
export async function seedWorkOrders(tx: Tx, orgId: number) {
  const [assetRows, partRows, reasonRows, people] = await Promise.all([
    tx.select({ id: assets.id }).from(assets).where(eq(assets.orgId, orgId)).orderBy(asc(assets.id)).limit(10),
    tx.select({ id: parts.id, type: parts.type }).from(parts).where(eq(parts.orgId, orgId)).orderBy(asc(parts.id)).limit(10),
    tx.select({ id: timeTrackingReasons.id }).from(timeTrackingReasons).where(eq(timeTrackingReasons.orgId, orgId)).orderBy(asc(timeTrackingReasons.id)),
    tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(and(eq(users.orgId, orgId), eq(users.inviteStatus, 'ACTIVE')))
      .orderBy(asc(users.id)),
  ]);
  const { digits } = await moneySettings(tx, orgId);
  const workers = people.filter((p) => p.role === 'worker');
  const assignable = workers.length ? workers : people;
  const now = Date.now();
  const hour = 3_600_000;
  for (const [i, sample] of SAMPLES.entries()) {
    const due = new Date(now + sample.dueInDays * 24 * hour);
    const start = new Date(due.getTime() - 2 * 24 * hour);
    const [order] = await tx
      .insert(workOrders)
      .values({
        orgId,
        title: sample.title,
        status: sample.status,
        priority: sample.priority,
        duration: sample.duration,
        instructions: sample.instructions || null,
        startDate: start,
        endDate: new Date(start.getTime() + 4 * hour),
        dueDate: due,
        assetId: assetRows.length ? assetRows[i % assetRows.length].id : null,
        createdById: people[0]?.id ?? null,
      })
      .returning({ id: workOrders.id });
    const assignee = assignable.length ? assignable[i % assignable.length] : undefined;
    if (assignee) await tx.insert(workOrderAssignees).values({ orgId, workOrderId: order.id, userId: assignee.id });
    if (assignee && reasonRows.length && sample.status !== 'assigned') {
      const begin = new Date(start.getTime() + 8 * hour);
      await tx.insert(workOrderLabors).values([
        {
          orgId,
          workOrderId: order.id,
          workerId: assignee.id,
          rateMinor: workerRateMinor(orgId, assignee.id),
          reasonId: reasonRows[0].id,
          startDate: begin,
          endDate: new Date(begin.getTime() + 1.5 * hour),
        },
        {
          orgId,
          workOrderId: order.id,
          workerId: assignee.id,
          rateMinor: workerRateMinor(orgId, assignee.id),
          reasonId: reasonRows[(i + 1) % reasonRows.length].id,
          startDate: new Date(begin.getTime() + 2 * hour),
          endDate: new Date(begin.getTime() + 2.75 * hour),
        },
      ]);
    }
    if (partRows.length && i % 2 === 0) {
      const chosen = [partRows[i % partRows.length], partRows[(i + 1) % partRows.length]].filter((p, k, all) => all.findIndex((q) => q.id === p.id) === k);
      // Stockable lines come from the default location and leave it through the ledger (decision 071); a part the
      // catalogue left short gets a count first, so the demo never writes a shortage.
      const locationId = await defaultLocationId(tx, orgId);
      await tx.insert(workOrderParts).values(
        chosen.map((p, k) => ({
          orgId,
          workOrderId: order.id,
          partId: p.id,
          quantity: k + 1,
          unitPriceMinor: partPriceMinor(orgId, p.id, digits),
          locationId: p.type === 'stockable' ? locationId : null,
        })),
      );
      for (const [k, p] of chosen.entries()) {
        if (p.type !== 'stockable') continue;
        const quantity = k + 1;
        const onHand = await levelQuantity(tx, orgId, p.id, locationId);
        if (onHand < quantity) await postCount(tx, orgId, null, { partId: p.id, locationId, countedQuantity: quantity + 5, note: 'Demo restock' });
        await consumeForLine(tx, orgId, null, { workOrderId: order.id, partId: p.id, locationId, quantity });
      }
    }
  }
}
