import { afterEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { openDatabase, withTenant } from '../../server/db/client';
import { assets, parts, pmOccurrences, pmPlans, teamMembers, teams, workOrderAssignees, workOrderParts, workOrders } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { runPmGenerator } from '../../server/jobs/pm-generator.job';
import { createOrg, useTestApp, type TestOrg } from '../../server/test/harness';
import { generateDueWork, listPlannedOccurrences } from './pm-plans.service';
import { insertPartBasics, insertPumpsCategory } from '../../server/test/builders';
import { weeklyPlan } from '../../server/test/fixtures';

const t = useTestApp();
afterEach(() => setClockOffset(0));

const BASE = '/api/pm-plans';

/** Sets the application's clock to 10:00 UTC of `day`. */
const at = (day: string) => setClockOffset(Date.parse(`${day}T10:00:00Z`) - Date.now());

/** The real UTC day `n` days ago (negative: ahead), YYYY-MM-DD: for tests whose completions take the database's real time. */
function daysAgo(n: number) {
  const today = new Date().toISOString().slice(0, 10);
  return new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
}

async function fixtures(org: TestOrg, tag = 'A') {
  const worker = await org.as('worker', { firstName: `Wendy${tag}`, lastName: 'Worker' });
  const lead = await org.as('worker', { firstName: `Lars${tag}`, lastName: 'Lead' });
  const rows = await withTenant(t.database.db, org.orgId, async (tx) => {
    const orgId = org.orgId;
    const category = await insertPumpsCategory(tx, orgId, tag);
    const [pump] = await tx
      .insert(assets)
      .values({ orgId, name: `Pump ${tag}`, date: '2024-01-15', assetCategoryId: category.id })
      .returning();
    const [fan] = await tx
      .insert(assets)
      .values({ orgId, name: `Fan ${tag}`, date: '2024-01-15', assetCategoryId: category.id })
      .returning();
    const { productCategory: pc, each: uom } = await insertPartBasics(tx, orgId, tag);
    const [filter] = await tx
      .insert(parts)
      .values({
        orgId,
        type: 'stockable',
        categoryId: pc.id,
        unitOfMeasureId: uom.id,
        purchaseUnitOfMeasureId: uom.id,
        name: `Oil filter ${tag}`,
        salesPrice: 9,
      })
      .returning();
    const [team] = await tx
      .insert(teams)
      .values({ orgId, name: `Mechanics ${tag}` })
      .returning();
    await tx.insert(teamMembers).values({ orgId, teamId: team.id, workerId: lead.userId, isTeamLead: true });
    return { pump, fan, filter, team };
  });
  return { ...rows, worker, lead };
}

type Fx = Awaited<ReturnType<typeof fixtures>>;

const planBody = (fx: Fx, extra: Record<string, unknown> = {}) =>
  weeklyPlan(fx.pump.id, fx.worker.userId, {
    instructions: '<p>Grease <strong>both</strong> bearings</p><script>x()</script>',
    duration: '01:30',
    teamId: fx.team.id,
    parts: [{ partId: fx.filter.id, quantity: 2 }],
    ...extra,
  });

async function addPlan(org: TestOrg, body: Record<string, unknown>) {
  const res = await org.admin.post(`${BASE}/add-plan`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.plan as { id: number; nextDue: string | null; [k: string]: unknown };
}

/** A new organisation (its fixtures) with a weekly plan (planBody with `extra` of the fixtures) added on `day`. */
async function orgWithPlan(day: string, extra: (fx: Fx) => Record<string, unknown> = () => ({})) {
  const org = await createOrg(t);
  const fx = await fixtures(org);
  at(day);
  return { org, fx, plan: await addPlan(org, planBody(fx, extra(fx))) };
}

const preview = async (org: TestOrg, body: Record<string, unknown>) => {
  const res = await org.admin.post(`${BASE}/preview-plan`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { dueDates: string[]; createDates: string[]; meterValues: number[] };
};

const run = async (org: TestOrg) => {
  const res = await org.admin.post(`${BASE}/run-generator`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.created as number;
};

/** The organisation's work orders with their due day, asset, assignees and parts. */
async function ordersOf(org: TestOrg) {
  return withTenant(t.database.db, org.orgId, async (tx) => {
    const rows = await tx.select().from(workOrders).where(eq(workOrders.orgId, org.orgId)).orderBy(workOrders.dueDate, workOrders.id);
    const out = [];
    for (const r of rows) {
      const people = await tx
        .select({ userId: workOrderAssignees.userId })
        .from(workOrderAssignees)
        .where(and(eq(workOrderAssignees.orgId, org.orgId), eq(workOrderAssignees.workOrderId, r.id)));
      const lines = await tx
        .select({ partId: workOrderParts.partId, quantity: workOrderParts.quantity })
        .from(workOrderParts)
        .where(and(eq(workOrderParts.orgId, org.orgId), eq(workOrderParts.workOrderId, r.id)));
      out.push({ ...r, due: r.dueDate?.toISOString().slice(0, 10), assignees: people.map((p) => p.userId).sort((a, b) => a - b), parts: lines });
    }
    return out;
  });
}

/** How many rows of the organisation's `table` there are (plans or occurrences). */
const rowsOf = async (org: TestOrg, table: typeof pmPlans | typeof pmOccurrences) =>
  withTenant(t.database.db, org.orgId, async (tx) => (await tx.select({ n: count() }).from(table).where(eq(table.orgId, org.orgId)))[0].n);
const issue = (res: { body: { issues?: { path: string; message: string }[] } }, path: string) => res.body.issues?.find((i) => i.path === path)?.message;

describe('preview: the next 12 due days of each kind of recurrence', () => {
  it('daily, weekly on chosen weekdays, monthly on a day or "second Tuesday", yearly, with lead time', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    expect((await preview(org, planBody(fx, { frequency: 'daily', interval: 3 }))).dueDates.slice(0, 4)).toEqual([
      '2030-03-01',
      '2030-03-04',
      '2030-03-07',
      '2030-03-10',
    ]);
    const weekly = await preview(org, planBody(fx, { frequency: 'weekly', interval: 2, weekdays: ['TU', 'FR'] }));
    expect(weekly.dueDates.slice(0, 5)).toEqual(['2030-03-01', '2030-03-12', '2030-03-15', '2030-03-26', '2030-03-29']);
    expect(weekly.dueDates).toHaveLength(12);
    // Day 31: the month's last day where it has none.
    const monthEnd = await preview(org, planBody(fx, { frequency: 'monthly', monthlyMode: 'day', monthDay: 31, startDate: '2030-01-01' }));
    expect(monthEnd.dueDates.slice(0, 4)).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30']);
    const secondTuesday = await preview(
      org,
      planBody(fx, { frequency: 'monthly', monthlyMode: 'weekday', monthWeek: 2, monthWeekday: 'TU', startDate: '2030-01-01' }),
    );
    expect(secondTuesday.dueDates.slice(0, 3)).toEqual(['2030-01-08', '2030-02-12', '2030-03-12']);
    const lastFriday = await preview(
      org,
      planBody(fx, { frequency: 'monthly', monthlyMode: 'weekday', monthWeek: -1, monthWeekday: 'FR', startDate: '2030-01-01', interval: 3 }),
    );
    expect(lastFriday.dueDates.slice(0, 3)).toEqual(['2030-01-25', '2030-04-26', '2030-07-26']);
    const yearly = await preview(org, planBody(fx, { frequency: 'yearly', startDate: '2030-06-15', leadDays: 10 }));
    expect(yearly.dueDates.slice(0, 3)).toEqual(['2030-06-15', '2031-06-15', '2032-06-15']);
    expect(yearly.createDates[0]).toBe('2030-06-05');
    // An end date stops the series.
    expect((await preview(org, planBody(fx, { frequency: 'daily', endDate: '2030-03-03' }))).dueDates).toEqual(['2030-03-01', '2030-03-02', '2030-03-03']);
    // A form's empty end date is none; the preview needs no name, title or asset yet.
    expect((await preview(org, { ...planBody(fx, { frequency: 'daily', endDate: '' }), name: '', title: '', assetIds: [] })).dueDates).toHaveLength(12);
    // Floating: each counted from the previous one, as if completed on its due day, whatever the weekday.
    expect((await preview(org, planBody(fx, { frequency: 'weekly', interval: 1, weekdays: ['MO'], schedule: 'floating' }))).dueDates.slice(0, 3)).toEqual([
      '2030-03-04',
      '2030-03-11',
      '2030-03-18',
    ]);
  });
});

describe('validation: field messages, nothing half-created', () => {
  it('refuses an interval of 0, an end before the start, a threshold without a meter, no target, both targets', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const bad = async (extra: Record<string, unknown>, path: string, message: string) => {
      const res = await org.admin.post(`${BASE}/add-plan`, planBody(fx, extra));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(issue(res, path), JSON.stringify(res.body)).toBe(message);
      // The preview says the same of the trigger's fields (it needs no name, title or target yet).
      const p = await org.admin.post(`${BASE}/preview-plan`, planBody(fx, extra));
      if (!['assetIds', 'name'].includes(path)) expect(issue(p, path)).toBe(message);
      else expect(p.status).toBe(200);
    };
    await bad({ interval: 0 }, 'interval', 'The interval must be a whole number of at least 1');
    await bad({ endDate: '2030-02-01' }, 'endDate', 'The end date must be on or after the start date');
    await bad({ trigger: 'meter', meterThreshold: 500 }, 'meterId', 'Choose the meter');
    await bad({ meterThreshold: 500 }, 'meterThreshold', 'Choose the meter');
    await bad({ assetIds: [] }, 'assetIds', 'Choose at least one asset or a work station');
    await bad({ workStationId: 1 }, 'workStationId', 'Choose assets or a work station, not both');
    await bad({ startDate: '' }, 'startDate', 'Start date is required');
    await bad({ startDate: '2030-02-30' }, 'startDate', 'Start date must be a valid date');
    await bad({ leadDays: -1 }, 'leadDays', 'Lead time must be a whole number of days from 0 to 365');
    await bad({ frequency: 'monthly', monthlyMode: 'weekday' }, 'monthWeek', 'Choose which week of the month');
    await bad({ name: ' ' }, 'name', 'Plan name is required');
    await bad({ weekdays: ['XX'] }, 'weekdays.0', 'Weekdays must be among MO, TU, WE, TH, FR, SA, SU');
  });

  it('refuses another organisation’s asset, part, team and person, and creates nothing', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t);
    const fx = await fixtures(org);
    const ofOther = await fixtures(other, 'B');
    const refused = async (extra: Record<string, unknown>, path: string, message: string) => {
      const res = await org.admin.post(`${BASE}/add-plan`, planBody(fx, extra));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(issue(res, path)).toBe(message);
    };
    await refused({ assetIds: [fx.pump.id, ofOther.fan.id + 1000] }, 'assetIds.1', 'Asset not found');
    await refused({ parts: [{ partId: ofOther.filter.id + 1000 }] }, 'parts.0.partId', 'Part not found');
    await refused({ teamId: ofOther.team.id + 1000 }, 'teamId', 'Team not found');
    // Ids are per organisation: the other's ids past this one's own are unknown here.
    await refused({ assignees: [ofOther.worker.userId + 1000] }, 'assignees.0', 'Assignee not found');
    expect(await rowsOf(org, pmPlans)).toBe(0);
  });
});

