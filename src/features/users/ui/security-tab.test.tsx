import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Secret, TOTP } from 'otpauth';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { Client, TestOrg } from '../../../server/test/harness';
import { now } from '../../../server/clock';
import { SecurityTab } from './security-tab';

const server = realServer();

/** Enrols the client's user in two-factor sign-in through the API, as the tab's own enrolment does: its ten recovery codes. */
async function enrol(c: Client) {
  const start = await c.post('/api/two-factor/start-enrolment');
  expect(start.status).toBe(200);
  const code = TOTP.generate({ secret: Secret.fromBase32(start.body.secret), timestamp: now().getTime() });
  const confirm = await c.post('/api/two-factor/confirm-enrolment', { code });
  expect(confirm.status).toBe(200);
  return confirm.body.recoveryCodes as string[];
}

/** A sign-in of the admin with a recovery code (the password, then the code): the code is spent. */
async function signInWithRecoveryCode(org: TestOrg, recoveryCode: string) {
  const step = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
  expect(step.body.challenge).toBeTruthy();
  expect((await org.anonymous.post('/api/auth/verify-two-factor', { challenge: step.body.challenge, recoveryCode })).status).toBe(200);
}

describe('the Security tab: new recovery codes (decision 083)', () => {
  it('asks the password, refuses a wrong one (no codes), then shows the ten new codes once', async () => {
    const { org, user, calls } = await server.signIn('admin');
    const old = await enrol(user);
    // one old code spent: the tab says nine left, and ten once the new ones are made
    await signInWithRecoveryCode(org, old[0]);
    renderWithProviders(<SecurityTab />);
    expect(await screen.findByTestId('recovery-codes-left')).toHaveTextContent('9');
    expect(screen.queryByTestId('recovery-codes-password')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('recovery-codes-regenerate'));
    const password = await screen.findByTestId('recovery-codes-password');
    await userEvent.type(password, 'wrong-password');
    await userEvent.click(screen.getByTestId('recovery-codes-regenerate-confirm'));
    // the server's message (the stub said "Password is incorrect"; the route answers this one)
    expect(await screen.findAllByText('Current password is incorrect')).not.toHaveLength(0);
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
    // refused: the old codes still stand
    expect((await user.get('/api/two-factor/get-status')).body.recoveryCodesLeft).toBe(9);

    await userEvent.clear(screen.getByTestId('recovery-codes-password'));
    await userEvent.type(screen.getByTestId('recovery-codes-password'), org.password);
    await userEvent.click(screen.getByTestId('recovery-codes-regenerate-confirm'));
    const codes = await screen.findByTestId('recovery-codes');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.body, c.status])).toEqual([
      [{ password: 'wrong-password' }, 400],
      [{ password: org.password }, 200],
    ]);
    // ten new codes, none of the old ones
    const fresh = String(codes.textContent).split('\n').filter(Boolean);
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
    // The password form is gone; once read, "Done" hides the codes and the count (read again from the server) says ten.
    expect(screen.queryByTestId('recovery-codes-password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('recovery-codes-done'));
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('recovery-codes-left')).toHaveTextContent('10'));
    // the server kept the shown codes: a new one signs in, an old one no longer does
    await signInWithRecoveryCode(org, fresh[0]);
    const step = await org.anonymous.post('/api/login', { email: org.email, password: org.password });
    expect((await org.anonymous.post('/api/auth/verify-two-factor', { challenge: step.body.challenge, recoveryCode: old[1] })).status).toBe(401);
  });
});
