import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { addLathe, chooseAddNew, createService, servicesOf } from '../../../web/test/add-new-steps';
import { QUOTATION_UI } from '../../quotations/ui/quotation-strings';
import { DocumentDrawer } from './document-drawer';

const server = realServer();

// Like the other pickers, a document line's Service and Part pickers offer "Add New": the dialog creates the
// record in place and the line takes it with its price.
describe("'Add New' in a document line's Service and Part pickers", () => {
  it('creates a service from the line and the line takes it and its price; the part picker offers it too', async () => {
    const session = await server.signIn('manager');
    await addLathe(session);
    const { calls } = session;
    renderWithProviders(<DocumentDrawer kind={QUOTATION_UI} id={null} onClose={() => {}} onSelect={() => {}} query={{}} onList={() => {}} />);
    await userEvent.click(await screen.findByTestId('q-services-add'));
    // "Add New" is offered to managers: the picker knows who is signed in once the app data has come
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/user/get-app-data' && c.status === 200)).toBe(true));
    await chooseAddNew('q-services-0-item');
    await createService();
    await waitFor(() => expect(screen.getByTestId('q-services-0-item')).toHaveValue('Seal change'));
    expect(screen.getByTestId('q-services-0-price')).toHaveValue('40');
    expect(await servicesOf(session)).toEqual([{ title: 'Seal change', price: 40 }]);

    await userEvent.click(screen.getByTestId('q-parts-add'));
    await chooseAddNew('q-parts-0-item');
    expect(await screen.findByTestId('part-create-modal')).toBeInTheDocument();
  }, 180_000);
});
