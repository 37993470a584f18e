import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { realServer, type RealSession } from '../../test/real-api';
import { i18n, setLanguage } from '../../i18n';
import { LANGUAGE_KEY } from '../../i18n/language';
import { ProfileLanguage } from './dashboard-layout';

const server = realServer();

/** A worker signed in whose profile says Arabic (set through the API, as the profile form does). */
async function arabicWorker(): Promise<RealSession> {
  const session = await server.signIn('worker');
  const email = `worker1@${session.org.subdomain}.example.com`; // the organisation's first worker (createOrg's `as`)
  const saved = await session.user.put(`/api/user/updateUser/${session.user.userId}`, {
    firstName: 'Ann',
    lastName: 'Lee',
    email,
    role: 'worker',
    language: 'ar',
  });
  expect(saved.status).toBe(200);
  return session;
}

// Issue 29: the language chosen on a device sticks across reloads and sign-ins; the profile's is the default
// of a device where none was chosen.
describe('the interface language on sign-in', () => {
  afterEach(async () => {
    window.localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('takes the profile language on a device where none was chosen', async () => {
    await arabicWorker();
    renderWithProviders(<ProfileLanguage />);
    await waitFor(() => expect(i18n.language).toBe('ar'));
    expect(window.localStorage.getItem(LANGUAGE_KEY)).toBe('ar');
  });

  it('keeps the language chosen on this device over the profile', async () => {
    setLanguage('en');
    const { calls } = await arabicWorker();
    renderWithProviders(<ProfileLanguage />);
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/user/get-app-data' && c.status === 200)).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(i18n.language).toBe('en');
  });
});
