import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
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
      'GET /api/services/get-services-options': () => ({ body: [{ value: 1, label: 'Inspection', price: 10 }] }),
      'GET /api/parts/get-parts-options': () => ({ body: [{ value: 3, label: 'Seal kit', salesPrice: 5 }] }),
      'GET /api/workstations/get-workstation-options': () => ({ body: [{ value: 2, label: 'Lathe', code: 'L1' }] }),
      'POST /api/services/add-service': () => ({ status: 201, body: { service: { id: 9, title: 'Seal change', price: 40 } } }),
    });
    renderWithProviders(<DocumentDrawer kind={QUOTATION_UI} id={null} onClose={() => {}} onSelect={() => {}} query={{}} onList={() => {}} />);
    await userEvent.click(await screen.findByTestId('q-services-add'));
    await userEvent.click(screen.getByTestId('q-services-0-item'));
    await userEvent.click(await screen.findByRole('option', { name: 'Add New' }));
    const dialog = await screen.findByTestId('service-create-modal');
    await userEvent.type(within(dialog).getByTestId('field-title'), 'Seal change');
    await userEvent.type(within(dialog).getByTestId('field-price'), '40');
    await userEvent.click(within(dialog).getByTestId('field-station-0'));
    await userEvent.click(await screen.findByRole('option', { name: 'Lathe' }));
    await userEvent.type(within(dialog).getByTestId('field-operation-0'), 'Change seals');
    await userEvent.type(within(dialog).getByTestId('field-time-0'), '01:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByTestId('service-create-modal')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('q-services-0-item')).toHaveValue('Seal change'));
    expect(screen.getByTestId('q-services-0-price')).toHaveValue('40');

    await userEvent.click(screen.getByTestId('q-parts-add'));
    await userEvent.click(screen.getByTestId('q-parts-0-item'));
    await userEvent.click(await screen.findByRole('option', { name: 'Add New' }));
    expect(await screen.findByTestId('part-create-modal')).toBeInTheDocument();
  }, 60_000);
});
