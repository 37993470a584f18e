import { describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { and, eq } from 'drizzle-orm';
import { maintenanceOrders, teamMembers, teams } from '../../server/db/schema';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { preventiveRequest, weeklyPlan } from '../../server/test/fixtures';
import { CALENDAR_MESSAGES, RESCHEDULE_MESSAGES } from './calendar.schema';

const t = useTestApp();

const LIST = '/api/calendar/list-calendar-entries';
const DAY = 86_400_000;
/** A day `n` days from today at 10:30 UTC. */
const dayAt = (n: number, hour = 10, minute = 30) => {
  const d = new Date(Date.now() + n * DAY);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute)).toISOString();
};
const dayOf = (iso: string) => iso.slice(0, 10);
/** The range from `a` to `b` days from now, as the calendar sends it. */
const range = (a = -20, b = 20) => `from=${encodeURIComponent(dayAt(a, 0, 0))}&to=${encodeURIComponent(dayAt(b, 0, 0))}`;
const issue = (res: { body: { issues?: { path: string; message: string }[] } }, path: string) => res.body.issues?.find((i) => i.path === path)?.message;

interface Entry {
  kind: string;
  id: number;
  key: string;
  title: string;
  date: string;
  status: string;
  priority: string | null;
  asset: { id: number; name: string } | null;
  overdue: boolean;
  updatedAt: string | null;
  version: number | null;
}
const list = async (c: Client, query = range()) => {
  const res = await c.get(`${LIST}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries as Entry[];
};
const keys = (entries: Entry[]) => entries.map((e) => e.key).sort();

async function addWorkOrder(org: TestOrg, body: Record<string, unknown>) {
  const res = await org.admin.post('/api/work-orders/add-work-order', { title: 'Replace pump seal', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.workOrder as { id: number; updatedAt: string; dueDate: string | null };
}

/** An organisation with its catalogue, an approved request, two workers (one in a team) and a manager. */
async function setup(name = 'Org') {
  const org = await createOrg(t, name);
  const refs = await catalogue(t, org.orgId, name.slice(0, 3));
  const marcus = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
  const nadia = await org.as('worker', { firstName: 'Nadia', lastName: 'Haddad' });
  const manager = await org.as('manager');
  const team = await withTenant(t.database.db, org.orgId, async (tx) => {
    const [row] = await tx.insert(teams).values({ orgId: org.orgId, name: 'Night shift' }).returning();
    await tx.insert(teamMembers).values({ orgId: org.orgId, teamId: row.id, workerId: nadia.userId });
    return row;
  });
  const request = await org.admin.post('/api/maintenance-requests/add-maintenance-request', preventiveRequest(refs));
  expect(request.status, JSON.stringify(request.body)).toBe(201);
  return { org, refs, marcus, nadia, manager, team, requestId: request.body.maintenanceRequest.id as number };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function addMaintenanceOrder(s: Setup, dueDate: string, scheduleDate = dueDate) {
  const res = await s.org.admin.post('/api/maintenance-orders/add-maintenance-order', {
    maintenanceRequestId: s.requestId,
    maintenanceType: 'preventive',
    assetId: s.refs.asset2.id,
    services: [s.refs.service.id],
    scheduleDate,
    dueDate,
    completionDate: dueDate,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.maintenanceOrder as { id: number; version: number; dueDate: string };
}

describe('calendar: list-calendar-entries', () => {
  it('lists work and maintenance orders of the range on their due (or start) day, with overdue flags', async () => {
    const s = await setup();
    const due = await addWorkOrder(s.org, { dueDate: dayAt(3), priority: 'high', assetId: s.refs.asset.id, assignees: [s.marcus.userId] });
    const started = await addWorkOrder(s.org, { title: 'Inspect belts', startDate: dayAt(-2, 8, 0) });
    const late = await addWorkOrder(s.org, { title: 'Late lubrication', dueDate: dayAt(-1) });
    const lateDone = await addWorkOrder(s.org, { title: 'Done late', dueDate: dayAt(-1), status: 'completed' });
    await addWorkOrder(s.org, { title: 'Far away', dueDate: dayAt(40) });
    await addWorkOrder(s.org, { title: 'Undated' });
    const order = await addMaintenanceOrder(s, `${dayOf(dayAt(5))}T00:00:00.000Z`);

    const entries = await list(s.org.admin);
    expect(keys(entries)).toEqual(
      keys([due, started, late, lateDone].map((w) => ({ key: `work-order:${w.id}` }) as Entry).concat([{ key: `maintenance-order:${order.id}` } as Entry])),
    );
    const byKey = Object.fromEntries(entries.map((e) => [e.key, e]));
    expect(byKey[`work-order:${due.id}`]).toMatchObject({
      kind: 'work-order',
      title: 'Replace pump seal',
      date: dayAt(3),
      status: 'assigned',
      priority: 'high',
      asset: { id: s.refs.asset.id, name: s.refs.asset.name },
      overdue: false,
      updatedAt: due.updatedAt,
    });
    expect(byKey[`work-order:${started.id}`]).toMatchObject({ date: dayAt(-2, 8, 0), overdue: false });
    expect(byKey[`work-order:${late.id}`].overdue).toBe(true);
    expect(byKey[`work-order:${lateDone.id}`].overdue).toBe(false);
    expect(byKey[`maintenance-order:${order.id}`]).toMatchObject({
      kind: 'maintenance-order',
      title: 'Quarterly pump service',
      status: 'new',
      priority: null,
      version: order.version,
      overdue: false,
    });
    // By date.
    expect(entries.map((e) => e.date)).toEqual([...entries.map((e) => e.date)].sort());
  });

  it('filters by asset, assignee and team (maintenance orders have no people: left out by those two)', async () => {
    const s = await setup();
    const marcus = await addWorkOrder(s.org, { dueDate: dayAt(1), assetId: s.refs.asset.id, assignees: [s.marcus.userId] });
    const nadia = await addWorkOrder(s.org, { dueDate: dayAt(2), assignees: [s.nadia.userId] });
    const order = await addMaintenanceOrder(s, `${dayOf(dayAt(4))}T00:00:00.000Z`);
    expect(keys(await list(s.org.admin, `${range()}&assetId=${s.refs.asset.id}`))).toEqual([`work-order:${marcus.id}`]);
    expect(keys(await list(s.org.admin, `${range()}&assetId=${s.refs.asset2.id}`))).toEqual([`maintenance-order:${order.id}`]);
    expect(keys(await list(s.org.admin, `${range()}&assigneeId=${s.marcus.userId}`))).toEqual([`work-order:${marcus.id}`]);
    expect(keys(await list(s.org.admin, `${range()}&teamId=${s.team.id}`))).toEqual([`work-order:${nadia.id}`]);
    const bad = await s.org.admin.get(`${LIST}?${range()}&teamId=abc`);
    expect(bad.status).toBe(400);
    expect(issue(bad, 'teamId')).toBe('Team is invalid');
  });

  it('shows a worker only the work orders assigned to them (decision 024), whatever the filter', async () => {
    const s = await setup();
    const mine = await addWorkOrder(s.org, { dueDate: dayAt(1), assignees: [s.marcus.userId] });
    const theirs = await addWorkOrder(s.org, { dueDate: dayAt(1), assignees: [s.nadia.userId] });
    const nobody = await addWorkOrder(s.org, { dueDate: dayAt(2) });
    const order = await addMaintenanceOrder(s, `${dayOf(dayAt(4))}T00:00:00.000Z`);
    expect(keys(await list(s.marcus))).toEqual([`maintenance-order:${order.id}`, `work-order:${mine.id}`]);
    expect(keys(await list(s.marcus, `${range()}&assigneeId=${s.nadia.userId}`))).toEqual([]);
    expect(keys(await list(s.nadia, `${range()}&teamId=${s.team.id}`))).toEqual([`work-order:${theirs.id}`]);
    expect(keys(await list(s.manager))).toEqual(
      keys([mine, theirs, nobody].map((w) => ({ key: `work-order:${w.id}` }) as Entry).concat([{ key: `maintenance-order:${order.id}` } as Entry])),
    );
  });

  it("never shows another organisation's entries", async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    await addWorkOrder(a.org, { dueDate: dayAt(1) });
    await addMaintenanceOrder(a, `${dayOf(dayAt(4))}T00:00:00.000Z`);
    expect(await list(b.org.admin)).toEqual([]);
    expect(await list(b.org.admin, `${range()}&assetId=${a.refs.asset.id}`)).toEqual([]);
  });

  it('shows plans’ occurrences not created yet as planned entries; a worker only those that would be theirs', async () => {
    const s = await setup();
    const other = await setup('Other');
    const res = await s.org.admin.post('/api/pm-plans/add-plan', weeklyPlan(s.refs.asset.id, s.marcus.userId, { leadDays: 2 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const planId = res.body.plan.id as number;
    // `to` is exclusive: the Monday 25th is not in this range.
    const march = 'from=2030-03-01T00:00:00.000Z&to=2030-03-25T00:00:00.000Z';
    const planned = (await list(s.org.admin, march)).filter((e) => e.kind === 'planned');
    expect(planned.map((e) => e.date)).toEqual(['2030-03-04T00:00:00.000Z', '2030-03-11T00:00:00.000Z', '2030-03-18T00:00:00.000Z']);
    expect(planned[0]).toMatchObject({
      id: planId,
      key: `planned:${planId}:${s.refs.asset.id}:2030-03-04`,
      displayId: 'Weekly lubrication',
      title: 'Lubricate bearings',
      allDay: true,
      status: 'planned',
      priority: 'high',
      asset: { id: s.refs.asset.id, name: s.refs.asset.name },
      overdue: false,
      createOn: '2030-03-02',
    });
    expect((await list(s.marcus, march)).filter((e) => e.kind === 'planned')).toHaveLength(3);
    expect(await list(s.nadia, march)).toEqual([]);
    expect(await list(s.org.admin, `${march}&assigneeId=${s.nadia.userId}`)).toEqual([]);
    expect(await list(s.org.admin, `${march}&teamId=${s.team.id}`)).toEqual([]);
    expect(await list(s.org.admin, `${march}&assetId=${s.refs.asset2.id}`)).toEqual([]);
    expect(await list(other.org.admin, march)).toEqual([]);
  });

  it('limits the range with field messages', async () => {
    const s = await setup();
    const get = (q: string) => s.org.admin.get(`${LIST}?${q}`);
    const missing = await get('');
    expect(missing.status).toBe(400);
    expect(issue(missing, 'from')).toBe('From is required');
    expect(issue(missing, 'to')).toBe('To is required');
    const backwards = await get(range(5, 1));
    expect(backwards.status).toBe(400);
    expect(issue(backwards, 'to')).toBe(CALENDAR_MESSAGES.order);
    const tooLong = await get(range(0, 63));
    expect(tooLong.status).toBe(400);
    expect(issue(tooLong, 'to')).toBe('The range must be at most 62 days');
    expect((await get(range(0, 62))).status).toBe(200);
    const garbage = await get('from=soon&to=later');
    expect(issue(garbage, 'from')).toBe('From must be a valid date');
  });

  it('needs a signed-in member', async () => {
    const s = await setup();
    expect((await s.org.anonymous.get(`${LIST}?${range()}`)).status).toBe(401);
  });
});

describe('calendar: reschedule-work-order', () => {
  const reschedule = (c: Client, id: number, body: Record<string, unknown>) => c.put(`/api/work-orders/reschedule-work-order/${id}`, body);

  it('moves the due date to another day, keeps the time of day in the reader’s zone, and records it', async () => {
    const s = await setup();
    // 22:30 UTC is 01:30 the next day in Riyadh (UTC+3, no daylight saving): the move is to the 20th there.
    const wo = await addWorkOrder(s.org, { dueDate: '2030-01-10T22:30:00.000Z' });
    const res = await reschedule(s.manager, wo.id, { dueDate: '2030-01-20', timeZone: 'Asia/Riyadh', updatedAt: wo.updatedAt });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Work order rescheduled successfully');
    expect(res.body.workOrder.dueDate).toBe('2030-01-19T22:30:00.000Z');
    // Without a zone, UTC; across daylight saving the wall-clock hour stays.
    const utc = await reschedule(s.org.admin, wo.id, { dueDate: '2030-07-01', updatedAt: res.body.workOrder.updatedAt });
    expect(utc.body.workOrder.dueDate).toBe('2030-07-01T22:30:00.000Z');
    const paris = await addWorkOrder(s.org, { dueDate: '2030-01-10T08:15:00.000Z' });
    const summer = await reschedule(s.org.admin, paris.id, { dueDate: '2030-07-10', timeZone: 'Europe/Paris' });
    expect(summer.body.workOrder.dueDate).toBe('2030-07-10T07:15:00.000Z');

    const history = await s.org.admin.get(`/api/activities/work-order/${wo.id}`);
    const moves = history.body.activities.filter((a: { changes: Record<string, unknown> | null }) => a.changes?.dueDate);
    expect(moves.map((a: { changes: { dueDate: unknown } }) => a.changes.dueDate)).toEqual(
      expect.arrayContaining([
        { from: '2030-01-10T22:30:00.000Z', to: '2030-01-19T22:30:00.000Z' },
        { from: '2030-01-19T22:30:00.000Z', to: '2030-07-01T22:30:00.000Z' },
      ]),
    );
    const shown = await list(s.org.admin, `from=2030-06-20T00:00:00.000Z&to=2030-07-20T00:00:00.000Z`);
    expect(shown.find((e) => e.id === wo.id)?.date).toBe('2030-07-01T22:30:00.000Z');
  });

  it('gives an order shown on its start date a due date at the start’s time', async () => {
    const s = await setup();
    const wo = await addWorkOrder(s.org, { startDate: '2030-03-02T06:45:00.000Z' });
    const res = await reschedule(s.org.admin, wo.id, { dueDate: '2030-03-05', updatedAt: wo.updatedAt });
    expect(res.body.workOrder).toMatchObject({ startDate: '2030-03-02T06:45:00.000Z', dueDate: '2030-03-05T06:45:00.000Z' });
  });

  it('refuses a move made from an older copy (409 with the current order) and changes nothing', async () => {
    const s = await setup();
    const wo = await addWorkOrder(s.org, { dueDate: '2030-01-10T09:00:00.000Z' });
    const first = await reschedule(s.org.admin, wo.id, { dueDate: '2030-01-11', updatedAt: wo.updatedAt });
    expect(first.status).toBe(200);
    const stale = await reschedule(s.manager, wo.id, { dueDate: '2030-01-15', updatedAt: wo.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('This record was changed by someone else');
    expect(stale.body.current.dueDate).toBe('2030-01-11T09:00:00.000Z');
    expect((await s.org.admin.get(`/api/work-orders/get-work-order/${wo.id}`)).body.workOrder.dueDate).toBe('2030-01-11T09:00:00.000Z');
  });

  it('is for managers: a worker, even assigned, gets 403 and the order stays', async () => {
    const s = await setup();
    const wo = await addWorkOrder(s.org, { dueDate: '2030-01-10T09:00:00.000Z', assignees: [s.marcus.userId] });
    const res = await reschedule(s.marcus, wo.id, { dueDate: '2030-01-12', updatedAt: wo.updatedAt });
    expect(res.status).toBe(403);
    expect((await s.org.admin.get(`/api/work-orders/get-work-order/${wo.id}`)).body.workOrder.dueDate).toBe('2030-01-10T09:00:00.000Z');
  });

  it('gives field messages for a bad day or zone', async () => {
    const s = await setup();
    const wo = await addWorkOrder(s.org, { dueDate: '2030-01-10T09:00:00.000Z' });
    const missing = await reschedule(s.org.admin, wo.id, {});
    expect(issue(missing, 'dueDate')).toBe('Due date is required');
    const bad = await reschedule(s.org.admin, wo.id, { dueDate: '2030-02-30', timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(issue(bad, 'dueDate')).toBe('Due date must be a valid date');
    expect(issue(bad, 'timeZone')).toBe('Time zone must be a time zone name');
  });

  it('another organisation gets 404 and changes nothing', async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    const wo = await addWorkOrder(a.org, { dueDate: '2030-01-10T09:00:00.000Z' });
    const res = await reschedule(b.org.admin, wo.id, { dueDate: '2030-01-12' });
    expect(res.status).toBe(404);
    const after = (await a.org.admin.get(`/api/work-orders/get-work-order/${wo.id}`)).body.workOrder;
    expect(after.dueDate).toBe('2030-01-10T09:00:00.000Z');
    expect(after.updatedAt).toBe(wo.updatedAt);
  });
});

describe("calendar: the organisation's days (issue 39, decision 064)", () => {
  const setZone = async (org: TestOrg, timeZone: string) => {
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    expect((await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone })).status).toBe(200);
  };

  it('puts an order due at 01:30 in Riyadh on the Riyadh day, for days and for instants asked', async () => {
    const s = await setup();
    await setZone(s.org, 'Asia/Riyadh');
    // 22:30 UTC on the 6th is 01:30 on the 7th in Riyadh.
    const wo = await addWorkOrder(s.org, { dueDate: '2030-01-06T22:30:00.000Z' });
    const answer = await s.org.admin.get(`${LIST}?from=2030-01-07&to=2030-01-08`);
    expect(answer.body.timeZone).toBe('Asia/Riyadh');
    const on7th = (answer.body.entries as (Entry & { day: string })[]).find((e) => e.key === `work-order:${wo.id}`);
    expect(on7th?.day).toBe('2030-01-07');
    expect(keys(await list(s.org.admin, 'from=2030-01-06&to=2030-01-07'))).not.toContain(`work-order:${wo.id}`);
    // Instants (a Riyadh browser's midnights) name the same days.
    expect(
      keys(await list(s.org.admin, `from=${encodeURIComponent('2030-01-06T21:00:00.000Z')}&to=${encodeURIComponent('2030-01-07T21:00:00.000Z')}`)),
    ).toContain(`work-order:${wo.id}`);
    // The same order in a UTC organisation sits on the 6th.
    await setZone(s.org, 'UTC');
    expect(keys(await list(s.org.admin, 'from=2030-01-06&to=2030-01-07'))).toContain(`work-order:${wo.id}`);
  });
});

describe('calendar: what may not move (issue 39, decision 064)', () => {
  const reschedule = (c: Client, id: number, body: Record<string, unknown>) => c.put(`/api/work-orders/reschedule-work-order/${id}`, body);

  it('refuses a completed or cancelled work order, a day before its creation, and one more than five years ahead', async () => {
    const s = await setup();
    const wo = await addWorkOrder(s.org, { dueDate: dayAt(3) });
    const early = await reschedule(s.org.admin, wo.id, { dueDate: '2020-01-01' });
    expect(early.status).toBe(400);
    expect(issue(early, 'dueDate')).toBe(RESCHEDULE_MESSAGES.beforeCreated(dayOf(new Date().toISOString())));
    const far = await reschedule(s.org.admin, wo.id, { dueDate: `${new Date().getUTCFullYear() + 6}-01-01` });
    expect(far.status).toBe(400);
    expect(issue(far, 'dueDate')).toBe(RESCHEDULE_MESSAGES.tooFar);
    expect((await reschedule(s.org.admin, wo.id, { dueDate: dayOf(dayAt(5)) })).status).toBe(200);
    for (const status of ['completed', 'cancelled'] as const) {
      const order = await addWorkOrder(s.org, { dueDate: dayAt(3) });
      expect((await s.org.admin.put(`/api/work-orders/update-status/${order.id}`, { status })).status).toBe(200);
      const refused = await reschedule(s.org.admin, order.id, { dueDate: dayOf(dayAt(4)) });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(RESCHEDULE_MESSAGES[status]);
      expect((await s.org.admin.get(`/api/work-orders/get-work-order/${order.id}`)).body.workOrder.dueDate).toBe(dayAt(3));
    }
  });

  it('refuses a cancelled maintenance order and a day before its creation', async () => {
    const s = await setup();
    const order = await addMaintenanceOrder(s, `${dayOf(dayAt(3))}T00:00:00.000Z`);
    const early = await s.org.admin.put(`/api/maintenance-orders/reschedule-maintenance-order/${order.id}`, { dueDate: '2020-01-01' });
    expect(early.status).toBe(400);
    expect(issue(early, 'dueDate')).toBe(RESCHEDULE_MESSAGES.beforeCreated(dayOf(new Date().toISOString())));
    expect((await s.org.admin.put(`/api/maintenance-orders/update-status/${order.id}`, { status: 'cancel' })).status).toBe(200);
    const refused = await s.org.admin.put(`/api/maintenance-orders/reschedule-maintenance-order/${order.id}`, { dueDate: dayOf(dayAt(4)) });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(RESCHEDULE_MESSAGES.cancelled);
  });
});

describe('calendar: reschedule-maintenance-order', () => {
  const reschedule = (c: Client, id: number, body: Record<string, unknown>) => c.put(`/api/maintenance-orders/reschedule-maintenance-order/${id}`, body);
  const get = async (c: Client, id: number) => (await c.get(`/api/maintenance-orders/get-maintenance-order/${id}`)).body.maintenanceOrder;

  it('moves the due day, bumps the version, records it; refuses an older version', async () => {
    const s = await setup();
    const order = await addMaintenanceOrder(s, '2030-01-10T00:00:00.000Z');
    const res = await reschedule(s.manager, order.id, { dueDate: '2030-01-14', version: order.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.maintenanceOrder).toMatchObject({ dueDate: '2030-01-14T00:00:00.000Z', version: order.version + 1 });
    const history = await s.org.admin.get(`/api/activities/maintenance-order/${order.id}`);
    expect(history.body.activities.map((a: { changes: { dueDate?: unknown } | null }) => a.changes?.dueDate)).toContainEqual({
      from: '2030-01-10T00:00:00.000Z',
      to: '2030-01-14T00:00:00.000Z',
    });
    const stale = await reschedule(s.manager, order.id, { dueDate: '2030-01-20', version: order.version });
    expect(stale.status).toBe(409);
    expect(stale.body.current.dueDate).toBe('2030-01-14T00:00:00.000Z');
  });

  it('is for managers, refuses a validated order, and another organisation gets 404 and changes nothing', async () => {
    const a = await setup('Alpha');
    const b = await setup('Beta');
    const order = await addMaintenanceOrder(a, '2030-01-10T00:00:00.000Z');
    expect((await reschedule(a.marcus, order.id, { dueDate: '2030-01-12' })).status).toBe(403);
    expect((await reschedule(b.org.admin, order.id, { dueDate: '2030-01-12' })).status).toBe(404);
    expect(await get(a.org.admin, order.id)).toMatchObject({ dueDate: '2030-01-10T00:00:00.000Z', version: order.version });
    expect((await a.org.admin.put(`/api/maintenance-orders/update-status/${order.id}`, { status: 'validate' })).status).toBe(200);
    const locked = await reschedule(a.org.admin, order.id, { dueDate: '2030-01-12' });
    expect(locked.status).toBe(409);
    expect((await get(a.org.admin, order.id)).dueDate).toBe('2030-01-10T00:00:00.000Z');
  });

  it('marks an open order overdue from the day after its due day', async () => {
    const s = await setup();
    const today = await addMaintenanceOrder(s, `${dayOf(dayAt(0))}T00:00:00.000Z`);
    const entries = await list(s.org.admin);
    expect(entries.find((e) => e.key === `maintenance-order:${today.id}`)?.overdue).toBe(false);
    // A day later (a move before its creation day is refused: decision 064).
    await withTenant(t.database.db, s.org.orgId, (tx) =>
      tx
        .update(maintenanceOrders)
        .set({ dueDate: new Date(`${dayOf(dayAt(-1))}T00:00:00.000Z`) })
        .where(and(eq(maintenanceOrders.orgId, s.org.orgId), eq(maintenanceOrders.id, today.id))),
    );
    expect((await list(s.org.admin)).find((e) => e.key === `maintenance-order:${today.id}`)?.overdue).toBe(true);
  });
});