describe('roles and isolation', () => {
  it('is for managers and admins: workers get 403 on every route, anonymous 401', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const manager = await org.as('manager');
    const res = await manager.post(`${BASE}/add-plan`, planBody(fx));
    expect(res.status).toBe(201);
    const id = res.body.plan.id;
    const worker = await org.as('worker');
    const calls = [
      () => worker.get(`${BASE}/get-plans`),
      () => worker.get(`${BASE}/get-plan/${id}`),
      () => worker.get(`${BASE}/get-occurrences/${id}`),
      () => worker.post(`${BASE}/add-plan`, planBody(fx)),
      () => worker.put(`${BASE}/update-plan/${id}`, planBody(fx)),
      () => worker.del(`${BASE}/delete-plan/${id}`),
      () => worker.put(`${BASE}/pause/${id}`),
      () => worker.put(`${BASE}/resume/${id}`),
      () => worker.post(`${BASE}/skip-next/${id}`, { reason: 'x' }),
      () => worker.post(`${BASE}/preview-plan`, planBody(fx)),
      () => worker.get(`${BASE}/dry-run?from=2030-03-01&to=2030-03-31`),
      () => worker.get(`${BASE}/planned-occurrences?from=2030-03-01&to=2030-03-31`),
      () => worker.get(`${BASE}/compliance?from=2030-03-01&to=2030-03-31`),
      () => worker.get(`${BASE}/settings`),
      () => worker.put(`${BASE}/settings`, { graceDays: 2 }),
      () => worker.post(`${BASE}/run-generator`),
    ];
    for (const call of calls) expect((await call()).status).toBe(403);
    expect((await org.anonymous.get(`${BASE}/get-plans`)).status).toBe(401);
    expect((await manager.get(`${BASE}/get-plan/${id}`)).status).toBe(200);
  });

  it('another organisation gets 404 on every route of a plan and changes nothing', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const other = await createOrg(t);
    const ofOther = await fixtures(other, 'B');
    at('2030-03-01');
    const plan = await addPlan(org, planBody(fx));
    const before = (await org.admin.get(`${BASE}/get-plan/${plan.id}`)).body.plan;
    const o = other.admin;
    expect((await o.get(`${BASE}/get-plan/${plan.id}`)).status).toBe(404);
    expect((await o.get(`${BASE}/get-occurrences/${plan.id}`)).status).toBe(404);
    expect((await o.put(`${BASE}/update-plan/${plan.id}`, planBody(ofOther, { name: 'Hijacked' }))).status).toBe(404);
    expect((await o.put(`${BASE}/pause/${plan.id}`)).status).toBe(404);
    expect((await o.put(`${BASE}/resume/${plan.id}`)).status).toBe(404);
    expect((await o.post(`${BASE}/skip-next/${plan.id}`, { reason: 'x' })).status).toBe(404);
    expect((await o.del(`${BASE}/delete-plan/${plan.id}`)).status).toBe(404);
    // Their lists, projections, dry run and generator do not see it.
    expect((await o.get(`${BASE}/get-plans`)).body.plans).toEqual([]);
    expect((await o.get(`${BASE}/planned-occurrences?from=2030-03-01&to=2030-03-31`)).body.occurrences).toEqual([]);
    expect((await o.get(`${BASE}/dry-run?from=2030-03-01&to=2030-03-31`)).body.occurrences).toEqual([]);
    at('2030-03-04');
    expect(await run(other)).toBe(0);
    expect(await ordersOf(org)).toEqual([]);
    const after = (await org.admin.get(`${BASE}/get-plan/${plan.id}`)).body.plan;
    expect({ ...after, nextDue: null }).toEqual({ ...before, nextDue: null });
    expect(after.paused).toBe(false);
  });
});

