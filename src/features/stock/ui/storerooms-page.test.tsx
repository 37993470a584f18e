import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { LocationDto } from '../stock.schema';
import StoreroomsPage from './storerooms-page';

const server = realServer();

/** The organisation's locations as the API lists them. */
const locations = async (client: { get(url: string): Promise<{ body: { locations: LocationDto[] } }> }) =>
  (await client.get('/api/stock/get-locations?pageSize=100')).body.locations.map((l) => ({ name: l.name, kind: l.kind, isDefault: l.isDefault }));

/**
 * The storeroom list: queries are scoped to it, as the stock valuation below it (a manager's, shown once the role is
 * known) names every storeroom too, and a run that reads the page after it came would find each name twice.
 */
const inList = async () => within(await screen.findByTestId('storeroom-list'));

describe('storerooms page (on the real server)', () => {
  it('a manager adds a van with the keyboard: name required first, then saved with its kind, a toast, the list again', async () => {
    const { org, calls } = await server.signIn('manager');
    await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' });
    renderWithProviders(<StoreroomsPage />);
    expect(await (await inList()).findByText('Main store')).toBeInTheDocument();
    expect(within((await inList()).getByText('Main store').closest('tr')!).getByText('Default')).toBeInTheDocument();
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
    expect(await (await inList()).findByText('Van 2')).toBeInTheDocument();
    // saved as sent: a van, not the default
    expect(await locations(org.admin)).toEqual([
      { name: 'Main store', kind: 'storeroom', isDefault: true },
      { name: 'Van 2', kind: 'van', isDefault: false },
    ]);
  });

  it("a name already taken: the server's message on the field, and nothing added", async () => {
    const { org } = await server.signIn('manager');
    await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' });
    renderWithProviders(<StoreroomsPage />);
    await userEvent.click(await screen.findByTestId('add-storeroom'));
    const drawer = await screen.findByTestId('storeroom-drawer');
    await userEvent.type(within(drawer).getByTestId('field-name'), 'Main store{Enter}');
    expect(await within(drawer).findByText('A location with this name already exists')).toBeInTheDocument();
    expect(screen.getByTestId('storeroom-drawer')).toBeInTheDocument();
    expect(await locations(org.admin)).toHaveLength(1);
  });

  it('deleting asks first; the default cannot be deleted', async () => {
    const { org, calls } = await server.signIn('manager');
    await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' });
    await org.admin.post('/api/stock/add-location', { name: 'Van 1', kind: 'van' });
    renderWithProviders(<StoreroomsPage />);
    await userEvent.click(await (await inList()).findByText('Main store'));
    expect(await screen.findByText(/The default storeroom/)).toBeInTheDocument();
    expect(screen.queryByTestId('delete-storeroom')).toBeNull();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('storeroom-drawer')).toBeNull());
    await userEvent.click(await (await inList()).findByText('Van 1'));
    await userEvent.click(await screen.findByTestId('delete-storeroom'));
    const dialog = await screen.findByRole('dialog', { name: /delete/i });
    expect(dialog).toHaveTextContent('Delete the storeroom "Van 1"?');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Storeroom deleted successfully')).toBeInTheDocument();
    await waitFor(async () => expect((await inList()).queryByText('Van 1')).toBeNull());
    expect(await locations(org.admin)).toEqual([{ name: 'Main store', kind: 'storeroom', isDefault: true }]);
  });

  it('a worker reads the list without Add', async () => {
    const { org } = await server.signIn('worker');
    await org.admin.post('/api/stock/add-location', { name: 'Main store', kind: 'storeroom' });
    await org.admin.post('/api/stock/add-location', { name: 'Van 1', kind: 'van' });
    renderWithProviders(<StoreroomsPage />);
    expect(await screen.findByText('Van 1')).toBeInTheDocument();
    expect(screen.getByText('Van')).toBeInTheDocument();
    expect(screen.queryByTestId('add-storeroom')).toBeNull();
  });
});
