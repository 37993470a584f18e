import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { assetCategories, assets, parts, productCategories, timeTrackingReasons, uomCategories, uoms } from '../../server/db/schema';
import { createOrg, useTestApp } from '../../server/test/harness';
import { setHourlyRate, updatePart } from '../../server/test/builders';

/**
 * Random sequences of changes (create, assign, status, labour, parts, rate and price changes, deletions) go
 * through the API's services; after each sequence every figure below is compared with a small reference
 * computation over a plain model of the rows (decision 063). A seeded generator: a failure names its seed.
 */
const t = useTestApp();

const SEQUENCES = 20;
const STEPS = 14;
const W = '/api/work-orders';

/** mulberry32: a small seeded generator. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] };
}

type Labor = { id: number; workerId: number; minutes: number; rate: number | null };
type Part = { partId: number; quantity: number; price: number };
type Order = { id: number; assetId: number | null; assignees: number[]; status: string; updatedAt: string; labor: Labor[]; parts: Part[] };

describe('analytics figures against a reference over the rows', () => {
  it.each(Array.from({ length: SEQUENCES }, (_, i) => i + 1))(
    `sequence %i: ${STEPS} random changes, then every figure against the reference`,
    { timeout: 120_000 },
    async (seed) => {
      {
        const r = prng(seed);
        const org = await createOrg(t, `Property ${seed}`);
        const workers = [await org.as('worker', { firstName: 'Ann', lastName: 'P' }), await org.as('worker', { firstName: 'Ben', lastName: 'P' })];
        const o = org.orgId;
        const rates = new Map<number, number | null>([
          [workers[0].userId, 1000 + 500 * r.int(6)],
          [workers[1].userId, r.next() < 0.3 ? null : 1500],
        ]);
        const fixture = await withTenant(t.database.db, o, async (tx) => {
          for (const [id, rate] of rates) await setHourlyRate(tx, o, id, rate);
          const [cat] = await tx.insert(assetCategories).values({ orgId: o, name: 'Pumps', code: 'PMP' }).returning();
          const made = [];
          for (const name of ['P1', 'P2'])
            made.push((await tx.insert(assets).values({ orgId: o, name, date: '2024-01-01', assetCategoryId: cat.id }).returning())[0]);
          const [reason] = await tx.insert(timeTrackingReasons).values({ orgId: o, name: 'Repair', type: 'availability' }).returning();
          const [uc] = await tx.insert(uomCategories).values({ orgId: o, name: 'Unit' }).returning();
          const [uom] = await tx.insert(uoms).values({ orgId: o, name: 'Piece', categoryId: uc.id, type: 'reference' }).returning();
          const [pc] = await tx.insert(productCategories).values({ orgId: o, name: 'Spares' }).returning();
          const partRows = [];
          for (const [name, price] of [
            ['Seal', 12.5],
            ['Belt', 3.99],
          ] as const)
            partRows.push(
              (
                await tx
                  .insert(parts)
                  .values({
                    orgId: o,
                    name,
                    type: 'consumable',
                    categoryId: pc.id,
                    salesPrice: price,
                    unitOfMeasureId: uom.id,
                    purchaseUnitOfMeasureId: uom.id,
                  })
                  .returning()
              )[0],
            );
          return { assets: made, reason, parts: partRows };
        });
        const prices = new Map(fixture.parts.map((p) => [p.id, Math.round(Number(p.salesPrice) * 100)]));
        const orders: Order[] = [];
        const ok = (res: { status: number; body: unknown }, what: string) =>
          expect(res.status, `seed ${seed}, ${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);

        for (let step = 0; step < STEPS; step++) {
          const live = orders.filter((x) => x);
          const order = live.length ? r.pick(live) : undefined;
          const op =
            !order || r.next() < 0.2
              ? 'create'
              : r.pick(['status', 'labor', 'labor', 'parts', 'rate', 'price', 'deleteLabor', 'deletePart', 'deleteOrder', 'assign']);
          if (op === 'create') {
            const assetId = r.next() < 0.8 ? r.pick(fixture.assets).id : null;
            const assignees = workers.filter(() => r.next() < 0.5).map((w) => w.userId);
            const res = await org.admin.post(`${W}/add-work-order`, { title: `Order ${step}`, assetId, assignees });
            ok(res, 'create');
            const wo = res.body.workOrder;
            orders.push({ id: wo.id, assetId, assignees, status: wo.status, updatedAt: wo.updatedAt, labor: [], parts: [] });
          } else if (op === 'status' && order) {
            const status = r.pick(['assigned', 'in-progress', 'completed', 'cancelled']);
            const res = await org.admin.put(`${W}/update-status/${order.id}`, { status, updatedAt: order.updatedAt });
            if (res.status === 200) Object.assign(order, { status: res.body.workOrder.status, updatedAt: res.body.workOrder.updatedAt });
          } else if (op === 'assign' && order) {
            const assignees = workers.filter(() => r.next() < 0.5).map((w) => w.userId);
            const res = await org.admin.put(`${W}/update-work-order/${order.id}`, {
              title: `Order ${order.id}`,
              assetId: order.assetId,
              assignees,
              updatedAt: order.updatedAt,
            });
            ok(res, 'assign');
            Object.assign(order, { assignees, updatedAt: res.body.workOrder.updatedAt });
          } else if (op === 'labor' && order) {
            const worker = r.pick(workers);
            const minutes = 15 + r.int(240);
            const start = Date.UTC(2026, 2, 1 + r.int(28), r.int(20), r.int(4) * 15);
            const res = await org.admin.post(`${W}/add-labor/${order.id}`, {
              startTime: new Date(start).toISOString(),
              endTime: new Date(start + minutes * 60_000).toISOString(),
              reason: fixture.reason.id,
              workerId: worker.userId,
            });
            ok(res, 'labour');
            order.labor.push({ id: res.body.labor.id, workerId: worker.userId, minutes, rate: rates.get(worker.userId)! });
          } else if (op === 'parts' && order) {
            const part = r.pick(fixture.parts);
            const quantity = 1 + r.int(3);
            ok(await org.admin.post(`${W}/add-parts/${order.id}`, { parts: [{ partId: part.id, quantity }] }), 'parts');
            const line = order.parts.find((p) => p.partId === part.id);
            if (line) line.quantity += quantity;
            else order.parts.push({ partId: part.id, quantity, price: prices.get(part.id)! });
          } else if (op === 'rate') {
            const worker = r.pick(workers);
            const rate = r.next() < 0.2 ? null : 500 + 250 * r.int(12);
            rates.set(worker.userId, rate);
            await withTenant(t.database.db, o, (tx) => setHourlyRate(tx, o, worker.userId, rate));
          } else if (op === 'price') {
            const part = r.pick(fixture.parts);
            const price = 100 + r.int(5000);
            prices.set(part.id, price);
            await withTenant(t.database.db, o, (tx) => updatePart(tx, o, part.id, { salesPrice: price / 100 }));
          } else if (op === 'deleteLabor' && order && order.labor.length) {
            const line = r.pick(order.labor);
            ok(await org.admin.del(`${W}/delete-labor/${order.id}/labor/${line.id}`), 'delete labour');
            order.labor = order.labor.filter((l) => l !== line);
          } else if (op === 'deletePart' && order && order.parts.length) {
            const line = r.pick(order.parts);
            ok(await org.admin.del(`${W}/delete-part/${order.id}/part/${line.partId}`), 'delete part');
            order.parts = order.parts.filter((p) => p !== line);
          } else if (op === 'deleteOrder' && order) {
            ok(await org.admin.del(`${W}/delete-work-order/${order.id}`), 'delete order');
            orders.splice(orders.indexOf(order), 1);
          }
        }

        // The reference: plain TypeScript over the model.
        const laborCost = (l: Labor) => (l.rate === null ? 0 : Math.round((l.minutes * l.rate) / 60));
        const partsCost = (x: Order) => x.parts.reduce((s, p) => s + p.quantity * p.price, 0);
        const costOf = (keep: (x: Order) => boolean, keepLabor: (l: Labor) => boolean = () => true) => {
          const chosen = orders.filter(keep);
          const labor = chosen.flatMap((x) => x.labor.filter(keepLabor));
          return {
            laborCost: labor.reduce((s, l) => s + laborCost(l), 0),
            partsCost: chosen.reduce((s, x) => s + partsCost(x), 0),
            unratedHours: Math.round(labor.filter((l) => l.rate === null).reduce((s, l) => s + l.minutes / 60, 0) * 100) / 100,
          };
        };
        const today = new Date().toISOString().slice(0, 10);
        const range = `range=custom&from=2026-03-01&to=${today}`;
        const get = async (path: string) => {
          const res = await org.admin.get(path);
          expect(res.status, `seed ${seed}: ${path}`).toBe(200);
          return res.body;
        };
        const asset = fixture.assets[0].id;
        const worker = workers[0].userId;
        const cases: [string, (x: Order) => boolean, (l: Labor) => boolean][] = [
          ['', () => true, () => true],
          [`&assetId=${asset}`, (x) => x.assetId === asset, () => true],
          [`&assetCategoryId=${fixture.assets[0].assetCategoryId}`, (x) => x.assetId !== null, () => true],
        ];
        for (const [filter, keep, keepLabor] of cases) {
          const costs = await get(`/api/analytics/get-costs?${range}${filter}`);
          expect({ laborCost: costs.laborCost, partsCost: costs.partsCost, unratedHours: costs.unratedHours }, `seed ${seed} costs${filter}`).toEqual(
            costOf(keep, keepLabor),
          );
          const share = await get(`/api/analytics/get-planned-share?${range}${filter}`);
          const hours = orders
            .filter(keep)
            .flatMap((x) => x.labor)
            .reduce((s, l) => s + l.minutes / 60, 0);
          expect(
            { reactiveOrders: share.reactiveOrders, plannedOrders: share.plannedOrders, reactiveHours: share.reactiveHours },
            `seed ${seed} share${filter}`,
          ).toEqual({
            reactiveOrders: orders.filter(keep).length,
            plannedOrders: 0,
            reactiveHours: Math.round(hours * 100) / 100,
          });
          const backlog = await get(`/api/analytics/get-backlog?${range}${filter}`);
          expect(backlog.openNow, `seed ${seed} backlog${filter}`).toBe(
            orders.filter(keep).filter((x) => x.status === 'assigned' || x.status === 'in-progress').length,
          );
          const through = await get(`/api/analytics/get-throughput?${range}${filter}`);
          expect([through.created.current, through.completed.current], `seed ${seed} throughput${filter}`).toEqual([
            orders.filter(keep).length,
            orders.filter(keep).filter((x) => x.status === 'completed').length,
          ]);
          const repairs = await get(`/api/analytics/get-repair-times?${range}${filter}`);
          expect(repairs.mttr.overall.count, `seed ${seed} mttr${filter}`).toBe(orders.filter(keep).filter((x) => x.status === 'completed').length);
        }
        // The assignee filter: labour by the person who logged it, parts on the orders assigned to them.
        const mine = await get(`/api/analytics/get-costs?${range}&assigneeId=${worker}`);
        const mineLabor = orders.flatMap((x) => x.labor).filter((l) => l.workerId === worker);
        expect([mine.laborCost, mine.partsCost], `seed ${seed} costs by assignee`).toEqual([
          mineLabor.reduce((s, l) => s + laborCost(l), 0),
          orders.filter((x) => x.assignees.includes(worker)).reduce((s, x) => s + partsCost(x), 0),
        ]);
        // Each order's own cost is what the reference (and so the insights) count for it.
        for (const x of orders) {
          const { cost } = await get(`${W}/get-cost/${x.id}`);
          const labor = x.labor.reduce((s, l) => s + laborCost(l), 0);
          expect([cost.laborMinor, cost.partsMinor, cost.totalMinor], `seed ${seed} order ${x.id}`).toEqual([labor, partsCost(x), labor + partsCost(x)]);
        }
      }
    },
  );
});
