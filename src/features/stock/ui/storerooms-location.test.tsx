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
    // the choice is in the form before Save (a loaded machine clicked Save first)
    await waitFor(() => expect(within(drawer).getByTestId('field-locationId')).toHaveValue('Hall B'));
    await userEvent.click(within(drawer).getByTestId('save-storeroom'));
    expect(await screen.findByText('Storeroom updated successfully')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({ name: 'Line cage', kind: 'van', locationId: 6 });
  });
});
