import { afterEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { withTenant, withoutTenant } from '../../server/db/client';
import { mailOutbox, notificationDeliveries, organizations, users, workOrders } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { dispatchDue } from './notifications.dispatch';
import { quietUntil } from './notifications.service';
import { organisationsWithDueWork } from './notifications.due-orgs';

const t = useTestApp();
afterEach(() => setClockOffset(0));

type Person = Client & { userId: number };
const Z = 'Europe/Berlin';
const quiet = { quietStart: '22:00', quietEnd: '07:00' };
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('quiet hours on the days the clocks change (Europe/Berlin)', () => {
  it('29 March 2026 (02:00 -> 03:00): 06:30 local is quiet until 07:00 local; 07:30 local is not', () => {
    // 04:30Z is 06:30 CEST, only 5 h 30 after local midnight: counted from midnight it looked like 05:30.
    expect(iso(quietUntil(new Date('2026-03-29T04:30:00Z'), Z, quiet))).toBe('2026-03-29T05:00:00.000Z');
    // 05:30Z is 07:30 CEST: counted from midnight (6 h 30) it looked like 06:30, inside the quiet hours.
    expect(quietUntil(new Date('2026-03-29T05:30:00Z'), Z, quiet)).toBeNull();
    // The evening: 20:00Z is 22:00 CEST, quiet until 07:00 CEST the next morning.
    expect(iso(quietUntil(new Date('2026-03-29T20:00:00Z'), Z, quiet))).toBe('2026-03-30T05:00:00.000Z');
    expect(quietUntil(new Date('2026-03-29T19:59:00Z'), Z, quiet)).toBeNull();
  });

  it('25 October 2026 (03:00 -> 02:00): 06:30 local is quiet until 07:00 local (06:00Z); 07:00 local is not', () => {
    // 05:30Z is 06:30 CET, 7 h 30 after local midnight: counted from midnight it looked like 07:30, past the end.
    expect(iso(quietUntil(new Date('2026-10-25T05:30:00Z'), Z, quiet))).toBe('2026-10-25T06:00:00.000Z');
    expect(quietUntil(new Date('2026-10-25T06:00:00Z'), Z, quiet)).toBeNull();
    // 21:00Z is 22:00 CET.
    expect(iso(quietUntil(new Date('2026-10-25T21:00:00Z'), Z, quiet))).toBe('2026-10-26T06:00:00.000Z');
    expect(quietUntil(new Date('2026-10-25T20:59:00Z'), Z, quiet)).toBeNull();
  });

  it('the dispatcher holds and sends by the local clock, with the clock moved to each change day', async () => {
    const org = await createOrg(t);
    await withoutTenant(t.database.db, (tx) => tx.update(organizations).set({ timeZone: Z }).where(eq(organizations.id, org.orgId)));
    const manager = (await org.as('manager')) as Person;
    const tech = (await org.as('worker')) as Person;
    const prefs = (await tech.get('/api/notifications/preferences')).body.preferences;
    expect((await tech.put('/api/notifications/preferences', { ...prefs, ...quiet })).status).toBe(200);
    const [{ email }] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.orgId, org.orgId), eq(users.id, tech.userId))),
    );
    const mails = () => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, email)));
    const deps = { mailer: t.app.deps.jobs.mailer, config: t.config };
    const dispatch = (at: string) => withTenant(t.database.db, org.orgId, (tx) => dispatchDue(tx, org.orgId, deps, new Date(at)));
    const assign = async (at: string, title: string) => {
      setClockOffset(Date.parse(at) - Date.now());
      expect((await manager.post('/api/work-orders/add-work-order', { title, assignees: [tech.userId] })).status).toBe(201);
    };

    // Spring: assigned at 07:20 CEST, the mail due at 07:25 CEST leaves at 07:26.
    await assign('2026-03-29T05:20:00Z', 'Spring check');
    await dispatch('2026-03-29T05:26:00Z');
    expect(await mails()).toHaveLength(1);

    // Autumn: assigned at 06:20 CET (05:20Z): at 05:26Z (06:26 CET) held until 07:00 CET = 06:00Z, sent then.
    await assign('2026-10-25T05:20:00Z', 'Autumn check');
    expect((await dispatch('2026-10-25T05:26:00Z')).held).toBe(1);
    const held = await orgRows(
      t.database.db,
      org.orgId,
      notificationDeliveries,
      eq(notificationDeliveries.userId, tech.userId),
      eq(notificationDeliveries.channel, 'email'),
    );
    expect(held.filter((d) => !d.sentAt).map((d) => iso(d.dueAt))).toEqual(['2026-10-25T06:00:00.000Z']);
    await dispatch('2026-10-25T05:59:00Z');
    expect(await mails()).toHaveLength(1);
    await dispatch('2026-10-25T06:00:00Z');
    expect(await mails()).toHaveLength(2);
  });
});

