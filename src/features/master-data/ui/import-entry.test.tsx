import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderWithProviders, stubFetch } from '../../../web/test/render';
import TaxesPage from './taxes-page';

const user = (role: string) => ({ id: 1, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test', role, language: 'en' });
const vat = { id: 3, name: 'VAT 15%', scope: 'sales', taxComputation: 'percentage_of_price', amount: 15, sequence: 1, Children: [] };

/** The master-data lists open the import wizard with their kind chosen, as the assets and parts lists do (decision 042). */
describe("a master-data list's Import entry", () => {
  it('a manager gets Import on the taxes list, which opens the wizard on the taxes kind', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: { loggedInUser: user('manager'), workers: [] } }),
      'GET /api/taxes/get-taxes': () => ({ body: { taxes: [vat] } }),
    });
    renderWithProviders(<TaxesPage />, { route: '/settings/taxes' });
    await screen.findByText('VAT 15%');
    await userEvent.click(await screen.findByTestId('import-list'));
    await waitFor(() => expect(currentLocation()).toBe('/settings/import-export?kind=taxes'));
  });

  it('a worker sees the list without Import', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: { loggedInUser: user('worker'), workers: [] } }),
      'GET /api/taxes/get-taxes': () => ({ body: { taxes: [vat] } }),
    });
    renderWithProviders(<TaxesPage />, { route: '/settings/taxes' });
    await screen.findByText('VAT 15%');
    expect(screen.queryByTestId('import-list')).toBeNull();
  });
});