describe('the generator', () => {
  it('creates each due work order once, with asset, team members and assignees, parts; twice or concurrently changes nothing', async () => {
    const { org, fx, plan } = await orgWithPlan('2030-03-01', (fx) => ({ assetIds: [fx.pump.id, fx.fan.id] }));
    expect(plan.nextDue).toBe('2030-03-04');
    expect(await run(org)).toBe(0);
    at('2030-03-04');
    // Two runs at once (on PostgreSQL on two connections): the occurrence key lets one of them create each order.
    const results = await Promise.all(
      [0, 1].map(() => withTenant(t.database.db, org.orgId, (tx) => generateDueWork(tx, org.orgId, new Date('2030-03-04T10:00:00Z')))),
    );
    expect(results[0].created + results[1].created).toBe(2);
    expect(await run(org)).toBe(0);
    await runPmGenerator(t.database, undefined, new Date('2030-03-04T11:00:00Z'));
    const orders = (await ordersOf(org)).sort((a, b) => (a.assetId ?? 0) - (b.assetId ?? 0));
    expect(orders.map((o) => [o.due, o.assetId, o.title, o.priority, o.duration, o.status])).toEqual(
      [
        ['2030-03-04', fx.pump.id, 'Lubricate bearings', 'high', '01:30', 'assigned'],
        ['2030-03-04', fx.fan.id, 'Lubricate bearings', 'high', '01:30', 'assigned'],
      ].sort((a, b) => Number(a[1]) - Number(b[1])),
    );
    expect(orders[0].instructions).toBe('<p>Grease <strong>both</strong> bearings</p>');
    expect(orders[0].assignees).toEqual([fx.worker.userId, fx.lead.userId].sort((a, b) => a - b));
    expect(orders[0].parts).toEqual([{ partId: fx.filter.id, quantity: 2 }]);
    const occurrences = (await org.admin.get(`${BASE}/get-occurrences/${plan.id}`)).body.occurrences;
    expect(occurrences).toHaveLength(2);
    expect(occurrences.every((o: { status: string; workOrderId: number }) => o.status === 'created' && orders.some((w) => w.id === o.workOrderId))).toBe(true);
    // A week later the next ones.
    at('2030-03-11');
    expect(await run(org)).toBe(2);
    expect((await org.admin.get(`${BASE}/get-plan/${plan.id}`)).body.plan.nextDue).toBe('2030-03-04');
  });

  it('copies the plan’s procedure into each work order it creates; an unknown procedure is refused', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const proc = await org.admin.post('/api/procedures/add-procedure', {
      name: 'Lubrication checklist',
      steps: [{ kind: 'checkbox', label: 'Grease applied', required: true }],
    });
    expect(proc.status, JSON.stringify(proc.body)).toBe(201);
    const procedureId = proc.body.procedure.id;
    const unknown = await org.admin.post(`${BASE}/add-plan`, planBody(fx, { procedureId: procedureId + 100 }));
    expect(issue(unknown, 'procedureId')).toBe('Procedure not found');
    at('2030-03-01');
    const plan = await addPlan(org, planBody(fx, { procedureId }));
    expect(plan.procedureId).toBe(procedureId);
    at('2030-03-04');
    expect(await run(org)).toBe(1);
    const [order] = await ordersOf(org);
    const attached = await org.admin.get(`/api/work-orders/get-work-order-procedure/${order.id}`);
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    expect(JSON.stringify(attached.body)).toContain('Grease applied');
  });

  it('creates the work order lead-time days before it is due, not earlier', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    at('2030-03-01');
    await addPlan(org, planBody(fx, { frequency: 'monthly', monthlyMode: 'day', monthDay: 20, leadDays: 5 }));
    at('2030-03-14');
    expect(await run(org)).toBe(0);
    at('2030-03-15');
    expect(await run(org)).toBe(1);
    expect((await ordersOf(org)).map((o) => o.due)).toEqual(['2030-03-20']);
  });

  it('fixed vs floating: a floating plan waits for the completion and counts from it', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    // Completion times are the database's real time: the plans start three weeks before today.
    const today = daysAgo(0);
    setClockOffset(-21 * 86_400_000);
    await addPlan(org, planBody(fx, { name: 'Fixed', frequency: 'daily', interval: 7, weekdays: [], startDate: daysAgo(21) }));
    const floating = await addPlan(
      org,
      planBody(fx, { name: 'Floating', assetIds: [fx.fan.id], frequency: 'daily', interval: 7, weekdays: [], schedule: 'floating', startDate: daysAgo(21) }),
    );
    expect(await run(org)).toBe(2);
    // Three weeks on, nothing completed: the fixed plan has created every week, the floating one waits.
    setClockOffset(0);
    expect(await run(org)).toBe(3);
    const orders = await ordersOf(org);
    expect(orders.filter((o) => o.assetId === fx.pump.id).map((o) => o.due)).toEqual([daysAgo(21), daysAgo(14), daysAgo(7), today]);
    expect(orders.filter((o) => o.assetId === fx.fan.id).map((o) => o.due)).toEqual([daysAgo(21)]);
    expect((await org.admin.get(`${BASE}/get-plan/${floating.id}`)).body.plan.nextDue).toBe(daysAgo(21));
    // Completed today: the next one is due a week from today, not on the old calendar.
    const floatingOrder = orders.find((o) => o.assetId === fx.fan.id)!;
    expect((await org.admin.put(`/api/work-orders/update-status/${floatingOrder.id}`, { status: 'completed' })).status).toBe(200);
    const inAWeek = daysAgo(-7);
    expect((await org.admin.get(`${BASE}/get-plan/${floating.id}`)).body.plan.nextDue).toBe(inAWeek);
    expect(await run(org)).toBe(0);
    setClockOffset(7 * 86_400_000);
    expect(await run(org)).toBe(2);
    expect((await ordersOf(org)).filter((o) => o.assetId === fx.fan.id).map((o) => o.due)).toEqual([daysAgo(21), inAWeek]);
  });

  it('a paused plan creates nothing, and resuming does not fill the gap', async () => {
    const { org, plan } = await orgWithPlan('2030-03-01', () => ({ frequency: 'daily', weekdays: [] }));
    expect((await org.admin.put(`${BASE}/pause/${plan.id}`)).body.plan.paused).toBe(true);
    at('2030-03-05');
    expect(await run(org)).toBe(0);
    expect((await org.admin.put(`${BASE}/resume/${plan.id}`)).body.plan.paused).toBe(false);
    expect(await run(org)).toBe(1);
    expect((await ordersOf(org)).map((o) => o.due)).toEqual(['2030-03-05']);
  });

  it('skips the next occurrence with a reason: recorded, and the generator moves past it', async () => {
    const { org, plan } = await orgWithPlan('2030-03-01');
    const noReason = await org.admin.post(`${BASE}/skip-next/${plan.id}`, { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(issue(noReason, 'reason')).toBe('A reason is required');
    const res = await org.admin.post(`${BASE}/skip-next/${plan.id}`, { reason: 'Plant shutdown' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.occurrences).toMatchObject([{ dueDate: '2030-03-04', status: 'skipped', reason: 'Plant shutdown', workOrderId: null }]);
    expect(res.body.plan.nextDue).toBe('2030-03-11');
    at('2030-03-11');
    expect(await run(org)).toBe(1);
    expect((await ordersOf(org)).map((o) => o.due)).toEqual(['2030-03-11']);
  });

  it('an edit while running: the occurrences already made stay, the new schedule applies after them', async () => {
    const { org, fx, plan } = await orgWithPlan('2030-03-01');
    at('2030-03-04');
    expect(await run(org)).toBe(1);
    const current = (await org.admin.get(`${BASE}/get-plan/${plan.id}`)).body.plan;
    const res = await org.admin.put(`${BASE}/update-plan/${plan.id}`, planBody(fx, { weekdays: ['MO', 'TH'], updatedAt: current.updatedAt }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A stale copy is refused.
    expect((await org.admin.put(`${BASE}/update-plan/${plan.id}`, planBody(fx, { updatedAt: current.updatedAt }))).status).toBe(409);
    expect(await run(org)).toBe(0);
    at('2030-03-07');
    expect(await run(org)).toBe(1);
    expect((await ordersOf(org)).map((o) => o.due)).toEqual(['2030-03-04', '2030-03-07']);
  });
});

describe('meter triggers', () => {
  const addMeter = async (org: TestOrg, assetId: number, kind: 'counter' | 'gauge') => {
    const res = await org.admin.post('/api/meters/add-meter', { assetId, name: `${kind} meter`, kind, unit: kind === 'counter' ? 'h' : '°C' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body.meter ?? res.body) as { id: number };
  };
  const read = async (org: TestOrg, meterId: number, value: number) => {
    const res = await org.admin.post('/api/meters/add-meter-reading', { meterId, value });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  /** Reads each value in turn; after each, the generator must create `created` orders. */
  const readThenRun = async (org: TestOrg, meterId: number, steps: [value: number, created: number][]) => {
    for (const [value, created] of steps) {
      await read(org, meterId, value);
      expect(await run(org), `created after reading ${value}`).toBe(created);
    }
  };

  it('every N units: due at each multiple above the total when saved, created lead units before; a threshold once per crossing', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const hours = await addMeter(org, fx.pump.id, 'counter');
    const temperature = await addMeter(org, fx.fan.id, 'gauge');
    await read(org, hours.id, 100);
    await read(org, hours.id, 1_300);
    // Total 1,300 (the meter's usage): every 500 h is due at 1,500, 2,000…
    const meterPlan = planBody(fx, { trigger: 'meter', meterId: hours.id, meterEvery: 500, meterLeadUnits: 50 });
    expect((await preview(org, meterPlan)).meterValues.slice(0, 3)).toEqual([1_500, 2_000, 2_500]);
    const plan = await addPlan(org, meterPlan);
    const hot = await addPlan(org, planBody(fx, { name: 'Overheat', assetIds: [fx.fan.id], trigger: 'meter', meterId: temperature.id, meterThreshold: 80 }));
    expect(await run(org)).toBe(0);
    await read(org, hours.id, 1_449); // within 50 h of 1,500 only from 1,450
    expect(await run(org)).toBe(0);
    await read(org, hours.id, 1_450);
    await read(org, temperature.id, 85);
    expect(await run(org)).toBe(2);
    expect(await run(org)).toBe(0);
    // Still hot, no new crossing: nothing. Back below, then above again while its order is open: nothing more
    // (the technician is on it; issue 39, decision 064).
    await read(org, temperature.id, 70);
    await read(org, temperature.id, 90);
    expect(await run(org)).toBe(0);
    // 1,500 done; the next at 2,000, created from 1,950.
    await readThenRun(org, hours.id, [
      [1_949, 0],
      [1_950, 1],
    ]);
    const occurrences = (await org.admin.get(`${BASE}/get-occurrences/${plan.id}`)).body.occurrences;
    expect(occurrences).toHaveLength(2);
    expect((await org.admin.get(`${BASE}/get-occurrences/${hot.id}`)).body.occurrences).toHaveLength(1);
  });

  /** The meter values of a plan's occurrences, oldest first, with their due day and ordinal. */
  const meterOccurrences = (org: TestOrg, planId: number) =>
    withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .select({ due: pmOccurrences.dueDate, ordinal: pmOccurrences.ordinal, value: pmOccurrences.meterValue, workOrderId: pmOccurrences.workOrderId })
        .from(pmOccurrences)
        .where(and(eq(pmOccurrences.orgId, org.orgId), eq(pmOccurrences.planId, planId)))
        .orderBy(pmOccurrences.dueDate, pmOccurrences.ordinal),
    );
  const complete = async (org: TestOrg, workOrderId: number | null) =>
    expect((await org.admin.put(`/api/work-orders/update-status/${workOrderId}`, { status: 'completed' })).status).toBe(200);

  // Issue 39: a jump of 100 -> 2,600 on a plan every 500 made five orders, one per run day.
  it('a counter that jumps past several points: one order, and the next point is the first after the reading', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const hours = await addMeter(org, fx.pump.id, 'counter');
    await read(org, hours.id, 100);
    const body = planBody(fx, { trigger: 'meter', meterId: hours.id, meterEvery: 500 });
    const plan = await addPlan(org, body);
    await read(org, hours.id, 2_600);
    expect(await run(org)).toBe(1);
    expect(await run(org)).toBe(0);
    for (const day of [1, 2, 3]) {
      setClockOffset(day * 86_400_000);
      expect(await run(org)).toBe(0);
    }
    expect((await meterOccurrences(org, plan.id)).map((o) => o.value)).toEqual([2_500]);
    // The preview and the generator agree: the next service at 3,000.
    expect((await preview(org, body)).meterValues[0]).toBe(3_000);
    await readThenRun(org, hours.id, [
      [2_999, 0],
      [3_000, 1],
    ]);
    expect((await meterOccurrences(org, plan.id)).map((o) => o.value)).toEqual([2_500, 3_000]);
  });

  // Issue 39: one occurrence per plan and day kept a second crossing of the same day from making its order.
  it('a gauge crossing its threshold again the same day: a second order, none while the previous one is open', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const temperature = await addMeter(org, fx.fan.id, 'gauge');
    const hot = await addPlan(org, planBody(fx, { name: 'Overheat', assetIds: [fx.fan.id], trigger: 'meter', meterId: temperature.id, meterThreshold: 80 }));
    await read(org, temperature.id, 85);
    expect(await run(org)).toBe(1);
    // Back within bounds and out again while its order is open: that order covers it.
    await read(org, temperature.id, 70);
    await read(org, temperature.id, 90);
    expect(await run(org)).toBe(0);
    const [first] = await meterOccurrences(org, hot.id);
    await complete(org, first.workOrderId);
    // Completed: the crossings it covered make nothing; a new one, the same day, makes the second order.
    expect(await run(org)).toBe(0);
    await read(org, temperature.id, 75);
    await read(org, temperature.id, 95);
    expect(await run(org)).toBe(1);
    expect(await run(org)).toBe(0);
    const all = await meterOccurrences(org, hot.id);
    expect(all.map((o) => [o.ordinal, o.value])).toEqual([
      [0, 85],
      [1, 95],
    ]);
    expect(all[0].due).toBe(all[1].due);
    expect(new Set(all.map((o) => o.workOrderId)).size).toBe(2);
  });

  // Issue 39: an order at 1,000 after a calendar service at 800; the count restarts at the service: next 1,800.
  it('whichever comes first: the meter counts from the reading at the last completed service, calendar or meter', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const hours = await addMeter(org, fx.pump.id, 'counter');
    await read(org, hours.id, 100);
    // Completion times are the database's real time: the plan runs on today's real day.
    const today = daysAgo(0);
    const weekday = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][new Date(`${today}T00:00:00Z`).getUTCDay()];
    const plan = await addPlan(org, planBody(fx, { trigger: 'both', weekdays: [weekday], startDate: today, meterId: hours.id, meterEvery: 1_000 }));
    expect(await run(org)).toBe(1);
    await read(org, hours.id, 800);
    const [calendarService] = await meterOccurrences(org, plan.id);
    await complete(org, calendarService.workOrderId);
    // The next day (no calendar day): 1,000 is not due any more, 1,800 is.
    setClockOffset(86_400_000);
    await readThenRun(org, hours.id, [
      [1_000, 0],
      [1_799, 0],
      [1_800, 1],
    ]);
    expect((await meterOccurrences(org, plan.id)).map((o) => o.value)).toEqual([null, 1_800]);
  });

  it('refuses a meter of another asset, a gauge for every N units, both rules at once, and an unknown meter', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const hours = await addMeter(org, fx.pump.id, 'counter');
    const temperature = await addMeter(org, fx.pump.id, 'gauge');
    const bad = async (extra: Record<string, unknown>, path: string, message: string) => {
      const res = await org.admin.post(`${BASE}/add-plan`, planBody(fx, extra));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(issue(res, path)).toBe(message);
    };
    await bad(
      { trigger: 'meter', meterId: hours.id, meterEvery: 500, assetIds: [fx.fan.id] },
      'meterId',
      'The meter must belong to the plan’s asset (a meter plan has that one asset)',
    );
    await bad({ trigger: 'both', meterId: temperature.id, meterEvery: 5 }, 'meterEvery', 'Every N units needs a counter meter (a gauge goes up and down)');
    await bad(
      { trigger: 'meter', meterId: hours.id, meterEvery: 5, meterThreshold: 9 },
      'meterThreshold',
      'Give an interval of units or a threshold, not both',
    );
    await bad({ trigger: 'meter', meterId: 999, meterEvery: 5 }, 'meterId', 'Meter not found');
    await bad({ trigger: 'meter', meterId: hours.id }, 'meterEvery', 'Give an interval of units or a threshold');
    await bad({ trigger: 'meter', meterId: hours.id, meterEvery: 0 }, 'meterEvery', 'The meter interval must be greater than 0');
  });
});

