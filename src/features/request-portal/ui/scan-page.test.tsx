import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderWithProviders, stubFetch } from '../../../web/test/render';
import ScanPage from './scan-page';

/**
 * The scanner (decision 039): a typed asset number opens the asset; the camera reads a label's code through the
 * browser's BarcodeDetector. The camera, the video element and BarcodeDetector are the browser's: faked here
 * (jsdom has none); the page's own code runs as it is, its API calls answered by a fetch stub.
 */

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const summary = {
  asset: { id: 7, name: 'Boiler Pump P-7', number: 'P-7', status: 'Operational' },
  openWork: [{ id: 3, title: 'Replace seal', status: 'assigned', createdAt: '2026-01-02T00:00:00.000Z' }],
  history: [],
  requests: [],
};
const appData = () => ({ body: { loggedInUser: { id: 1, role: 'worker', firstName: 'A', lastName: 'B' } } });

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
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData,
      'GET /api/portal/find-asset': (url) =>
        url.searchParams.get('number') === 'P-7'
          ? { body: { asset: { id: 7, name: 'Boiler Pump P-7' } } }
          : { status: 404, body: { error: 'Asset not found' } },
      'GET /api/portal/asset-summary/7': () => ({ body: summary }),
    });
    renderWithProviders(<ScanPage />, { route: '/dashboard/scan', path: '/dashboard/scan/:token?' });
    await userEvent.type(screen.getByTestId('scan-number'), 'X-1');
    await userEvent.click(screen.getByTestId('scan-find'));
    expect(await screen.findByText('No asset with this number or code')).toBeInTheDocument();
    expect(screen.queryByTestId('scan-asset')).toBeNull();

    await userEvent.clear(screen.getByTestId('scan-number'));
    await userEvent.type(screen.getByTestId('scan-number'), 'P-7{enter}');
    const asset = await screen.findByTestId('scan-asset');
    expect(asset).toHaveTextContent('Boiler Pump P-7');
    expect(asset).toHaveTextContent('WO-0003 Replace seal');
    // User data and badges isolated in either direction (issue 46): the number and the title each in a <bdi>, the status badge dir="auto".
    expect([...asset.querySelectorAll('bdi')].map((b) => b.textContent)).toEqual(expect.arrayContaining(['WO-0003', 'Replace seal']));
    expect(asset.querySelector('.mantine-Badge-root')).toHaveAttribute('dir', 'auto');
    expect(calls.filter((c) => c.url.pathname === '/api/portal/find-asset').map((c) => c.url.searchParams.get('number'))).toEqual(['X-1', 'P-7']);
  });

  it("the camera reads a label's code with BarcodeDetector, opens its asset, and stops the camera; it starts once however often the page renders", async () => {
    const camera = fakeCamera();
    const detector = fakeDetector();
    stubFetch({
      'GET /api/user/get-app-data': appData,
      [`GET /api/portal/resolve-code/${TOKEN}`]: () => ({ body: { target: { kind: 'asset', id: 7, name: 'Boiler Pump P-7', number: 'P-7' } } }),
      'GET /api/portal/asset-summary/7': () => ({ body: summary }),
    });
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

    detector.show(`http://acme.localhost/r/${TOKEN}`);
    await waitFor(() => expect(currentLocation()).toBe(`/dashboard/scan/${TOKEN}`));
    expect(await screen.findByTestId('scan-asset')).toHaveTextContent('Boiler Pump P-7');
    // Leaving the camera stopped its stream.
    expect(camera.track.stop).toHaveBeenCalled();
    expect(screen.queryByTestId('scan-video')).toBeNull();
  });

  it('the camera stopped before it answered: its stream is stopped as soon as it comes', async () => {
    const camera = fakeCamera();
    fakeDetector();
    stubFetch({ 'GET /api/user/get-app-data': appData });
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
