import { count } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { withoutTenant, withTenant } from '../db/client';
import { organizations } from '../db/schema';
import { insertOrganisation, insertUsers } from '../../features/auth/identity-writes';
import { hashPassword } from '../passwords';
import { seedMasterData } from '../../features/master-data/master-data.seed';
import { seedTeams } from '../../features/teams/teams.seed';
import { seedCatalog } from '../../features/assets/catalog.seed';
import { seedWorkOrders } from '../../features/work-orders/work-orders.seed';
import { seedMaintenanceRequests } from '../../features/maintenance-requests/maintenance-requests.seed';
import { seedMaintenanceOrders } from '../../features/maintenance-orders/maintenance-orders.seed';
import { seedCustomerVendors } from '../../features/customers-vendors/customers-vendors.seed';
import { seedQuotations } from '../../features/quotations/quotations.seed';
import { seedPurchaseOrders } from '../../features/purchase-orders/purchase-orders.seed';
import { seedProcedures } from '../../features/procedures/procedures.seed';
import { seedMeters } from '../../features/meters/meters.seed';
import { seedAnalyticsHistory } from '../../features/analytics/analytics.seed';

export const DEMO = { subdomain: 'demo', email: 'admin@demo.com', password: 'Demo1234!' };

/**
 * Seeds the demo organisation with realistic sample data, only when the database has no organisation.
 * Each business area adds its sample rows in its own function below.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const [{ n }] = await withoutTenant(db, (tx) => tx.select({ n: count() }).from(organizations));
  if (n > 0) return false;
  const org = await withoutTenant(db, (tx) =>
    insertOrganisation(tx, {
      organization: 'Demo Manufacturing Co.',
      subdomain: DEMO.subdomain,
      numberOfWorkers: 12,
      addressStreet1: '1200 Industrial Parkway',
      city: 'Dayton',
      zipCode: '45402',
      country: 'United States',
      website: 'https://demo-manufacturing.example.com',
      phoneNumber: '+19375550100',
    }),
  );
  const orgId = org.id;
  const password = await hashPassword(DEMO.password);
  await withTenant(db, orgId, async (tx) => {
    await insertUsers(tx, [
      {
        orgId,
        email: DEMO.email,
        passwordHash: password,
        firstName: 'Alex',
        lastName: 'Morgan',
        role: 'admin',
        jobTitle: 'Maintenance Director',
        phoneNumber: '+19375550101',
      },
      {
        orgId,
        email: 'manager@demo.com',
        passwordHash: password,
        firstName: 'Priya',
        lastName: 'Shah',
        role: 'manager',
        jobTitle: 'Maintenance Manager',
        phoneNumber: '+19375550102',
      },
      {
        orgId,
        email: 'tech1@demo.com',
        passwordHash: password,
        firstName: 'Marcus',
        lastName: 'Lee',
        role: 'worker',
        jobTitle: 'Electrical Technician',
        phoneNumber: '+19375550103',
      },
      {
        orgId,
        email: 'tech2@demo.com',
        passwordHash: password,
        firstName: 'Sofia',
        lastName: 'Garcia',
        role: 'worker',
        jobTitle: 'Mechanical Technician',
        phoneNumber: '+19375550104',
      },
      {
        orgId,
        email: 'tech3@demo.com',
        passwordHash: password,
        firstName: 'Daniel',
        lastName: 'Okafor',
        role: 'worker',
        jobTitle: 'HVAC Technician',
        phoneNumber: '+19375550105',
      },
    ]);
  });
  await seedSampleData(db, orgId);
  return true;
}

/**
 * Fills one organisation with realistic sample rows of every business area. Used by the demo seed and
 * by tests that need an organisation full of records (the isolation walker). Each area adds one
 * function `(tx, orgId) => Promise<void>` to the list, in dependency order (master data first).
 * Look up rows of earlier areas by name inside the organisation.
 */
export async function seedSampleData(db: Db, orgId: number) {
  const areas: ((tx: Tx, orgId: number) => Promise<void>)[] = [
    // Business areas add their seed functions here, in dependency order.
    seedMasterData,
    seedTeams,
    seedCustomerVendors, // before the catalogue: assets take vendors as owners
    seedCatalog, // work stations, services, assets, parts with stock
    seedMeters, // meters and readings of the sample assets
    // Maintenance reads assets, customers, services and parts: keep these two after those areas' seeds.
    seedWorkOrders,
    seedMaintenanceRequests,
    seedMaintenanceOrders,
    seedQuotations,
    seedPurchaseOrders,
    seedProcedures,
    seedAnalyticsHistory, // six months of work history for the insights screen (after work orders and master data)
  ];
  await withTenant(db, orgId, async (tx) => {
    for (const seed of areas) await seed(tx, orgId);
  });
}