describe("the organisation's time zone (issue 39, decision 064)", () => {
  it('a plan of an organisation in Asia/Riyadh is created on its Riyadh day and due at 09:00 there', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    expect((await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone: 'Asia/Riyadh' })).status).toBe(
      200,
    );
    at('2030-03-03');
    await addPlan(org, planBody(fx, { frequency: 'daily', weekdays: [], startDate: '2030-03-04' }));
    // 23:30 UTC on the 3rd is 02:30 on the 4th in Riyadh (UTC+3): the plan's day has come there.
    setClockOffset(Date.parse('2030-03-03T20:59:00Z') - Date.now());
    expect(await run(org)).toBe(0);
    setClockOffset(Date.parse('2030-03-03T23:30:00Z') - Date.now());
    expect(await run(org)).toBe(1);
    const [order] = await ordersOf(org);
    expect(order.dueDate?.toISOString()).toBe('2030-03-04T06:00:00.000Z');
    const occurrences = (await org.admin.get(`${BASE}/get-occurrences/${(await org.admin.get(`${BASE}/get-plans`)).body.plans[0].id}`)).body.occurrences;
    expect(occurrences.map((o: { dueDate: string }) => o.dueDate)).toEqual(['2030-03-04']);
  });
});

describe('projection: planned occurrences, dry run', () => {
  it('lists projected occurrences in a range (not the created ones), filtered by asset, team, assignee', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    at('2030-03-01');
    await addPlan(org, planBody(fx, { assetIds: [fx.pump.id, fx.fan.id] }));
    await addPlan(org, planBody(fx, { name: 'Other', assetIds: [fx.fan.id], teamId: undefined, assignees: [], weekdays: ['WE'] }));
    at('2030-03-04');
    await run(org);
    const projected = await withTenant(t.database.db, org.orgId, (tx) => listPlannedOccurrences(tx, org.orgId, { from: '2030-03-01', to: '2030-03-14' }), {
      readOnly: true,
    });
    expect(projected.map((p) => [p.dueDate, p.planName, p.assetName])).toEqual([
      ['2030-03-06', 'Other', 'Fan A'],
      ['2030-03-11', 'Weekly lubrication', 'Pump A'],
      ['2030-03-11', 'Weekly lubrication', 'Fan A'],
      ['2030-03-13', 'Other', 'Fan A'],
    ]);
    const q = (s: string) => org.admin.get(`${BASE}/planned-occurrences?from=2030-03-01&to=2030-03-14${s}`).then((r) => r.body.occurrences.length);
    expect(await q(`&assetId=${fx.pump.id}`)).toBe(1);
    expect(await q(`&teamId=${fx.team.id}`)).toBe(2);
    expect(await q(`&assigneeId=${fx.lead.userId}`)).toBe(2);
    expect(await q(`&assigneeId=${fx.worker.userId}`)).toBe(2);
    const bad = await org.admin.get(`${BASE}/planned-occurrences?from=2030-03-14&to=2030-03-01`);
    expect(bad.status).toBe(400);
    expect(issue(bad, 'to')).toBe('To must be on or after From');
  });

  it('dry run lists what would be created in a range, and creates nothing', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    at('2030-03-01');
    await addPlan(org, planBody(fx, { leadDays: 2 }));
    const res = await org.admin.get(`${BASE}/dry-run?from=2030-03-01&to=2030-03-16`);
    expect(res.status).toBe(200);
    expect(res.body.occurrences.map((o: { dueDate: string; createOn: string }) => [o.createOn, o.dueDate])).toEqual([
      ['2030-03-02', '2030-03-04'],
      ['2030-03-09', '2030-03-11'],
      ['2030-03-16', '2030-03-18'],
    ]);
    expect(await ordersOf(org)).toEqual([]);
  });
});

