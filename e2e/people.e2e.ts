import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { call, launchBrowser, newPage, signIn, signUpOrg, startMailbox, startServer, toastTexts, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startServer({ smtpUrl: mailbox.url });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

const errorsOf = (page: import('playwright-core').Page) => page.locator('.mantine-InputWrapper-error').allInnerTexts();

describe('people: invite, register, sign in, change password', () => {
  it('invites a worker by real e-mail, who completes registration, signs in, changes the password and signs out', async () => {
    const org = await signUpOrg(server);
    const admin = await newPage(browser);
    await signIn(admin.page, org);
    const page = admin.page;
    await page.goto(`${org.url}/settings/users`);
    await page.getByText(org.email).waitFor();

    // own row: no delete button, no role select
    await page.getByText(org.email).click();
    await page.getByTestId('drawer-title').waitFor();
    expect(await page.getByTestId('user-delete').count()).toBe(0);
    expect(await page.getByTestId('user-role').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('drawer-title').waitFor({ state: 'detached' });

    // the invite form and its messages
    const worker = `worker.${org.subdomain}@example.com`;
    await page.getByTestId('add-button').click();
    await page.getByTestId('invite-send').click();
    await expect.poll(() => errorsOf(page)).toEqual(expect.arrayContaining(['Email is required', 'Role is required']));
    await page.getByTestId('invite-email').fill(worker);
    await page.getByTestId('invite-confirm-email').fill(`other.${worker}`);
    await page.getByTestId('invite-role').click();
    await page.getByRole('option', { name: 'Worker' }).click();
    await page.getByTestId('invite-send').click();
    await expect.poll(() => errorsOf(page)).toContain('Emails do not match');
    await page.getByTestId('invite-confirm-email').fill(worker);
    await page.getByTestId('invite-send').click();
    await expect.poll(() => page.getByTestId('not-accepted').count()).toBe(1);

    // inviting the same address again: toast and the server's message above the form
    await page.getByTestId('add-button').click();
    await page.getByTestId('invite-email').fill(worker);
    await page.getByTestId('invite-confirm-email').fill(worker);
    await page.getByTestId('invite-role').click();
    await page.getByRole('option', { name: 'Worker' }).click();
    await page.getByTestId('invite-send').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Failed to add user')]));
    expect(await page.getByTestId('backend-error').innerText()).toContain('A user with this email already exists');
    await page.keyboard.press('Escape');

    // the e-mail arrives over SMTP with the organisation's completion link
    const mail = await mailbox.waitFor(worker);
    const link = /https?:\/\/[^\s"<>]+\/complete-registration\?token=[A-Za-z0-9_%-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${org.url}/complete-registration`)).toBe(true);

    // the worker, in another browser context
    const other = await newPage(browser);
    const w = other.page;
    await w.goto(`${org.url}/complete-registration`);
    expect(await w.getByTestId('invite-message').innerText()).toBe('No token found.');
    await w.goto(`${org.url}/complete-registration?token=not-a-real-token`);
    await expect.poll(() => w.getByTestId('invite-message').innerText()).toBe('Invalid or expired invite link.');
    await w.goto(link!);
    await w.getByTestId('invite-submit').click();
    await expect.poll(() => errorsOf(w)).toEqual(expect.arrayContaining(['First Name is required', 'Last Name is required']));
    await w.getByTestId('invite-firstName').fill('Wendy');
    await w.getByTestId('invite-lastName').fill('Worker');
    await w.getByTestId('invite-phone').fill('123');
    await w.getByTestId('invite-password').fill('FirstPass123');
    await w.getByTestId('invite-confirm').fill('Different123');
    await w.getByTestId('invite-submit').click();
    await expect.poll(() => errorsOf(w)).toEqual(expect.arrayContaining(['Passwords do not match', 'Phone number must be 10 to 15 characters']));
    await w.getByTestId('invite-phone').fill('+15551234567');
    await w.getByTestId('invite-confirm').fill('FirstPass123');
    await w.getByTestId('invite-submit').click();
    await expect.poll(() => w.getByTestId('invite-message').innerText()).toBe('Registration complete! Redirecting to login...');
    await w.waitForURL(`${org.url}/login`);
    // the link is single-use
    await w.goto(link!);
    await expect.poll(() => w.getByTestId('invite-message').innerText()).toBe('Invalid or expired invite link.');

    // the admin's list shows the worker as active now
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByTestId('not-accepted').count()).toBe(0);

    // the worker's related assets (spec section 3): two assets, one related to Wendy by the admin
    const host = `${org.subdomain}.localhost`;
    const token = (await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password })).body.accessToken as string;
    const added = await call(server.port, host, 'POST', '/api/asset-categories/add-asset-category', { name: 'Presses', code: 'PRS' }, token);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    for (const name of ['Press 3', 'Boiler 1']) {
      const asset = await call(
        server.port,
        host,
        'POST',
        '/api/assets/add-asset',
        { name, date: '2024-01-15', assetCategoryId: added.body.assetCategory.id },
        token,
      );
      expect(asset.status, JSON.stringify(asset.body)).toBe(201);
    }
    await page.getByText('Wendy Worker').click();
    await page.getByTestId('user-related-assets').click();
    await page.getByTestId('user-related-assets').fill('Press');
    await page.getByRole('option', { name: 'Press 3' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('user-save').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('User updated successfully')]));

    // sign in as the worker; the session survives a reload, and a bad access token is refreshed silently
    await signIn(w, { url: org.url, email: worker, password: 'FirstPass123' });
    await w.reload();
    await w.getByTestId('side-menu').waitFor();
    expect(w.url()).toBe(`${org.url}/dashboard/work-orders`);
    await w.evaluate(() => sessionStorage.setItem('accessToken', 'expired.or.forged'));
    await w.reload();
    await expect.poll(() => w.getByTestId('user-menu').innerText()).toContain('Wendy Worker');
    expect(await w.evaluate(() => sessionStorage.getItem('accessToken'))).not.toBe('expired.or.forged');

    // "Only mine" keeps the assets list to the worker's related ones
    await w.goto(`${org.url}/dashboard/assets`);
    await w.locator('tbody tr', { hasText: 'Boiler 1' }).waitFor();
    await w.getByTestId('filter-mine').click();
    await w.waitForURL(/relatedTo=/);
    await expect.poll(() => w.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Press 3')]);

    // change the password: wrong current password first (server text under the field)
    await w.getByTestId('user-menu').click();
    await w.getByTestId('menu-profile').click();
    await w.getByTestId('tab-password').click();
    await w.getByTestId('current-password').fill('NotMyPassword1');
    await w.getByTestId('new-password').fill('SecondPass456');
    await w.getByTestId('confirm-password').fill('SecondPass456');
    await w.getByTestId('password-save').click();
    await expect.poll(() => errorsOf(w)).toContain('Current password is incorrect');
    await w.getByTestId('current-password').fill('FirstPass123');
    await w.getByTestId('confirm-password').fill('SecondPass45');
    await w.getByTestId('password-save').click();
    await expect.poll(() => errorsOf(w)).toContain("Passwords don't match");
    await w.getByTestId('confirm-password').fill('SecondPass456');
    await w.getByTestId('password-save').click();
    await expect.poll(() => toastTexts(w)).toEqual(expect.arrayContaining([expect.stringContaining('Password has been updated successfully')]));
    await w.keyboard.press('Escape');

    // sign out, then sign in with the new password
    await w.getByTestId('user-menu').click();
    await w.getByTestId('menu-sign-out').click();
    await w.waitForURL(`${org.url}/login`);
    await w.goto(`${org.url}/dashboard/work-orders`);
    await w.waitForURL(`${org.url}/login`);
    await signIn(w, { url: org.url, email: worker, password: 'SecondPass456' });
    await other.context.close();
    await admin.context.close();
  });

  it('signs the other tabs out when one tab signs out', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await signIn(page, org);
    const tab2 = await context.newPage();
    await tab2.goto(`${org.url}/dashboard/assets`);
    await tab2.getByTestId('side-menu').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-sign-out').click();
    await tab2.waitForURL(`${org.url}/login`);
    await context.close();
  });
  it('edits the company profile: the zip rule shows its message, a valid change is kept', async () => {
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await signIn(page, org);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-company').click();
    await page.getByTestId('company-organization').waitFor();
    await page.getByTestId('company-zip').fill('ABC');
    await page.getByTestId('company-save').click();
    await page.getByText('Invalid zip code format').waitFor();
    await page.getByTestId('company-zip').fill('94105');
    await page.getByTestId('company-website').fill('https://plant.example.com');
    await page.getByTestId('company-save').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Company updated successfully')]));
    await page.reload();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-company').click();
    await expect.poll(() => page.getByTestId('company-zip').inputValue()).toBe('94105');
    expect(await page.getByTestId('company-website').inputValue()).toBe('https://plant.example.com');
    await context.close();
  });
});
