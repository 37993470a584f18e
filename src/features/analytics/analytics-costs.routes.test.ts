import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { withTenant, type Tx } from '../../server/db/client';
import { parts, timeTrackingReasons, workOrderLabors, workOrderParts } from '../../server/db/schema';
import { createOrg, useTestApp } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { insertAssetIn, insertPartBasics, insertRow, setHourlyRate, updatePart } from '../../server/test/builders';

/**
 * Costs as they were (issue 39, decision 063): a labour line keeps the hourly rate in force when it was logged, a
 * part line the unit price when it was used; the order's own cost (get-cost) counts its people's labour and equals
 * what the insights count for it; workers see neither rates nor prices.
 */
const t = useTestApp();

const W = '/api/work-orders';
const today = () => new Date().toISOString().slice(0, 10);

/** A consumable part at `salesPrice` (major units), with the category and unit a part needs. */
async function insertConsumable(tx: Tx, orgId: number, name: string, salesPrice: number) {
  const basics = await insertPartBasics(tx, orgId);
  const categoryId = basics.productCategory.id;
  return insertRow(tx, parts, {
    orgId,
    name,
    type: 'consumable',
    categoryId,
    salesPrice,
    unitOfMeasureId: basics.each.id,
    purchaseUnitOfMeasureId: basics.each.id,
  });
}