describe('measures: compliance', () => {
  it('counts on time, late (outside the grace window), missed and skipped; per plan and for the organisation', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    const today = daysAgo(0);
    // A daily plan made 10 days ago, its first occurrence skipped then; the generator catches up today.
    setClockOffset(-10 * 86_400_000);
    const plan = await addPlan(org, planBody(fx, { frequency: 'daily', weekdays: [], startDate: daysAgo(10) }));
    expect((await org.admin.post(`${BASE}/skip-next/${plan.id}`, { reason: 'Shutdown' })).body.occurrences).toMatchObject([
      { dueDate: daysAgo(10), status: 'skipped' },
    ]);
    setClockOffset(0);
    expect(await run(org)).toBe(10);
    const orders = await ordersOf(org);
    // Complete the one due 3 days ago and the one due today, now: the first is late, the second on time.
    const byDue = new Map(orders.map((o) => [o.due, o]));
    for (const day of [daysAgo(3), today])
      expect((await org.admin.put(`/api/work-orders/update-status/${byDue.get(day)!.id}`, { status: 'completed' })).status).toBe(200);
    const range = `from=${daysAgo(10)}&to=${today}`;
    const c0 = (await org.admin.get(`${BASE}/compliance?${range}`)).body;
    expect(c0).toMatchObject({ skipped: 1, onTime: 1, late: 1, graceDays: 0 });
    // Due: the ten created (9 days ago to today): today's on time, 3 days ago's late, the other eight missed.
    expect(c0.due).toBe(10);
    expect(c0.missed).toBe(8);
    expect(c0.rate).toBeCloseTo(1 / 10);
    // A grace window of 3 days: the late one is on time; the open ones of 1 and 2 days ago are not counted yet.
    expect((await org.admin.put(`${BASE}/settings`, { graceDays: 3 })).status).toBe(200);
    const bad = await org.admin.put(`${BASE}/settings`, { graceDays: 91 });
    expect(issue(bad, 'graceDays')).toBe('Grace window must be a whole number of days from 0 to 90');
    const c3 = (await org.admin.get(`${BASE}/compliance?${range}`)).body;
    expect(c3).toMatchObject({ onTime: 2, late: 0, missed: 6, due: 8, graceDays: 3 });
    expect(c3.plans).toEqual([{ planId: plan.id, compliance: expect.objectContaining({ onTime: 2, due: 8 }) }]);
    const list = (await org.admin.get(`/api/pm-plans/get-plans?${range}`)).body;
    expect(list.plans[0].compliance).toMatchObject({ onTime: 2, due: 8 });
    expect(list.compliance).toMatchObject({ onTime: 2, due: 8 });
    expect(list.plans[0].lastCompleted).not.toBeNull();
    expect(await rowsOf(org, pmOccurrences)).toBe(11);
  });
});

