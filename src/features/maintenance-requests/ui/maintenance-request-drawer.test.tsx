import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { MaintenanceRequestDto } from '../maintenance-requests.schema';
import { MaintenanceRequestDrawer } from './maintenance-request-drawer';

// The request drawer through the record-drawer skeleton (useRecordDrawer): the stale edit and the delete.
const manager = {
  loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' },
  workers: [{ id: 7, firstName: 'Marcus', lastName: 'Lee' }],
};
const requestDto = (over: Partial<MaintenanceRequestDto>): MaintenanceRequestDto => ({
  id: 1,
  maintenanceRequestId: 'MR-0001',
  title: 'Belt slipping',
  problemDescription: 'The conveyor belt slips under load',
  maintenanceType: 'corrective',
  type: 'corrective',
  requester: 'customer',
  requestorType: 'customer',
  customerId: null,
  Customer: null,
  priority: 'medium',
  state: 'new',
  assignedTo: 7,
  assignTo: 7,
  Worker: { id: 7, firstName: 'Marcus', lastName: 'Lee' },
  dateOfRequest: '2026-11-20T00:00:00.000Z',
  assetId: null,
  asset: null,
  failureReason: 'Worn belt',
  urgencyLevel: 'high',
  riskLevel: 'low',
  scheduleDate: null,
  frequency: null,
  sensorData: null,
  condition: null,
  images: [],
  documents: [],
  customerDocuments: [],
  maintenanceOrder: null,
  version: 3,
  createdAt: '2026-11-20T08:00:00.000Z',
  ...over,
});
const drawer = (over: { onClose?(): void; onList?(data: unknown): void } = {}) => (
  <MaintenanceRequestDrawer
    id={1}
    onClose={over.onClose ?? (() => {})}
    onCreated={() => {}}
    query={{ page: 2 }}
    onList={over.onList ?? (() => {})}
    invalidate={() => {}}
  />
);

describe('maintenance request drawer', () => {
  it('sends the loaded version; a 409 shows "changed by someone else" and Reload resets the form to the current request', async () => {
    const loaded = requestDto({});
    const current = requestDto({ title: 'Belt replaced by Bob', version: 4 });
    let served = loaded;
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/maintenance-requests/get-maintenance-request/1': () => ({ body: { maintenanceRequest: served } }),
      'PUT /api/maintenance-requests/update-maintenance-request/1': () => {
        served = current;
        return { status: 409, body: { error: 'This record was changed by someone else', current } };
      },
    });
    renderWithProviders(drawer());
    const title = await screen.findByTestId('mr-title', {}, { timeout: 20_000 });
    await waitFor(() => expect(title).toHaveValue('Belt slipping'), { timeout: 20_000 });
    await userEvent.clear(title);
    await userEvent.type(title, 'My edit');
    await userEvent.click(screen.getByTestId('save-button'));

    expect(await screen.findByTestId('stale-edit-alert', {}, { timeout: 20_000 })).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toMatchObject({ title: 'My edit', version: 3, failureReason: 'Worn belt' });
    expect(screen.getByTestId('mr-title')).toHaveValue('My edit');

    await userEvent.click(screen.getByTestId('stale-edit-reload'));
    await waitFor(() => expect(screen.getByTestId('mr-title')).toHaveValue('Belt replaced by Bob'), { timeout: 20_000 });
    expect(screen.queryByTestId('stale-edit-alert')).toBeNull();
  }, 120_000);

  it("Delete asks first, then hands the list's page to the list and closes", async () => {
    const list = { maintenanceRequests: [], pagination: { totalRecords: 0, currentPage: 2, totalPages: 1 } };
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/maintenance-requests/get-maintenance-request/1': () => ({ body: { maintenanceRequest: requestDto({}) } }),
      'DELETE /api/maintenance-requests/delete-maintenance-request/1': () => ({ body: list }),
    });
    let closed = 0;
    let listed: unknown;
    renderWithProviders(drawer({ onClose: () => closed++, onList: (data) => (listed = data) }));
    await userEvent.click(await screen.findByTestId('delete-button', {}, { timeout: 20_000 }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(await screen.findByTestId('confirm-yes', {}, { timeout: 20_000 }));
    await waitFor(() => expect(closed).toBe(1), { timeout: 20_000 });
    const del = calls.find((c) => c.method === 'DELETE')!;
    expect(del.url.searchParams.get('page')).toBe('2');
    expect(listed).toEqual(list);
    expect(await screen.findByText('Maintenance request deleted successfully', {}, { timeout: 20_000 })).toBeInTheDocument();
  }, 120_000);
});