describe('costs as they were', () => {
  it('a later rate or price change leaves past lines; the order cost counts its labour and equals the insights; workers see no amounts', async () => {
    const org = await createOrg(t, 'As they were');
    const fitter = await org.as('worker', { firstName: 'Fritz', lastName: 'Rate', hourlyRate: 4000 });
    const o = org.orgId;
    const setup = await withTenant(t.database.db, o, async (tx) => {
      const { asset } = await insertAssetIn(tx, o, { name: 'Pumps', code: 'PMP' }, 'Costed pump');
      const [reason] = await tx.insert(timeTrackingReasons).values({ orgId: o, name: 'Repair', type: 'productivity' }).returning();
      const seal = await insertConsumable(tx, o, 'Seal', 12.5);
      return { asset, reason, seal };
    });
    const created = await org.admin.post(`${W}/add-work-order`, { title: 'Costed', assetId: setup.asset.id, assignees: [fitter.userId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.workOrder.id as number;
    const hours = (start: string, minutes: number) =>
      fitter.post(`${W}/add-labor/${id}`, { startTime: start, endTime: new Date(Date.parse(start) + minutes * 60_000).toISOString(), reason: setup.reason.id });
    // 1.5 h x 40.00 = 60.00; 2 x 12.50 = 25.00.
    expect((await hours('2026-03-02T08:00:00.000Z', 90)).status).toBe(201);
    expect((await org.admin.post(`${W}/add-parts/${id}`, { parts: [{ partId: setup.seal.id, quantity: 2 }] })).status).toBe(201);
    const costOf = async () => (await org.admin.get(`${W}/get-cost/${id}`)).body.cost;
    expect(await costOf()).toMatchObject({ laborMinutes: 90, laborMinor: 6000, partsMinor: 2500, totalMinor: 8500 });

    // The rate and the price change: the lines keep theirs.
    await withTenant(t.database.db, o, async (tx) => {
      await setHourlyRate(tx, o, fitter.userId, 9000);
      await updatePart(tx, o, setup.seal.id, { salesPrice: 99 });
    });
    expect(await costOf()).toMatchObject({ laborMinor: 6000, partsMinor: 2500, totalMinor: 8500 });
    // Adding more of the part keeps the line's price; new labour takes the new rate (1 h x 90.00).
    expect((await org.admin.post(`${W}/add-parts/${id}`, { parts: [{ partId: setup.seal.id, quantity: 1 }] })).status).toBe(201);
    expect((await hours('2026-03-03T08:00:00.000Z', 60)).status).toBe(201);
    const cost = await costOf();
    expect(cost).toMatchObject({ laborMinutes: 150, laborMinor: 15000, partsMinor: 3750, totalMinor: 18750 });

    // The insights count the same for the order, with and without a filter.
    const range = `range=custom&from=2026-03-01&to=${today()}`;
    for (const filter of ['', `&assetId=${setup.asset.id}`]) {
      const figures = (await org.admin.get(`/api/analytics/get-costs?${range}${filter}`)).body;
      expect(figures).toMatchObject({ laborCost: cost.laborMinor, partsCost: cost.partsMinor, total: { current: cost.totalMinor } });
    }

    // Workers see neither the rates nor the prices.
    const seen = (await fitter.get(`${W}/get-cost/${id}`)).body.cost;
    expect(seen).toEqual({
      laborMinutes: 150,
      laborMinor: null,
      externalLaborMinutes: 0,
      externalLaborMinor: null,
      partsMinor: null,
      externalPartsMinor: null,
      totalMinor: null,
    });
    expect((await fitter.get(`${W}/get-parts/${id}`)).body.workOrderParts.map((p: { Part: { salesPrice: number | null } }) => p.Part.salesPrice)).toEqual([
      null,
    ]);
    // A manager sees the price the line kept (12.50), not today's 99.00: the tab's total is the order's parts cost.
    expect((await org.admin.get(`${W}/get-parts/${id}`)).body.workOrderParts.map((p: { Part: { salesPrice: number | null } }) => p.Part.salesPrice)).toEqual([
      12.5,
    ]);
    const labors = JSON.stringify((await fitter.get(`${W}/get-labors/${id}`)).body);
    expect(labors).not.toMatch(/hourlyRate|rateMinor|costMinor|4000|9000/);
  });

  /** An organisation with a labour line and a part line as they were before migration 0055: no rate, no price kept. */
  async function linesBefore0055(name: string) {
    const org = await createOrg(t, name);
    const fitter = await org.as('worker', { firstName: 'Old', lastName: 'Line' });
    const o = org.orgId;
    const wo = (await org.admin.post(`${W}/add-work-order`, { title: 'Old lines' })).body.workOrder.id as number;
    return withTenant(t.database.db, o, async (tx) => {
      await setHourlyRate(tx, o, fitter.userId, 3300);
      const [reason] = await tx.insert(timeTrackingReasons).values({ orgId: o, name: 'Repair', type: 'productivity' }).returning();
      const belt = await insertConsumable(tx, o, 'Belt', 7.255);
      const [l] = await tx
        .insert(workOrderLabors)
        .values({
          orgId: o,
          workOrderId: wo,
          workerId: fitter.userId,
          reasonId: reason.id,
          startDate: new Date('2026-03-02T08:00:00Z'),
          endDate: new Date('2026-03-02T09:00:00Z'),
        })
        .returning();
      const [p] = await tx.insert(workOrderParts).values({ orgId: o, workOrderId: wo, partId: belt.id, quantity: 1 }).returning();
      const kept = async () => {
        const [labor] = await orgRows(t.database.db, o, workOrderLabors, eq(workOrderLabors.id, l.id));
        const [part] = await orgRows(t.database.db, o, workOrderParts, eq(workOrderParts.id, p.id));
        return [labor.rateMinor, part.unitPriceMinor];
      };
      return { orgId: o, kept };
    });
  }

  it('the migration snapshots the rate and the price of the lines written before it (0055)', async () => {
    const migrated = await linesBefore0055('Backfilled');
    const bystander = await linesBefore0055('Bystander');
    // Run in the migrated organisation's scope only: on the shared PostgreSQL, the migration's statements over the
    // whole database rewrote other test files' lines while they compared them (the route walker's "unchanged").
    const migration = readFileSync(new URL('../../../drizzle/0055_line_costs_snapshot.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint'))
      await withTenant(t.database.db, migrated.orgId, (tx) => tx.execute(sql.raw(statement)));
    // 7.255 -> 726 cents (half up, as toMinor).
    expect(await migrated.kept()).toEqual([3300, 726]);
    expect(await bystander.kept()).toEqual([null, null]);
  });
});
