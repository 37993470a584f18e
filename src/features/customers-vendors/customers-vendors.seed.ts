import type { Tx } from '../../server/db/client';
import { customerVendors } from '../../server/db/schema';

type NewParty = typeof customerVendors.$inferInsert;

/** Demo customers and vendors (a parent company with a branch among them). Runs after master data and teams. */
export async function seedCustomerVendors(tx: Tx, orgId: number) {
  const row = (p: Omit<NewParty, 'orgId'>): NewParty => ({ orgId, country: 'United States', ...p });
  const [parent] = await tx
    .insert(customerVendors)
    .values(
      row({
        name: 'Midwest Food Processing Inc.',
        email: 'procurement@midwestfood.example.com',
        type: 'customer',
        category: 'company',
        street: '4400 Harvest Road',
        city: 'Columbus',
        state: 'OH',
        zipCode: '43219',
        tinVat: 'US-31-4455120',
        phone: '+16145550140',
        website: 'https://midwestfood.example.com',
      }),
    )
    .returning({ id: customerVendors.id });
  await tx.insert(customerVendors).values([
    row({
      name: 'Midwest Food - Dayton Plant',
      email: 'dayton.plant@midwestfood.example.com',
      type: 'customer',
      category: 'company',
      parentId: parent.id,
      street: '77 Canal Street',
      city: 'Dayton',
      state: 'OH',
      zipCode: '45402',
      phone: '+19375550160',
    }),
    row({
      name: 'Riverside Hospital',
      email: 'facilities@riverside-hospital.example.com',
      type: 'customer',
      category: 'company',
      street: '1 Medical Center Drive',
      city: 'Cincinnati',
      state: 'OH',
      zipCode: '45219',
      phone: '+15135550111',
      website: 'https://riverside-hospital.example.com',
    }),
    row({
      name: 'Greenfield Logistics',
      email: 'ops@greenfield-logistics.example.com',
      type: 'customer',
      category: 'company',
      street: '900 Freight Way',
      city: 'Indianapolis',
      state: 'IN',
      zipCode: '46241',
      phone: '+13175550190',
    }),
    row({
      name: 'Laura Bennett',
      email: 'laura.bennett@example.com',
      type: 'customer',
      category: 'individual',
      city: 'Springfield',
      state: 'OH',
      mobile: '+19375550177',
    }),
    row({
      name: 'SKF Bearings Distribution',
      email: 'orders@skf-distribution.example.com',
      type: 'vendor',
      category: 'company',
      street: '250 Industrial Blvd',
      city: 'Lansdale',
      state: 'PA',
      zipCode: '19446',
      tinVat: 'US-23-1181734',
      phone: '+12155550123',
    }),
    row({
      name: 'Grainger Industrial Supply',
      email: 'sales@grainger-supply.example.com',
      type: 'vendor',
      category: 'company',
      street: '100 Grainger Parkway',
      city: 'Lake Forest',
      state: 'IL',
      zipCode: '60045',
      phone: '+18475550100',
      website: 'https://grainger-supply.example.com',
    }),
    row({
      name: 'Carrier HVAC Parts',
      email: 'parts@carrier-hvac.example.com',
      type: 'vendor',
      category: 'company',
      city: 'Syracuse',
      state: 'NY',
      zipCode: '13221',
      phone: '+13155550188',
    }),
    row({
      name: 'Ohio Electrical Wholesale',
      email: 'counter@ohio-electrical.example.com',
      type: 'vendor',
      category: 'company',
      city: 'Dayton',
      state: 'OH',
      zipCode: '45404',
      phone: '+19375550199',
    }),
  ]);
}
