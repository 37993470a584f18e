import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer, type RealSession } from '../../../web/test/real-api';
import type { LocationDto } from '../stock.schema';
import StoreroomsPage from './storerooms-page';

const server = realServer();

/** A place of the organisation's location tree, through the API: its id. */
async function addPlace(session: RealSession, name: string, parentId: number | null) {
  const res = await session.org.admin.post('/api/locations/add-location', { name, parentId });
  expect(res.status).toBe(201);
  return res.body.location.id as number;
}

/** A storeroom, through the API: its id. */
async function addStoreroom(session: RealSession, body: { name: string; kind: string; locationId?: number }) {
  const res = await session.org.admin.post('/api/stock/add-location', body);
  expect(res.status).toBe(201);
  return res.body.location.id as number;
}

// A loaded machine (several runs on two cores) took over the project's 60 s for the app, the page and the drawer.
describe('storerooms page', () => {
  it('shows where each storeroom is, filters by a location (and under it), and moves a storeroom to another location', { timeout: 180_000 }, async () => {
    const session = await server.signIn('manager');
    const { org, calls } = session;
    const plant = await addPlace(session, 'Plant', null);
    const hallA = await addPlace(session, 'Hall A', plant);
    const hallB = await addPlace(session, 'Hall B', plant);
    const main = await addStoreroom(session, { name: 'Main store', kind: 'storeroom' });
    const cage = await addStoreroom(session, { name: 'Line cage', kind: 'van', locationId: hallA });
    renderWithProviders(<StoreroomsPage />);
    expect(await screen.findByTestId(`storeroom-${cage}-location`)).toHaveTextContent('Plant / Hall A');
    expect(screen.getByTestId(`storeroom-${main}-location`)).toHaveTextContent('');
    // the stock valuation (shown once the manager's role is known) names every storeroom: waited for, so each run reads alike
    await screen.findByTestId('stock-valuation', {}, { timeout: 20_000 });
    await userEvent.click(screen.getByTestId('filter-locationId'));
    await userEvent.click(await screen.findByRole('option', { name: 'Hall A' }));
    // the filter holds the choice (a loaded machine once showed the whole list again after the filtered one)
    await waitFor(() => expect(screen.getByTestId('filter-locationId')).toHaveValue('Hall A'), { timeout: 10_000 });
    // a call is recorded once answered: the filtered list has come, with the storeroom of Hall A only
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/stock/get-locations' && c.url.searchParams.get('locationId') === String(hallA))).toBe(true),
    );
    // read in the storeroom list only, not in the valuation below it
    const list = () => within(screen.getByTestId('storeroom-list'));
    await waitFor(() => expect(list().queryByText('Main store')).toBeNull(), { timeout: 10_000 });
    expect(list().getByText('Line cage')).toBeInTheDocument();
    expect(screen.getByTestId('filter-locationId')).toHaveValue('Hall A');

    await userEvent.click(list().getByText('Line cage'));
    const drawer = await screen.findByTestId('storeroom-drawer');
    expect(within(drawer).getByTestId('field-locationId')).toHaveValue('Hall A');
    await userEvent.click(within(drawer).getByTestId('field-locationId'));
    await userEvent.click(await screen.findByRole('option', { name: 'Hall B' }));
    // the choice is in the form before Save (a loaded machine clicked Save first)
    await waitFor(() => expect(within(drawer).getByTestId('field-locationId')).toHaveValue('Hall B'));
    await userEvent.click(within(drawer).getByTestId('save-storeroom'));
    expect(await screen.findByText('Storeroom updated successfully')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ name: 'Line cage', kind: 'van', locationId: hallB });
    expect(put.status).toBe(200);
    const stored = (await org.admin.get('/api/stock/get-locations?pageSize=100')).body.locations as LocationDto[];
    expect(stored.find((l) => l.id === cage)).toMatchObject({ locationId: hallB, location: { name: 'Hall B', path: 'Plant / Hall B' } });
  });
});
