import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { reloadStaleEdit, saveStaleTitle } from '../../../web/test/stale-edit';
import type { TestOrg } from '../../../server/test/harness';
import { correctiveRequest } from '../../../server/test/fixtures';
import type { MaintenanceRequestDto } from '../maintenance-requests.schema';
import { catalogue } from '../test-fixtures';
import { MaintenanceRequestDrawer } from './maintenance-request-drawer';

// The request drawer through the record-drawer skeleton (useRecordDrawer): the stale edit and the delete.
const server = realServer();
const B = '/api/maintenance-requests';

/** Through the API: the corrective request "Belt slipping" (a worn belt), assigned to Marcus Lee. */
async function beltRequest(org: TestOrg) {
  const refs = await catalogue(server.test, org.orgId);
  const marcus = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
  const added = await org.admin.post(
    `${B}/add-maintenance-request`,
    correctiveRequest(refs, { title: 'Belt slipping', problemDescription: 'The conveyor belt slips under load', assignedTo: marcus.userId }),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { refs, request: added.body.maintenanceRequest as MaintenanceRequestDto };
}

const requestOf = async (org: TestOrg, id: number) =>
  (await org.admin.get(`${B}/get-maintenance-request/${id}`)).body.maintenanceRequest as MaintenanceRequestDto;

const drawer = (id: number, over: { onClose?(): void; onList?(data: unknown): void } = {}) => (
  <MaintenanceRequestDrawer
    id={id}
    onClose={over.onClose ?? (() => {})}
    onCreated={() => {}}
    query={{ page: 2 }}
    onList={over.onList ?? (() => {})}
    invalidate={() => {}}
  />
);

describe('maintenance request drawer', () => {
  it('sends the loaded version; a 409 shows "changed by someone else" and Reload resets the form to the current request', async () => {
    const { org, calls } = await server.signIn('manager');
    const { refs, request } = await beltRequest(org);
    renderWithProviders(drawer(request.id));
    const title = await screen.findByTestId('mr-title');
    await waitFor(() => expect(title).toHaveValue('Belt slipping'));
    // Bob (the admin) saves his edit of the same version meanwhile, through the API.
    const bob = await org.admin.put(
      `${B}/update-maintenance-request/${request.id}`,
      correctiveRequest(refs, {
        title: 'Belt replaced by Bob',
        problemDescription: request.problemDescription,
        assignedTo: request.assignedTo,
        version: request.version,
      }),
    );
    expect(bob.status, JSON.stringify(bob.body)).toBe(200);
    const put = await saveStaleTitle('mr-title', calls);
    expect(put.body).toMatchObject({ title: 'My edit', version: request.version, failureReason: 'Worn belt' });

    await reloadStaleEdit('mr-title', 'Belt replaced by Bob');
    // the server kept Bob's edit, not the refused one
    expect(await requestOf(org, request.id)).toMatchObject({ title: 'Belt replaced by Bob', version: request.version + 1 });
  });

  it("Delete asks first, then hands the list's page to the list and closes", async () => {
    const { org, calls } = await server.signIn('manager');
    const { request } = await beltRequest(org);
    let closed = 0;
    let listed: unknown;
    renderWithProviders(drawer(request.id, { onClose: () => closed++, onList: (data) => (listed = data) }));
    await userEvent.click(await screen.findByTestId('delete-button'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    await waitFor(() => expect(closed).toBe(1));
    const del = calls.find((c) => c.method === 'DELETE')!;
    expect(del.url.searchParams.get('page')).toBe('2');
    expect(del.status).toBe(200);
    expect(await screen.findByText('Maintenance request deleted successfully')).toBeInTheDocument();
    // the list handed on is the server's answer: its page 2 after the delete (with the delete's message); the request is gone
    expect(listed).toEqual({ ...(await org.admin.get(`${B}/get-maintenance-requests?page=2`)).body, message: expect.any(String) });
    expect(listed).toMatchObject({ maintenanceRequests: [], pagination: { totalRecords: 0 } });
    expect((await org.admin.get(`${B}/get-maintenance-request/${request.id}`)).status).toBe(404);
  });
});
