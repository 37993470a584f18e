import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { assets, customerVendors, maintenanceRequests, users } from '../../server/db/schema';

const DAY = 86_400_000;

/**
 * Demo maintenance requests in several states and of every type, by employees and customers, built on
 * whatever the earlier areas seeded (assets, customers, people are looked up, never assumed). Works on
 * an organisation with only its admin and no assets (requests are then by customers).
 */
export async function seedMaintenanceRequests(tx: Tx, orgId: number) {
  const people = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.orgId, orgId)).orderBy(asc(users.id));
  if (!people.length) return;
  const workers = people.filter((p) => p.role === 'worker');
  const pool = workers.length ? workers : people;
  const who = (i: number) => pool[i % pool.length].id;
  const assetRows = await tx.select({ id: assets.id }).from(assets).where(eq(assets.orgId, orgId)).orderBy(asc(assets.id)).limit(5);
  const asset = (i: number) => (assetRows.length ? assetRows[i % assetRows.length].id : null);
  const [customer] = await tx
    .select({ id: customerVendors.id })
    .from(customerVendors)
    .where(eq(customerVendors.orgId, orgId))
    .orderBy(asc(customerVendors.type), asc(customerVendors.id))
    .limit(1);
  const now = Date.now();
  const at = (days: number) => new Date(Math.floor((now + days * DAY) / DAY) * DAY + 8 * 3_600_000);
  // An employee's request needs an asset; without assets the demo request comes from a customer.
  const employee = (i: number) =>
    asset(i)
      ? { requester: 'employee' as const, assetId: asset(i), customerId: null }
      : { requester: 'customer' as const, assetId: null, customerId: customer?.id ?? null };
  const byCustomer = (i: number) => ({ requester: 'customer' as const, assetId: asset(i), customerId: customer?.id ?? null });

  await tx.insert(maintenanceRequests).values([
    {
      orgId,
      title: 'Boiler feed pump leaking at the seal',
      problemDescription: 'Water is dripping from the mechanical seal of the boiler feed pump; about a litre per hour.',
      maintenanceType: 'corrective',
      ...employee(0),
      priority: 'high',
      state: 'approved',
      assignedTo: who(0),
      dateOfRequest: at(-12),
      failureReason: 'Worn mechanical seal',
      urgencyLevel: 'high',
      riskLevel: 'medium',
    },
    {
      orgId,
      title: 'Quarterly lubrication of conveyor line 2',
      problemDescription: 'Planned greasing of bearings and chain on conveyor line 2.',
      maintenanceType: 'preventive',
      ...employee(1),
      priority: 'medium',
      state: 'approved',
      assignedTo: who(1),
      dateOfRequest: at(-9),
      scheduleDate: at(5),
      frequency: 'quarterly',
      riskLevel: 'low',
    },
    {
      orgId,
      title: 'Compressor vibration trending up',
      problemDescription: 'The vibration sensor on air compressor 1 shows a steady rise over two weeks.',
      maintenanceType: 'predictive',
      ...employee(2),
      priority: 'high',
      state: 'new',
      assignedTo: who(2),
      dateOfRequest: at(-4),
      scheduleDate: at(3),
      sensorData: 'Vibration 7.1 mm/s RMS (baseline 2.8)',
      condition: 'Degrading',
      riskLevel: 'high',
    },
    {
      orgId,
      title: 'Emergency stop failed on packaging line',
      problemDescription: 'The emergency stop button on the packaging line did not stop the motor during the daily test.',
      maintenanceType: 'emergency',
      ...employee(3),
      priority: 'critical',
      state: 'in-progress',
      assignedTo: who(0),
      dateOfRequest: at(-2),
      failureReason: 'Faulty safety relay',
      urgencyLevel: 'critical',
      riskLevel: 'severe',
    },
    {
      orgId,
      title: 'Customer reports noisy cold-room fan',
      problemDescription: 'The customer hears a rattling noise from the evaporator fan of their cold room.',
      maintenanceType: 'corrective',
      ...byCustomer(4),
      priority: 'medium',
      state: 'new',
      assignedTo: who(1),
      dateOfRequest: at(-1),
      failureReason: 'Loose fan blade suspected',
      urgencyLevel: 'medium',
      riskLevel: 'low',
    },
    {
      orgId,
      title: 'Replace HVAC filters before summer',
      problemDescription: 'Proactive replacement of all air handling unit filters ahead of the summer load.',
      maintenanceType: 'proactive',
      ...employee(1),
      priority: 'low',
      state: 'completed',
      assignedTo: who(2),
      dateOfRequest: at(-30),
      scheduleDate: at(-20),
      riskLevel: 'trivial',
    },
    {
      orgId,
      title: 'Repaint warehouse floor markings',
      problemDescription: 'Floor markings in aisle 4 are faded.',
      maintenanceType: 'corrective',
      ...byCustomer(0),
      priority: 'lowest',
      state: 'rejected',
      assignedTo: who(0),
      dateOfRequest: at(-15),
      failureReason: 'Wear from forklift traffic',
      urgencyLevel: 'lowest',
      riskLevel: 'trivial',
    },
    {
      orgId,
      title: 'Monthly fire pump test run',
      problemDescription: 'Monthly no-flow test of the diesel fire pump.',
      maintenanceType: 'preventive',
      ...employee(2),
      priority: 'medium',
      state: 'cancelled',
      assignedTo: who(1),
      dateOfRequest: at(-6),
      scheduleDate: at(-1),
      frequency: 'monthly',
      riskLevel: 'medium',
    },
  ]);
}
