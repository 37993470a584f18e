import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { maintenanceOrderParts, maintenanceOrders, maintenanceOrderServices, maintenanceRequests, parts, services } from '../../server/db/schema';

const DAY = 86_400_000;

/**
 * Demo maintenance orders planned from the approved and in-progress demo requests (looked up by title),
 * with the first services and parts of the catalogue when there are any.
 */
export async function seedMaintenanceOrders(tx: Tx, orgId: number) {
  const requests = await tx
    .select({
      id: maintenanceRequests.id,
      title: maintenanceRequests.title,
      maintenanceType: maintenanceRequests.maintenanceType,
      assetId: maintenanceRequests.assetId,
    })
    .from(maintenanceRequests)
    .where(and(eq(maintenanceRequests.orgId, orgId), inArray(maintenanceRequests.state, ['approved', 'in-progress'])))
    .orderBy(asc(maintenanceRequests.id));
  const serviceIds = (await tx.select({ id: services.id }).from(services).where(eq(services.orgId, orgId)).orderBy(asc(services.id)).limit(3)).map((s) => s.id);
  const partIds = (await tx.select({ id: parts.id }).from(parts).where(eq(parts.orgId, orgId)).orderBy(asc(parts.id)).limit(3)).map((p) => p.id);
  const now = Date.now();
  const day = (d: number) => new Date(Math.floor((now + d * DAY) / DAY) * DAY);
  const plans = [
    {
      title: 'Boiler feed pump leaking at the seal',
      status: 'validate' as const,
      schedule: -8,
      due: -5,
      done: -6,
      rca: 'Seal faces scored by abrasive particles in the feed water.',
    },
    { title: 'Emergency stop failed on packaging line', status: 'in-progress' as const, schedule: -1, due: 2, done: 3, rca: null },
    { title: 'Quarterly lubrication of conveyor line 2', status: 'new' as const, schedule: 5, due: 7, done: 8, rca: null },
  ];
  let n = 0;
  for (const plan of plans) {
    const request = requests.find((r) => r.title === plan.title && r.assetId);
    if (!request) continue;
    const [order] = await tx
      .insert(maintenanceOrders)
      .values({
        orgId,
        status: plan.status,
        maintenanceRequestId: request.id,
        maintenanceType: request.maintenanceType,
        assetId: request.assetId,
        scheduleDate: day(plan.schedule),
        dueDate: day(plan.due),
        completionDate: day(plan.done),
        rootCauseAnalysis: plan.rca,
      })
      .returning({ id: maintenanceOrders.id });
    const chosenServices = serviceIds.length ? [serviceIds[n % serviceIds.length]] : [];
    const chosenParts = partIds.length ? [partIds[n % partIds.length]] : [];
    if (chosenServices.length)
      await tx.insert(maintenanceOrderServices).values(chosenServices.map((serviceId) => ({ orgId, maintenanceOrderId: order.id, serviceId })));
    if (chosenParts.length) await tx.insert(maintenanceOrderParts).values(chosenParts.map((partId) => ({ orgId, maintenanceOrderId: order.id, partId })));
    n += 1;
  }
}