describe('the every-minute job finds the organisations with work without walking them all', () => {
  it('messages due, a due-soon or overdue moment crossed, or open work changed since the last run; not the others', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const c = await createOrg(t);
    const T = Date.parse('2031-06-01T10:00:00Z');
    const h = (n: number) => new Date(T + n * 3_600_000);
    const dbNow = async () => new Date(Date.now());
    const due = (at: Date, previous: Date, changedSince?: Date) =>
      withoutTenant(t.database.db, async (tx) => organisationsWithDueWork(tx, at, { at: previous, dbNow: changedSince ?? (await dbNow()) }));
    const addOrder = async (org: TestOrg, dueDate: Date) => {
      const res = await org.admin.post('/api/work-orders/add-work-order', { title: 'Check', dueDate: dueDate.toISOString() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.workOrder.id as number;
    };
    // Org A: an order just made (changed since the previous run) due in 30 h.
    const previousDb = await dbNow();
    await new Promise((r) => setTimeout(r, 5));
    await addOrder(a, h(30));
    // Org B: an order due at T+30h, changed long ago.
    const bOrder = await addOrder(b, h(30));
    await withTenant(t.database.db, b.orgId, (tx) =>
      tx
        .update(workOrders)
        .set({ updatedAt: new Date('2020-01-01T00:00:00Z') })
        .where(and(eq(workOrders.orgId, b.orgId), eq(workOrders.id, bOrder))),
    );
    const mine = (ids: number[]) => ids.filter((id) => [a.orgId, b.orgId, c.orgId].includes(id));

    // Just after: A changed (within the overlap), B and C have nothing.
    expect(mine(await due(h(0), h(-0.02), previousDb))).toEqual([a.orgId]);
    // Changes older than the previous run's database time (less the overlap) are not seen again.
    const later = new Date(Date.now() + 60 * 60_000);
    expect(mine(await due(h(1), h(0.98), later))).toEqual([]);
    // B's due-soon moment (24 h before T+30h = T+6h) is crossed between T+5h59 and T+6h01: B (and A, same due).
    expect(mine(await due(h(6.02), h(5.98), later)).sort()).toEqual([a.orgId, b.orgId].sort());
    // With a 48 h lead time, B's moment moves to T-18h: no longer crossed at T+6h, crossed at T-18h.
    expect((await b.admin.put('/api/notifications/organization-settings', { dueSoonHours: 48, digestTime: '07:00' })).status).toBe(200);
    expect(mine(await due(h(6.02), h(5.98), later))).toEqual([a.orgId]);
    expect(mine(await due(h(-17.98), h(-18.02), later))).toEqual([b.orgId]);
    // Overdue: T+30h crossed.
    expect(mine(await due(h(30.02), h(29.98), later)).sort()).toEqual([a.orgId, b.orgId].sort());
    // A message due in C makes C one; not yet due, not.
    const tech = (await c.as('worker')) as Person;
    const order = await addOrder(c, h(500));
    await withTenant(t.database.db, c.orgId, (tx) =>
      tx.insert(notificationDeliveries).values({
        orgId: c.orgId,
        userId: tech.userId,
        channel: 'email',
        entityType: 'work-order',
        entityId: order,
        notificationIds: [],
        dueAt: h(40),
      }),
    );
    expect(mine(await due(h(39.9), h(39.8), later))).toEqual([]);
    expect(mine(await due(h(40), h(39.9), later))).toEqual([c.orgId]);
  });
});
