import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { AssetDto, AssetSummary } from '../assets.schema';
import AssetsPage from './assets-page';
import { selfAndDescendants } from './asset-form';

const user = (role: string) => ({ loggedInUser: { id: 1, role, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [] });

const asset = (id: number, name: string, parentId: number | null, extra: Partial<AssetDto> = {}): AssetDto => ({
  id,
  assetId: `AS-000${id}`,
  name,
  description: null,
  serial: null,
  assetBarcode: null,
  assetCode: null,
  date: '2026-01-01',
  status: 'Operational',
  customerVendorId: null,
  assetCategoryId: 1,
  CustomerVendor: null,
  AssetCategory: { id: 1, name: 'Pumps', code: 'PU' },
  locationId: null,
  Location: null,
  parentId,
  Parent: null,
  independent: false,
  state: 'running',
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const line = asset(1, 'Line 1', null);
const machine = asset(2, 'Press', 1, { Parent: { id: 1, name: 'Line 1', assetId: 'AS-0001' } });
const motor = asset(3, 'Motor', 2, { Parent: { id: 2, name: 'Press', assetId: 'AS-0002' } });
const all = [line, machine, motor];
const node = (a: AssetDto) => ({ id: a.id, assetId: a.assetId, name: a.name, status: a.status, parentId: a.parentId, locationId: a.locationId });
const summary = (worker: boolean): AssetSummary => ({
  children: [{ id: 3, assetId: 'AS-0003', name: 'Motor' }],
  descendants: 1,
  workOrders: { own: 2, total: 5 },
  openWorkOrders: { own: 1, total: 3 },
  costMinor: worker ? null : { own: 1250, total: 9900 },
  downMinutes: { own: 90, total: 150 },
});

function routes(role = 'manager', extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/user/get-app-data': () => ({ body: user(role) }),
    'GET /api/assets/get-assets': () => ({ body: { assets: all, pagination: { totalRecords: 3, currentPage: 1, totalPages: 1 } } }),
    'GET /api/assets/get-asset-tree': () => ({ body: { assets: all.map(node) } }),
    'GET /api/assets/get-asset-summary/2': () => ({ body: { summary: summary(role === 'worker') } }),
    'GET /api/assets/get-asset-summary/3': () => ({ body: { summary: { ...summary(role === 'worker'), children: [] } } }),
    'GET /api/assets/get-asset/3': () => ({ body: { asset: motor } }),
    'GET /api/assets/get-asset/1': () => ({ body: { asset: line } }),
    'GET /api/assets/get-asset-summary/1': () => ({ body: { summary: summary(false) } }),
    'GET /api/locations/get-location-options': () => ({ body: [] }),
    ...extra,
  });
}

describe('assets screen: tree, location filter, parent and roll-up (decision 072)', () => {
  it('the location filter in the URL reaches the list and the tree; the tree expands with the mouse and opens a node', { timeout: 60_000 }, async () => {
    const calls = routes();
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets?locationId=7' });
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/assets/get-assets' && c.url.searchParams.get('locationId') === '7')).toBe(true), {
      timeout: 30_000,
    });
    const u = userEvent.setup();
    await u.click(screen.getByRole('radio', { name: 'Tree' }));
    await screen.findByTestId('asset-tree-toggle-1', {}, { timeout: 10_000 });
    expect(calls.find((c) => c.url.pathname === '/api/assets/get-asset-tree')!.url.searchParams.get('locationId')).toBe('7');
    expect(screen.queryByText('Press')).toBeNull();
    await u.click(screen.getByTestId('asset-tree-toggle-1'));
    await u.click(await screen.findByTestId('asset-tree-toggle-2'));
    await u.click(await screen.findByTestId('asset-tree-node-3'));
    expect(await screen.findByText('AS-0003 · Motor')).toBeTruthy();
  });

  it('the drawer shows the parent and the children as links, and the roll-up with cost for a manager', { timeout: 60_000 }, async () => {
    routes();
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets' });
    const u = userEvent.setup();
    await u.click(await screen.findByText('Press', {}, { timeout: 30_000 }));
    const rollup = await screen.findByTestId('asset-rollup');
    expect(within(rollup).getByText('5')).toBeTruthy();
    expect(within(rollup).getByTestId('asset-rollup-cost').textContent).toContain('99.00');
    expect(within(rollup).getByTestId('asset-rollup-down').textContent).toBe('Down time, last 30 days1h 30m2h 30m');
    expect(screen.getByTestId('asset-parent-link').textContent).toBe('AS-0001 · Line 1');
    await u.click(screen.getByTestId('asset-child-3'));
    expect(await screen.findByText('AS-0003 · Motor')).toBeTruthy();
  });

  it('a worker sees counts but no cost', { timeout: 60_000 }, async () => {
    routes('worker');
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets' });
    await userEvent.click(await screen.findByText('Press', {}, { timeout: 30_000 }));
    await screen.findByTestId('asset-rollup');
    expect(screen.queryByTestId('asset-rollup-cost')).toBeNull();
  });

  it('a refused move (a cycle) is said in a toast', { timeout: 60_000 }, async () => {
    routes('manager', {
      'PUT /api/assets/update-asset/2': () => ({
        status: 400,
        body: { error: 'Validation failed', issues: [{ path: 'parentId', message: 'An asset cannot be moved under itself or one of its children' }] },
      }),
    });
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets' });
    const u = userEvent.setup();
    await u.click(await screen.findByText('Press', {}, { timeout: 30_000 }));
    await screen.findByTestId('asset-rollup');
    await u.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(screen.getAllByText('An asset cannot be moved under itself or one of its children').length).toBeGreaterThanOrEqual(2));
  });

  it('the parent picker leaves out the asset and everything under it', () => {
    const nodes = [...all.map(node), { ...node(asset(4, 'Depot', null)) }];
    expect([...selfAndDescendants(nodes, 2)].sort()).toEqual([2, 3]);
    expect([...selfAndDescendants(nodes, 1)].sort()).toEqual([1, 2, 3]);
    expect(selfAndDescendants(nodes, null).size).toBe(0);
  });
});
