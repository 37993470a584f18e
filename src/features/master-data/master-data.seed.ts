import type { Tx } from '../../server/db/client';
import { assetCategories, productCategories, taxChildren, taxes, timeTrackingReasons, uomCategories, uoms } from '../../server/db/schema';

/**
 * Demo master data for one organisation: product categories (a small tree), sales and purchase taxes
 * (including a group), UOM categories with their reference units, asset categories and time tracking reasons.
 */
export async function seedMasterData(tx: Tx, orgId: number) {
  const tree: Record<string, string[]> = {
    Mechanical: ['Bearings', 'Belts & Pulleys', 'Seals & Gaskets'],
    Electrical: ['Motors', 'Fuses & Breakers', 'Sensors'],
    Consumables: ['Lubricants', 'Filters', 'Fasteners'],
    'Safety Equipment': [],
  };
  for (const [parentName, children] of Object.entries(tree)) {
    const [parent] = await tx.insert(productCategories).values({ orgId, name: parentName }).returning({ id: productCategories.id });
    if (children.length) await tx.insert(productCategories).values(children.map((name) => ({ orgId, name, parentId: parent.id })));
  }

  const taxRows = await tx
    .insert(taxes)
    .values([
      { orgId, name: 'Sales Tax 7%', scope: 'sales' as const, taxComputation: 'percentage_of_price' as const, amount: 7 },
      { orgId, name: 'Environmental Fee', scope: 'sales' as const, taxComputation: 'fixed' as const, amount: 2.5 },
      {
        orgId,
        name: 'VAT 15% Included',
        scope: 'sales' as const,
        taxComputation: 'percentage_of_price_tax_included' as const,
        amount: 15,
        isPriceIncluded: true,
      },
      { orgId, name: 'Purchase Tax 7%', scope: 'purchase' as const, taxComputation: 'percentage_of_price' as const, amount: 7 },
      { orgId, name: 'Freight Surcharge', scope: 'purchase' as const, taxComputation: 'fixed' as const, amount: 10 },
      { orgId, name: 'Import Duty 5%', scope: 'purchase' as const, taxComputation: 'percentage_of_price' as const, amount: 5 },
    ])
    .returning({ id: taxes.id, name: taxes.name });
  const taxId = (name: string) => taxRows.find((t) => t.name === name)!.id;
  const [salesGroup] = await tx
    .insert(taxes)
    .values({ orgId, name: 'Sales Tax + Environmental Fee', scope: 'sales', taxComputation: 'group', amount: null })
    .returning({ id: taxes.id });
  const [purchaseGroup] = await tx
    .insert(taxes)
    .values({ orgId, name: 'Import Duty + Freight', scope: 'purchase', taxComputation: 'group', amount: null })
    .returning({ id: taxes.id });
  await tx.insert(taxChildren).values([
    { orgId, groupId: salesGroup.id, childId: taxId('Sales Tax 7%') },
    { orgId, groupId: salesGroup.id, childId: taxId('Environmental Fee') },
    { orgId, groupId: purchaseGroup.id, childId: taxId('Import Duty 5%') },
    { orgId, groupId: purchaseGroup.id, childId: taxId('Freight Surcharge') },
  ]);

  // Ratios follow Odoo: a bigger unit holds `ratio` reference units; `ratio` lesser units make one reference unit.
  const units: Record<string, [string, 'reference' | 'bigger' | 'lesser', number][]> = {
    Unit: [
      ['Units', 'reference', 1],
      ['Pair', 'bigger', 2],
      ['Dozens', 'bigger', 12],
      ['Box of 50', 'bigger', 50],
    ],
    Weight: [
      ['Kilogram', 'reference', 1],
      ['Gram', 'lesser', 1000],
      ['Pound', 'lesser', 2.20462],
      ['Tonne', 'bigger', 1000],
    ],
    Length: [
      ['Meter', 'reference', 1],
      ['Centimeter', 'lesser', 100],
      ['Millimeter', 'lesser', 1000],
      ['Foot', 'lesser', 3.28084],
    ],
    Volume: [
      ['Liter', 'reference', 1],
      ['Milliliter', 'lesser', 1000],
      ['Gallon (US)', 'bigger', 3.78541],
    ],
  };
  for (const [categoryName, list] of Object.entries(units)) {
    const [category] = await tx.insert(uomCategories).values({ orgId, name: categoryName }).returning({ id: uomCategories.id });
    await tx.insert(uoms).values(list.map(([name, type, ratio]) => ({ orgId, name, type, ratio, categoryId: category.id })));
  }

  await tx.insert(assetCategories).values([
    { orgId, name: 'HVAC Equipment', code: 'HVAC' },
    { orgId, name: 'Production Machinery', code: 'PRD' },
    { orgId, name: 'Electrical Systems', code: 'ELE' },
    { orgId, name: 'Material Handling', code: 'MHE' },
    { orgId, name: 'Pumps & Compressors', code: 'PMP' },
    { orgId, name: 'Facility & Building', code: 'FAC' },
    { orgId, name: 'Vehicles & Fleet', code: 'VEH' },
  ]);

  await tx.insert(timeTrackingReasons).values([
    { orgId, name: 'Repair Work', type: 'productivity' as const, isBlockingReason: false },
    { orgId, name: 'Preventive Maintenance', type: 'productivity' as const, isBlockingReason: false },
    { orgId, name: 'Waiting for Parts', type: 'availability' as const, isBlockingReason: true },
    { orgId, name: 'Machine Breakdown', type: 'availability' as const, isBlockingReason: true },
    { orgId, name: 'Quality Inspection', type: 'quality' as const, isBlockingReason: false },
    { orgId, name: 'Rework', type: 'quality' as const, isBlockingReason: false },
    { orgId, name: 'Setup & Changeover', type: 'performance' as const, isBlockingReason: false },
    { orgId, name: 'Reduced Speed', type: 'performance' as const, isBlockingReason: true },
  ]);
}
