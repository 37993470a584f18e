import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import MaintenanceRequestsPage from '../../maintenance-requests/ui/maintenance-requests-page';
import { MaintenanceOrderDrawer } from './maintenance-order-drawer';

const manager = { loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [] };
const request = {
  id: 4,
  maintenanceRequestId: 'MR-0004',
  title: 'Pump noise',
  state: 'approved',
  maintenanceType: 'preventive',
  assetId: 7,
  asset: { id: 7, name: 'Boiler' },
  scheduleDate: '2099-05-01T00:00:00.000Z',
  maintenanceOrder: null,
};

describe("'Create Order' on an approved request (decision 037)", () => {
  it("opens the order form pre-filled from the request and creates the order only on Save, with the form's fields", { timeout: 45_000 }, async () => {
    let created: number | undefined;
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/maintenance-requests/get-maintenance-request/4': () => ({ body: { maintenanceRequest: request } }),
      'GET /api/services/get-services-options': () => ({ body: [{ value: 9, label: 'Seal change', price: 40 }] }),
      'POST /api/maintenance-requests/create-order/4': () => ({ status: 201, body: { maintenanceOrder: { id: 12 } } }),
    });
    renderWithProviders(
      <MaintenanceOrderDrawer
        id={null}
        fromRequest={4}
        onClose={() => {}}
        onCreated={(id) => (created = id)}
        query={{}}
        onList={() => {}}
        invalidate={() => {}}
      />,
    );
    await waitFor(() => expect(screen.getByTestId('mo-request')).toHaveValue('MR-0004 Pump noise'));
    expect(screen.getByTestId('mo-request')).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId('mo-asset')).toHaveValue('Boiler'));
    expect(screen.getByTestId('mo-type')).toHaveValue('Preventive');
    expect(screen.getByTestId('mo-schedule')).toHaveValue('01 May 2099');

    // Save with the order's own rules unmet: its messages, and nothing sent
    await userEvent.click(screen.getByTestId('save-button'));
    expect(await screen.findByText('Select at least one service')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByTestId('mo-services'));
    await userEvent.click(await screen.findByRole('option', { name: 'Seal change' }));
    for (const [id, day] of [
      ['mo-due', '08 May 2099'],
      ['mo-completion', '09 May 2099'],
    ]) {
      const input = screen.getByTestId(id);
      // Pasted: typing the day key by key re-renders the calendar each time (slow in jsdom).
      await userEvent.click(input);
      await userEvent.paste(day);
      fireEvent.blur(input);
    }
    await userEvent.click(screen.getByTestId('save-button'));
    await waitFor(() => expect(created).toBe(12));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/maintenance-requests/create-order/4');
    const body = JSON.parse(String(post.init.body));
    expect(body).toMatchObject({ maintenanceType: 'preventive', assetId: 7, services: [9] });
    expect(body.maintenanceRequestId).toBeUndefined();
    expect(body.dueDate).toMatch(/^2099-05-08/);
  });

  it('the requests status filter offers Approved', async () => {
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/maintenance-requests/get-maintenance-requests': () => ({
        body: {
          maintenanceRequests: [],
          pagination: { totalRecords: 0, currentPage: 1, totalPages: 1 },
          statistics: {
            totalNewRequests: 0,
            totalApprovedRequests: 0,
            approvedVsRejected: { approved: 0, rejected: 0 },
            employeeVsCustomer: { employee: 0, customer: 0 },
            unassignedRequests: 0,
          },
        },
      }),
    });
    // the requests ready for an order, named Approved (the filter's chip carries the option's label)
    renderWithProviders(<MaintenanceRequestsPage />, { route: '/?status=approved' });
    await waitFor(() =>
      expect([...screen.getByTestId('filter-status').querySelectorAll('.mantine-Pill-label')].map((e) => e.textContent)).toEqual(['Approved']),
    );
  });
});
