import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { Client, TestOrg } from '../../../server/test/harness';
import { masterRows } from '../../assets/test-fixtures';
import { WorkOrderDrawer } from '../../work-orders/ui/work-order-drawer';
import AssetsPage from '../../assets/ui/assets-page';
import type { UserDto } from '../users.schema';
import UsersPage from './users-page';

const server = realServer();

/** Work stations Lathe and Mill, assets Boiler and Chiller, the service Inspection (at the Lathe), through the API: their ids. */
async function records(org: TestOrg) {
  const m = await masterRows(server.test, org.orgId);
  const add = async (url: string, body: object, key: string) => {
    const res = await org.admin.post(url, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body[key].id as number;
  };
  const station = (code: string, name: string) => add('/api/workstations/add-workstation', { code, name, city: 'Oslo', teamId: m.team.id }, 'workStation');
  const asset = (name: string) => add('/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId: m.assetCategory.id }, 'asset');
  const lathe = await station('L1', 'Lathe');
  return {
    lathe,
    mill: await station('M1', 'Mill'),
    boiler: await asset('Boiler'),
    chiller: await asset('Chiller'),
    // a service is done at one work station at least
    inspection: await add(
      '/api/services/add-service',
      { title: 'Inspection', price: 10, workStations: [{ workStationId: lathe, operation: 'Inspect', timeRequired: '00:30' }] },
      'service',
    ),
  };
}

/** A user as the API lists them (by first name). */
const userNamed = async (c: Client, name: string) => (await c.get(`/api/user/getCompanyUsers?name=${name}`)).body.users[0] as UserDto;

/** Sets a user's related records through the API, as a manager (the other fields as they are). */
async function relate(
  org: TestOrg,
  userId: number,
  name: string,
  related: Partial<Record<'related_workStations' | 'related_assets' | 'related_services', number[]>>,
) {
  const u = await userNamed(org.admin, name);
  const res = await org.admin.put(`/api/user/updateUser/${userId}`, { firstName: u.firstName, lastName: u.lastName, email: u.email, role: u.role, ...related });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("a user's related work stations, assets and services (spec section 3)", () => {
  it('a manager edits them in the user drawer: the current ones are shown and the ids are sent', async () => {
    const { org, calls } = await server.signIn('manager', { fields: { firstName: 'Ann', lastName: 'Lee' } });
    const r = await records(org);
    const marcus = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
    await relate(org, marcus.userId, 'Marcus', { related_workStations: [r.lathe], related_assets: [r.boiler], related_services: [] });
    renderWithProviders(<UsersPage />);
    await userEvent.click(await screen.findByText('Marcus Lee'));
    const stations = await screen.findByTestId('user-related-workStations');
    await waitFor(() => expect(document.querySelectorAll('.mantine-Pill-label')).toHaveLength(2));
    expect(screen.getByText('Lathe', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    expect(screen.getByText('Boiler', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    await userEvent.click(stations);
    await userEvent.click(await screen.findByRole('option', { name: 'Mill' }));
    await userEvent.click(screen.getByTestId('user-related-services'));
    await userEvent.click(await screen.findByRole('option', { name: 'Inspection' }));
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ related_workStations: [r.lathe, r.mill], related_assets: [r.boiler], related_services: [r.inspection] });
    expect(put.status).toBe(200);
    // the server kept them
    expect(await userNamed(org.admin, 'Marcus')).toMatchObject({
      related_workStations: [
        { id: r.lathe, name: 'Lathe' },
        { id: r.mill, name: 'Mill' },
      ],
      related_assets: [{ id: r.boiler, name: 'Boiler' }],
      related_services: [{ id: r.inspection, title: 'Inspection' }],
    });
  });

  it('a worker sees no related fields in their own user drawer and sends none', async () => {
    const { org, user, calls } = await server.signIn('worker', { fields: { firstName: 'Marcus', lastName: 'Lee' } });
    const r = await records(org);
    await relate(org, user.userId, 'Marcus', { related_assets: [r.boiler] });
    renderWithProviders(<UsersPage />);
    await userEvent.click(await screen.findByText('Marcus Lee'));
    await screen.findByTestId('user-save');
    expect(screen.queryByTestId('user-related-assets')).toBeNull();
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(Object.keys(put.body as object)).not.toContain('related_assets');
    // saved (a worker may not send related records at all), and the manager's choice kept
    expect(put.status).toBe(200);
    expect((await userNamed(org.admin, 'Marcus')).related_assets).toEqual([{ id: r.boiler, name: 'Boiler' }]);
  });

  it('the work order drawer suggests the people related to the chosen asset first', async () => {
    const { org } = await server.signIn('manager', { fields: { firstName: 'Ann', lastName: 'Lee' } });
    const r = await records(org);
    await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
    const sofia = await org.as('worker', { firstName: 'Sofia', lastName: 'Ruiz' });
    await relate(org, sofia.userId, 'Sofia', { related_assets: [r.boiler] });
    renderWithProviders(<WorkOrderDrawer id={null} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />);
    await userEvent.click(await screen.findByTestId('wo-asset'));
    await userEvent.click(await screen.findByRole('option', { name: 'Boiler' }));
    // the people come with the app data: on a loaded machine the first click can come before them (no list to open);
    // a click on the searchable field only opens, so it is repeated until the list is there
    await waitFor(
      async () => {
        await userEvent.click(screen.getByTestId('wo-assignees'));
        expect(screen.getByRole('listbox')).toBeInTheDocument();
      },
      { timeout: 15_000 },
    );
    const listbox = screen.getByRole('listbox');
    await waitFor(() => expect(within(listbox).getByText('Suggested')).toBeInTheDocument());
    const names = within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names[0]).toBe('Sofia Ruiz');
    expect(names).toContain('Marcus Lee');
    expect(within(listbox).getByText('Others')).toBeInTheDocument();
  });

  it('"Only mine" on a list asks for the signed-in user\'s related records', async () => {
    const { org, user, calls } = await server.signIn('worker', { fields: { firstName: 'Marcus', lastName: 'Lee' } });
    const r = await records(org);
    await relate(org, user.userId, 'Marcus', { related_assets: [r.boiler] });
    renderWithProviders(<AssetsPage />);
    expect(await screen.findByText('Chiller')).toBeInTheDocument();
    await userEvent.click(await screen.findByTestId('filter-mine'));
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/assets/get-assets' && c.url.searchParams.get('relatedTo') === String(user.userId))).toBe(true),
    );
    // the server's answer: the user's Boiler only
    await waitFor(() => expect(screen.queryByText('Chiller')).toBeNull());
    expect(screen.getByText('Boiler')).toBeInTheDocument();
  });
});
