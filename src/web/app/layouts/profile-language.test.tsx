import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../test/render';
import { i18n, setLanguage } from '../../i18n';
import { LANGUAGE_KEY } from '../../i18n/language';
import { ProfileLanguage } from './dashboard-layout';

const appData = (language: 'en' | 'ar') => ({ loggedInUser: { id: 1, role: 'worker', language, firstName: 'A', lastName: 'B' } });

// Issue 29: the language chosen on a device sticks across reloads and sign-ins; the profile's is the default
// of a device where none was chosen.
describe('the interface language on sign-in', () => {
  afterEach(async () => {
    window.localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('takes the profile language on a device where none was chosen', async () => {
    stubFetch({ 'GET /api/user/get-app-data': () => ({ body: appData('ar') }) });
    renderWithProviders(<ProfileLanguage />);
    await waitFor(() => expect(i18n.language).toBe('ar'));
    expect(window.localStorage.getItem(LANGUAGE_KEY)).toBe('ar');
  });

  it('keeps the language chosen on this device over the profile', async () => {
    setLanguage('en');
    const calls = stubFetch({ 'GET /api/user/get-app-data': () => ({ body: appData('ar') }) });
    renderWithProviders(<ProfileLanguage />);
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    expect(i18n.language).toBe('en');
  });
});
