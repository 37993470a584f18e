import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { WorkOrderDrawer } from '../../work-orders/ui/work-order-drawer';
import AssetsPage from '../../assets/ui/assets-page';
import type { UserDto } from '../users.schema';
import UsersPage from './users-page';

const person = (over: Partial<UserDto>): UserDto => ({
  id: 2,
  firstName: 'Marcus',
  lastName: 'Lee',
  email: 'marcus@acme.test',
  phoneNumber: null,
  jobTitle: null,
  role: 'worker',
  language: 'en',
  location: null,
  inviteStatus: 'ACTIVE',
  profilePicture: null,
  profilePictureLow: null,
  createdAt: '2026-11-26T06:00:00.000Z',
  related_workStations: [],
  related_assets: [],
  related_services: [],
  hourlyRate: null,
  ...over,
});
const manager = person({ id: 1, firstName: 'Ann', email: 'ann@acme.test', role: 'manager' });
const page = (rows: unknown[], key: string) => ({ [key]: rows, pagination: { totalRecords: rows.length, currentPage: 1, totalPages: 1 } });

describe("a user's related work stations, assets and services (spec section 3)", () => {
  it('a manager edits them in the user drawer: the current ones are shown and the ids are sent', async () => {
    const marcus = person({ related_workStations: [{ id: 5, name: 'Lathe' }], related_assets: [{ id: 7, name: 'Boiler' }], related_services: [] });
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: { loggedInUser: manager, workers: [manager, marcus] } }),
      'GET /api/user/getCompanyUsers': () => ({ body: page([manager, marcus], 'users') }),
      'GET /api/workstations/get-workstation-options': () => ({
        body: [
          { value: 5, label: 'Lathe' },
          { value: 6, label: 'Mill' },
        ],
      }),
      'GET /api/assets/get-assets-options': () => ({ body: [{ value: 7, label: 'Boiler' }] }),
      'GET /api/services/get-services-options': () => ({ body: [{ value: 9, label: 'Inspection', price: 10 }] }),
      'PUT /api/user/updateUser/2': () => ({ body: { user: marcus } }),
    });
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
    const body = JSON.parse(String(calls.find((c) => c.method === 'PUT')!.init.body));
    expect(body).toMatchObject({ related_workStations: [5, 6], related_assets: [7], related_services: [9] });
  });

  it('a worker sees no related fields in their own user drawer and sends none', async () => {
    const me = person({});
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: { loggedInUser: me, workers: [me] } }),
      'GET /api/user/getCompanyUsers': () => ({ body: page([me], 'users') }),
      'PUT /api/user/updateUser/2': () => ({ body: { user: me } }),
    });
    renderWithProviders(<UsersPage />);
    await userEvent.click(await screen.findByText('Marcus Lee'));
    await screen.findByTestId('user-save');
    expect(screen.queryByTestId('user-related-assets')).toBeNull();
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(Object.keys(JSON.parse(String(calls.find((c) => c.method === 'PUT')!.init.body)))).not.toContain('related_assets');
  });

  it('the work order drawer suggests the people related to the chosen asset first', async () => {
    const sofia = person({ id: 3, firstName: 'Sofia', lastName: 'Ruiz', related_assets: [{ id: 7, name: 'Boiler' }] });
    const marcus = person({});
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: { loggedInUser: manager, workers: [manager, marcus, sofia] } }),
      'GET /api/assets/get-assets-options': () => ({
        body: [
          { value: 7, label: 'Boiler' },
          { value: 8, label: 'Chiller' },
        ],
      }),
    });
    renderWithProviders(<WorkOrderDrawer id={null} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />);
    await userEvent.click(await screen.findByTestId('wo-asset'));
    await userEvent.click(await screen.findByRole('option', { name: 'Boiler' }));
    await userEvent.click(screen.getByTestId('wo-assignees'));
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getByText('Suggested')).toBeInTheDocument());
    const names = within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names[0]).toBe('Sofia Ruiz');
    expect(within(listbox).getByText('Others')).toBeInTheDocument();
  });

  it('"Only mine" on a list asks for the signed-in user\'s related records', async () => {
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: { loggedInUser: person({ id: 4 }), workers: [] } }),
      'GET /api/assets/get-assets': () => ({ body: page([], 'assets') }),
    });
    renderWithProviders(<AssetsPage />);
    await userEvent.click(await screen.findByTestId('filter-mine'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/assets/get-assets' && c.url.searchParams.get('relatedTo') === '4')).toBe(true));
  });
});
