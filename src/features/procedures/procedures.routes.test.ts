import { describe, expect, it } from 'vitest';
import { solidImage } from '../../server/test/images';
import { withTenant } from '../../server/db/client';
import { assetCategories, assets } from '../../server/db/schema';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';
import type { IssuedStepDto, ProcedureInput, WorkOrderProcedureDto } from './procedures.schema';
import { attachProcedure } from './procedures.service';
import { pdfText } from '../commercial-documents/document-pdf.service';

const t = useTestApp();

const P = '/api/procedures';
const W = '/api/work-orders';

/** A pump check: a heading, and one step of every kind (number 1..5 bar with a follow-up, pass/fail with one). */
const pumpCheck = (over: Partial<ProcedureInput> = {}): ProcedureInput => ({
  name: 'Monthly pump check',
  description: 'Before the monthly run',
  steps: [
    { kind: 'heading', label: 'Safety' },
    { kind: 'checkbox', label: 'Isolate the pump', required: true },
    { kind: 'number', label: 'Discharge pressure', unit: 'bar', min: 1, max: 5, required: true, followUpOnFailure: true },
    { kind: 'pass-fail', label: 'Seal leak test', required: true, followUpOnFailure: true },
    { kind: 'text', label: 'Remarks' },
    { kind: 'choice', label: 'Noise', options: ['Quiet', 'Normal', 'Loud'] },
    { kind: 'photo', label: 'Photo of the gauge' },
    { kind: 'signature', label: 'Technician signature' },
  ],
  ...over,
});

async function addAsset(org: TestOrg) {
  return withTenant(t.database.db, org.orgId, async (tx) => {
    const [category] = await tx.insert(assetCategories).values({ orgId: org.orgId, name: 'Pumps', code: 'PMP' }).returning();
    const [asset] = await tx.insert(assets).values({ orgId: org.orgId, name: 'Feed pump', date: '2024-01-15', assetCategoryId: category.id }).returning();
    return asset;
  });
}

