import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { LocationDto } from '../stock.schema';
import StoreroomsPage from './storerooms-page';

const appData = (role: string) => () => ({ body: { loggedInUser: { id: 1, role, firstName: 'A', lastName: 'B' } } });
const main: LocationDto = {
  id: 1,
  name: 'Main store',
  kind: 'storeroom',
  isDefault: true,
  locationId: null,
  location: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const van: LocationDto = { id: 2, name: 'Van 1', kind: 'van', isDefault: false, locationId: null, location: null, createdAt: '2026-01-02T00:00:00.000Z' };
const listed = (locations: LocationDto[]) => ({ body: { locations, total: locations.length, page: 1, pageSize: 100 } });

describe('storerooms page', () => {
  it('a manager adds a van with the keyboard: name required first, then sent with its kind, a toast, the list again', { timeout: 60_000 }, async () => {
    let locations = [main];
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData('manager'),
      'GET /api/stock/get-locations': () => listed(locations),
      'POST /api/stock/add-location': (_u, init) => {
        const body = JSON.parse(String(init.body)) as { name: string; kind: LocationDto['kind'] };
        locations = [...locations, { ...van, ...body, id: 3 }];
        return { status: 201, body: { message: 'Location added successfully', location: locations[1] } };
      },
    });
    renderWithProviders(<StoreroomsPage />);
    expect(await screen.findByText('Main store')).toBeInTheDocument();
    expect(within(screen.getByTestId('storeroom-1')).getByText('Default')).toBeInTheDocument();
    await userEvent.click(await screen.findByTestId('add-storeroom'));
    const drawer = await screen.findByTestId('storeroom-drawer');
    await userEvent.click(within(drawer).getByTestId('save-storeroom'));
    expect(await within(drawer).findByText('Name is required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(within(drawer).getByTestId('field-name'), 'Van 2');
    await userEvent.click(within(drawer).getByTestId('field-kind'));
    await userEvent.click(await screen.findByRole('option', { name: 'Van' }));
    await userEvent.type(within(drawer).getByTestId('field-name'), '{Enter}');
    expect(await screen.findByText('Storeroom added successfully')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ name: 'Van 2', kind: 'van', locationId: null });
    expect(await screen.findByText('Van 2')).toBeInTheDocument();
  });

  it('deleting asks first; the default cannot be deleted', { timeout: 60_000 }, async () => {
    let locations = [main, van];
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData('manager'),
      'GET /api/stock/get-locations': () => listed(locations),
      'DELETE /api/stock/delete-location/2': () => {
        locations = [main];
        return { body: { message: 'Location deleted successfully', locations, total: 1, page: 1, pageSize: 25 } };
      },
    });
    renderWithProviders(<StoreroomsPage />);
    await userEvent.click(await screen.findByText('Main store'));
    expect(await screen.findByText(/The default storeroom/)).toBeInTheDocument();
    expect(screen.queryByTestId('delete-storeroom')).toBeNull();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('storeroom-drawer')).toBeNull());
    await userEvent.click(await screen.findByText('Van 1'));
    await userEvent.click(await screen.findByTestId('delete-storeroom'));
    const dialog = await screen.findByRole('dialog', { name: /delete/i }, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('Delete the storeroom "Van 1"?');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Storeroom deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Van 1')).toBeNull());
  });

  it('a worker reads the list without Add', { timeout: 60_000 }, async () => {
    stubFetch({ 'GET /api/user/get-app-data': appData('worker'), 'GET /api/stock/get-locations': () => listed([main, van]) });
    renderWithProviders(<StoreroomsPage />);
    expect(await screen.findByText('Van 1')).toBeInTheDocument();
    expect(screen.getByText('Van')).toBeInTheDocument();
    expect(screen.queryByTestId('add-storeroom')).toBeNull();
  });

  it('shows where each storeroom is, filters by a location (and under it), and moves a storeroom to another location', { timeout: 60_000 }, async () => {
    const cage: LocationDto = { ...van, id: 3, name: 'Line cage', locationId: 5, location: { id: 5, name: 'Hall A', path: 'Plant / Hall A' } };
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData('manager'),
      'GET /api/stock/get-locations': (url) => listed(url.searchParams.get('locationId') === '5' ? [cage] : [main, cage]),
      'GET /api/locations/get-location-options': () => ({
        body: [
          { value: 5, label: 'Hall A', path: 'Plant / Hall A', code: null },
          { value: 6, label: 'Hall B', path: 'Plant / Hall B', code: null },
        ],
      }),
      'PUT /api/stock/update-location/3': () => ({ body: { message: 'Location updated successfully', location: cage } }),
    });
    renderWithProviders(<StoreroomsPage />);
    expect(await screen.findByTestId('storeroom-3-location')).toHaveTextContent('Plant / Hall A');
    expect(screen.getByTestId('storeroom-1-location')).toHaveTextContent('');
    await userEvent.click(screen.getByTestId('filter-locationId'));
    await userEvent.click(await screen.findByRole('option', { name: 'Hall A' }));
    await waitFor(() => expect(screen.queryByText('Main store')).toBeNull());
    expect(calls.some((c) => c.url.pathname === '/api/stock/get-locations' && c.url.searchParams.get('locationId') === '5')).toBe(true);

    await userEvent.click(screen.getByText('Line cage'));
    const drawer = await screen.findByTestId('storeroom-drawer');
    expect(within(drawer).getByTestId('field-locationId')).toHaveValue('Hall A');
    await userEvent.click(within(drawer).getByTestId('field-locationId'));
    await userEvent.click(await screen.findByRole('option', { name: 'Hall B' }));
    await userEvent.click(within(drawer).getByTestId('save-storeroom'));
    expect(await screen.findByText('Storeroom updated successfully')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({ name: 'Line cage', kind: 'van', locationId: 6 });
  });
});
