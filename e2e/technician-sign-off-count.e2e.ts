/**
 * The technician's sign-off step and stock count on the phone (issues 44, 46, 41; decision 084), at 390 px on
 * the demo organisation: completing with an unsigned required sign-off is refused naming the step and the focus
 * goes to it; the step is signed on the phone (password and meaning, online); the order closes. Then a count: a
 * storeroom, its parts with the expected quantity, a counted quantity posted; the server's level follows.
 */
import { describe, expect, it } from 'vitest';
import { DEMO, newPage, signInWorker } from './helpers';
import { useDemoJourney } from './use-journey';

const journey = useDemoJourney();
const TECH = DEMO.tech;

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });

describe('the technician signs off and counts on the phone', () => {
  it('a refused completion goes to the unsigned step; signed with password and meaning, the order closes', async () => {
    const { api, browser, url, userId } = journey;
    const { procedure } = await api('POST', '/api/procedures/add-procedure', {
      name: 'Lock-out check',
      steps: [
        { kind: 'checkbox', label: 'Isolated' },
        { kind: 'sign-off', label: 'Supervisor sign-off', required: true },
      ],
    });
    const { workOrder } = await api('POST', '/api/work-orders/add-work-order', {
      title: 'Lock out the press',
      assignees: [userId(TECH.email)],
      priority: 'high',
      dueDate: new Date(Date.now() + 3600_000).toISOString(),
    });
    await api('POST', `/api/work-orders/attach-procedure/${workOrder.id}`, { procedureId: procedure.id });
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      await signInWorker(page, url, TECH);
      await page.getByTestId(`my-work-card-${workOrder.id}`).click();
      await page.getByTestId('work-order-screen').waitFor();
      await page.getByTestId('wo-complete').click();
      await poll(() => page.getByTestId('wo-status-error').textContent()).toBe('Fill the required step "Supervisor sign-off" before completing.');
      await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('wo-step-2');

      await page.getByTestId('step-2-sign-off').click();
      await page.getByTestId('sign-off-meaning').getByText('Verified').click();
      await page.getByTestId('sign-off-password').fill('wrong-password');
      await page.getByTestId('sign-off-confirm').click();
      await page
        .getByText('Password is incorrect', { exact: false })
        .or(page.getByText('password', { exact: false }).first())
        .first()
        .waitFor();
      await page.getByTestId('sign-off-password').fill(TECH.password);
      await page.getByTestId('sign-off-confirm').click();
      await poll(() => page.getByTestId('step-2-signature').textContent()).toMatch(/^Verified by /);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await page.getByTestId('wo-complete').click();
      await poll(() => page.getByTestId('wo-status').textContent()).toBe('Closed');
      await poll(async () => (await api('GET', `/api/work-orders/get-work-order/${workOrder.id}`)).workOrder.status).toBe('completed');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('counts a storeroom: expected quantities, counted ones posted', async () => {
    const { api, browser, url } = journey;
    const store = (await api('POST', '/api/stock/add-location', { name: 'Press shop store', kind: 'storeroom' })).location.id as number;
    // A stockable part of the demo (only those keep a quantity on hand).
    const { parts } = (await api('GET', '/api/parts/get-parts?type=stockable&pageSize=100')) as { parts: { id: number; name: string }[] };
    const part = { value: parts[0].id, label: parts[0].name };
    await api('POST', '/api/stock/count-stock', { partId: part.value, locationId: store, countedQuantity: 5 });
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    try {
      await signInWorker(page, url, TECH);
      await page.getByTestId('my-work-count').click();
      await page.getByTestId('count-screen').waitFor();
      await page.getByTestId('count-storeroom').click();
      await page.getByRole('option', { name: 'Press shop store' }).click();
      await poll(() => page.getByTestId(`count-expected-${part.value}`).textContent()).toBe('Expected 5');
      await page.getByTestId(`count-input-${part.value}`).fill('3');
      await page.getByTestId('count-post').click();
      await page.getByText('1 count posted').first().waitFor();
      await poll(() => page.getByTestId(`count-expected-${part.value}`).textContent()).toBe('Expected 3');
      const { stockLevels } = await api('GET', `/api/stock/get-stock-levels?locationId=${store}&partId=${part.value}`);
      expect(stockLevels[0].quantity).toBe(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  }, 180_000);
});
