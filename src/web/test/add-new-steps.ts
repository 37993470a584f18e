import { expect } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RealSession } from './real-api';

/** What the service creation dialog needs, through the API: a work station "Lathe" (L1) of a team of the signed-in user. */
export async function addLathe({ org, user }: RealSession) {
  const team = await org.admin.post('/api/teams/add-team', {
    name: 'Turners',
    members: [{ workerId: user.userId, isTeamLead: true, isDefaultAssignee: true }],
  });
  expect(team.status).toBe(201);
  const station = await org.admin.post('/api/workstations/add-workstation', { code: 'L1', name: 'Lathe', city: 'Dayton', teamId: team.body.team.id });
  expect(station.status).toBe(201);
  return station.body.workStation as { id: number };
}

/** The services of the organisation, as the API lists them (title, price). */
export async function servicesOf({ org }: RealSession) {
  const list = await org.admin.get('/api/services/get-services?pageSize=100');
  return (list.body.services as { title: string; price: number }[]).map(({ title, price }) => ({ title, price: Number(price) }));
}

/** Opens a picker and chooses its "Add New" option. */
export async function chooseAddNew(testId: string) {
  await userEvent.click(screen.getByTestId(testId));
  await userEvent.click(await screen.findByRole('option', { name: 'Add New' }));
}

/** Fills the service creation dialog ("Seal change", 40, one operation at the Lathe) and saves it. */
export async function createService() {
  const dialog = await screen.findByTestId('service-create-modal');
  await userEvent.type(within(dialog).getByTestId('field-title'), 'Seal change');
  await userEvent.type(within(dialog).getByTestId('field-price'), '40');
  await userEvent.click(within(dialog).getByTestId('field-station-0'));
  await userEvent.click(await screen.findByRole('option', { name: 'Lathe' }));
  await userEvent.type(within(dialog).getByTestId('field-operation-0'), 'Change seals');
  await userEvent.type(within(dialog).getByTestId('field-time-0'), '01:00');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(screen.queryByTestId('service-create-modal')).toBeNull());
}
