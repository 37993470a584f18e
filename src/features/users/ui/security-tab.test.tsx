import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { SecurityTab } from './security-tab';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const fresh = Array.from({ length: 10 }, (_, i) => `NEWCODE${String(i).padStart(3, '0')}`);

describe('the Security tab: new recovery codes (decision 083)', () => {
  it('asks the password, refuses a wrong one (no codes), then shows the ten new codes once', async () => {
    let left = 2;
    const calls = stubFetch({
      'GET /api/two-factor/get-status': () => ({ body: { enabled: true, required: false, recoveryCodesLeft: left } }),
      'GET /api/auth/list-sessions': () => ({ body: { sessions: [] } }),
      'POST /api/two-factor/regenerate-recovery-codes': (_url, init) => {
        const { password } = JSON.parse(String(init.body)) as { password: string };
        if (password !== 'right-password')
          return { status: 400, body: { error: 'Password is incorrect', issues: [{ path: 'password', message: 'Password is incorrect' }] } };
        left = 10;
        return { body: { message: 'New recovery codes made', recoveryCodes: fresh } };
      },
    });
    renderWithProviders(<SecurityTab />);
    await screen.findByTestId('recovery-codes-left');
    expect(screen.queryByTestId('recovery-codes-password')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('recovery-codes-regenerate'));
    const password = await screen.findByTestId('recovery-codes-password');
    await userEvent.type(password, 'wrong-password');
    await userEvent.click(screen.getByTestId('recovery-codes-regenerate-confirm'));
    expect(await screen.findAllByText('Password is incorrect')).not.toHaveLength(0);
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();

    await userEvent.clear(screen.getByTestId('recovery-codes-password'));
    await userEvent.type(screen.getByTestId('recovery-codes-password'), 'right-password');
    await userEvent.click(screen.getByTestId('recovery-codes-regenerate-confirm'));
    const codes = await screen.findByTestId('recovery-codes');
    for (const code of fresh) expect(codes).toHaveTextContent(code);
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => JSON.parse(String(c.init.body)))).toEqual([{ password: 'wrong-password' }, { password: 'right-password' }]);
    // The password form is gone; once read, "Done" hides the codes and the count says ten.
    expect(screen.queryByTestId('recovery-codes-password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('recovery-codes-done'));
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('recovery-codes-left')).toHaveTextContent('10'));
  });
});
