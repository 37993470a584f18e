import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { correctiveRequest } from '../../../server/test/fixtures';
import { addLathe } from '../../../web/test/add-new-steps';
import MaintenanceRequestsPage from '../../maintenance-requests/ui/maintenance-requests-page';
import { MaintenanceOrderDrawer } from './maintenance-order-drawer';

const server = realServer();

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the drawer.
describe("'Create Order' on an approved request (decision 037)", { timeout: 180_000 }, () => {
  it("opens the order form pre-filled from the request and creates the order only on Save, with the form's fields", { timeout: 180_000 }, async () => {
    let created: number | undefined;
    const session = await server.signIn('manager');
    const { org, user, calls } = session;
    // Through the API: the asset Boiler, the service Seal change, and the preventive request "Pump noise", approved.
    const category = await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Heating', code: 'HTG' });
    const boiler = await org.admin.post('/api/assets/add-asset', { name: 'Boiler', date: '2026-01-01', assetCategoryId: category.body.assetCategory.id });
    expect(boiler.status).toBe(201);
    const lathe = await addLathe(session);
    const service = await org.admin.post('/api/services/add-service', {
      title: 'Seal change',
      price: 40,
      workStations: [{ workStationId: lathe.id, operation: 'Change seals', timeRequired: '01:00' }],
    });
    expect(service.status).toBe(201);
    const added = await org.admin.post(
      '/api/maintenance-requests/add-maintenance-request',
      correctiveRequest(
        { asset: boiler.body.asset },
        { title: 'Pump noise', maintenanceType: 'preventive', scheduleDate: '2099-05-01T00:00:00.000Z', frequency: 'weekly', assignedTo: user.userId },
      ),
    );
    expect(added.status).toBe(201);
    const request = added.body.maintenanceRequest as { id: number; maintenanceRequestId: string };
    expect((await org.admin.put(`/api/maintenance-requests/update-state/${request.id}`, { state: 'approved' })).status).toBe(200);
    renderWithProviders(
      <MaintenanceOrderDrawer
        id={null}
        fromRequest={request.id}
        onClose={() => {}}
        onCreated={(id) => (created = id)}
        query={{}}
        onList={() => {}}
        invalidate={() => {}}
      />,
    );
    await waitFor(() => expect(screen.getByTestId('mo-request')).toHaveValue(`${request.maintenanceRequestId} Pump noise`));
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
    await waitFor(() => expect(created).toBeDefined());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe(`/api/maintenance-requests/create-order/${request.id}`);
    expect(post.status).toBe(201);
    const body = post.body as Record<string, unknown>;
    expect(body).toMatchObject({ maintenanceType: 'preventive', assetId: boiler.body.asset.id, services: [service.body.service.id] });
    expect(body.maintenanceRequestId).toBeUndefined();
    expect(body.dueDate).toMatch(/^2099-05-08/);
  });

  it('the requests status filter offers Approved', async () => {
    await server.signIn('manager');
    // the requests ready for an order, named Approved (the filter's chip carries the option's label)
    renderWithProviders(<MaintenanceRequestsPage />, { route: '/?status=approved' });
    await waitFor(() =>
      expect([...screen.getByTestId('filter-status').querySelectorAll('.mantine-Pill-label')].map((e) => e.textContent)).toEqual(['Approved']),
    );
  });
});
