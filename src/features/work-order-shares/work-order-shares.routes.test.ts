import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { solidImage } from '../../server/test/images';
import { desc, eq, sql } from 'drizzle-orm';
import { withoutTenant, withTenant } from '../../server/db/client';
import { mailOutbox, rateLimits, workOrderParts, workOrderShares } from '../../server/db/schema';
import { setClockOffset } from '../../server/clock';
import { publicOrigin } from '../../server/env';
import { createOrg, createTestApp, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import { orgSnapshot } from '../../server/test/sql';
import type { ContractorStepDto, ShareDto, SharedWorkOrderDto } from './work-order-shares.schema';

const t = useTestApp();
afterEach(() => setClockOffset(0));

const S = '/api/shared-work-orders';
const W = '/api/work-orders';
const png = () => solidImage('png', 40, 30, '#336699');

async function addOrder(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.post(`${W}/add-work-order`, { title: 'Service the rooftop chiller', instructions: '<p>Check the refrigerant</p>', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.workOrder as { id: number };
}

/** A work order of the organisation with a procedure `name` of `steps` attached. */
async function orderWithProcedure(org: TestOrg, name: string, steps: Record<string, unknown>[]) {
  const order = await addOrder(org.admin);
  const proc = await org.admin.post('/api/procedures/add-procedure', { name, steps });
  expect(proc.status, JSON.stringify(proc.body)).toBe(201);
  expect((await org.admin.post(`${W}/attach-procedure/${order.id}`, { procedureId: proc.body.procedure.id })).status).toBeLessThan(300);
  return order;
}

/** A work order shared by the admin; the link's token (from the answer, as the manager copies it). */
async function share(org: TestOrg, over: Record<string, unknown> = {}, orderId?: number) {
  const id = orderId ?? (await addOrder(org.admin)).id;
  const res = await org.admin.post(`${S}/create-share`, { workOrderId: id, contractorName: 'Coolair Ltd', email: 'tech@coolair.example.com', ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = new URL(res.body.link).searchParams.get('token')!;
  return { orderId: id, share: res.body.share as ShareDto, token };
}

/** `minutes` before now (negative: after), as the contractor's page sends times. */
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const q = (token: string, key?: string) => `?token=${encodeURIComponent(token)}${key ? `&key=${encodeURIComponent(key)}` : ''}`;
const open = (org: TestOrg, token: string, key?: string) => org.anonymous.get(`${S}/get-shared-work-order${q(token, key)}`);
const lastMail = async (to: string) =>
  (await withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id)).limit(1)))[0];
const history = async (org: TestOrg, orderId: number) =>
  (await org.admin.get(`/api/activities/work-order/${orderId}`)).body.activities as {
    action: string;
    note: string | null;
    contractor: string | null;
    user: unknown;
  }[];

describe('sharing a work order', () => {
  it("a contractor's amounts: the currency's decimals are checked, and a big part's cost never breaks the managers' list", async () => {
    const org = await createOrg(t);
    const { token } = await share(org);
    const cents = await org.anonymous.post(`${S}/add-shared-part${q(token)}`, { name: 'Valve', quantity: 1, unitPrice: 12.345 });
    expect(cents.status).toBe(400);
    expect(cents.body.issues?.[0]?.path).toBe('unitPrice');
    expect((await org.anonymous.post(`${S}/add-shared-labor${q(token)}`, { startTime: ago(89), endTime: ago(-1), hourlyRate: 40.001 })).status).toBe(400);
    // 1,000,000.00 x 100: more than a 4-byte integer of cents; the sums add in 8 bytes.
    const big = await org.anonymous.post(`${S}/add-shared-part${q(token)}`, { name: 'Chiller', quantity: 100, unitPrice: 1_000_000 });
    expect(big.status, JSON.stringify(big.body)).toBe(201);
    const list = await org.admin.get(`${S}/list-shares`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(JSON.stringify(list.body)).toContain('10000000000');
  });

  it('bounds a time entry: 24 hours at most, ending between the sharing and now, at a bounded rate (issue 45)', async () => {
    const org = await createOrg(t);
    const { orderId, token } = await share(org);
    const before = await orgSnapshot(t.database.db, org.orgId, []);
    const labor = (body: Record<string, unknown>) => org.anonymous.post(`${S}/add-shared-labor${q(token)}`, body);
    const refused = async (body: Record<string, unknown>, path: string, message: string) => {
      const res = await labor(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.issues).toContainEqual({ path, message });
    };
    // The testers' entry: 1900 to 9999 at the top rate would cost 7.1e16 minor units.
    await refused(
      { startTime: '1900-01-01T00:00:00.000Z', endTime: '9999-12-31T23:59:00.000Z', hourlyRate: 10_000_000 },
      'endTime',
      'A time entry can be at most 24 hours',
    );
    await refused({ startTime: ago(60 * 25), endTime: ago(-1), hourlyRate: 40 }, 'endTime', 'A time entry can be at most 24 hours');
    // In the future (past a phone's clock skew of 5 minutes), or ended before the link was made.
    await refused({ startTime: ago(0), endTime: ago(-10), hourlyRate: 40 }, 'endTime', 'End time cannot be in the future');
    await refused(
      { startTime: ago(60 * 24 * 3), endTime: ago(60 * 24 * 3 - 60), hourlyRate: 40 },
      'endTime',
      'End time cannot be before the work order was shared with you',
    );
    // 4,000,000.00 an hour at most: 24 hours of it stay within a line's bound.
    await refused({ startTime: ago(60), endTime: ago(0), hourlyRate: 4_000_000.01 }, 'hourlyRate', 'Hourly rate must be at most 4000000');
    // Odd values: nulls, strings, a null body.
    expect((await labor({ startTime: null, endTime: null, hourlyRate: null })).status).toBe(400);
    expect((await labor({ startTime: 'soon', endTime: ago(0), hourlyRate: '1e400' })).status).toBe(400);
    expect((await org.anonymous.post(`${S}/add-shared-labor${q(token)}`, 'null', { 'content-type': 'application/json' })).status).toBe(400);
    expect(await orgSnapshot(t.database.db, org.orgId, [])).toEqual(before);

    // A full day at the top rate and 5 minutes ahead of the clock are taken.
    // (both ends from one instant: two readings of the clock a millisecond apart made the day 24 h and 1 ms)
    const end = Date.now() + 4 * 60_000;
    const fullDay = { startTime: new Date(end - 24 * 3600_000).toISOString(), endTime: new Date(end).toISOString(), hourlyRate: 4_000_000 };
    expect((await labor(fullDay)).status).toBe(201);
    const cost = (await org.admin.get(`${W}/get-cost/${orderId}`)).body.cost;
    expect(cost.externalLaborMinor).toBe(24 * 400_000_000);
  });

  it('bounds a part line and the lines of one share (issue 45)', async () => {
    const org = await createOrg(t);
    const { orderId, share: created, token } = await share(org);
    const part = (body: Record<string, unknown>) => org.anonymous.post(`${S}/add-shared-part${q(token)}`, body);
    const tooMuch = await part({ name: 'Gold valve', quantity: 100_000, unitPrice: 1_000_000 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.issues).toContainEqual({ path: 'unitPrice', message: 'Quantity × unit price must be at most 100000000' });
    expect((await part({ name: 'Valve', quantity: 100_001, unitPrice: 1 })).status).toBe(400);
    expect((await part({ name: 'Valve', quantity: 10, unitPrice: 10_000_000 })).status).toBe(201);
    // At most 200 lines of each kind per share: 199 more make 200, the next is refused.
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx.insert(workOrderParts).values(
        Array.from({ length: 199 }, (_, i) => ({
          orgId: org.orgId,
          workOrderId: orderId,
          shareId: created.id,
          externalName: `p${i}`,
          externalUnitPriceMinor: 1,
          quantity: 1,
        })),
      ),
    );
    const full = await part({ name: 'Valve', quantity: 1, unitPrice: 1 });
    expect(full.status).toBe(400);
    expect(full.body.error).toBe('A shared work order takes at most 200 parts');
  });

  // Issue 39, decision 064: a mail's time is on the organisation's clock. 22:30 UTC on the 6th is 01:30 on the 7th in Riyadh.
  it("the share mail gives the order's due time in the organisation's time zone, in the mail's language", async () => {
    const org = await createOrg(t);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    expect((await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone: 'Asia/Riyadh' })).status).toBe(
      200,
    );
    const order = await addOrder(org.admin, { dueDate: '2030-01-06T22:30:00.000Z' });
    await share(org, { email: 'riyadh@coolair.example.com' }, order.id);
    const mail = await lastMail('riyadh@coolair.example.com');
    expect(mail.text).toContain('Due: 07 Jan 2030, 01:30 AM');
    expect(mail.html).toContain('07 Jan 2030, 01:30 AM');
    await share(org, { email: 'ar@coolair.example.com', language: 'ar' }, order.id);
    expect((await lastMail('ar@coolair.example.com')).text).toContain('07 يناير 2030، 01:30');
    // Without a due date, no line.
    await share(org, { email: 'none@coolair.example.com' }, (await addOrder(org.admin)).id);
    expect((await lastMail('none@coolair.example.com')).text).not.toContain('Due:');
  });

  it('makes the link from the configured domain, never the Host header (issue 45)', async () => {
    const org = await createOrg(t);
    const order = await addOrder(org.admin);
    const forged = { host: `${org.subdomain.toUpperCase()}.${t.config.baseDomain}:6666` };
    const res = await org.admin.post(
      `${S}/create-share`,
      { workOrderId: order.id, contractorName: 'Coolair Ltd', email: 'forged@coolair.example.com' },
      forged,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const link = `${publicOrigin(t.config, org.subdomain)}/shared-work-order?token=`;
    expect(res.body.link.startsWith(link), res.body.link).toBe(true);
    expect((await lastMail('forged@coolair.example.com')).text).toContain(link);
  });

  it('mails a private link whose token is stored only as its SHA-256, and the contractor sees only the shared work order', async () => {
    const org = await createOrg(t);
    const { orderId, share: created, token } = await share(org);
    expect(created).toMatchObject({
      workOrderId: orderId,
      contractorName: 'Coolair Ltd',
      state: 'waiting',
      status: 'waiting',
      canComment: true,
      canLog: true,
      canComplete: true,
    });
    // 14 days by default.
    expect(Math.round((Date.parse(created.expiresAt) - Date.now()) / 86_400_000)).toBe(14);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(workOrderShares).where(eq(workOrderShares.orgId, org.orgId)));
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await lastMail('tech@coolair.example.com')).text).toContain(`/shared-work-order?token=${token}`);
    // The list never gives the link again.
    const list = await org.admin.get(`${S}/list-shares`);
    expect(list.body.shares).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(token);

    const page = await open(org, token);
    expect(page.status).toBe(200);
    const dto = page.body as SharedWorkOrderDto;
    expect(dto.workOrder).toMatchObject({ title: 'Service the rooftop chiller', instructions: '<p>Check the refrigerant</p>' });
    // Nothing else of the organisation: no people, no ids of other records, no e-mail of the team.
    expect(JSON.stringify(dto)).not.toContain(org.email);
    expect(Object.keys(dto).sort()).toEqual([
      'contractorName',
      'currency',
      'digits',
      'expiresAt',
      'labors',
      'messages',
      'organization',
      'parts',
      'permissions',
      'procedure',
      'reviewComment',
      'state',
      'workOrder',
    ]);
    // On hold (decision 080): the contractor sees it, with the reason and the team's note, and no longer once resumed.
    expect(dto.workOrder).toMatchObject({ onHold: false, holdReason: null, holdNote: null });
    const held = await org.admin.put(`/api/work-orders/hold-work-order/${orderId}`, { reason: 'vendor', note: 'Crane booked for Monday' });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect((await open(org, token)).body.workOrder).toMatchObject({ onHold: true, holdReason: 'vendor', holdNote: 'Crane booked for Monday' });
    expect((await org.admin.put(`/api/work-orders/resume-work-order/${orderId}`, {})).status).toBe(200);
    expect((await open(org, token)).body.workOrder).toMatchObject({ onHold: false, holdReason: null });
  });

  it('answers the same 404 for an altered, unknown, expired, revoked or other organisation token; revocation and expiry apply at once', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const { share: created, token } = await share(org);
    expect((await open(org, token)).status).toBe(200);
    const notFound = await open(org, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'));
    expect(notFound.status).toBe(404);
    const same = (res: { status: number; body: unknown }) => expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: notFound.body });
    same(await open(org, 'x'.repeat(43)));
    // Another organisation's host never reaches this organisation's share.
    same(await open(other, token));
    same(await other.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'hello' }));
    // Expired: the clock passes the expiry; extended: it works again.
    setClockOffset(15 * 86_400_000);
    same(await open(org, token));
    same(await org.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'late' }));
    expect((await org.admin.get(`${S}/list-shares?state=expired`)).body.shares.map((s: ShareDto) => s.id)).toEqual([created.id]);
    const extended = await org.admin.put(`${S}/extend-share/${created.id}`, { days: 7 });
    expect(extended.status).toBe(200);
    expect((await open(org, token)).status).toBe(200);
    setClockOffset(0);
    // Revoked: the very next request is refused.
    expect((await org.admin.put(`${S}/revoke-share/${created.id}`)).body.share.status).toBe('revoked');
    same(await open(org, token));
    same(await org.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'after revoke' }));
    expect((await org.admin.put(`${S}/extend-share/${created.id}`, { days: 7 })).status).toBe(409);
  });

  it('enforces each permission on its own action', async () => {
    const org = await createOrg(t);
    const { token } = await share(org, { canComment: false, canLog: false, canComplete: false });
    expect((await open(org, token)).body.permissions).toEqual({ canComment: false, canLog: false, canComplete: false });
    expect((await org.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'hi' })).status).toBe(403);
    expect(
      (await org.anonymous.upload(`${S}/upload-shared-files${q(token)}`, [{ field: 'file', name: 'a.png', bytes: await png(), type: 'image/png' }])).status,
    ).toBe(403);
    const time = { startTime: ago(89), endTime: ago(-1), hourlyRate: 40 };
    expect((await org.anonymous.post(`${S}/add-shared-labor${q(token)}`, time)).status).toBe(403);
    expect((await org.anonymous.post(`${S}/add-shared-part${q(token)}`, { name: 'Filter', quantity: 1, unitPrice: 5 })).status).toBe(403);
    expect((await org.anonymous.post(`${S}/mark-shared-done${q(token)}`, {})).status).toBe(403);
    expect((await org.anonymous.post(`${S}/answer-shared-step${q(token)}`, { stepId: 1, value: true })).status).toBe(403);
    // Only comments: time and done stay refused.
    const commenter = await share(org, { canComment: true, canLog: false, canComplete: false });
    expect((await org.anonymous.post(`${S}/add-shared-comment${q(commenter.token)}`, { body: 'hi' })).status).toBe(201);
    expect((await org.anonymous.post(`${S}/add-shared-labor${q(commenter.token)}`, time)).status).toBe(403);
    expect((await org.anonymous.post(`${S}/mark-shared-done${q(commenter.token)}`, {})).status).toBe(403);
  });

  it('puts what the contractor does in the history and notes as the contractor, counts their time and parts in the cost, and the manager accepts', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const order = await addOrder(org.admin, { assignees: [worker.userId] });
    const { share: created, token } = await share(org, {}, order.id);

    expect((await org.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'On site, compressor noisy' })).status).toBe(201);
    const up = await org.anonymous.upload(`${S}/upload-shared-files${q(token)}`, [{ field: 'file', name: 'gauge.png', bytes: await png(), type: 'image/png' }]);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    // Not an image or PDF by its bytes: refused, as every upload.
    expect(
      (await org.anonymous.upload(`${S}/upload-shared-files${q(token)}`, [{ field: 'file', name: 'x.png', bytes: Buffer.from('<html>'), type: 'image/png' }]))
        .status,
    ).toBe(415);
    const labor = await org.anonymous.post(`${S}/add-shared-labor${q(token)}`, { startTime: ago(89), endTime: ago(-1), hourlyRate: 40 });
    expect(labor.status, JSON.stringify(labor.body)).toBe(201);
    expect((await org.anonymous.post(`${S}/add-shared-part${q(token)}`, { name: 'Filter drier', quantity: 2, unitPrice: 12.5 })).status).toBe(201);

    const page = (await open(org, token)).body as SharedWorkOrderDto;
    expect(page.state).toBe('in-progress');
    expect(page.messages.map((m) => [m.author, m.body, m.fileName])).toEqual([
      ['Coolair Ltd', 'On site, compressor noisy', null],
      ['Coolair Ltd', null, 'gauge.png'],
    ]);
    // The contractor's file comes with a working signed URL.
    const file = await org.anonymous.get(page.messages[1].fileUrl!);
    expect(file.status).toBe(200);
    expect(page.labors).toMatchObject([{ minutes: 90, hourlyRateMinor: 4000, costMinor: 6000 }]);
    expect(page.parts).toMatchObject([{ name: 'Filter drier', quantity: 2, unitPriceMinor: 1250, costMinor: 2500 }]);

    const lines = await history(org, order.id);
    expect(lines.find((l) => l.action === 'note')).toMatchObject({ note: 'On site, compressor noisy', contractor: 'Coolair Ltd', user: null });
    expect(
      lines
        .filter((l) => l.contractor === 'Coolair Ltd')
        .map((l) => l.action)
        .sort(),
    ).toEqual(['attachment', 'note', 'updated', 'updated']);
    // The assignee's bell has it; the assignee and the manager get an e-mail.
    const bell = (await worker.get('/api/activities/recent')).body;
    expect(JSON.stringify(bell)).toContain('Coolair Ltd');
    expect((await lastMail(org.email))?.subject).toContain('Coolair Ltd (contractor)');
    expect((await lastMail(`worker1@${org.subdomain}.example.com`))?.subject).toContain('Coolair Ltd (contractor)');

    // The work order's labour and parts lists show the external lines; the cost counts them.
    const labors = (await org.admin.get(`${W}/get-labors/${order.id}`)).body.labors;
    expect(labors).toMatchObject([
      { workerId: null, Worker: { firstName: 'Coolair Ltd' }, external: { name: 'Coolair Ltd', rateMinor: 4000, costMinor: 6000 } },
    ]);
    const parts = (await org.admin.get(`${W}/get-parts/${order.id}`)).body.workOrderParts;
    expect(parts).toMatchObject([{ partId: null, quantity: 2, Part: { name: 'Filter drier', salesPrice: 12.5 }, external: { costMinor: 2500 } }]);
    const cost = (await org.admin.get(`${W}/get-cost/${order.id}`)).body.cost;
    expect(cost).toEqual({
      laborMinutes: 0,
      laborMinor: 0,
      externalLaborMinutes: 90,
      externalLaborMinor: 6000,
      partsMinor: 0,
      externalPartsMinor: 2500,
      totalMinor: 8500,
    });
    expect((await org.admin.get(`${S}/list-shares`)).body.shares[0].externalCostMinor).toBe(8500);

    // Accept only once done; send back, then done again, then accept closes the work order.
    expect((await org.admin.put(`${S}/accept-share/${created.id}`)).status).toBe(409);
    expect((await org.anonymous.post(`${S}/mark-shared-done${q(token)}`, {})).status).toBe(200);
    const back = await org.admin.put(`${S}/send-back-share/${created.id}`, { comment: 'Please add the pressure reading' });
    expect(back.body.share.state).toBe('sent-back');
    expect((await open(org, token)).body.reviewComment).toBe('Please add the pressure reading');
    expect((await lastMail('tech@coolair.example.com')).text).toContain('Please add the pressure reading');
    await org.anonymous.post(`${S}/mark-shared-done${q(token)}`, { comment: 'Pressure 4.2 bar' });
    const accepted = await org.admin.put(`${S}/accept-share/${created.id}`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.share.state).toBe('accepted');
    expect((await org.admin.get(`${W}/get-work-order/${order.id}`)).body.workOrder.status).toBe('completed');
    // Nothing more once accepted.
    expect((await org.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'one more' })).status).toBe(409);
  });

  it('accepting respects the procedure rule: required steps unfilled keep the work order open', async () => {
    const org = await createOrg(t);
    const order = await orderWithProcedure(org, 'Check', [{ kind: 'checkbox', label: 'Isolate', required: true }]);
    const { share: created, token } = await share(org, {}, order.id);
    const steps = (await open(org, token)).body.procedure.steps as { id: number }[];
    expect((await open(org, token)).body.procedure).toMatchObject({ name: 'Check', steps: [{ label: 'Isolate', required: true, value: null }] });
    await org.anonymous.post(`${S}/mark-shared-done${q(token)}`, {});
    const refused = await org.admin.put(`${S}/accept-share/${created.id}`);
    expect(refused.status).toBe(400);
    expect((await org.admin.get(`${S}/get-share/${created.id}`)).body.share.state).toBe('done');
    // The contractor fills the step (checked by its kind), under their name in the history; then it is accepted.
    expect((await org.anonymous.post(`${S}/answer-shared-step${q(token)}`, { stepId: steps[0].id, value: 'yes' })).status).toBe(400);
    expect((await org.anonymous.post(`${S}/answer-shared-step${q(token)}`, { stepId: steps[0].id, value: true })).status).toBe(200);
    expect((await open(org, token)).body.procedure.steps[0].value).toBe(true);
    expect((await history(org, order.id)).some((l) => l.contractor === 'Coolair Ltd' && l.action === 'updated')).toBe(true);
    expect((await org.admin.put(`${S}/accept-share/${created.id}`)).status).toBe(200);
  });

  it("a contractor's answer made from an older copy of the step is refused (409, the step as the contractor sees it) and changes nothing", async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const order = await orderWithProcedure(org, 'Check', [{ kind: 'number', label: 'Pressure', unit: 'bar' }]);
    const { token } = await share(org, {}, order.id);
    const seen = (await open(org, token)).body.procedure.steps[0] as ContractorStepDto;
    expect(seen.answeredAt).toBeNull();
    const answer = (body: Record<string, unknown>, tok = token, client = org.anonymous) =>
      client.post(`${S}/answer-shared-step${q(tok)}`, { stepId: seen.id, ...body });
    // The manager answers online meanwhile.
    const byManager = await org.admin.put(`${W}/answer-procedure-step/${order.id}`, { stepId: seen.id, value: 4.4, answeredAt: null });
    expect(byManager.status, JSON.stringify(byManager.body)).toBe(200);
    const stale = await answer({ value: 3.2, answeredAt: null });
    expect(stale.status).toBe(409);
    // The step as the contractor's page shows it: the answer and its version, no person, no meter.
    expect(stale.body.current).toEqual({ ...seen, value: 4.4, answeredAt: byManager.body.step.answeredAt });
    expect((await open(org, token)).body.procedure.steps[0]).toMatchObject({ value: 4.4, answeredAt: byManager.body.step.answeredAt });
    // A manager's answer from the copy before the contractor's is refused the same way.
    const fresh = await answer({ value: 3.3, answeredAt: byManager.body.step.answeredAt });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    const byContractor = (await open(org, token)).body.procedure.steps[0];
    expect(byContractor.value).toBe(3.3);
    const managerStale = await org.admin.put(`${W}/answer-procedure-step/${order.id}`, {
      stepId: seen.id,
      value: 5,
      answeredAt: byManager.body.step.answeredAt,
    });
    expect(managerStale.status).toBe(409);
    expect(managerStale.body.current).toMatchObject({ value: 3.3, answeredAt: byContractor.answeredAt, answeredBy: null });
    // Odd versions: 400 on answeredAt; another organisation's host with the right version: 404; nothing changed.
    for (const bad of ['soon', 0, false]) expect((await answer({ value: 1, answeredAt: bad })).body.issues?.[0]?.path, String(bad)).toBe('answeredAt');
    expect((await answer({ value: 9, answeredAt: byContractor.answeredAt }, token, other.anonymous)).status).toBe(404);
    expect((await open(org, token)).body.procedure.steps[0]).toEqual(byContractor);
  });

  it("a contractor's photo or signature made from an older copy of the step is refused (409, the step as the contractor sees it), its file not kept (issue 45)", async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const order = await orderWithProcedure(org, 'Sign-off', [
      { kind: 'photo', label: 'Gauge photo' },
      { kind: 'signature', label: 'Signed off' },
    ]);
    const { token } = await share(org, {}, order.id);
    const bytes = await png();
    const filesOf = async () => {
      const urls: string[] = [];
      for await (const f of t.app.deps.storage.files(org.orgId)) urls.push(f.url);
      return urls.sort();
    };
    for (const [i, seen] of ((await open(org, token)).body.procedure.steps as ContractorStepDto[]).entries()) {
      expect(seen.answeredAt).toBeNull();
      const up = (fields?: Record<string, string>, client = org.anonymous) =>
        client.upload(`${S}/add-shared-step-image/${seen.id}${q(token)}`, [{ field: 'image', name: 'p.png', bytes, type: 'image/png' }], fields);
      // The manager answers it online meanwhile.
      const byManager = await org.admin.upload(
        `${W}/add-step-image/${order.id}/step/${seen.id}`,
        [{ field: 'image', name: 'm.png', bytes, type: 'image/png' }],
        { answeredAt: '' },
      );
      expect(byManager.status, JSON.stringify(byManager.body)).toBe(200);
      const files = await filesOf();
      const stale = await up({ answeredAt: '' });
      expect(stale.status, seen.label).toBe(409);
      expect(stale.body.current).toMatchObject({ id: seen.id, answeredAt: byManager.body.step.answeredAt });
      expect(await filesOf()).toEqual(files);
      const now = (await open(org, token)).body.procedure.steps[i] as ContractorStepDto;
      expect(now.answeredAt).toBe(byManager.body.step.answeredAt);
      // From the copy the 409 gave: saved.
      expect((await up({ answeredAt: (stale.body.current as ContractorStepDto).answeredAt! })).status).toBe(200);
      expect((await up({ answeredAt: 'soon' })).body.issues?.[0]?.path).toBe('answeredAt');
      // Another organisation's host with the right version: 404, nothing changed.
      const after = (await open(org, token)).body.procedure.steps[i];
      expect((await up({ answeredAt: after.answeredAt }, other.anonymous)).status).toBe(404);
      expect((await open(org, token)).body.procedure.steps[i]).toEqual(after);
    }
  });

  it("the contractor fills every kind of step of the work order's procedure, photos and signatures through the upload, and the manager's work order shows it", async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const order = await orderWithProcedure(org, 'Chiller check', [
      { kind: 'heading', label: 'Before' },
      { kind: 'checkbox', label: 'Isolate', required: true },
      { kind: 'pass-fail', label: 'Belts' },
      { kind: 'number', label: 'Pressure', unit: 'bar', min: 2, max: 5 },
      { kind: 'text', label: 'Remarks' },
      { kind: 'choice', label: 'Filter', options: ['Clean', 'Replaced'] },
      { kind: 'photo', label: 'Gauge photo' },
      { kind: 'signature', label: 'Signed off' },
    ]);
    const { share: created, token } = await share(org, {}, order.id);
    const page = (await open(org, token)).body as SharedWorkOrderDto;
    expect(page.procedure!.progress).toEqual({ answered: 0, total: 7, requiredLeft: 1, flagged: 0 });
    const step = Object.fromEntries(page.procedure!.steps.map((st) => [st.label, st]));
    expect(step.Pressure).toMatchObject({ kind: 'number', unit: 'bar', min: 2, max: 5, meterName: null, value: null });
    expect(step.Filter.options).toEqual(['Clean', 'Replaced']);

    const answer = (label: string, value: unknown) => org.anonymous.post(`${S}/answer-shared-step${q(token)}`, { stepId: step[label].id, value });
    const image = async (label: string, tok = token, client = org.anonymous) =>
      client.upload(`${S}/add-shared-step-image/${step[label].id}${q(tok)}`, [{ field: 'image', name: 'p.png', bytes: await png(), type: 'image/png' }]);
    for (const [label, value] of [
      ['Isolate', true],
      ['Belts', 'fail'],
      ['Pressure', 6.5],
      ['Remarks', 'Oil on the floor'],
      ['Filter', 'Replaced'],
    ] as const) {
      const res = await answer(label, value);
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect((await answer('Filter', 'Dirty')).body.issues?.[0]?.path).toBe('value');
    // A photo and a drawn signature: the upload (the image rule of every step image), not a value.
    expect((await answer('Gauge photo', 'https://example.com/x.png')).status).toBe(400);
    expect((await image('Gauge photo')).status).toBe(200);
    expect((await image('Signed off')).status).toBe(200);
    // Not an image by its bytes, or a step that takes no image: refused.
    expect(
      (
        await org.anonymous.upload(`${S}/add-shared-step-image/${step['Gauge photo'].id}${q(token)}`, [
          { field: 'image', name: 'x.png', bytes: Buffer.from('<html>'), type: 'image/png' },
        ])
      ).status,
    ).toBe(415);
    expect((await image('Remarks')).status).toBe(400);
    // Another organisation's host, or a step of another work order: 404.
    expect((await image('Gauge photo', token, other.anonymous)).status).toBe(404);
    const elsewhere = await share(org);
    expect((await image('Gauge photo', elsewhere.token)).status).toBe(404);

    const after = (await open(org, token)).body as SharedWorkOrderDto;
    expect(after.procedure!.progress).toEqual({ answered: 7, total: 7, requiredLeft: 0, flagged: 2 });
    const photo = after.procedure!.steps.find((st) => st.label === 'Gauge photo')!;
    // The contractor sees their photo through a signed URL, as the thread's files.
    expect((await org.anonymous.get(String(photo.value))).status).toBe(200);

    // The manager's work order has every answer, under the contractor's name in the history.
    const team = (await org.admin.get(`${W}/get-work-order-procedure/${order.id}`)).body.procedure;
    expect(team.progress).toMatchObject({ answered: 7, requiredLeft: 0 });
    expect(
      team.steps.map((st: { label: string; value: unknown }) => [st.label, typeof st.value === 'string' && st.value.startsWith('/') ? 'file' : st.value]),
    ).toEqual([
      ['Before', null],
      ['Isolate', true],
      ['Belts', 'fail'],
      ['Pressure', 6.5],
      ['Remarks', 'Oil on the floor'],
      ['Filter', 'Replaced'],
      ['Gauge photo', 'file'],
      ['Signed off', 'file'],
    ]);
    expect((await history(org, order.id)).filter((l) => l.contractor === 'Coolair Ltd').length).toBeGreaterThanOrEqual(7);
    // Cleared by the contractor: null again.
    expect((await answer('Gauge photo', null)).status).toBe(200);
    expect((await open(org, token)).body.procedure.steps.find((st: { label: string }) => st.label === 'Gauge photo').value).toBeNull();

    // Without the right to log, nothing is read; once accepted, nothing more.
    const viewer = await share(org, { canLog: false }, order.id);
    expect((await image('Gauge photo', viewer.token)).status).toBe(403);
    await org.anonymous.post(`${S}/mark-shared-done${q(token)}`, {});
    expect((await org.admin.put(`${S}/accept-share/${created.id}`)).status).toBe(200);
    expect((await image('Signed off')).status).toBe(409);
    expect((await answer('Remarks', 'late')).status).toBe(409);
  });

  it('a contractor deletes only their own time and parts lines, while the share works and is not accepted', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const order = await addOrder(org.admin);
    const mine = await share(org, {}, order.id);
    const theirs = await share(org, { contractorName: 'Volt Electric', email: 'ops@volt.example.com' }, order.id);
    const time = { startTime: ago(89), endTime: ago(-1), hourlyRate: 40 };
    for (const s2 of [mine, theirs]) {
      expect((await org.anonymous.post(`${S}/add-shared-labor${q(s2.token)}`, time)).status).toBe(201);
      expect((await org.anonymous.post(`${S}/add-shared-part${q(s2.token)}`, { name: 'Filter', quantity: 2, unitPrice: 5 })).status).toBe(201);
    }
    const lines = async (tok: string) => (await open(org, tok)).body as SharedWorkOrderDto;
    const myPage = await lines(mine.token);
    const theirPage = await lines(theirs.token);
    const [myLabor, myPart, theirLabor, theirPart] = [myPage.labors[0].id, myPage.parts[0].id, theirPage.labors[0].id, theirPage.parts[0].id];
    // The other share's lines, another organisation's host, an unknown id: the same 404, nothing changed.
    const before = await orgSnapshot(t.database.db, org.orgId, ['mail_outbox']);
    expect((await org.anonymous.del(`${S}/delete-shared-labor/${theirLabor}${q(mine.token)}`)).status).toBe(404);
    expect((await org.anonymous.del(`${S}/delete-shared-part/${theirPart}${q(mine.token)}`)).status).toBe(404);
    expect((await other.anonymous.del(`${S}/delete-shared-labor/${myLabor}${q(mine.token)}`)).status).toBe(404);
    expect((await other.anonymous.del(`${S}/delete-shared-part/${myPart}${q(mine.token)}`)).status).toBe(404);
    // A labour id given as a part's, and the reverse: not theirs either.
    expect((await org.anonymous.del(`${S}/delete-shared-part/${myLabor + 100000}${q(mine.token)}`)).status).toBe(404);
    expect(await orgSnapshot(t.database.db, org.orgId, ['mail_outbox'])).toBe(before);

    const gone = await org.anonymous.del(`${S}/delete-shared-labor/${myLabor}${q(mine.token)}`);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect((await org.anonymous.del(`${S}/delete-shared-part/${myPart}${q(mine.token)}`)).status).toBe(200);
    expect((await lines(mine.token)).labors).toEqual([]);
    expect((await lines(mine.token)).parts).toEqual([]);
    expect((await lines(theirs.token)).labors).toHaveLength(1);
    expect((await org.admin.get(`${W}/get-cost/${order.id}`)).body.cost).toMatchObject({
      externalLaborMinutes: 90,
      externalLaborMinor: 6000,
      externalPartsMinor: 1000,
    });
    const removed = (await history(org, order.id)).filter((l) => l.contractor === 'Coolair Ltd') as unknown as {
      changes: Record<string, { from: unknown; to: unknown }>;
    }[];
    expect(removed.map((l) => l.changes)).toEqual(
      expect.arrayContaining([{ labor: { from: '1h 30m (external)', to: null } }, { parts: { from: 'Filter x2 (external)', to: null } }]),
    );

    // Without the right to log: 403; revoked: 404; accepted: 409; and the line stays.
    const noLog = await share(org, { canLog: false }, order.id);
    expect((await org.anonymous.del(`${S}/delete-shared-labor/${theirLabor}${q(noLog.token)}`)).status).toBe(403);
    await org.anonymous.post(`${S}/mark-shared-done${q(theirs.token)}`, {});
    expect((await org.admin.put(`${S}/accept-share/${theirs.share.id}`)).status).toBe(200);
    expect((await org.anonymous.del(`${S}/delete-shared-labor/${theirLabor}${q(theirs.token)}`)).status).toBe(409);
    await org.admin.put(`${S}/revoke-share/${theirs.share.id}`);
    expect((await org.anonymous.del(`${S}/delete-shared-part/${theirPart}${q(theirs.token)}`)).status).toBe(404);
    expect((await org.admin.get(`${W}/get-parts/${order.id}`)).body.workOrderParts).toHaveLength(1);
  });

  it("amounts are for managers: a worker sees contractors' lines and minutes, never their rates, prices or costs", async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const order = await addOrder(org.admin, { assignees: [worker.userId] });
    const { token } = await share(org, {}, order.id);
    await org.anonymous.post(`${S}/add-shared-labor${q(token)}`, { startTime: ago(89), endTime: ago(-1), hourlyRate: 40 });
    await org.anonymous.post(`${S}/add-shared-part${q(token)}`, { name: 'Valve', quantity: 3, unitPrice: 7 });
    const seen = async (c: Client) => ({
      labors: (await c.get(`${W}/get-labors/${order.id}`)).body.labors,
      parts: (await c.get(`${W}/get-parts/${order.id}`)).body.workOrderParts,
      cost: (await c.get(`${W}/get-cost/${order.id}`)).body.cost,
    });
    const manager = await seen(org.admin);
    expect(manager.labors[0].external).toMatchObject({ name: 'Coolair Ltd', rateMinor: 4000, costMinor: 6000 });
    expect(manager.parts[0]).toMatchObject({ Part: { name: 'Valve', salesPrice: 7 }, external: { rateMinor: 700, costMinor: 2100 } });
    expect(manager.cost).toMatchObject({ externalLaborMinor: 6000, externalPartsMinor: 2100, totalMinor: 8100 });
    const w = await seen(worker);
    expect(w.labors[0].external).toEqual({ shareId: expect.any(Number), name: 'Coolair Ltd', rateMinor: null, costMinor: null });
    expect(w.parts[0]).toMatchObject({ quantity: 3, Part: { name: 'Valve', salesPrice: null }, external: { rateMinor: null, costMinor: null } });
    expect(w.cost).toEqual({
      laborMinutes: 0,
      laborMinor: null,
      externalLaborMinutes: 90,
      externalLaborMinor: null,
      partsMinor: null,
      externalPartsMinor: null,
      totalMinor: null,
    });
  });

  it('asks for a one-time code by e-mail before showing anything, when the manager wants it', async () => {
    const org = await createOrg(t);
    const { token } = await share(org, { requireCode: true, email: 'code@coolair.example.com' });
    const gate = await open(org, token);
    expect(gate.body).toEqual({ codeRequired: true, emailHint: 'c•••@coolair.example.com' });
    expect((await org.anonymous.post(`${S}/add-shared-comment${q(token)}`, { body: 'hi' })).status).toBe(403);
    expect((await org.anonymous.post(`${S}/send-share-code${q(token)}`)).status).toBe(200);
    const code = /(\d{6})/.exec((await lastMail('code@coolair.example.com')).subject)![1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await org.anonymous.post(`${S}/confirm-share-code${q(token)}`, { code: wrong })).status).toBe(400);
    const ok = await org.anonymous.post(`${S}/confirm-share-code${q(token)}`, { code });
    expect(ok.status).toBe(200);
    expect((await open(org, token, ok.body.key)).body.workOrder.title).toBe('Service the rooftop chiller');
    expect((await open(org, token, 'not-the-key')).body.codeRequired).toBe(true);
    expect((await org.anonymous.post(`${S}/add-shared-comment${q(token, ok.body.key)}`, { body: 'hi' })).status).toBe(201);
    // The code works once.
    expect((await org.anonymous.post(`${S}/confirm-share-code${q(token)}`, { code })).status).toBe(400);
  });

  it('limits code mails per share (one a minute, five an hour) and wrong codes per share, which a new code never resets (issue 45)', async () => {
    const org = await createOrg(t);
    const email = `limits-${org.subdomain}@coolair.example.com`;
    const { share: created, token } = await share(org, { requireCode: true, email });
    const other = await share(org, { requireCode: true, email: `other-${org.subdomain}@coolair.example.com` });
    const send = (tk = token) => org.anonymous.post(`${S}/send-share-code${q(tk)}`);
    const confirm = (code: string) => org.anonymous.post(`${S}/confirm-share-code${q(token)}`, { code });
    const mails = async () => (await withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, email)))).length;
    /** The minute window of this share's mails runs out (as a minute passing would). */
    const aMinuteLater = () =>
      withoutTenant(t.database.db, (tx) =>
        tx
          .update(rateLimits)
          .set({ resetAt: sql`now() - interval '1 second'` })
          .where(eq(rateLimits.key, `shareCodeMail:0:${org.orgId}:${created.id}`)),
      );

    expect((await send()).status).toBe(200);
    const again = await send();
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/^Please wait \d+ seconds before asking for another code$/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    // Another share of the same address has its own limits.
    expect((await send(other.token)).status).toBe(200);
    for (let i = 2; i <= 5; i++) {
      await aMinuteLater();
      expect((await send()).status).toBe(200);
    }
    await aMinuteLater();
    const hourly = await send();
    expect(hourly.status).toBe(429);
    expect(hourly.body.error).toMatch(/^Please wait \d+ minutes before asking for another code$/);
    expect(await mails()).toBe(1 + 5); // the link, then five codes

    // Five wrong codes; the sixth try is refused even with the right code, and a new code gives no tries back.
    const code = /(\d{6})/.exec((await lastMail(email)).subject)![1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await confirm(wrong)).status).toBe(400);
    const locked = await confirm(code);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatch(/^Too many wrong codes\. Please try again in \d+ minutes$/);
    await withoutTenant(t.database.db, (tx) => tx.delete(rateLimits).where(sql`${rateLimits.key} like ${`shareCodeMail:%:${org.orgId}:${created.id}`}`));
    expect((await send()).status).toBe(200);
    const fresh = /(\d{6})/.exec((await lastMail(email)).subject)![1];
    expect((await confirm(fresh)).status).toBe(429);
    // An unknown link is the usual 404, counted nowhere.
    expect((await org.anonymous.post(`${S}/send-share-code${q('x'.repeat(43))}`)).status).toBe(404);
  });

  it('is for managers: workers are refused, and another organisation gets 404 and changes nothing', async () => {
    const org = await createOrg(t);
    const other = await createOrg(t, 'Other');
    const worker = await org.as('worker');
    const { orderId, share: created } = await share(org);
    expect((await worker.get(`${S}/list-shares`)).status).toBe(403);
    expect((await worker.post(`${S}/create-share`, { workOrderId: orderId, contractorName: 'X', email: 'x@example.com' })).status).toBe(403);
    const before = await orgSnapshot(t.database.db, org.orgId, ['mail_outbox']);
    expect((await other.admin.get(`${S}/list-shares`)).body.shares).toEqual([]);
    expect((await other.admin.get(`${S}/get-share/${created.id}`)).status).toBe(404);
    for (const path of ['revoke-share', 'extend-share', 'accept-share', 'send-back-share']) {
      expect(
        (await other.admin.put(`${S}/${path}/${created.id}`, path === 'extend-share' ? { days: 3 } : path === 'send-back-share' ? { comment: 'x' } : {}))
          .status,
      ).toBe(404);
    }
    expect((await other.admin.post(`${S}/add-share-comment/${created.id}`, { body: 'x' })).status).toBe(404);
    // Sharing another organisation's work order: not found.
    expect((await other.admin.post(`${S}/create-share`, { workOrderId: orderId, contractorName: 'X', email: 'x@example.com' })).status).toBe(400);
    expect(await orgSnapshot(t.database.db, org.orgId, ['mail_outbox'])).toBe(before);
  });

  it('filters and searches the list', async () => {
    const org = await createOrg(t);
    const a = await share(org, { contractorName: 'Lift Masters', email: 'ops@lift.example.com' });
    await share(org, { contractorName: 'Volt Electric', email: 'ops@volt.example.com' });
    await org.admin.put(`${S}/revoke-share/${a.share.id}`);
    const names = async (query: string) => ((await org.admin.get(`${S}/list-shares${query}`)).body.shares as ShareDto[]).map((s) => s.contractorName);
    expect(await names('?search=volt')).toEqual(['Volt Electric']);
    expect(await names('?search=rooftop')).toEqual(['Volt Electric', 'Lift Masters']);
    expect(await names('?state=revoked')).toEqual(['Lift Masters']);
    expect(await names('?state=waiting')).toEqual(['Volt Electric']);
    expect((await org.admin.get(`${S}/list-shares?state=nope`)).status).toBe(400);
  });
});

