/**
 * Issue 42's journey (decisions 072, 079, 080, 084): a site > line location tree with a machine and its motor (the
 * motor a child asset of the machine), a request marks the motor down, the technician closes the order on the
 * phone OFFLINE with problem > cause > remedy from the codes kept on the device, goes back online and the change
 * syncs; the line's availability counts the motor's down time, and the insights' failure Pareto and availability
 * show it. On the demo organisation (its worker Marcus), at 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, newPage, pick, signInWorker } from './helpers';
import { useDemoJourney } from './use-journey';

const journey = useDemoJourney();
const TECH = DEMO.tech;

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000 });
const indicator = (page: Page) => page.getByTestId('sync-indicator').first();

describe('asset tree, down time and failure codes', () => {
  it('a motor goes down by request, the technician closes the order offline with failure codes; availability and Pareto show it', async () => {
    const { api, browser, url, userId } = journey;
    const marcusId = userId(TECH.email);
    const adminId = userId(DEMO.admin.email);
    // The codes (the starter library: Motors' problems) and the rule that closing a reactive order needs them.
    await api('POST', '/api/failure-codes/import-starter-library', { language: 'en' });
    await api('PUT', '/api/failure-codes/update-failure-code-settings', { requireCodes: true, repeatDays: 30 });
    const { assetCategories } = await api('GET', '/api/asset-categories/get-asset-categories?pageSize=100');
    const motors = (assetCategories as { id: number; name: string }[]).find((c) => c.name === 'Motors')!;

    // site > line (locations), machine on the line, motor under the machine (assets).
    const site = (await api('POST', '/api/locations/add-location', { name: 'Riyadh Plant' })).location.id as number;
    const line = (await api('POST', '/api/locations/add-location', { name: 'Bottling Line 2', parentId: site })).location.id as number;
    const machine = (await api('POST', '/api/assets/add-asset', { name: 'Filler F-2', date: '2024-01-01', locationId: line, assetCategoryId: motors.id })).asset
      .id as number;
    const motor = (
      await api('POST', '/api/assets/add-asset', {
        name: 'Filler motor M-2',
        date: '2024-01-01',
        locationId: line,
        parentId: machine,
        assetCategoryId: motors.id,
      })
    ).asset.id as number;
    const tree = (await api('GET', `/api/assets/get-asset/${motor}`)).asset as { parentId: number | null };
    expect(tree.parentId).toBe(machine);

    // A request marks the motor down; the order to repair it goes to Marcus.
    const request = await api('POST', '/api/maintenance-requests/add-maintenance-request', {
      title: 'Filler motor stopped',
      problemDescription: 'The filler motor tripped and does not restart',
      maintenanceType: 'corrective',
      requester: 'employee',
      priority: 'high',
      assignedTo: adminId,
      dateOfRequest: new Date().toISOString(),
      assetId: motor,
      failureReason: 'Does not start',
      urgencyLevel: 'high',
      riskLevel: 'medium',
      assetDown: true,
    });
    expect(request.maintenanceRequest.assetDown).toBe(true);
    expect((await api('GET', `/api/assets/list-asset-states/${motor}`)).state).toBe('down');
    const downAt = Date.now();
    const { workOrder } = await api('POST', '/api/work-orders/add-work-order', {
      title: 'Restart the filler motor',
      assetId: motor,
      assignees: [marcusId],
      priority: 'high',
      dueDate: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(workOrder.reactive).toBe(true);

    const { context, page } = await newPage(browser, { width: 390, height: 844, serviceWorkers: 'allow' });
    try {
      await signInWorker(page, url, TECH);
      // The first sync reads every page of the demo worker's orders: slow on a loaded machine.
      await page.getByTestId(`my-work-card-${workOrder.id}`).waitFor({ timeout: 60_000 });
      await page.getByTestId(`my-work-card-${workOrder.id}`).click();
      await page.getByTestId('work-order-screen').waitFor();
      await poll(() => indicator(page).textContent()).toBe('All saved');

      // Offline: the codes come from the device.
      await context.setOffline(true);
      await poll(() => indicator(page).textContent()).toBe('Offline');
      await page.getByTestId('wo-complete').click();
      await page.getByTestId('close-order-confirm').waitFor();
      // Required: no "close without codes", and closing without them is refused on the phone.
      expect(await page.getByTestId('close-order-without').count()).toBe(0);
      await page.getByTestId('close-order-confirm').click();
      await page.getByTestId('close-codes-error').waitFor();
      await pick(page, 'failure-problem', 'Does not start');
      await pick(page, 'failure-cause', 'Protection tripped');
      await page.getByTestId('failure-remedy').click();
      await page.getByRole('option').first().click();
      await page.getByTestId('close-order-confirm').click();
      await poll(() => page.getByTestId('wo-status').textContent()).toBe('Closed');
      await poll(() => indicator(page).textContent()).toBe('Offline · 1 waiting');
      expect((await api('GET', `/api/work-orders/get-work-order/${workOrder.id}`)).workOrder.status).toBe('assigned');

      // The motor is down at least a whole minute (states are kept to the minute), then the phone is back online.
      const minute = (t: number) => Math.floor(t / 60_000);
      await expect.poll(() => minute(Date.now()) > minute(downAt), { timeout: 75_000, interval: 1000 }).toBe(true);
      await context.setOffline(false);
      await poll(() => indicator(page).textContent()).toBe('All saved');
      const closed = (await api('GET', `/api/work-orders/get-work-order/${workOrder.id}`)).workOrder;
      expect(closed.status).toBe('completed');
      expect(closed.failure).toMatchObject({ problem: 'Does not start', cause: 'Protection tripped' });
      expect((await api('GET', `/api/assets/list-asset-states/${motor}`)).state).toBe('running');

      // The line's availability (its location subtree) counts the motor's down time.
      const from = new Date(downAt - 3600_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const lineFigure = (await api('GET', `/api/assets/get-asset-availability?from=${from}&to=${to}&locationId=${line}`)).availability;
      expect(lineFigure.downMinutes).toBeGreaterThanOrEqual(1);
      expect(lineFigure.availability).toBeLessThan(1);
      expect(lineFigure.byAsset.map((a: { name: string }) => a.name)).toContain('Filler motor M-2');
    } finally {
      await context.close();
    }

    // The manager's insights: the Pareto names the problem, the availability lists the motor.
    const manager = await newPage(browser);
    try {
      const p = manager.page;
      await p.goto(`${url}/login`);
      await p.getByTestId('login-email').fill('admin@demo.com');
      await p.getByTestId('login-password').fill('Demo1234!');
      await p.getByTestId('login-submit').click();
      await p.waitForURL(/\/dashboard\//);
      await p.goto(`${url}/dashboard/insights?assetId=${motor}`);
      await p.getByTestId('failure-pareto-table').getByText('Does not start').waitFor();
      await poll(() => p.getByTestId('insights-availability').innerText()).toContain('Filler motor M-2');
    } finally {
      await manager.context.close();
    }
  }, 240_000);
});
