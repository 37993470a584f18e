import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderWithProviders } from '../../../web/test/render';
import { realServer, type RealSession } from '../../../web/test/real-api';
import TaxesPage from './taxes-page';
import AssetCategoriesPage from './asset-categories-page';

const server = realServer();

/** The organisation's "VAT 15%", through the API. */
const addVat = async ({ org }: RealSession) =>
  expect(
    (await org.admin.post('/api/taxes/add-tax', { name: 'VAT 15%', scope: 'sales', taxComputation: 'percentage_of_price', amount: 15, isPriceIncluded: false }))
      .status,
  ).toBe(201);

/** The master-data lists open the import wizard with their kind chosen, as the assets and parts lists do (decision 042). */
describe("a master-data list's Import entry", () => {
  it('a manager gets Import on the taxes list, which opens the wizard on the taxes kind', async () => {
    await addVat(await server.signIn('manager'));
    renderWithProviders(<TaxesPage />, { route: '/settings/taxes' });
    await screen.findByText('VAT 15%');
    await userEvent.click(await screen.findByTestId('import-list'));
    await waitFor(() => expect(currentLocation()).toBe('/settings/import-export?kind=taxes'));
  });

  it('a worker sees the list without Import', async () => {
    await addVat(await server.signIn('worker'));
    renderWithProviders(<TaxesPage />, { route: '/settings/taxes' });
    await screen.findByText('VAT 15%');
    expect(screen.queryByTestId('import-list')).toBeNull();
  });

  it('a page built by masterDataPage (asset categories) lists the records, offers Import and opens the drawer', async () => {
    const { org } = await server.signIn('manager');
    expect((await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Cooling Towers', code: 'CTW' })).status).toBe(201);
    renderWithProviders(<AssetCategoriesPage />, { route: '/settings/assets-category' });
    expect(await screen.findByTestId('import-list')).toBeTruthy();
    await userEvent.click(await screen.findByText('Cooling Towers'));
    expect(await screen.findByTestId('master-data-drawer')).toBeTruthy();
  });
});