describe('rate limits on the public routes', () => {
  it('counts the writes apart from the reads: past the write limit a write is 429 while reads go on', async () => {
    const limited = await createTestApp({
      routeLimits: { ...t.config.routeLimits, sharedWorkOrder: { max: 50, windowSeconds: 600 }, sharedWorkOrderWrite: { max: 2, windowSeconds: 600 } },
    });
    try {
      const org = await createOrg(limited);
      const remoteAddress = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      const hit = async (method: 'GET' | 'POST', path: string) =>
        (
          await limited.app.inject({
            method,
            url: `${S}/${path}?token=${'a'.repeat(43)}`,
            headers: { host: org.host },
            remoteAddress,
            ...(method === 'POST' ? { payload: { body: 'x' } } : {}),
          })
        ).statusCode;
      const writes = [await hit('POST', 'add-shared-comment'), await hit('POST', 'add-shared-labor'), await hit('POST', 'add-shared-comment')];
      expect(writes).toEqual([404, 400, 429]);
      expect(await hit('GET', 'get-shared-work-order')).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 past the limit per address', async () => {
    const limited = await createTestApp({ routeLimits: { ...t.config.routeLimits, sharedWorkOrder: { max: 3, windowSeconds: 600 } } });
    try {
      const org = await createOrg(limited);
      // An address of this test's own: the counts live in the shared database.
      const remoteAddress = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'GET',
          url: `${S}/get-shared-work-order?token=${'a'.repeat(43)}`,
          headers: { host: org.host },
          remoteAddress,
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 3)).toEqual([404, 404, 404]);
      expect(codes[4]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
