import { expect } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** The routes the service creation dialog needs (a work station to do it at), and the service it creates. */
export const serviceRoutes = {
  'GET /api/services/get-services-options': () => ({ body: [{ value: 1, label: 'Inspection', price: 10 }] }),
  'GET /api/workstations/get-workstation-options': () => ({ body: [{ value: 2, label: 'Lathe', code: 'L1' }] }),
  'POST /api/services/add-service': () => ({ status: 201, body: { service: { id: 9, title: 'Seal change', price: 40 } } }),
};

/** Opens a picker and chooses its "Add New" option. */
export async function chooseAddNew(testId: string) {
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.click(await screen.findByRole('option', { name: 'Add New' }));
}

/** Fills the service creation dialog ("Seal change", 40, one operation at the Lathe) and saves it. */
export async function createService() {
  const dialog = await screen.findByTestId('service-create-modal', {}, { timeout: 15_000 });
  await userEvent.type(within(dialog).getByTestId('field-title'), 'Seal change');
  await userEvent.type(within(dialog).getByTestId('field-price'), '40');
  await userEvent.click(within(dialog).getByTestId('field-station-0'));
  await userEvent.click(await screen.findByRole('option', { name: 'Lathe' }));
  await userEvent.type(within(dialog).getByTestId('field-operation-0'), 'Change seals');
  await userEvent.type(within(dialog).getByTestId('field-time-0'), '01:00');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(screen.queryByTestId('service-create-modal')).toBeNull());
}
