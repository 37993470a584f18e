import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { realServer, type RealSession } from '../test/real-api';
import { addLathe, chooseAddNew, createService, servicesOf } from '../test/add-new-steps';
import { WorkOrderDrawer } from '../../features/work-orders/ui/work-order-drawer';
import { MaintenanceOrderDrawer } from '../../features/maintenance-orders/ui/maintenance-order-drawer';
import { MaintenanceRequestDrawer } from '../../features/maintenance-requests/ui/maintenance-request-drawer';

const drawerProps = { id: null, onClose: () => {}, onCreated: () => {}, query: {}, onList: () => {}, invalidate: () => {} };

const server = realServer();

/** A manager signed in, with what the asset creation dialog offers: the category "PMP · Pumps", through the API. */
async function managerWithPumps() {
  const session = await server.signIn('manager');
  expect((await session.org.admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' })).status).toBe(201);
  return session;
}

/** The organisation's assets by name, as the API lists them. */
const assetsOf = async ({ org }: RealSession) =>
  ((await org.admin.get('/api/assets/get-assets?pageSize=100')).body.assets as { id: number; name: string }[]).map(({ id, name }) => ({ id, name }));

async function createAsset() {
  const dialog = await screen.findByTestId('asset-create-modal');
  await userEvent.type(within(dialog).getByTestId('field-name'), 'Feed pump');
  await userEvent.click(within(dialog).getByTestId('field-assetCategoryId'));
  await userEvent.click(await screen.findByRole('option', { name: 'PMP · Pumps' }));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(screen.queryByTestId('asset-create-modal')).toBeNull());
}

describe("'Add New' (value 0) in the asset and service selects of the order and request drawers", { timeout: 180_000 }, () => {
  it('work order: Add New opens the asset dialog, and the new asset is selected and saved with the order', async () => {
    const session = await managerWithPumps();
    const { calls } = session;
    renderWithProviders(<WorkOrderDrawer {...drawerProps} />);
    await userEvent.type(await screen.findByTestId('wo-title'), 'Check the pump');
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/user/get-app-data')).toBe(true));
    await chooseAddNew('wo-asset');
    await createAsset();
    await waitFor(() => expect(screen.getByTestId('wo-asset')).toHaveValue('Feed pump'));
    await userEvent.click(screen.getByTestId('save-button'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/work-orders/add-work-order')).toBe(true));
    const [feedPump] = await assetsOf(session);
    expect(feedPump).toMatchObject({ name: 'Feed pump' });
    const post = calls.find((c) => c.url.pathname === '/api/work-orders/add-work-order')!;
    expect(post.body).toMatchObject({ title: 'Check the pump', assetId: feedPump.id });
    expect(post.status).toBe(201);
  });

  it('maintenance request: Add New in the asset select selects the created asset', async () => {
    const session = await managerWithPumps();
    renderWithProviders(<MaintenanceRequestDrawer {...drawerProps} />);
    await userEvent.click(await screen.findByTestId('mr-requester'));
    await userEvent.click(await screen.findByRole('option', { name: 'Employee' }));
    await chooseAddNew('mr-asset');
    await createAsset();
    await waitFor(() => expect(screen.getByTestId('mr-asset')).toHaveValue('Feed pump'));
    expect(await assetsOf(session)).toEqual([expect.objectContaining({ name: 'Feed pump' })]);
  });

  it('maintenance order: Add New in the asset and the services selects creates and selects each', async () => {
    const session = await managerWithPumps();
    const { calls } = session;
    await addLathe(session);
    renderWithProviders(<MaintenanceOrderDrawer {...drawerProps} />);
    await screen.findByTestId('mo-asset');
    await chooseAddNew('mo-asset');
    await createAsset();
    await waitFor(() => expect(screen.getByTestId('mo-asset')).toHaveValue('Feed pump'));

    await chooseAddNew('mo-services');
    expect(calls.some((c) => c.url.pathname === '/api/services/add-service')).toBe(false);
    await createService();
    // the new service is among the chosen values (a pill), and "Add New" never is
    await waitFor(() => expect(document.querySelector('.mantine-Pill-label')).toHaveTextContent('Seal change'));
    expect(screen.queryByText('Add New', { selector: '.mantine-Pill-label' })).toBeNull();
    expect(await servicesOf(session)).toEqual([{ title: 'Seal change', price: 40 }]);
  });
});
