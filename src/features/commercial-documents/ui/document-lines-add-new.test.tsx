import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { chooseAddNew, createService, serviceRoutes } from '../../../web/test/add-new-steps';
import { QUOTATION_UI } from '../../quotations/ui/quotation-strings';
import { DocumentDrawer } from './document-drawer';

const manager = { loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [], customersVendors: [] };

// Like the other pickers, a document line's Service and Part pickers offer "Add New": the dialog creates the
// record in place and the line takes it with its price.
describe("'Add New' in a document line's Service and Part pickers", () => {
  it('creates a service from the line and the line takes it and its price; the part picker offers it too', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/quotations/get-tax-options': () => ({ body: [] }),
      ...serviceRoutes,
      'GET /api/parts/get-parts-options': () => ({ body: [{ value: 3, label: 'Seal kit', salesPrice: 5 }] }),
    });
    renderWithProviders(<DocumentDrawer kind={QUOTATION_UI} id={null} onClose={() => {}} onSelect={() => {}} query={{}} onList={() => {}} />);
    await userEvent.click(await screen.findByTestId('q-services-add'));
    await chooseAddNew('q-services-0-item');
    await createService();
    await waitFor(() => expect(screen.getByTestId('q-services-0-item')).toHaveValue('Seal change'));
    expect(screen.getByTestId('q-services-0-price')).toHaveValue('40');

    await userEvent.click(screen.getByTestId('q-parts-add'));
    await chooseAddNew('q-parts-0-item');
    expect(await screen.findByTestId('part-create-modal')).toBeInTheDocument();
  }, 60_000);
});
