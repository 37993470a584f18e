import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import WorkOrdersPage from './work-orders-page';

const manager = { loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [] };

function routes() {
  stubFetch({
    'GET /api/user/get-app-data': () => ({ body: manager }),
    'GET /api/work-orders/get-work-orders': () => ({ body: { workOrders: [], pagination: { totalRecords: 0, currentPage: 1, totalPages: 1 } } }),
    'GET /api/work-orders/get-statistics': () => ({ body: { statistics: { totalPending: 0, dueNext7Days: 0, highPriorityPending: 0 } } }),
  });
}
const headers = async () => {
  await screen.findByRole('columnheader', { name: 'WO-ID' });
  return screen.getAllByRole('columnheader').map((h) => h.textContent);
};

const matchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = matchMedia;
});

describe('the work order list columns by default', () => {
  it('on a desktop: WO-ID, status, title, priority, due date and assignees', async () => {
    routes();
    renderWithProviders(<WorkOrdersPage />);
    expect(await headers()).toEqual(['WO-ID', 'Status', 'Title', 'Priority', 'Due Date', 'Assignee']);
  });

  it('on a phone: WO-ID, status and title (the others in the column chooser)', async () => {
    window.matchMedia = vi.fn().mockImplementation((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }));
    routes();
    renderWithProviders(<WorkOrdersPage />);
    expect(await headers()).toEqual(['WO-ID', 'Status', 'Title']);
  });
});
