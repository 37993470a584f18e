import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, renderWithProviders, stubFetch } from '../test/render';
import type { Attention, LatestActivity } from '../../features/dashboard/dashboard.schema';
import { AnalyticsPage } from './analytics-page';

const appData = (role: string) => ({
  loggedInUser: { id: 1, role, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' },
  workers: [
    { id: 1, role: 'admin', firstName: 'Ann', lastName: 'Lee', inviteStatus: 'ACTIVE' },
    { id: 2, role: 'worker', firstName: 'Amal', lastName: 'Haddad', inviteStatus: 'ACTIVE' },
    { id: 3, role: 'worker', firstName: 'Omar', lastName: 'Saleh', inviteStatus: 'ACTIVE' },
  ],
  workOrders: [],
  assets: [],
  company: { currency: 'USD' },
});
const attention: Attention = { overdue: 3, dueToday: 2, openRequests: 5, pmDueThisWeek: 1, partsBelowMinimum: 4 };
const line = (over: Partial<LatestActivity>): LatestActivity => ({
  id: 1,
  action: 'updated',
  changes: null,
  note: null,
  createdAt: '2026-12-05T10:00:00Z',
  user: { id: 1, firstName: 'Ann', lastName: 'Lee' },
  contractor: null,
  entityType: 'work-order',
  entityId: 4,
  label: 'Work order #4',
  name: 'Replace pump seal',
  repeats: 1,
  ...over,
});
const latest = [line({ id: 9, repeats: 3 }), line({ id: 5, entityType: 'user', entityId: 5, label: 'User #5', name: 'Amal Haddad', action: 'created' })];

function routes(role = 'admin') {
  return stubFetch({
    'GET /api/user/get-app-data': () => ({ body: appData(role) }),
    'GET /api/dashboard/get-attention': () => ({ body: { attention } }),
    'GET /api/dashboard/get-latest-activity': () => ({ body: { activities: latest } }),
  });
}

describe('dashboard', () => {
  it('shows each figure of what needs attention as a link to its filtered list, in the reader time zone', { timeout: 60_000 }, async () => {
    const calls = routes();
    renderWithProviders(<AnalyticsPage />, { route: '/dashboard/analytics' });
    const overdue = await screen.findByTestId('attention-overdue', {}, { timeout: 30_000 });
    await waitFor(() => expect(overdue).toHaveTextContent('3'));
    expect(overdue).toHaveAttribute('href', '/dashboard/work-orders?due=overdue');
    expect(overdue).toHaveAccessibleName('Overdue work: 3. Open the list');
    // the visible text, words apart, is the start of that name (axe's label-content-name-mismatch)
    expect(overdue.textContent).toBe('Overdue work 3');
    expect(screen.getByTestId('attention-dueToday')).toHaveAttribute('href', '/dashboard/work-orders?due=today');
    expect(screen.getByTestId('attention-openRequests')).toHaveAttribute(
      'href',
      '/dashboard/maintenance-request?status=new&status=approved&status=in-progress',
    );
    expect(screen.getByTestId('attention-pmDueThisWeek')).toHaveAttribute('href', '/dashboard/work-orders?due=week&pm=true');
    expect(screen.getByTestId('attention-partsBelowMinimum')).toHaveAttribute('href', '/dashboard/parts-inventory?lowStock=true');
    const call = calls.find((c) => c.url.pathname === '/api/dashboard/get-attention')!;
    expect(call.url.searchParams.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await userEvent.click(screen.getByTestId('attention-partsBelowMinimum'));
    expect(currentLocation()).toBe('/dashboard/parts-inventory?lowStock=true');
  });

  it('the chart has a legend; the latest activity names its records and merges repeats', { timeout: 60_000 }, async () => {
    routes();
    renderWithProviders(<AnalyticsPage />, { route: '/dashboard/analytics' });
    const legend = await screen.findByTestId('chart-legend', {}, { timeout: 30_000 });
    await waitFor(() =>
      expect(
        within(legend)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Admin1', 'Manager0', 'Worker2']),
    );
    const activity = await screen.findByTestId('latest-activity');
    expect(activity).toHaveTextContent('WO-0004 Replace pump seal');
    expect(activity).toHaveTextContent('Amal Haddad');
    expect(activity).not.toHaveTextContent('#5');
    expect(
      within(activity)
        .getAllByTestId('activity-repeats')
        .map((b) => b.textContent),
    ).toEqual(['×3']);
    expect(within(activity).getByRole('link', { name: /WO-0004 Replace pump seal/ })).toHaveAttribute('href', '/dashboard/work-orders?open=4');
  });

  it('tells a worker the figures are their own orders', { timeout: 60_000 }, async () => {
    routes('worker');
    renderWithProviders(<AnalyticsPage />, { route: '/dashboard/analytics' });
    expect(await screen.findByText('(Your own work orders)', {}, { timeout: 30_000 })).toBeInTheDocument();
  });
});
