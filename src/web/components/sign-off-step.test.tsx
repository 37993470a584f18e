import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { realServer } from '../test/real-api';
import { TOKEN_KEY } from '../lib/session';
import { client, type TestOrg } from '../../server/test/harness';
import { startTestProvider, type TestProvider } from '../../features/sso/oidc-test-provider';
import { orgWithSso, ssoRoundTrip } from '../../features/sso/sso-test-kit';
import type { WorkOrderProcedureDto } from '../../features/procedures/procedures.schema';
import { SignOffStep } from './sign-off-step';
import { keepSignatureProof } from './sign-off-reauth';

// The app, and the real OpenID provider its single sign-on reaches (decision 077's test provider).
const server = realServer();
let op: TestProvider;
beforeAll(async () => {
  op = await startTestProvider();
});
afterAll(() => op?.close());
afterEach(() => sessionStorage.clear());

const W = '/api/work-orders';

/**
 * An organisation with single sign-on, Sara Haddad made by her first sign-in with the provider (no password), and a
 * work order assigned to her with a procedure of two sign-off steps. The page's calls go as Sara (her token in the tab).
 */
async function saraWithTwoSignOffs() {
  const { org } = await orgWithSso(server.test, op, 'reauth-secret', { createUsers: true });
  const login = `sara-${org.subdomain}`;
  op.accounts.set(login, { email: `${login}@${org.subdomain}.example.com`, email_verified: true, given_name: 'Sara', family_name: 'Haddad' });
  const signedIn = await ssoRoundTrip(server.test, op, org, login, {
    start: () => org.anonymous.post('/api/auth/start-sso'),
    finish: (search, cookie) => org.anonymous.post('/api/auth/finish-sso', { search }, { cookie }),
  });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  const token = signedIn.body.accessToken as string;
  const sara = client(server.test.app, org.host, token);
  const userId = Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub);
  const procedure = await org.admin.post('/api/procedures/add-procedure', {
    name: 'Batch release',
    steps: [
      { kind: 'sign-off', label: 'Release', required: true },
      { kind: 'sign-off', label: 'Check', required: true },
    ],
  });
  expect(procedure.status, JSON.stringify(procedure.body)).toBe(201);
  const order = await org.admin.post(`${W}/add-work-order`, { title: 'Release batch 7', assignees: [userId] });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const workOrderId = order.body.workOrder.id as number;
  const attached = await org.admin.post(`${W}/attach-procedure/${workOrderId}`, { procedureId: procedure.body.procedure.id });
  const [first, second] = (attached.body.procedure as WorkOrderProcedureDto).steps;
  // The page's session: a worker's fetch on the organisation's host, then Sara's token in the tab (the API client sends it).
  const session = await server.signIn('worker', { org });
  sessionStorage.setItem(TOKEN_KEY, token);
  return { org, sara, login, calls: session.calls, workOrderId, first, second };
}

const stepsOf = async (org: TestOrg, workOrderId: number) =>
  ((await org.admin.get(`${W}/get-work-order-procedure/${workOrderId}`)).body.procedure as WorkOrderProcedureDto).steps;

describe('the sign-off step of a person who signs with single sign-on (decision 078 addendum)', () => {
  it('offers a fresh sign-in with the provider instead of a password, and notes the pending signature before leaving', async () => {
    const { org, calls, workOrderId, first } = await saraWithTwoSignOffs();
    renderWithProviders(<SignOffStep workOrderId={workOrderId} step={first} testId="s" />);
    await userEvent.click(screen.getByTestId('s-sign-off'));
    const go = await screen.findByTestId('sign-off-sso');
    expect(go).toHaveTextContent('Sign in again with Acme ID and sign');
    expect(screen.queryByTestId('sign-off-password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Verified' }));
    await userEvent.click(go);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/auth/start-sso-reauth');
    expect(post.body).toEqual({ workOrderId, stepId: first.id });
    expect(post.status).toBe(200);
    expect(JSON.parse(sessionStorage.getItem('cmms.signOff.pending')!)).toMatchObject({ workOrderId, stepId: first.id, meaning: 'verified' });
    // nothing signed yet: that waits for the provider's answer
    expect((await stepsOf(org, workOrderId)).map((s) => s.value)).toEqual([null, null]);
  });

  it('back with a proof for this step, signs with it (no password) and shows the signature; a proof of another step is left', async () => {
    const { org, sara, login, calls, workOrderId, first, second } = await saraWithTwoSignOffs();
    // the proof the /sso/callback page brings back: Sara's fresh sign-in at the provider for the first step
    const proof = await ssoRoundTrip(server.test, op, org, login, {
      start: () => sara.post('/api/auth/start-sso-reauth', { workOrderId, stepId: first.id }),
      finish: (search, cookie) => sara.post('/api/auth/finish-sso-reauth', { search }, { cookie }),
    });
    expect(proof.status, JSON.stringify(proof.body)).toBe(200);
    keepSignatureProof({ workOrderId, stepId: first.id, meaning: 'approved', returnTo: '/x', proof: proof.body.proof });
    renderWithProviders(<SignOffStep workOrderId={workOrderId} step={second} testId="other" />);
    renderWithProviders(<SignOffStep workOrderId={workOrderId} step={first} testId="s" />);
    expect(await screen.findByTestId('s-signature')).toHaveTextContent('Approved by Sara Haddad');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([{ stepId: first.id, meaning: 'approved', reauthProof: proof.body.proof }]);
    expect(sessionStorage.getItem('cmms.signOff.proof')).toBeNull();
    // the server kept Sara's signature on the first step only
    const [kept, other] = await stepsOf(org, workOrderId);
    expect(kept.value).toMatchObject({ meaning: 'approved', name: 'Sara Haddad' });
    expect(other.value).toBeNull();
  });
});
