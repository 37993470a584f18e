import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createOrg, useTestApp } from '../../server/test/harness';
import { rowsOf } from '../../server/test/sql';
import { pdfText } from '../commercial-documents/document-pdf.service';
import type { WorkOrderProcedureDto } from './procedures.schema';

/** A sign-off step (decision 078): re-authentication, meaning, name and time kept, printed, audited. */
const t = useTestApp();

const W = '/api/work-orders';

async function setup() {
  const org = await createOrg(t);
  const worker = await org.as('worker', { firstName: 'Sara', lastName: 'Haddad' });
  const procedure = await org.admin.post('/api/procedures/add-procedure', {
    name: 'Batch release',
    steps: [
      { kind: 'checkbox', label: 'Line cleared' },
      { kind: 'sign-off', label: 'Release signature', required: true },
    ],
  });
  expect(procedure.status, JSON.stringify(procedure.body)).toBe(201);
  const order = await org.admin.post(`${W}/add-work-order`, { title: 'Release batch 7', assignees: [worker.userId] });
  const attached = await org.admin.post(`${W}/attach-procedure/${order.body.workOrder.id}`, { procedureId: procedure.body.procedure.id });
  const issued = attached.body.procedure as WorkOrderProcedureDto;
  const step = (label: string) => issued.steps.find((s) => s.label === label)!;
  return { org, worker, orderId: order.body.workOrder.id as number, step };
}

describe('sign-off steps', () => {
  it('are signed with the password and a meaning; the name, time and meaning are kept, printed and audited', async () => {
    const { org, worker, orderId, step } = await setup();
    const signOff = step('Release signature');
    const res = await worker.post(`${W}/sign-procedure-step/${orderId}`, { stepId: signOff.id, password: org.password, meaning: 'verified' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.step.value).toMatchObject({ meaning: 'verified', name: 'Sara Haddad' });
    expect(Date.parse(res.body.step.value.signedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.step.answeredBy).toMatchObject({ id: worker.userId });
    expect(res.body.procedure.progress.requiredLeft).toBe(0);

    const [row] = rowsOf<{ action: string; user_id: number; records: { changes: Record<string, { to: string }> }[]; input: Record<string, unknown> }>(
      await t.database.db.execute(sql`select action, user_id, records, input from audit_log where org_id = ${org.orgId} order by seq desc limit 1`),
    );
    expect(row).toMatchObject({ action: 'sign-off', user_id: worker.userId });
    expect(JSON.stringify(row.records)).toContain('verified by Sara Haddad');
    expect(row.input.password).toBe('***');

    const pdf = await t.app.inject({
      method: 'GET',
      url: `${W}/print-work-order/${orderId}`,
      headers: { host: org.host, authorization: `Bearer ${worker.token}` },
    });
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Signed: Verified');
    expect(text).toContain('Sara Haddad');
  });

  it('refuse a wrong password (400 on password, nothing stored), a missing meaning, another kind of step, and an answer through answer-procedure-step', async () => {
    const { org, worker, orderId, step } = await setup();
    const signOff = step('Release signature');
    const wrong = await worker.post(`${W}/sign-procedure-step/${orderId}`, { stepId: signOff.id, password: 'not-my-password', meaning: 'performed' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'password', message: 'Password is incorrect' }]);
    const noMeaning = await worker.post(`${W}/sign-procedure-step/${orderId}`, { stepId: signOff.id, password: org.password });
    expect(noMeaning.status).toBe(400);
    const checkbox = await worker.post(`${W}/sign-procedure-step/${orderId}`, {
      stepId: step('Line cleared').id,
      password: org.password,
      meaning: 'performed',
    });
    expect(checkbox.status).toBe(400);
    const direct = await worker.put(`${W}/answer-procedure-step/${orderId}`, {
      stepId: signOff.id,
      value: { meaning: 'performed', name: 'Someone else', signedAt: new Date().toISOString() },
    });
    expect(direct.status).toBe(400);
    const read = await worker.get(`${W}/get-work-order-procedure/${orderId}`);
    expect(read.body.procedure.steps.find((s: { id: number }) => s.id === signOff.id).value).toBeNull();
  });

  it('throttle wrong passwords like verify-password', async () => {
    const { worker, orderId, step } = await setup();
    // The test app lifts every limit; this one is set back to the real one (per user: other tests' users are not counted).
    t.app.deps.config.routeLimits.verifyPassword = { max: 10, windowSeconds: 900 };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await worker.post(`${W}/sign-procedure-step/${orderId}`, { stepId: step('Release signature').id, password: `guess-${i}`, meaning: 'approved' }))
          .status,
      );
    }
    expect(statuses).toContain(429);
  });

  it("another organisation's admin gets 404 and signs nothing", async () => {
    const { org, orderId, step } = await setup();
    const other = await createOrg(t);
    const res = await other.admin.post(`${W}/sign-procedure-step/${orderId}`, {
      stepId: step('Release signature').id,
      password: other.password,
      meaning: 'approved',
    });
    expect(res.status).toBe(404);
    const read = await org.admin.get(`${W}/get-work-order-procedure/${orderId}`);
    expect(read.body.procedure.steps.find((s: { label: string }) => s.label === 'Release signature').value).toBeNull();
  });
});
