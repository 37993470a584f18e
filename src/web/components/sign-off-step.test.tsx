import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../test/render';
import { SignOffStep } from './sign-off-step';
import { keepSignatureProof } from './sign-off-reauth';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  sessionStorage.clear();
});

const step = { id: 5, value: null, answeredAt: null };
const signed = { meaning: 'approved', name: 'Sara Haddad', signedAt: '2026-12-07T10:00:00.000Z' };

describe('the sign-off step of a person who signs with single sign-on (decision 078 addendum)', () => {
  it('offers a fresh sign-in with the provider instead of a password, and notes the pending signature before leaving', async () => {
    const calls = stubFetch({
      'GET /api/auth/get-reauth-method': () => ({ body: { method: 'sso', displayName: 'Acme ID' } }),
      'POST /api/auth/start-sso-reauth': () => ({ body: { authorizationUrl: 'http://id.acme.test/auth?prompt=login' } }),
    });
    renderWithProviders(<SignOffStep workOrderId={12} step={step} testId="s" />);
    await userEvent.click(screen.getByTestId('s-sign-off'));
    const go = await screen.findByTestId('sign-off-sso');
    expect(go).toHaveTextContent('Sign in again with Acme ID and sign');
    expect(screen.queryByTestId('sign-off-password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Verified' }));
    await userEvent.click(go);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(JSON.parse(String(calls.find((c) => c.method === 'POST')!.init.body))).toEqual({ workOrderId: 12, stepId: 5 });
    expect(JSON.parse(sessionStorage.getItem('cmms.signOff.pending')!)).toMatchObject({ workOrderId: 12, stepId: 5, meaning: 'verified' });
  });

  it('back with a proof for this step, signs with it (no password) and shows the signature; a proof of another step is left', async () => {
    keepSignatureProof({ workOrderId: 12, stepId: 5, meaning: 'approved', returnTo: '/x', proof: 'the-proof' });
    const calls = stubFetch({
      'GET /api/auth/get-reauth-method': () => ({ body: { method: 'sso', displayName: 'Acme ID' } }),
      'POST /api/work-orders/sign-procedure-step/12': () => ({ body: { message: 'Step signed', step: { value: signed }, procedure: null } }),
    });
    renderWithProviders(<SignOffStep workOrderId={12} step={{ ...step, id: 6 }} testId="other" />);
    renderWithProviders(<SignOffStep workOrderId={12} step={step} testId="s" />);
    expect(await screen.findByTestId('s-signature')).toHaveTextContent('Approved by Sara Haddad');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => JSON.parse(String(c.init.body)))).toEqual([{ stepId: 5, meaning: 'approved', reauthProof: 'the-proof' }]);
    expect(sessionStorage.getItem('cmms.signOff.proof')).toBeNull();
  });
});
