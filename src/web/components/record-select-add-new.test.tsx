import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../test/render';
import { chooseAddNew, createService, serviceRoutes } from '../test/add-new-steps';
import { WorkOrderDrawer } from '../../features/work-orders/ui/work-order-drawer';
import { MaintenanceOrderDrawer } from '../../features/maintenance-orders/ui/maintenance-order-drawer';
import { MaintenanceRequestDrawer } from '../../features/maintenance-requests/ui/maintenance-request-drawer';

const manager = { loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [], customersVendors: [] };
const listBody = { pagination: { totalRecords: 0, currentPage: 1, totalPages: 1 } };
const drawerProps = { id: null, onClose: () => {}, onCreated: () => {}, query: {}, onList: () => {}, invalidate: () => {} };

/** The routes the asset creation dialog needs, and the new asset it creates. */
function assetRoutes() {
  return {
    'GET /api/user/get-app-data': () => ({ body: manager }),
    'GET /api/assets/get-assets-options': () => ({ body: [{ value: 1, label: 'Boiler', assetId: 'AS-0001' }] }),
    'GET /api/asset-categories/get-asset-categories': () => ({ body: { assetCategories: [{ id: 4, code: 'PMP', name: 'Pumps' }], ...listBody } }),
    'POST /api/assets/add-asset': () => ({ status: 201, body: { asset: { id: 7, assetId: 'AS-0007', name: 'Feed pump' } } }),
  };
}

async function createAsset() {
  const dialog = await screen.findByTestId('asset-create-modal', {}, { timeout: 15_000 });
  await userEvent.type(within(dialog).getByTestId('field-name'), 'Feed pump');
  await userEvent.click(within(dialog).getByTestId('field-assetCategoryId'));
  await userEvent.click(await screen.findByRole('option', { name: 'PMP · Pumps' }));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(screen.queryByTestId('asset-create-modal')).toBeNull());
}

describe("'Add New' (value 0) in the asset and service selects of the order and request drawers", { timeout: 60_000 }, () => {
  it('work order: Add New opens the asset dialog, and the new asset is selected and saved with the order', async () => {
    const calls = stubFetch({
      ...assetRoutes(),
      'POST /api/work-orders/add-work-order': () => ({ status: 201, body: { workOrder: { id: 3 }, workOrders: [], ...listBody } }),
    });
    renderWithProviders(<WorkOrderDrawer {...drawerProps} />);
    await userEvent.type(await screen.findByTestId('wo-title'), 'Check the pump');
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/user/get-app-data')).toBe(true));
    await chooseAddNew('wo-asset');
    await createAsset();
    await waitFor(() => expect(screen.getByTestId('wo-asset')).toHaveValue('Feed pump'));
    await userEvent.click(screen.getByTestId('save-button'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/work-orders/add-work-order')).toBe(true));
    const post = calls.find((c) => c.url.pathname === '/api/work-orders/add-work-order')!;
    expect(JSON.parse(String(post.init.body))).toMatchObject({ title: 'Check the pump', assetId: 7 });
  });

  it('maintenance request: Add New in the asset select selects the created asset', async () => {
    stubFetch(assetRoutes());
    renderWithProviders(<MaintenanceRequestDrawer {...drawerProps} />);
    await userEvent.click(await screen.findByTestId('mr-requester'));
    await userEvent.click(await screen.findByRole('option', { name: 'Employee' }));
    await chooseAddNew('mr-asset');
    await createAsset();
    await waitFor(() => expect(screen.getByTestId('mr-asset')).toHaveValue('Feed pump'));
  });

  it('maintenance order: Add New in the asset and the services selects creates and selects each', async () => {
    const calls = stubFetch({
      ...assetRoutes(),
      ...serviceRoutes,
    });
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
  });
});
