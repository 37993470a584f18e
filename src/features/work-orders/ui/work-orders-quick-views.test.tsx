import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderWithProviders } from '../../../web/test/render';
import { realServer, type RealCall } from '../../../web/test/real-api';
import WorkOrdersPage from './work-orders-page';

const server = realServer();

/** A manager of a new organisation (no work orders yet) signed in: the component's calls. */
async function routes() {
  return (await server.signIn('manager')).calls;
}
const lastListQuery = (calls: RealCall[]) => calls.filter((c) => c.url.pathname === '/api/work-orders/get-work-orders').at(-1)!.url.searchParams;

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the page.
describe('the work order list quick views', () => {
  it(
    "a dashboard link's filters arrive through the URL, reach the API with the reader's time zone, and show as chosen views",
    { timeout: 180_000 },
    async () => {
      const calls = await routes();
      renderWithProviders(<WorkOrdersPage />, { route: '/dashboard/work-orders?due=week&pm=true' });
      await waitFor(() => expect(lastListQuery(calls).get('due')).toBe('week'), { timeout: 30_000 });
      expect(lastListQuery(calls).get('pm')).toBe('true');
      expect(lastListQuery(calls).get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(screen.getByRole('checkbox', { name: 'Due this week' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'Preventive' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'Overdue' })).not.toBeChecked();
    },
  );

  it('mine, overdue and unassigned set the query string; due views replace each other; a second click clears', { timeout: 180_000 }, async () => {
    const calls = await routes();
    renderWithProviders(<WorkOrdersPage />, { route: '/dashboard/work-orders' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Mine' }, { timeout: 30_000 }));
    expect(currentLocation()).toBe('/dashboard/work-orders?assigned=me');
    await user.click(screen.getByRole('checkbox', { name: 'Overdue' }));
    await user.click(screen.getByRole('checkbox', { name: 'Due this week' }));
    expect(new URLSearchParams(currentLocation().split('?')[1]).get('due')).toBe('week');
    await user.click(screen.getByRole('checkbox', { name: 'Unassigned' }));
    expect(new URLSearchParams(currentLocation().split('?')[1]).get('assigned')).toBe('none');
    await waitFor(() => expect(lastListQuery(calls).get('assigned')).toBe('none'));
    await user.click(screen.getByRole('checkbox', { name: 'Unassigned' }));
    expect(new URLSearchParams(currentLocation().split('?')[1]).get('assigned')).toBeNull();
  });
});

describe('the work order list location filter (decision 072)', () => {
  it('a location in the URL reaches the API as locationId, and the picker sets it', { timeout: 180_000 }, async () => {
    const { org, calls } = await server.signIn('manager');
    const place = async (name: string, parentId: number | null) => {
      const res = await org.admin.post('/api/locations/add-location', { name, parentId });
      expect(res.status).toBe(201);
      return res.body.location.id as number;
    };
    const plant = await place('Plant', null);
    const hallA = await place('Hall A', plant);
    const hallB = await place('Hall B', plant);
    renderWithProviders(<WorkOrdersPage />, { route: `/dashboard/work-orders?locationId=${hallA}` });
    await waitFor(() => expect(lastListQuery(calls).get('locationId')).toBe(String(hallA)), { timeout: 30_000 });
    // after a reload the filter names the location, never a bare "#id"
    await waitFor(() => expect(screen.getByTestId('filter-locationId')).toHaveValue('Hall A'));
    const user = userEvent.setup();
    await user.click(screen.getByTestId('filter-locationId'));
    await user.click(await screen.findByRole('option', { name: /Hall B/ }));
    await waitFor(() => expect(lastListQuery(calls).get('locationId')).toBe(String(hallB)));
    expect(new URLSearchParams(currentLocation().split('?')[1]).get('locationId')).toBe(String(hallB));
  });
});
