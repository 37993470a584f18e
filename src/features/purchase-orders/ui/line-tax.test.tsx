import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import PurchaseOrdersPage from './purchase-orders-page';

const manager = {
  loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' },
  workers: [],
  company: { currency: 'USD' },
};

describe('a purchase order line', () => {
  it('clears "Tax is required" as soon as a tax is picked, after a Save was tried', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/purchase-orders/get-purchase-orders': () => ({ body: { purchaseOrders: [], pagination: { totalRecords: 0, currentPage: 1, totalPages: 1 } } }),
      'GET /api/purchase-orders/get-tax-options': () => ({
        body: [{ value: 5, label: 'Purchase 5%', taxComputation: 'percentage_of_price', amount: 5, isPriceIncluded: false, Children: [] }],
      }),
      'GET /api/services/get-services-options': () => ({ body: [{ value: 9, label: 'Seal change', price: 40 }] }),
      'GET /api/customer-vendors/get-customer-vendor-options': () => ({ body: [] }),
    });
    renderWithProviders(<PurchaseOrdersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Purchase Order' }));
    const services = await screen.findByTestId('po-services');
    await userEvent.click(screen.getByTestId('po-services-add'));
    await userEvent.click(screen.getByTestId('po-save'));
    await waitFor(() => expect(within(services).getByText('Tax is required')).toBeInTheDocument());

    await userEvent.click(screen.getByTestId('po-services-0-tax'));
    await userEvent.click(await screen.findByRole('option', { name: 'Purchase 5%' }));
    await waitFor(() => expect(within(services).queryByText('Tax is required')).toBeNull());
  });
});
