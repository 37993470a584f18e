import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { assets, customerVendors, maintenanceRequests, users } from '../../server/db/schema';

const DAY = 86_400_000;

type Insert = typeof maintenanceRequests.$inferInsert;
type Extra = Partial<Pick<Insert, 'failureReason' | 'urgencyLevel' | 'frequency' | 'sensorData' | 'condition'>> & { scheduleDay?: number };

/** Each demo request's title and problem description; `fields` below gives the rest, in the same order. */
const TEXTS: [string, string][] = [
  ['Boiler feed pump leaking at the seal', 'Water is dripping from the mechanical seal of the boiler feed pump; about a litre per hour.'],
  ['Quarterly lubrication of conveyor line 2', 'Planned greasing of bearings and chain on conveyor line 2.'],
  ['Compressor vibration trending up', 'The vibration sensor on air compressor 1 shows a steady rise over two weeks.'],
  ['Emergency stop failed on packaging line', 'The emergency stop button on the packaging line did not stop the motor during the daily test.'],
  ['Customer reports noisy cold-room fan', 'The customer hears a rattling noise from the evaporator fan of their cold room.'],
  ['Replace HVAC filters before summer', 'Proactive replacement of all air handling unit filters ahead of the summer load.'],
  ['Repaint warehouse floor markings', 'Floor markings in aisle 4 are faded.'],
  ['Monthly fire pump test run', 'Monthly no-flow test of the diesel fire pump.'],
];

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
  type From = ReturnType<typeof employee> | ReturnType<typeof byCustomer>;

  // Per request, in the order of TEXTS: type, requester, priority, state, assignee, requested (days from today),
  // risk, and what only some requests have (`scheduleDay`: scheduled, days from today).
  const fields: [Insert['maintenanceType'], From, Insert['priority'], Insert['state'], number, number, Insert['riskLevel'], Extra][] = [
    ['corrective', employee(0), 'high', 'approved', who(0), -12, 'medium', { failureReason: 'Worn mechanical seal', urgencyLevel: 'high' }],
    ['preventive', employee(1), 'medium', 'approved', who(1), -9, 'low', { scheduleDay: 5, frequency: 'quarterly' }],
    [
      'predictive',
      employee(2),
      'high',
      'new',
      who(2),
      -4,
      'high',
      { scheduleDay: 3, sensorData: 'Vibration 7.1 mm/s RMS (baseline 2.8)', condition: 'Degrading' },
    ],
    ['emergency', employee(3), 'critical', 'in-progress', who(0), -2, 'severe', { failureReason: 'Faulty safety relay', urgencyLevel: 'critical' }],
    ['corrective', byCustomer(4), 'medium', 'new', who(1), -1, 'low', { failureReason: 'Loose fan blade suspected', urgencyLevel: 'medium' }],
    ['proactive', employee(1), 'low', 'completed', who(2), -30, 'trivial', { scheduleDay: -20 }],
    ['corrective', byCustomer(0), 'lowest', 'rejected', who(0), -15, 'trivial', { failureReason: 'Wear from forklift traffic', urgencyLevel: 'lowest' }],
    ['preventive', employee(2), 'medium', 'cancelled', who(1), -6, 'medium', { scheduleDay: -1, frequency: 'monthly' }],
  ];
  await tx.insert(maintenanceRequests).values(
    fields.map(([maintenanceType, from, priority, state, assignedTo, requested, riskLevel, { scheduleDay, ...extra }], i) => ({
      orgId,
      title: TEXTS[i][0],
      problemDescription: TEXTS[i][1],
      maintenanceType,
      ...from,
      priority,
      state,
      assignedTo,
      dateOfRequest: at(requested),
      ...(scheduleDay !== undefined ? { scheduleDate: at(scheduleDay) } : {}),
      ...extra,
      riskLevel,
    })),
  );
}
