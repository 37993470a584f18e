/**
 * Insights in the browser (issue 24): a manager's figures for a fresh organisation's first work on one asset, the
 * range changed (kept in the URL), and a drill-down from the worst-MTBF asset to the work orders list filtered to it.
 */
import { describe, expect, it } from 'vitest';
import { addAssetInCategory, addWorkOrder, onSignedInPage } from './helpers';
import { useOrgJourney } from './use-journey';

const journey = useOrgJourney('Insights', async ({ api }) => {
  const assetId = await addAssetInCategory(api, 'Feed Pump P-7', { code: 'PMP', name: 'Pumps' });
  // Two breakdowns of the pump (the first repaired), and one order on no asset.
  const first = await addWorkOrder(api, { title: 'Pump leaking', assetId });
  await api('PUT', `/api/work-orders/update-status/${first}`, { status: 'completed' });
  await api('POST', '/api/work-orders/add-work-order', { title: 'Pump leaking again', assetId });
  await api('POST', '/api/work-orders/add-work-order', { title: 'Paint the railing' });
  return { assetId };
});

describe('insights', () => {
  it('a manager reads the figures, changes the range and drills down to the work orders behind a chart', async () => {
    const { browser, org, assetId } = journey;
    await onSignedInPage(browser, org, null, async (page) => {
      await page.getByTestId('menu-insights').click();
      await page.waitForURL(`${org.url}/dashboard/insights`);
      await expect.poll(() => page.getByTestId('kpi-completed').innerText()).toBe('1');
      await expect.poll(() => page.getByTestId('kpi-created').innerText()).toBe('3');
      await expect.poll(() => page.getByTestId('kpi-open').innerText()).toBe('2');
      // The one repair (this month's, from the kept histogram).
      await expect.poll(() => page.getByTestId('mttr-count').innerText()).toBe('1');
      await page.getByTestId('insights-throughput').locator('path.recharts-rectangle').first().waitFor();

      // The range: a year, then a custom range in the past with nothing in it (the empty states teach).
      await page.getByTestId('insights-range').getByText('Year', { exact: true }).click();
      await page.waitForURL(/range=year/);
      await expect.poll(() => page.getByTestId('kpi-created').innerText()).toBe('3');
      await expect.poll(() => page.getByTestId('mttr-count').innerText()).toBe('1');
      await page.getByTestId('insights-range').getByText('Custom', { exact: true }).click();
      await page.getByTestId('insights-from').fill('2020-01-01');
      await page.getByTestId('insights-to').fill('2020-01-31');
      await page.waitForURL((url) => url.searchParams.get('from') === '2020-01-01' && url.searchParams.get('to') === '2020-01-31');
      await page.getByTestId('insights-throughput-empty').waitFor();
      await expect.poll(() => page.getByTestId('kpi-created').innerText()).toBe('0');
      // A reload keeps the view (it is all in the URL).
      await page.reload();
      await page.getByTestId('insights-throughput-empty').waitFor();

      // Back to 30 days; the worst-MTBF asset opens the work orders list filtered to it.
      await page.getByTestId('insights-range').getByText('30 days', { exact: true }).click();
      await page.getByTestId('insights-mtbf-table').getByRole('link', { name: 'Feed Pump P-7' }).click();
      await page.waitForURL(`${org.url}/dashboard/work-orders?assetId=${assetId}`);
      await page.getByText('Pump leaking again').waitFor();
      await expect.poll(() => page.getByText('Paint the railing').count()).toBe(0);
      // The filter the link set is shown (the asset's name) and Reset clears it with the others.
      await expect.poll(() => page.getByTestId('filter-assetId').inputValue()).toBe('Feed Pump P-7');
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await expect.poll(() => page.getByTestId('filter-assetId').inputValue()).toBe('');
      await page.getByText('Paint the railing').waitFor();

      // And the backlog's drill-down: the open orders.
      await page.goBack();
      await page.getByTestId('insights-backlog-drill').click();
      await page.waitForURL(/\/dashboard\/work-orders\?status=assigned&status=in-progress/);
      await page.getByText('Paint the railing').waitFor();
      await expect.poll(() => page.getByText('Pump leaking', { exact: true }).count()).toBe(0);
    });
  });
});