async function addProcedure(c: Client, body: ProcedureInput = pumpCheck()) {
  const res = await c.post(`${P}/add-procedure`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.procedure as { id: number; version: number; steps: { id: number; kind: string; label: string }[] };
}

async function addOrder(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.post(`${W}/add-work-order`, { title: 'Pump PM', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.workOrder as { id: number; workOrderId: string };
}

/** An organisation with a worker, an asset, the pump check and a work order (on the asset, assigned to the worker) with it attached. */
async function setup() {
  const org = await createOrg(t);
  const worker = await org.as('worker');
  const asset = await addAsset(org);
  const procedure = await addProcedure(org.admin);
  const order = await addOrder(org.admin, { assetId: asset.id, assignees: [worker.userId] });
  const attached = await org.admin.post(`${W}/attach-procedure/${order.id}`, { procedureId: procedure.id });
  expect(attached.status, JSON.stringify(attached.body)).toBe(200);
  const issued = attached.body.procedure as WorkOrderProcedureDto;
  const step = (label: string) => issued.steps.find((s) => s.label === label)!;
  return { org, worker, asset, procedure, order, issued, step };
}

const answer = (c: Client, orderId: number, stepId: number, value: unknown) => c.put(`${W}/answer-procedure-step/${orderId}`, { stepId, value });
const readProcedure = async (c: Client, orderId: number) => (await c.get(`${W}/get-work-order-procedure/${orderId}`)).body.procedure as WorkOrderProcedureDto;

function multipart(field: string, filename: string, bytes: Buffer, type: string) {
  const boundary = '----proctest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(org: TestOrg, token: string, orderId: number, stepId: number) {
  const png = await solidImage('png', 48, 32, '#228833');
  const up = multipart('image', 'gauge.png', png, 'image/png');
  const res = await t.app.inject({
    method: 'POST',
    url: `${W}/add-step-image/${orderId}/step/${stepId}`,
    headers: { host: org.host, authorization: `Bearer ${token}`, ...up.headers },
    payload: up.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('the procedure library', () => {
  it('managers add, read, list, edit (with the version) and delete procedures; steps keep their order and kind fields', async () => {
    const org = await createOrg(t);
    const added = await org.admin.post(`${P}/add-procedure`, pumpCheck());
    expect(added.status).toBe(201);
    expect(added.body.procedures).toHaveLength(1);
    expect(added.body.pagination.totalRecords).toBe(1);
    const p = added.body.procedure;
    expect(p.stepCount).toBe(7);
    expect(p.steps.map((s: { position: number }) => s.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(p.steps[2]).toMatchObject({ kind: 'number', unit: 'bar', min: 1, max: 5, required: true, followUpOnFailure: true });
    // Fields that do not belong to a kind are not kept.
    const odd = await org.admin.post(
      `${P}/add-procedure`,
      pumpCheck({ name: 'Odd', steps: [{ kind: 'checkbox', label: 'x', unit: 'bar', options: ['a'], followUpOnFailure: true }] }),
    );
    expect(odd.body.procedure.steps[0]).toMatchObject({ unit: null, options: [], followUpOnFailure: false });

    const got = await org.admin.get(`${P}/get-procedure/${p.id}`);
    expect(got.body.procedure).toEqual(p);
    const list = await org.admin.get(`${P}/list-procedures?name=pump`);
    expect(list.body.procedures.map((r: { name: string }) => r.name)).toEqual(['Monthly pump check']);

    // Reorder: the last step first, a step removed.
    const steps = pumpCheck().steps;
    const reordered = [steps[7], ...steps.slice(0, 6)];
    const updated = await org.admin.put(`${P}/update-procedure/${p.id}`, { ...pumpCheck({ name: 'Pump check v2', steps: reordered }), version: p.version });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.procedure.name).toBe('Pump check v2');
    expect(updated.body.procedure.steps.map((s: { label: string }) => s.label)).toEqual(reordered.map((s) => s.label));
    expect(updated.body.procedure.version).toBe(p.version + 1);

    // An edit from the older version is refused with the record as it is now.
    const stale = await org.admin.put(`${P}/update-procedure/${p.id}`, { ...pumpCheck({ name: 'Stale' }), version: p.version });
    expect(stale.status).toBe(409);
    expect(stale.body.current.name).toBe('Pump check v2');

    const history = await org.admin.get(`/api/activities/procedure/${p.id}`);
    expect(history.body.activities.map((a: { action: string }) => a.action).sort()).toEqual(['created', 'updated']);

    const deleted = await org.admin.del(`${P}/delete-procedure/${p.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.procedures.map((r: { name: string }) => r.name)).toEqual(['Odd']);
    expect((await org.admin.get(`${P}/get-procedure/${p.id}`)).status).toBe(404);
  });

  it('refuses bad procedures with field messages and creates nothing', async () => {
    const org = await createOrg(t);
    const cases: [unknown, string, string][] = [
      [pumpCheck({ name: ' ' }), 'name', 'Procedure name is required'],
      [pumpCheck({ steps: [] }), 'steps', 'Add at least one step that can be answered'],
      [pumpCheck({ steps: [{ kind: 'heading', label: 'Only a heading' }] }), 'steps', 'Add at least one step that can be answered'],
      [pumpCheck({ steps: [{ kind: 'choice', label: 'Pick', options: ['One'] }] }), 'steps.0.options', 'A choice step needs at least two options'],
      [pumpCheck({ steps: [{ kind: 'number', label: 'T', min: 10, max: 2 }] }), 'steps.0.max', 'The minimum must not be above the maximum'],
      [pumpCheck({ steps: [{ kind: 'dance' as never, label: 'x' }] }), 'steps.0.kind', 'Step type must be one of'],
      [pumpCheck({ steps: [{ kind: 'text', label: '' }] }), 'steps.0.label', 'Step label is required'],
    ];
    for (const [body, path, message] of cases) {
      const res = await org.admin.post(`${P}/add-procedure`, body);
      expect(res.status, path).toBe(400);
      const issue = res.body.issues.find((i: { path: string }) => i.path === path);
      expect(issue?.message, `${path}: ${JSON.stringify(res.body)}`).toContain(message);
    }
    expect((await org.admin.get(`${P}/list-procedures`)).body.procedures).toEqual([]);
  });

  it('workers read the library but do not change it', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const p = await addProcedure(org.admin);
    expect((await worker.get(`${P}/list-procedures`)).body.procedures).toHaveLength(1);
    expect((await worker.get(`${P}/get-procedure/${p.id}`)).status).toBe(200);
    expect((await worker.post(`${P}/add-procedure`, pumpCheck())).status).toBe(403);
    expect((await worker.put(`${P}/update-procedure/${p.id}`, pumpCheck({ name: 'Mine' }))).status).toBe(403);
    expect((await worker.del(`${P}/delete-procedure/${p.id}`)).status).toBe(403);
    expect((await org.admin.get(`${P}/get-procedure/${p.id}`)).body.procedure.name).toBe('Monthly pump check');
  });
});

describe("a work order's procedure", () => {
  it('attaching copies the steps: later library edits and deletion do not change issued work', async () => {
    const { org, procedure, order, issued } = await setup();
    expect(issued.name).toBe('Monthly pump check');
    expect(issued.progress).toEqual({ answered: 0, total: 7, requiredLeft: 3, flagged: 0 });
    await org.admin.put(`${P}/update-procedure/${procedure.id}`, pumpCheck({ name: 'Changed', steps: [{ kind: 'text', label: 'Only this' }] }));
    expect(await readProcedure(org.admin, order.id)).toEqual(issued);
    await org.admin.del(`${P}/delete-procedure/${procedure.id}`);
    expect(await readProcedure(org.admin, order.id)).toEqual(issued);
    // A second procedure is refused while one is attached.
    const other = await addProcedure(org.admin, pumpCheck({ name: 'Other' }));
    const again = await org.admin.post(`${W}/attach-procedure/${order.id}`, { procedureId: other.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('This work order already has a procedure; detach it first');
  });

  it('attachProcedure (for the PM plan generator) copies into a work order without an actor check', async () => {
    const org = await createOrg(t);
    const procedure = await addProcedure(org.admin);
    const order = await addOrder(org.admin);
    await withTenant(t.database.db, org.orgId, (tx) => attachProcedure(tx, org.orgId, order.id, procedure.id, null));
    expect((await readProcedure(org.admin, order.id)).steps).toHaveLength(8);
    await expect(withTenant(t.database.db, org.orgId, (tx) => attachProcedure(tx, org.orgId, order.id, 999, null))).rejects.toThrow('Procedure not found');
  });

  it('answers are checked by step kind with a field message; numbers out of range and failed steps are flagged', async () => {
    const { org, worker, order, step } = await setup();
    const pressure = step('Discharge pressure');
    const wrong: [IssuedStepDto, unknown, string][] = [
      [pressure, 'high', 'Enter a number'],
      [pressure, '3', 'Enter a number'],
      [pressure, true, 'Enter a number'],
      [step('Isolate the pump'), 'yes', 'A checkbox step takes true or false'],
      [step('Seal leak test'), 'ok', 'Answer pass, fail or flag'],
      [step('Noise'), 'Silent', 'Choose one of the options'],
      [step('Remarks'), 42, 'Enter a text of at most 2000 characters'],
      [step('Remarks'), 'x'.repeat(2001), 'Enter a text of at most 2000 characters'],
      [step('Photo of the gauge'), '/uploads/org-1/00000000-0000-0000-0000-000000000000.webp', 'Upload an image for this step'],
      [step('Safety'), 'x', 'A heading is not answered'],
    ];
    for (const [s, value, message] of wrong) {
      const res = await answer(worker, order.id, s.id, value);
      expect(res.status, `${s.label} ${String(value)}`).toBe(400);
      expect(res.body.issues).toEqual([{ path: 'value', message: expect.stringContaining(message) }]);
    }
    expect((await readProcedure(org.admin, order.id)).progress.answered).toBe(0);

    const inRange = await answer(worker, order.id, pressure.id, 3.5);
    expect(inRange.status, JSON.stringify(inRange.body)).toBe(200);
    expect(inRange.body.step).toMatchObject({ value: 3.5, flagged: false, answeredBy: { id: worker.userId } });
    expect(inRange.body.step.answeredAt).toBeTruthy();
    expect((await answer(worker, order.id, pressure.id, 7.2)).body.step).toMatchObject({ value: 7.2, flagged: true });
    expect((await answer(worker, order.id, pressure.id, 0.5)).body.step.flagged).toBe(true);
    expect((await answer(worker, order.id, step('Seal leak test').id, 'pass')).body.step.flagged).toBe(false);
    expect((await answer(worker, order.id, step('Seal leak test').id, 'fail')).body.step.flagged).toBe(true);
    expect((await answer(worker, order.id, step('Seal leak test').id, 'flag')).body.step.flagged).toBe(true);
    expect((await answer(worker, order.id, step('Noise').id, 'Loud')).status).toBe(200);
    const last = await answer(worker, order.id, step('Remarks').id, 'Bearing warm');
    expect(last.body.procedure.progress).toEqual({ answered: 4, total: 7, requiredLeft: 1, flagged: 2 });
    // An unticked checkbox is empty; null clears any answer.
    expect((await answer(worker, order.id, step('Isolate the pump').id, false)).body.step.value).toBeNull();
    expect((await answer(worker, order.id, step('Remarks').id, null)).body.step.value).toBeNull();

    // Every answer is in the work order's history, with who.
    const history = (await org.admin.get(`/api/activities/work-order/${order.id}`)).body.activities as {
      user: { id: number } | null;
      changes: Record<string, { to: unknown }> | null;
    }[];
    const pressureLines = history.filter((a) => a.changes && 'Step 3: Discharge pressure' in a.changes);
    expect(pressureLines.map((a) => a.changes!['Step 3: Discharge pressure'].to).sort()).toEqual([0.5, 3.5, 7.2]);
    expect(pressureLines.every((a) => a.user?.id === worker.userId)).toBe(true);
  });

  // Issue 23: "a number step can feed a meter" (decision 030, addendum).
  it("a number step that names a meter records its answer as a reading of the asset's meter of that name", async () => {
    const org = await createOrg(t);
    const asset = await addAsset(org);
    const meter = await org.admin.post('/api/meters/add-meter', { assetId: asset.id, name: 'Running hours', kind: 'counter', unit: 'h' });
    expect(meter.status, JSON.stringify(meter.body)).toBe(201);
    const meterId = meter.body.meter.id as number;
    const procedure = await addProcedure(org.admin, {
      name: 'Hours',
      steps: [
        { kind: 'number', label: 'Hour meter', unit: 'h', meterName: 'running HOURS' },
        { kind: 'number', label: 'Spare' },
      ],
    });
    expect((await org.admin.get(`${P}/get-procedure/${procedure.id}`)).body.procedure.steps[0].meterName).toBe('running HOURS');
    const order = await addOrder(org.admin, { assetId: asset.id });
    const attached = await org.admin.post(`${W}/attach-procedure/${order.id}`, { procedureId: procedure.id });
    const [hours, spare] = (attached.body.procedure as WorkOrderProcedureDto).steps;
    expect(hours.meterName).toBe('running HOURS');

    const first = await answer(org.admin, order.id, hours.id, 120);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.reading).toMatchObject({ meterName: 'Running hours', value: 120, source: 'work-order', workOrderId: order.id });
    // A counter does not go back: the answer is refused with the meter's message, and neither is kept.
    const back = await answer(org.admin, order.id, hours.id, 100);
    expect(back.status).toBe(400);
    expect(back.body.issues[0].path).toBe('value');
    expect((await readProcedure(org.admin, order.id)).steps[0].value).toBe(120);
    // A step without a meter, and a work order without an asset, record no reading.
    expect((await answer(org.admin, order.id, spare.id, 7)).body.reading).toBeNull();
    const noAsset = await addOrder(org.admin);
    const bare = await org.admin.post(`${W}/attach-procedure/${noAsset.id}`, { procedureId: procedure.id });
    const bareStep = (bare.body.procedure as WorkOrderProcedureDto).steps[0];
    expect((await answer(org.admin, noAsset.id, bareStep.id, 5)).body.reading).toBeNull();
    const readings = await org.admin.get(`/api/meters/list-meter-readings/${meterId}`);
    expect(readings.body.readings.map((r: { value: number; source: string }) => [r.value, r.source])).toEqual([[120, 'work-order']]);
  });

  it('a work order cannot be closed while required steps are empty (both status routes)', async () => {
    const { org, worker, order, step } = await setup();
    const refused = await worker.put(`${W}/update-status/${order.id}`, { status: 'completed' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Fill the 3 required procedure steps before closing this work order');
    expect(refused.body.issues).toEqual([{ path: 'status', message: refused.body.error }]);
    const byEdit = await org.admin.put(`${W}/update-work-order/${order.id}`, { title: 'Pump PM', status: 'completed' });
    expect(byEdit.status).toBe(400);
    await answer(worker, order.id, step('Isolate the pump').id, true);
    await answer(worker, order.id, step('Discharge pressure').id, 2);
    expect((await worker.put(`${W}/update-status/${order.id}`, { status: 'completed' })).body.error).toBe(
      'Fill the 1 required procedure step before closing this work order',
    );
    expect((await org.admin.get(`${W}/get-work-order/${order.id}`)).body.workOrder.status).toBe('assigned');
    // Other statuses are not held back.
    expect((await worker.put(`${W}/update-status/${order.id}`, { status: 'in-progress' })).status).toBe(200);
    await answer(worker, order.id, step('Seal leak test').id, 'pass');
    const closed = await worker.put(`${W}/update-status/${order.id}`, { status: 'completed' });
    expect(closed.status).toBe(200);
    expect(closed.body.workOrder.status).toBe('completed');
  });

  it('a flagged step whose procedure says so creates one reactive follow-up on the same asset, linked', async () => {
    const { org, worker, asset, order, step } = await setup();
    const pressure = step('Discharge pressure');
    // Not flagged yet: refused.
    await answer(worker, order.id, pressure.id, 3);
    const early = await worker.post(`${W}/create-follow-up/${order.id}`, { stepId: pressure.id });
    expect(early.status).toBe(400);
    expect(early.body.error).toBe('Only a failed or out-of-range step creates a follow-up work order');
    // A step without the follow-up flag: refused.
    const noise = await worker.post(`${W}/create-follow-up/${order.id}`, { stepId: step('Noise').id });
    expect(noise.body.error).toBe('This step does not create follow-up work orders');

    await answer(worker, order.id, pressure.id, 9);
    const made = await worker.post(`${W}/create-follow-up/${order.id}`, { stepId: pressure.id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const followUp = made.body.followUp;
    expect(followUp).toMatchObject({ title: 'Follow-up: Discharge pressure', assetId: asset.id, status: 'assigned', priority: 'high' });
    expect(followUp.assignees.map((a: { id: number }) => a.id)).toEqual([worker.userId]);
    expect(followUp.instructions).toContain('9 bar');
    expect(made.body.step.followUpWorkOrderId).toBe(followUp.id);
    // The worker sees the new order; a second follow-up for the step is refused.
    expect((await worker.get(`${W}/get-work-order/${followUp.id}`)).status).toBe(200);
    const twice = await worker.post(`${W}/create-follow-up/${order.id}`, { stepId: pressure.id });
    expect(twice.status).toBe(409);
    const history = (await org.admin.get(`/api/activities/work-order/${order.id}`)).body.activities as { changes: Record<string, { to: unknown }> | null }[];
    expect(history.some((a) => a.changes?.followUp?.to === followUp.workOrderId)).toBe(true);
    expect((await org.admin.get(`${W}/get-work-orders`)).body.pagination.totalRecords).toBe(2);
  });

  it('photos and signatures are uploads (re-encoded, signed URLs); detaching removes the procedure and its answers', async () => {
    const { org, worker, order, step } = await setup();
    const photo = step('Photo of the gauge');
    const up = await upload(org, worker.token!, order.id, photo.id);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.step.value).toMatch(/^\/uploads\/org-\d+\/[0-9a-f-]{36}\.webp\?exp=\d+&sig=[\w-]+$/);
    const signed = await upload(org, worker.token!, order.id, step('Technician signature').id);
    expect(signed.body.procedure.progress.answered).toBe(2);
    // Only image steps take an upload.
    expect((await upload(org, worker.token!, order.id, step('Remarks').id)).status).toBe(400);
    // The image can be fetched with its signed URL.
    const file = await t.app.inject({ method: 'GET', url: up.body.step.value, headers: { host: org.host } });
    expect(file.statusCode).toBe(200);

    const pdf = await org.admin.get(`${W}/print-work-order/${order.id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // Workers do not detach; managers do.
    expect((await worker.del(`${W}/detach-procedure/${order.id}`)).status).toBe(403);
    const detached = await org.admin.del(`${W}/detach-procedure/${order.id}`);
    expect(detached.status).toBe(200);
    expect(await readProcedure(org.admin, order.id)).toBeNull();
    expect((await org.admin.del(`${W}/detach-procedure/${order.id}`)).status).toBe(404);
    // Its images left storage with it.
    expect((await t.app.inject({ method: 'GET', url: up.body.step.value, headers: { host: org.host } })).statusCode).toBe(404);
    // Closing is free again.
    expect((await org.admin.put(`${W}/update-status/${order.id}`, { status: 'completed' })).status).toBe(200);

    // Deleting a work order takes its procedure's images too.
    const second = await addOrder(org.admin, { assignees: [worker.userId] });
    await org.admin.post(`${W}/attach-procedure/${second.id}`, { procedureId: (await addProcedure(org.admin, pumpCheck({ name: 'Again' }))).id });
    const again = await readProcedure(org.admin, second.id);
    const photoAgain = await upload(org, worker.token!, second.id, again.steps.find((s) => s.kind === 'photo')!.id);
    expect((await org.admin.del(`${W}/delete-work-order/${second.id}`)).status).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: photoAgain.body.step.value, headers: { host: org.host } })).statusCode).toBe(404);
  });

  it('prints the work order with its filled procedure: answers, flags, who and the follow-up', async () => {
    const { org, worker, order, step } = await setup();
    await answer(worker, order.id, step('Discharge pressure').id, 7.25);
    await answer(worker, order.id, step('Seal leak test').id, 'fail');
    await answer(worker, order.id, step('Remarks').id, 'Seal weeping');
    await worker.post(`${W}/create-follow-up/${order.id}`, { stepId: step('Seal leak test').id });
    const res = await t.app.inject({
      method: 'GET',
      url: `${W}/print-work-order/${order.id}`,
      headers: { host: org.host, authorization: `Bearer ${worker.token}` },
    });
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    for (const words of [
      'Work Order',
      order.workOrderId,
      'Procedure: Monthly pump check',
      '3 of 7 steps done',
      '7.25 bar',
      'FLAGGED',
      'Fail',
      'Seal weeping',
      'Follow-up WO-0002',
      'worker1 Tester',
    ]) {
      expect(text, words).toContain(words);
    }
  });

  it('workers fill only the work orders they see; managers fill any', async () => {
    const { org, order, step } = await setup();
    const other = await org.as('worker');
    const s = step('Remarks');
    expect((await answer(other, order.id, s.id, 'not mine')).status).toBe(404);
    expect((await other.get(`${W}/get-work-order-procedure/${order.id}`)).status).toBe(404);
    expect((await other.post(`${W}/create-follow-up/${order.id}`, { stepId: s.id })).status).toBe(404);
    expect((await upload(org, other.token!, order.id, step('Photo of the gauge').id)).status).toBe(404);
    expect((await other.get(`${W}/print-work-order/${order.id}`)).status).toBe(404);
    expect((await other.post(`${W}/attach-procedure/${order.id}`, { procedureId: 1 })).status).toBe(403);
    const byManager = await answer(await org.as('manager'), order.id, s.id, 'checked by manager');
    expect(byManager.status).toBe(200);
    expect((await readProcedure(org.admin, order.id)).steps.find((x) => x.id === s.id)!.value).toBe('checked by manager');
  });

  it('an answer made from an older copy of the step is refused (409, the step as it is now) and changes nothing', async () => {
    const { org, worker, order, step } = await setup();
    const manager = await org.as('manager');
    const pressure = step('Discharge pressure');
    const put = (c: Client, body: Record<string, unknown>) => c.put(`${W}/answer-procedure-step/${order.id}`, { stepId: pressure.id, ...body });
    // The technician saw the step unanswered (offline); the manager answers it online from the same copy.
    expect(pressure.answeredAt).toBeNull();
    const byManager = await put(manager, { value: 4.4, answeredAt: null });
    expect(byManager.status, JSON.stringify(byManager.body)).toBe(200);
    const seenByManager = (byManager.body.step as IssuedStepDto).answeredAt;
    expect(seenByManager).toEqual(expect.any(String));
    // The phone syncs: refused, with the current step (the manager's 4.4); the server keeps 4.4.
    const stale = await put(worker, { value: 3.2, answeredAt: null });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('This record was changed by someone else');
    expect(stale.body.current).toMatchObject({ id: pressure.id, value: 4.4, answeredAt: seenByManager, answeredBy: { id: manager.userId } });
    // A stale time, even one millisecond off, is refused too; so is the manager's own second answer from the first copy.
    const older = new Date(Date.parse(seenByManager!) - 1).toISOString();
    expect((await put(worker, { value: 3.2, answeredAt: older })).status).toBe(409);
    expect((await put(manager, { value: 1, answeredAt: null })).status).toBe(409);
    let kept = (await readProcedure(org.admin, order.id)).steps.find((x) => x.id === pressure.id)!;
    expect(kept).toMatchObject({ value: 4.4, answeredAt: seenByManager });
    // From the copy the 409 gave: saved, with a later version (two answers never share one).
    const retried = await put(worker, { value: 3.2, answeredAt: (stale.body.current as IssuedStepDto).answeredAt });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(Date.parse((retried.body.step as IssuedStepDto).answeredAt!)).toBeGreaterThan(Date.parse(seenByManager!));
    // Clearing is an answer too: it needs the current version.
    expect((await put(manager, { value: null, answeredAt: seenByManager })).status).toBe(409);
    kept = (await readProcedure(org.admin, order.id)).steps.find((x) => x.id === pressure.id)!;
    expect(kept.value).toBe(3.2);
    // Odd versions are a 400 on answeredAt; no version (API clients, decision 025): last writer wins.
    for (const bad of ['yesterday', 12, true, {}, '2026-13-01T00:00:00Z']) {
      const res = await put(worker, { value: 2, answeredAt: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.issues?.[0]?.path).toBe('answeredAt');
    }
    expect((await put(worker, { value: 2 })).status).toBe(200);
    expect((await readProcedure(org.admin, order.id)).steps.find((x) => x.id === pressure.id)!.value).toBe(2);
    // Another organisation with the right version: 404, nothing changed.
    const other = await createOrg(t);
    const current = (await readProcedure(org.admin, order.id)).steps.find((x) => x.id === pressure.id)!;
    expect((await put(other.admin, { value: 9, answeredAt: current.answeredAt })).status).toBe(404);
    expect((await readProcedure(org.admin, order.id)).steps.find((x) => x.id === pressure.id)).toEqual(current);
  });

  it('a photo or signature made from an older copy of the step is refused (409, the step as it is now), and its file is not kept (issue 45)', async () => {
    const { org, worker, order, step } = await setup();
    const manager = await org.as('manager');
    const png = await solidImage('png', 40, 30, '#335577');
    const filesOf = async () => {
      const urls: string[] = [];
      for await (const f of t.app.deps.storage.files(org.orgId)) urls.push(f.url);
      return urls.sort();
    };
    for (const label of ['Photo of the gauge', 'Technician signature']) {
      const s = step(label);
      const up = (c: Client, fields?: Record<string, string>) =>
        c.upload(`${W}/add-step-image/${order.id}/step/${s.id}`, [{ field: 'image', name: 'step.png', bytes: png, type: 'image/png' }], fields);
      const current = async () => (await readProcedure(org.admin, order.id)).steps.find((x) => x.id === s.id)!;
      // The technician saw the step unanswered (offline); the manager answers it online from the same copy ('' = unanswered).
      const byManager = await up(manager, { answeredAt: '' });
      expect(byManager.status, JSON.stringify(byManager.body)).toBe(200);
      const seen = (byManager.body.step as IssuedStepDto).answeredAt!;
      const files = await filesOf();
      // The phone's photo from its older copy: refused with the step now; the manager's image stays, no new file is kept.
      const stale = await up(worker, { answeredAt: '' });
      expect(stale.status, label).toBe(409);
      expect(stale.body.current).toMatchObject({ id: s.id, answeredAt: seen, answeredBy: { id: manager.userId } });
      expect((await up(worker, { answeredAt: new Date(Date.parse(seen) - 1).toISOString() })).status).toBe(409);
      expect((await current()).answeredAt).toBe(seen);
      expect(String((await current()).value).split('?')[0]).toBe(String(byManager.body.step.value).split('?')[0]);
      expect(await filesOf()).toEqual(files);
      // From the copy the 409 gave: saved, with a later version.
      const retried = await up(worker, { answeredAt: (stale.body.current as IssuedStepDto).answeredAt! });
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(Date.parse(retried.body.step.answeredAt)).toBeGreaterThan(Date.parse(seen));
      // Odd versions and unknown fields are a 400; no version (API clients): last writer wins.
      for (const bad of ['yesterday', '2026-13-01T00:00:00Z']) {
        const res = await up(worker, { answeredAt: bad });
        expect(res.status, bad).toBe(400);
        expect(res.body.issues?.[0]?.path).toBe('answeredAt');
      }
      expect((await up(worker, { version: '1' })).status).toBe(400);
      expect((await up(worker)).status).toBe(200);
    }
    // Another organisation with the right version: 404, nothing changed.
    const other = await createOrg(t);
    const before = await readProcedure(org.admin, order.id);
    const photo = before.steps.find((x) => x.label === 'Photo of the gauge')!;
    const foreign = await other.admin.upload(
      `${W}/add-step-image/${order.id}/step/${photo.id}`,
      [{ field: 'image', name: 'step.png', bytes: png, type: 'image/png' }],
      { answeredAt: photo.answeredAt! },
    );
    expect(foreign.status).toBe(404);
    expect((await readProcedure(org.admin, order.id)).steps.map((x) => [x.id, x.answeredAt])).toEqual(before.steps.map((x) => [x.id, x.answeredAt]));
  });

  it('another organisation gets 404 on every route and changes nothing', async () => {
    const a = await setup();
    await answer(a.worker, a.order.id, a.step('Discharge pressure').id, 9);
    const b = await createOrg(t);
    const readAll = async () => ({
      procedure: (await a.org.admin.get(`${P}/get-procedure/${a.procedure.id}`)).body,
      list: (await a.org.admin.get(`${P}/list-procedures`)).body,
      issued: await readProcedure(a.org.admin, a.order.id),
      orders: (await a.org.admin.get(`${W}/get-work-orders`)).body,
    });
    const before = await readAll();
    const id = a.procedure.id;
    const o = a.order.id;
    const s = a.step('Discharge pressure').id;
    const calls: [string, Promise<{ status: number }>][] = [
      ['get-procedure', b.admin.get(`${P}/get-procedure/${id}`)],
      ['update-procedure', b.admin.put(`${P}/update-procedure/${id}`, pumpCheck({ name: 'Taken' }))],
      ['delete-procedure', b.admin.del(`${P}/delete-procedure/${id}`)],
      ['get-work-order-procedure', b.admin.get(`${W}/get-work-order-procedure/${o}`)],
      ['attach-procedure', b.admin.post(`${W}/attach-procedure/${o}`, { procedureId: id })],
      ['answer-procedure-step', answer(b.admin, o, s, 1)],
      ['create-follow-up', b.admin.post(`${W}/create-follow-up/${o}`, { stepId: s })],
      ['add-step-image', upload(b, b.admin.token!, o, a.step('Photo of the gauge').id)],
      ['print-work-order', b.admin.get(`${W}/print-work-order/${o}`)],
      ['detach-procedure', b.admin.del(`${W}/detach-procedure/${o}`)],
    ];
    for (const [name, call] of calls) expect((await call).status, name).toBe(404);
    expect((await b.admin.get(`${P}/list-procedures`)).body.procedures).toEqual([]);
    // B's own order cannot take A's procedure either.
    const bOrder = await addOrder(b.admin);
    expect((await b.admin.post(`${W}/attach-procedure/${bOrder.id}`, { procedureId: id })).status).toBe(404);
    expect(await readAll()).toEqual(before);
  });
});
