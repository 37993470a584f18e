/**
 * Failure codes and on hold in the browser (decision 080): a manager imports the starter library, requires the
 * codes, closes a reactive work order with problem > cause > remedy in the drawer, sees it in the Pareto, then
 * puts another order on hold and resumes it.
 */
import { describe, expect, it } from 'vitest';
import { addAssetInCategory, addWorkOrder, onSignedInPage, pick } from './helpers';
import { useOrgJourney } from './use-journey';

// The pump with a reactive order (closed with codes) and one that will wait for parts.
const journey = useOrgJourney('Failures', async ({ api }) => {
  const assetId = await addAssetInCategory(api, 'Feed Pump P-7', { code: 'PUMP', name: 'Pumps' });
  return { leakId: await addWorkOrder(api, { title: 'Pump leaking', assetId }), waitId: await addWorkOrder(api, { title: 'Replace the coupling', assetId }) };
});

describe('failure codes', () => {
  it('imports the starter library, closes a reactive order with its codes, the Pareto shows it; an order goes on hold and resumes', async () => {
    const { browser, org, leakId, waitId } = journey;
    await onSignedInPage(browser, org, '/settings/failure-codes', async (page) => {
      await page.getByTestId('import-starter').click();
      await page.getByText('Worn mechanical seal').first().waitFor();
      // Codes are required from now on.
      await page.getByTestId('require-codes').click();
      await page.getByTestId('save-settings').click();
      await page.getByText('Settings saved successfully').first().waitFor();

      // Closing the reactive order asks for problem > cause > remedy of the pump's category.
      await page.goto(`${org.url}/dashboard/work-orders?open=${leakId}`);
      await pick(page, 'wo-status', 'Closed');
      await page.getByTestId('close-with-codes-confirm').waitFor();
      await expect.poll(() => page.getByTestId('close-without-codes').count()).toBe(0);
      await page.getByTestId('close-with-codes-confirm').click();
      await page.getByTestId('close-codes-error').waitFor();
      await pick(page, 'failure-problem', 'Leak');
      await pick(page, 'failure-cause', 'Worn mechanical seal');
      await pick(page, 'failure-remedy', 'Replace the part');
      await page.getByTestId('close-with-codes-confirm').click();
      await expect.poll(() => page.getByTestId('wo-status').inputValue()).toBe('Closed');
      await expect.poll(() => page.getByTestId('wo-failure').innerText()).toContain('Leak › Worn mechanical seal › Replace the part');

      // The Pareto of the insights shows it.
      await page.goto(`${org.url}/dashboard/insights`);
      await page.getByTestId('failure-pareto-table').getByText('Leak').waitFor();
      await expect.poll(() => page.getByTestId('failure-pareto-table').innerText()).toContain('100');

      // Another order waits for parts, then resumes.
      await page.goto(`${org.url}/dashboard/work-orders?open=${waitId}`);
      await page.getByTestId('wo-hold').click();
      await page.getByTestId('hold-note').fill('Coupling ordered');
      await page.getByTestId('hold-confirm').click();
      await page.getByTestId('wo-on-hold').waitFor();
      await expect.poll(async () => (await page.getByTestId('wo-on-hold').innerText()).toLowerCase()).toContain('waiting for parts');
      await page.getByTestId('wo-resume').click();
      await expect.poll(() => page.getByTestId('wo-on-hold').count()).toBe(0);
      await page.getByTestId('wo-hold').waitFor();
    });
  }, 180_000);
});
