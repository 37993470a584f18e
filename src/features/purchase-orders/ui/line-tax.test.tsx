import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import PurchaseOrdersPage from './purchase-orders-page';

const server = realServer();

// A loaded machine (several runs on two cores) took over the project's 60 s for the page, the form and the picker.
describe('a purchase order line', { timeout: 180_000 }, () => {
  it('clears "Tax is required" as soon as a tax is picked, after a Save was tried', async () => {
    const { org } = await server.signIn('manager');
    const tax = { name: 'Purchase 5%', scope: 'purchase', taxComputation: 'percentage_of_price', amount: 5, isPriceIncluded: false };
    expect((await org.admin.post('/api/taxes/add-tax', tax)).status).toBe(201);
    renderWithProviders(<PurchaseOrdersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Purchase Order' }));
    const services = await screen.findByTestId('po-services');
    await userEvent.click(screen.getByTestId('po-services-add'));
    await userEvent.click(screen.getByTestId('po-save'));
    await waitFor(() => expect(within(services).getByText('Tax is required')).toBeInTheDocument());

    await userEvent.click(screen.getByTestId('po-services-0-tax'));
    await userEvent.click(await screen.findByRole('option', { name: 'Purchase 5%' }));
    await waitFor(() => expect(within(services).queryByText('Tax is required')).toBeNull());
    // nothing was saved: the order is still invalid (no vendor, no service)
    expect((await org.admin.get('/api/purchase-orders/get-purchase-orders')).body.purchaseOrders).toEqual([]);
  });
});
