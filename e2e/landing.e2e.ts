import { describe, expect, it } from 'vitest';
import { newPage, signIn, signUpOrg, toastTexts } from './helpers';
import { useJourney } from './use-journey';

const journey = useJourney();

describe('the public landing page', () => {
  it('is dark by default, has real pages, finds an organisation by subdomain', async () => {
    const { server, browser } = journey;
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await page.goto(server.baseUrl);
    await page.getByTestId('landing-title').waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    for (const [key, path] of [
      ['features', '/features'],
      ['pricing', '/pricing'],
      ['contact', '/contact'],
      ['home', '/'],
    ] as const) {
      await page.getByTestId(`nav-${key}`).first().click();
      await page.waitForURL(`${server.baseUrl}${path}`);
    }
    await page.getByTestId('landing-login').click();
    await page.getByTestId('subdomain-input').fill('no-such-organisation');
    await page.getByTestId('subdomain-submit').click();
    await expect.poll(() => toastTexts(page)).toEqual(expect.arrayContaining([expect.stringContaining('Subdomain not found')]));
    await page.getByTestId('subdomain-input').fill(org.subdomain.toUpperCase());
    await page.getByTestId('subdomain-submit').click();
    await page.waitForURL(`${org.url}/login`);
    await context.close();
  });

  it('stores a demo request', async () => {
    const { server, browser } = journey;
    const { page, context } = await newPage(browser);
    await page.goto(server.baseUrl);
    await page.getByTestId('landing-demo').click();
    await page.waitForURL(`${server.baseUrl}/demo-request`);
    await page.getByTestId('demo-submit').click();
    await expect
      .poll(() => page.locator('.mantine-InputWrapper-error').allInnerTexts())
      .toEqual(expect.arrayContaining(['Name is required', 'Email is required', 'Company is required']));
    await page.getByLabel('Name').fill('Dana Fox');
    await page.getByLabel('Email').fill('dana@plant.example.com');
    await page.getByLabel('Company').fill('Plant Co');
    await page.getByTestId('demo-submit').click();
    await page.getByTestId('demo-done').waitFor();
    await context.close();
  });

  it('shows Dashboard instead of Login on the organisation’s own landing page when signed in', async () => {
    const { server, browser } = journey;
    const org = await signUpOrg(server);
    const { page, context } = await newPage(browser);
    await signIn(page, org);
    await page.goto(org.url);
    await page.getByTestId('landing-dashboard').click();
    await page.waitForURL(`${org.url}/dashboard/work-orders`);
    await context.close();
  });
});
