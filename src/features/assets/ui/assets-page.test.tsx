import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer, type Role } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import type { AssetDto } from '../assets.schema';
import { addAsset, addLocation, addStockablePart, masterRows } from '../test-fixtures';
import AssetsPage from './assets-page';
import { selfAndDescendants } from './asset-form';

const server = realServer();
const W = '/api/work-orders';

/** A minute of the past, `minutesAgo` before now (the roll-up counts the last 30 days, to the minute). */
const minutesAgo = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000).toISOString();

/**
 * Through the API, in the location Hall: Line 1 > Press > Motor (the motor independent: it stays up when the press
 * goes down), and Depot outside the hall. Press has two work orders (one open) costing 12.50 and was down 90 minutes
 * yesterday; Motor has three (two open) costing 86.50 and was down 60 minutes today. By hand, Press's roll-up:
 * work orders 2 of 5, open 1 of 3, cost 12.50 of 99.00, down 1h 30m of 2h 30m.
 */
async function plant(org: TestOrg) {
  const m = await masterRows(server.test, org.orgId);
  const hall = await addLocation(org, 'Hall');
  const line = await addAsset(org, m, 'Line 1', { locationId: hall });
  const press = await addAsset(org, m, 'Press', { locationId: hall, parentId: line });
  const motor = await addAsset(org, m, 'Motor', { locationId: hall, parentId: press, independent: true });
  const depot = await addAsset(org, m, 'Depot');
  const seal = await addStockablePart(org, m, { name: 'Seal', type: 'consumable', salesPrice: 12.5 });
  const bearing = await addStockablePart(org, m, { name: 'Bearing', type: 'consumable', salesPrice: 86.5 });
  const order = async (assetId: number, title: string, partId?: number, completed = false) => {
    const res = await org.admin.post(`${W}/add-work-order`, { title, assetId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.workOrder.id as number;
    if (partId) expect((await org.admin.post(`${W}/add-parts/${id}`, { parts: [{ partId, quantity: 1 }] })).status).toBe(201);
    if (completed) expect((await org.admin.put(`${W}/update-status/${id}`, { status: 'completed' })).status).toBe(200);
  };
  await order(press, 'Press seal', seal.id);
  await order(press, 'Press check', undefined, true);
  await order(motor, 'Motor bearing', bearing.id);
  await order(motor, 'Motor check');
  await order(motor, 'Motor again', undefined, true);
  const down = async (assetId: number, from: number, minutes: number) => {
    for (const [state, at] of [
      ['down', minutesAgo(from)],
      ['running', minutesAgo(from - minutes)],
    ]) {
      const res = await org.admin.post(`/api/assets/set-asset-state/${assetId}`, { state, at, reason: state === 'down' ? 'Jam' : undefined });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  };
  await down(press, 26 * 60, 90);
  await down(motor, 3 * 60, 60);
  return { m, hall, line, press, motor, depot };
}

const assetOf = async (org: TestOrg, id: number) => (await org.admin.get(`/api/assets/get-asset/${id}`)).body.asset as AssetDto;

/** A user of `role` signed in, and the plant of their organisation. */
async function plantFor(role: Role) {
  const session = await server.signIn(role);
  return { ...session, ...(await plant(session.org)) };
}

describe('assets screen: tree, location filter, parent and roll-up (decision 072)', () => {
  it('the location filter in the URL reaches the list and the tree; the tree expands with the mouse and opens a node', async () => {
    const { calls, hall, line, press, motor } = await plantFor('manager');
    renderWithProviders(<AssetsPage />, { route: `/dashboard/assets?locationId=${hall}` });
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/assets/get-assets' && c.url.searchParams.get('locationId') === String(hall))).toBe(true),
    );
    // the server's list of the hall: not Depot
    expect(await screen.findByText('Line 1')).toBeInTheDocument();
    expect(screen.queryByText('Depot')).toBeNull();
    const u = userEvent.setup();
    await u.click(screen.getByRole('radio', { name: 'Tree' }));
    await screen.findByTestId(`asset-tree-toggle-${line}`);
    expect(calls.find((c) => c.url.pathname === '/api/assets/get-asset-tree')!.url.searchParams.get('locationId')).toBe(String(hall));
    expect(screen.queryByText('Press')).toBeNull();
    expect(screen.queryByText('Depot')).toBeNull();
    await u.click(screen.getByTestId(`asset-tree-toggle-${line}`));
    await u.click(await screen.findByTestId(`asset-tree-toggle-${press}`));
    await u.click(await screen.findByTestId(`asset-tree-node-${motor}`));
    expect(await screen.findByText(`AS-${String(motor).padStart(4, '0')} · Motor`)).toBeTruthy();
  });

  it('the drawer shows the parent and the children as links, and the roll-up with cost for a manager', async () => {
    const { line, motor } = await plantFor('manager');
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets' });
    const u = userEvent.setup();
    await u.click(await screen.findByText('Press'));
    const rollup = await screen.findByTestId('asset-rollup');
    const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);
    const [work, open] = within(rollup).getAllByRole('row').slice(1);
    expect(cells(work)).toEqual(['Work orders', '2', '5']);
    expect(cells(open)).toEqual(['Open work orders', '1', '3']);
    expect(cells(within(rollup).getByTestId('asset-rollup-cost'))).toEqual(['Cost', '$12.50', '$99.00']);
    expect(within(rollup).getByTestId('asset-rollup-down').textContent).toBe('Down time, last 30 days1h 30m2h 30m');
    expect(screen.getByTestId('asset-parent-link').textContent).toBe(`AS-${String(line).padStart(4, '0')} · Line 1`);
    await u.click(screen.getByTestId(`asset-child-${motor}`));
    expect(await screen.findByText(`AS-${String(motor).padStart(4, '0')} · Motor`)).toBeTruthy();
  });

  it('a worker sees counts but no cost', async () => {
    await plantFor('worker');
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets' });
    await userEvent.click(await screen.findByText('Press'));
    const rollup = await screen.findByTestId('asset-rollup');
    expect(within(rollup).getAllByRole('row')[1]).toHaveTextContent('Work orders25');
    expect(screen.queryByTestId('asset-rollup-cost')).toBeNull();
  });

  it('a refused move (a cycle) is said in a toast', async () => {
    const { org, calls, m, line, press } = await plantFor('manager');
    // Spare stands alone when the drawer of Line 1 opens, so the parent picker offers it.
    const spare = await addAsset(org, m, 'Spare');
    renderWithProviders(<AssetsPage />, { route: '/dashboard/assets' });
    const u = userEvent.setup();
    await u.click(await screen.findByText('Line 1'));
    await screen.findByTestId('asset-rollup');
    await u.click(screen.getByTestId('field-parentId'));
    const option = await screen.findByRole('option', { name: `AS-${String(spare).padStart(4, '0')} · Spare` });
    // Meanwhile someone moves Spare under Press (through the API): Line 1 under Spare would now be a cycle.
    expect((await org.admin.post(`/api/assets/move-asset/${spare}`, { parentId: press })).status).toBe(200);
    await u.click(option);
    await u.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(screen.getAllByText('An asset cannot be moved under itself or one of its children').length).toBeGreaterThanOrEqual(2));
    // the server refused it: Line 1 stays at the top
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.url.pathname, (c.body as { parentId: number }).parentId, c.status])).toEqual([
      [`/api/assets/update-asset/${line}`, spare, 400],
    ]);
    expect(await assetOf(org, line)).toMatchObject({ parentId: null });
  });

  it('the parent picker leaves out the asset and everything under it', () => {
    const node = (id: number, parentId: number | null) => ({ id, parentId });
    const nodes = [node(1, null), node(2, 1), node(3, 2), node(4, null)];
    expect([...selfAndDescendants(nodes, 2)].sort()).toEqual([2, 3]);
    expect([...selfAndDescendants(nodes, 1)].sort()).toEqual([1, 2, 3]);
    expect(selfAndDescendants(nodes, null).size).toBe(0);
  });
});
