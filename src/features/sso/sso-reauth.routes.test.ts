import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { client, useTestAppWith, type TestOrg } from '../../server/test/harness';
import { rowsOf } from '../../server/test/sql';
import { startTestProvider } from './oidc-test-provider';
import { orgWithSso, ssoRoundTrip } from './sso-test-kit';
import { SSO_MESSAGES } from './sso.schema';
import type { WorkOrderProcedureDto } from '../procedures/procedures.schema';

/**
 * A signature by a person who signs in only with single sign-on (issue 44, decision 078 addendum): the sign-off step
 * asks the identity provider for a fresh sign-in (`prompt=login`, `max_age=0`) instead of a password; the callback's
 * answer is a proof bound to the person and the step, short-lived, used once. Against the real test provider.
 */
// The identity provider is started before the app and closed after it.
const [t, op] = useTestAppWith(startTestProvider, () => []);
const SECRET = `reauth-${Math.random().toString(36).slice(2)}`;

type Client = ReturnType<typeof client>;
const W = '/api/work-orders';

/** A person created by their first single sign-on (no password), signed in; their provider account is `login`. */
async function ssoPerson(org: TestOrg, login: string, name: { given_name: string; family_name: string }) {
  op().accounts.set(login, { email: `${login}@${org.subdomain}.example.com`, email_verified: true, ...name });
  const res = await ssoRoundTrip(t, op(), org, login, {
    start: () => org.anonymous.post('/api/auth/start-sso'),
    finish: (search, cookie) => org.anonymous.post('/api/auth/finish-sso', { search }, { cookie }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body.accessToken as string;
  const userId = Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub);
  return { me: client(t.app, org.host, token), userId, login };
}

/** The fresh sign-in of `person` at the provider as `login` (their own by default), for `step`: the finish answer. */
const reauth = (org: TestOrg, person: { me: Client; login: string }, step: { workOrderId: number; stepId: number }, login = person.login) =>
  ssoRoundTrip(t, op(), org, login, {
    start: () => person.me.post('/api/auth/start-sso-reauth', step),
    finish: (search, cookie) => person.me.post('/api/auth/finish-sso-reauth', { search }, { cookie }),
  });

async function setup() {
  const { org } = await orgWithSso(t, op(), SECRET, { createUsers: true });
  const sara = await ssoPerson(org, `sara-${org.subdomain}`, { given_name: 'Sara', family_name: 'Haddad' });
  const omar = await ssoPerson(org, `omar-${org.subdomain}`, { given_name: 'Omar', family_name: 'Aziz' });
  const procedure = await org.admin.post('/api/procedures/add-procedure', {
    name: 'Batch release',
    steps: [{ kind: 'sign-off', label: 'Release', required: true }],
  });
  expect(procedure.status, JSON.stringify(procedure.body)).toBe(201);
  const order = await org.admin.post(`${W}/add-work-order`, { title: 'Release batch 7', assignees: [sara.userId, omar.userId] });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const workOrderId = order.body.workOrder.id as number;
  const attached = await org.admin.post(`${W}/attach-procedure/${workOrderId}`, { procedureId: procedure.body.procedure.id });
  const stepId = (attached.body.procedure as WorkOrderProcedureDto).steps[0].id;
  return { org, sara, omar, step: { workOrderId, stepId } };
}

const sign = (who: Client, step: { workOrderId: number; stepId: number }, auth: { reauthProof?: string; password?: string }) =>
  who.post(`${W}/sign-procedure-step/${step.workOrderId}`, { stepId: step.stepId, meaning: 'approved', ...auth });
const clearStep = (who: Client, step: { workOrderId: number; stepId: number }) =>
  who.put(`${W}/answer-procedure-step/${step.workOrderId}`, { stepId: step.stepId, value: null });

describe('signing with a fresh single sign-on', () => {
  it('an SSO-only person is asked the provider, not a password; the proof signs the step once, and the audit row masks it', async () => {
    const { org, sara, step } = await setup();
    expect((await sara.me.get('/api/auth/get-reauth-method')).body).toEqual({ method: 'sso', displayName: 'Acme ID' });
    expect((await org.admin.get('/api/auth/get-reauth-method')).body).toEqual({ method: 'password', displayName: 'Acme ID' });
    const withPassword = await sign(sara.me, step, { password: 'anything-at-all' });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.issues).toEqual([{ path: 'password', message: SSO_MESSAGES.reauthRequired }]);

    // The provider is asked for a new sign-in whatever session it keeps.
    const started = await sara.me.post('/api/auth/start-sso-reauth', step);
    expect(Object.fromEntries(new URL(started.body.authorizationUrl).searchParams)).toMatchObject({ prompt: 'login', max_age: '0' });

    const proof = await reauth(org, sara, step);
    expect(proof.status, JSON.stringify(proof.body)).toBe(200);
    expect(proof.body).toMatchObject({ workOrderId: step.workOrderId, stepId: step.stepId });
    expect(Date.parse(proof.body.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const signed = await sign(sara.me, step, { reauthProof: proof.body.proof });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.step.value).toMatchObject({ meaning: 'approved', name: 'Sara Haddad' });
    const [row] = rowsOf<{ action: string; user_id: number; input: Record<string, unknown> }>(
      await t.database.db.execute(
        sql`select action, user_id, input from audit_log where org_id = ${org.orgId} and action = 'sign-off' order by seq desc limit 1`,
      ),
    );
    expect(row).toMatchObject({ action: 'sign-off', user_id: sara.userId, input: { reauthProof: '***' } });
    const log = JSON.stringify(rowsOf(await t.database.db.execute(sql`select input from audit_log where org_id = ${org.orgId}`)));
    expect(log).not.toContain(proof.body.proof);

    // Used once: the step cleared, the same proof signs nothing.
    expect((await clearStep(sara.me, step)).status).toBe(200);
    const again = await sign(sara.me, step, { reauthProof: proof.body.proof });
    expect(again.status).toBe(400);
    expect(again.body.issues).toEqual([{ path: 'reauthProof', message: SSO_MESSAGES.proofInvalid }]);
  });

  it("refuses another person's proof, a sign-in at the provider as someone else, an expired proof, and a proof for another step", async () => {
    const { org, sara, omar, step } = await setup();
    const omars = await reauth(org, omar, step);
    expect(omars.status).toBe(200);
    const stolen = await sign(sara.me, step, { reauthProof: omars.body.proof });
    expect(stolen.status).toBe(400);
    expect(stolen.body.issues[0].path).toBe('reauthProof');
    // Omar's own proof was not spent by Sara's attempt.
    expect((await sign(omar.me, step, { reauthProof: omars.body.proof })).status).toBe(200);
    expect((await clearStep(omar.me, step)).status).toBe(200);

    // Sara asks, Omar signs in at the provider: no proof for Sara.
    const impostor = await reauth(org, sara, step, omar.login);
    expect(impostor.status).toBe(403);
    expect(impostor.body).toEqual({ error: SSO_MESSAGES.reauthOtherPerson });

    const late = await reauth(org, sara, step);
    expect(late.status).toBe(200);
    await t.database.db.execute(sql`update sso_reauth_proofs set expires_at = now() - interval '1 second' where org_id = ${org.orgId}`);
    const expired = await sign(sara.me, step, { reauthProof: late.body.proof });
    expect(expired.status).toBe(400);
    expect(expired.body.issues[0].path).toBe('reauthProof');

    const elsewhere = await reauth(org, sara, { workOrderId: step.workOrderId, stepId: step.stepId + 100 });
    expect(elsewhere.status).toBe(200);
    expect((await sign(sara.me, step, { reauthProof: elsewhere.body.proof })).status).toBe(400);
  });

  it('refuses an answer whose auth_time is older than the request (the provider kept an old sign-in), and a sign-in state', async () => {
    const { org, sara, step } = await setup();
    op().tamper = (claims) => ({ ...claims, auth_time: Math.floor(Date.now() / 1000) - 120 });
    try {
      const stale = await reauth(org, sara, step);
      expect(stale.status).toBe(400);
      expect(stale.body).toEqual({ error: SSO_MESSAGES.reauthNotFresh });
    } finally {
      op().tamper = null;
    }
    // The state of a sign-in (start-sso) is no re-authentication, nor the reverse.
    const crossed = await ssoRoundTrip(t, op(), org, sara.login, {
      start: () => org.anonymous.post('/api/auth/start-sso'),
      finish: (search, cookie) => sara.me.post('/api/auth/finish-sso-reauth', { search }, { cookie }),
    });
    expect(crossed.status).toBe(400);
    const reverse = await ssoRoundTrip(t, op(), org, sara.login, {
      start: () => sara.me.post('/api/auth/start-sso-reauth', step),
      finish: (search, cookie) => org.anonymous.post('/api/auth/finish-sso', { search }, { cookie }),
    });
    expect(reverse.status).toBe(400);
    expect(await t.database.db.execute(sql`select 1 from sso_reauth_proofs where org_id = ${org.orgId}`).then((r) => rowsOf(r).length)).toBe(0);
  });

  it('"allow only single sign-on": people with a password sign with the provider too, admins keep the password', async () => {
    const { org, clientId } = await orgWithSso(t, op(), SECRET);
    // Signed in with a password before the rule (password sign-in is then closed to them).
    const worker = await org.as('worker');
    expect((await worker.get('/api/auth/get-reauth-method')).body).toEqual({ method: 'password', displayName: 'Acme ID' });
    const rule = (enabled: boolean) => ({
      enabled,
      displayName: 'Acme ID',
      issuer: op().issuer,
      clientId,
      defaultRole: 'worker',
      createUsers: false,
      ssoOnly: true,
    });
    expect((await org.admin.put('/api/auth/update-sso-settings', rule(true))).status).toBe(200);
    expect((await worker.get('/api/auth/get-reauth-method')).body).toEqual({ method: 'sso', displayName: 'Acme ID' });
    expect((await org.admin.get('/api/auth/get-reauth-method')).body.method).toBe('password');
    // Single sign-on turned off: the password again.
    expect((await org.admin.put('/api/auth/update-sso-settings', rule(false))).status).toBe(200);
    expect((await worker.get('/api/auth/get-reauth-method')).body).toEqual({ method: 'password', displayName: null });
  });
});
