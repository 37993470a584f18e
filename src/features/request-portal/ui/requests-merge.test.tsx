import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import RequestsPage, { type PortalRequestDto } from './requests-page';

const manager = { loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [], customersVendors: [] };
const request = (id: number, description: string): PortalRequestDto => ({
  id,
  number: `PR-${String(id).padStart(4, '0')}`,
  description,
  urgency: 'normal',
  targetKind: 'asset',
  targetId: 3,
  targetName: 'Conveyor C-1',
  photos: [],
  name: null,
  email: 'bob@example.com',
  phone: null,
  status: 'received',
  declineReason: null,
  workOrderId: null,
  maintenanceRequestId: null,
  mergedIntoId: null,
  heldAt: null,
  createdAt: new Date().toISOString(),
  replies: [],
});

// Issue 46: the request merge picks a request by search, not by a typed id.
describe('merging a portal request', () => {
  it('finds the request to merge into by what the manager types and merges into the one picked', async () => {
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/portal/list-requests': () => ({
        body: { requests: [request(2, 'Belt noise')], pagination: { totalRecords: 1, currentPage: 1, totalPages: 1 } },
      }),
      'GET /api/portal/get-request/2': () => ({ body: { request: request(2, 'Belt noise') } }),
      'GET /api/portal/get-requests-options': (url) => ({
        body: url.searchParams.get('name') === 'slip' ? [{ value: 1, label: 'PR-0001 · Conveyor C-1 · Belt slipping' }] : [],
      }),
      'POST /api/portal/merge-request/2': () => ({ body: { message: 'Request merged', request: { ...request(2, 'Belt noise'), mergedIntoId: 1 } } }),
    });
    renderWithProviders(<RequestsPage />, { route: '/dashboard/requests?open=2' });
    const merge = await screen.findByTestId('portal-merge');
    expect(merge).toBeDisabled();
    await userEvent.type(screen.getByTestId('portal-merge-into'), 'slip');
    await userEvent.click(await screen.findByRole('option', { name: 'PR-0001 · Conveyor C-1 · Belt slipping' }));
    const searched = calls.filter((c) => c.url.pathname === '/api/portal/get-requests-options');
    expect(searched.at(-1)!.url.searchParams.get('excludeId')).toBe('2');
    await userEvent.click(merge);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/portal/merge-request/2')).toBe(true));
    const post = calls.find((c) => c.url.pathname === '/api/portal/merge-request/2')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ intoId: 1 });
  }, 60_000);
});
