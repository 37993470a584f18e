import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { and, eq } from 'drizzle-orm';
import { currentLocation, renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import { publicOrigin } from '../../../server/env';
import { portalCodes } from '../../../server/db/schema';
import { masterRows } from '../../assets/test-fixtures';
import ScanPage from './scan-page';

/**
 * The scanner (decision 039): a typed asset number opens the asset; the camera reads a label's code through the
 * browser's BarcodeDetector. The camera, the video element and BarcodeDetector are the browser's: faked here
 * (jsdom has none); the page's own code runs as it is, its API calls answered by the real server (decision 085).
 */

const server = realServer();

/**
 * Through the API: the asset "Boiler Pump P-7" (number P-7) with an open work order "Replace seal" assigned to
 * `workerId` (a worker sees the work given to them); the asset's id and the order's code.
 */
async function boilerPump(org: TestOrg, workerId: number) {
  const m = await masterRows(server.test, org.orgId);
  const asset = await org.admin.post('/api/assets/add-asset', {
    name: 'Boiler Pump P-7',
    assetCode: 'P-7',
    date: '2024-01-01',
    assetCategoryId: m.assetCategory.id,
  });
  expect(asset.status, JSON.stringify(asset.body)).toBe(201);
  const id = asset.body.asset.id as number;
  const order = await org.admin.post('/api/work-orders/add-work-order', { title: 'Replace seal', assetId: id, assignees: [workerId] });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  return { id, orderCode: order.body.workOrder.workOrderId as string };
}

/** The token of the asset's label (made by printing it, as a manager does), read from the database. */
async function labelToken(org: TestOrg, assetId: number) {
  expect((await org.admin.post('/api/portal/asset-labels', { assetIds: [assetId], layout: 'single-large' })).status).toBe(200);
  const [row] = await server.inTenant(org, (tx) =>
    tx
      .select()
      .from(portalCodes)
      .where(and(eq(portalCodes.orgId, org.orgId), eq(portalCodes.targetId, assetId))),
  );
  return row.token;
}

/** A camera whose stream's track records being stopped; `answer` lets a test hold the camera's answer back. */
function fakeCamera() {
  const track = { stop: vi.fn() };
  const stream = { getTracks: () => [track] };
  let answer: (() => void) | undefined;
  const held = { hold: false };
  const getUserMedia = vi.fn(
    () =>
      new Promise((resolve) => {
        answer = () => resolve(stream);
        if (!held.hold) answer();
      }),
  );
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  Object.defineProperty(window.HTMLMediaElement.prototype, 'play', { value: () => Promise.resolve(), configurable: true });
  return { track, getUserMedia, held, answer: () => answer?.() };
}

/** BarcodeDetector reading `text` once `show` is called (a label held up to the camera). */
function fakeDetector() {
  const seen = { text: null as string | null };
  class BarcodeDetector {
    constructor(readonly options: { formats: string[] }) {}
    async detect() {
      return seen.text ? [{ rawValue: seen.text }] : [];
    }
  }
  (window as unknown as { BarcodeDetector?: unknown }).BarcodeDetector = BarcodeDetector;
  return { show: (text: string) => (seen.text = text) };
}

afterEach(() => {
  delete (window as unknown as { BarcodeDetector?: unknown }).BarcodeDetector;
});

describe('scan page', () => {
  it('a typed asset number opens the asset; an unknown one says so', async () => {
    const { org, user, calls } = await server.signIn('worker');
    const { orderCode } = await boilerPump(org, user.userId);
    renderWithProviders(<ScanPage />, { route: '/dashboard/scan', path: '/dashboard/scan/:token?' });
    await userEvent.type(screen.getByTestId('scan-number'), 'X-1');
    await userEvent.click(screen.getByTestId('scan-find'));
    expect(await screen.findByText('No asset with this number or code')).toBeInTheDocument();
    expect(screen.queryByTestId('scan-asset')).toBeNull();

    await userEvent.clear(screen.getByTestId('scan-number'));
    await userEvent.type(screen.getByTestId('scan-number'), 'P-7{enter}');
    const asset = await screen.findByTestId('scan-asset');
    expect(asset).toHaveTextContent('Boiler Pump P-7');
    expect(asset).toHaveTextContent(`${orderCode} Replace seal`);
    // User data and badges isolated in either direction (issue 46): the number and the title each in a <bdi>, the status badge dir="auto".
    expect([...asset.querySelectorAll('bdi')].map((b) => b.textContent)).toEqual(expect.arrayContaining([orderCode, 'Replace seal']));
    expect(asset.querySelector('.mantine-Badge-root')).toHaveAttribute('dir', 'auto');
    expect(calls.filter((c) => c.url.pathname === '/api/portal/find-asset').map((c) => [c.url.searchParams.get('number'), c.status])).toEqual([
      ['X-1', 404],
      ['P-7', 200],
    ]);
  });

  it("the camera reads a label's code with BarcodeDetector, opens its asset, and stops the camera; it starts once however often the page renders", async () => {
    const camera = fakeCamera();
    const detector = fakeDetector();
    const { org, user } = await server.signIn('worker');
    const { id } = await boilerPump(org, user.userId);
    const TOKEN = await labelToken(org, id);
    renderWithProviders(<ScanPage />, { route: '/dashboard/scan', path: '/dashboard/scan/:token?' });
    await userEvent.click(screen.getByTestId('scan-camera'));
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(1));
    // The page renders at each key typed: the camera is not asked again.
    await userEvent.type(screen.getByTestId('scan-number'), 'abc');
    expect(camera.getUserMedia).toHaveBeenCalledTimes(1);
    expect(camera.track.stop).not.toHaveBeenCalled();
    // Something that is not one of our labels is ignored.
    detector.show('https://example.com/somewhere');
    await new Promise((r) => setTimeout(r, 400));
    expect(currentLocation()).toBe('/dashboard/scan');

    detector.show(`${publicOrigin(server.test.config, org.subdomain)}/r/${TOKEN}`);
    await waitFor(() => expect(currentLocation()).toBe(`/dashboard/scan/${TOKEN}`));
    expect(await screen.findByTestId('scan-asset')).toHaveTextContent('Boiler Pump P-7');
    // Leaving the camera stopped its stream.
    expect(camera.track.stop).toHaveBeenCalled();
    expect(screen.queryByTestId('scan-video')).toBeNull();
  });

  it('the camera stopped before it answered: its stream is stopped as soon as it comes', async () => {
    const camera = fakeCamera();
    fakeDetector();
    await server.signIn('worker');
    camera.held.hold = true;
    renderWithProviders(<ScanPage />, { route: '/dashboard/scan', path: '/dashboard/scan/:token?' });
    await userEvent.click(screen.getByTestId('scan-camera'));
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(1));
    await userEvent.click(screen.getByTestId('scan-camera'));
    expect(screen.queryByTestId('scan-video')).toBeNull();
    camera.answer();
    await waitFor(() => expect(camera.track.stop).toHaveBeenCalled());
  });
});