describe('the plans list', () => {
  it('filters by name, asset, team and trigger', async () => {
    const org = await createOrg(t);
    const fx = await fixtures(org);
    at('2030-03-01');
    await addPlan(org, planBody(fx, { name: 'Pump weekly' }));
    await addPlan(org, planBody(fx, { name: 'Fan monthly', assetIds: [fx.fan.id], teamId: undefined, frequency: 'monthly' }));
    const names = async (q: string) => (await org.admin.get(`${BASE}/get-plans?${q}`)).body.plans.map((p: { name: string }) => p.name);
    expect(await names('')).toEqual(['Fan monthly', 'Pump weekly']);
    expect(await names(`assetId=${fx.fan.id}`)).toEqual(['Fan monthly']);
    expect(await names(`teamId=${fx.team.id}`)).toEqual(['Pump weekly']);
    expect(await names('trigger=meter')).toEqual([]);
    expect(await names('name=pump')).toEqual(['Pump weekly']);
    const res = await org.admin.get(`${BASE}/get-plans`);
    expect(res.body.pagination).toEqual({ totalRecords: 2, currentPage: 1, totalPages: 1 });
    expect(res.body.plans[1]).toMatchObject({
      nextDue: '2030-03-04',
      team: { id: fx.team.id, name: 'Mechanics A' },
      assets: [{ id: fx.pump.id, name: 'Pump A' }],
    });
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('two server instances on one PostgreSQL', () => {
  it('run the generator at once: every due work order is created exactly once', { timeout: 120_000 }, async () => {
    const orgs = [await createOrg(t), await createOrg(t)];
    at('2030-03-01');
    for (const org of orgs) {
      const fx = await fixtures(org);
      await addPlan(org, planBody(fx, { assetIds: [fx.pump.id, fx.fan.id], frequency: 'daily', weekdays: [] }));
    }
    // Another instance: its own pool of connections to the same database.
    const other = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
    try {
      const when = new Date('2030-03-10T10:00:00Z');
      await Promise.all([runPmGenerator(t.database, undefined, when), runPmGenerator(other, undefined, when), runPmGenerator(t.database, undefined, when)]);
      for (const org of orgs) {
        const orders = await ordersOf(org);
        // Ten days (1st to 10th) for each of the two assets.
        expect(orders).toHaveLength(20);
        expect(new Set(orders.map((o) => `${o.assetId}:${o.due}`)).size).toBe(20);
      }
    } finally {
      await other.close();
    }
  });
});
