import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { currentLocation, renderWithProviders } from '../test/render';
import { realServer } from '../test/real-api';
import type { Client } from '../../server/test/harness';
import { dailyPlan } from '../../server/test/fixtures';
import { i18n, loadLanguage } from '../i18n';
import { NoteLogs } from './note-logs';
import { NotificationsMenu } from '../app/layouts/top-bar-tools';
import { addAsset, masterRows } from '../../features/assets/test-fixtures';
import { commercialRows, inDays } from '../../features/commercial-documents/test-fixtures';
import { generateDueWork } from '../../features/pm-plans/pm-plans.service';
import type { ActivityItem } from '../../features/activity/activity.schema';
import '../../features/work-orders/ui/labels';

const server = realServer();
const W = '/api/work-orders';

const historyOf = async (c: Client, id: number) => (await c.get(`/api/activities/work-order/${id}`)).body.activities as ActivityItem[];

// Issue 29: history and the bell show labels, not internal values, and a notification opens its record.
describe("history and the bell in the reader's words", () => {
  afterEach(() => i18n.changeLanguage('en'));

  it("names a work order's fields and statuses as the screens do, in English and Arabic", async () => {
    const { org } = await server.signIn('manager');
    // Through the API: an order assigned to Sam, then closed with a due date in one edit.
    const sam = await org.as('worker', { firstName: 'Sam', lastName: 'Lee' });
    const added = await org.admin.post(`${W}/add-work-order`, { title: 'Replace belt', assignees: [sam.userId] });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const id = added.body.workOrder.id as number;
    expect(added.body.workOrder.status).toBe('assigned');
    const closed = await org.admin.put(`${W}/update-work-order/${id}`, { title: 'Replace belt', status: 'completed', dueDate: '2026-12-01T09:30:00.000Z' });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // the server's line holds the internal values the screen must not show
    expect((await historyOf(org.admin, id))[0].changes).toMatchObject({ status: { from: 'assigned', to: 'completed' }, dueDate: { from: null } });

    const view = renderWithProviders(<NoteLogs entityType="work-order" entityId={id} />);
    expect(await screen.findByText('Open')).toBeInTheDocument();
    expect(screen.getByText('Closed')).toBeInTheDocument();
    expect(screen.getByText('Status')).toBeInTheDocument();
    expect(screen.getByText('Due Date')).toBeInTheDocument();
    expect(screen.queryByText(/assigned|completed/)).toBeNull();
    await loadLanguage('ar');
    await act(() => i18n.changeLanguage('ar'));
    expect(await screen.findByText('الحالة')).toBeInTheDocument();
    expect(screen.queryByText('Open')).toBeNull();
    view.unmount();
  });

  // Issue 39: a generated order's history line (no user: the PM generator) said the raw key `notes.system`.
  it("names the system as the author of a generated order's lines, in English and Arabic", async () => {
    const { org } = await server.signIn('manager');
    // A daily plan from today on an asset (through the API); the generator itself creates today's order.
    const assetId = await addAsset(org, await masterRows(server.test, org.orgId), 'Boiler pump');
    const plan = await org.admin.post('/api/pm-plans/add-plan', { ...dailyPlan(assetId), startDate: new Date().toISOString().slice(0, 10) });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    // (the generator's scheduled job may have made it first: either way, one order)
    await server.inTenant(org, (tx) => generateDueWork(tx, org.orgId));
    const orders = (await org.admin.get(`${W}/get-work-orders`)).body.workOrders as { id: number; title: string }[];
    expect(orders.map((o) => o.title)).toEqual(['Check the pump']);
    const [order] = orders;
    expect(await historyOf(org.admin, order.id)).toMatchObject([{ action: 'created', user: null }]);

    const view = renderWithProviders(<NoteLogs entityType="work-order" entityId={order.id} />);
    expect(await screen.findByText('System')).toBeInTheDocument();
    expect(screen.queryByText(/notes\.system/)).toBeNull();
    await loadLanguage('ar');
    await act(() => i18n.changeLanguage('ar'));
    expect(await screen.findByText('النظام')).toBeInTheDocument();
    expect(screen.queryByText(/notes\.system/)).toBeNull();
    view.unmount();
  });

  it('calls a record by its number and opens it from the bell (my notifications, decision 074), marking it read', async () => {
    const { org, user, calls } = await server.signIn('manager');
    // The admin sends a purchase order for approval (through the API): the manager's bell has it.
    const r = await commercialRows(server.test, org.orgId);
    const po = await org.admin.post('/api/purchase-orders/add-purchase-order', {
      overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: inDays(0), expirationDate: inDays(14), status: 'sendForApproval' },
      serviceDetails: [{ serviceId: r.service.id, quantity: 1, unitPrice: 200, discount: 0, taxId: r.purchase5.id }],
      partDetails: [],
    });
    expect(po.status, JSON.stringify(po.body)).toBe(201);
    const { id: poId, purchaseOrderId: number } = po.body.purchaseOrder as { id: number; purchaseOrderId: string };
    const bell = async () => (await user.get('/api/notifications')).body as { notifications: { id: number; read: boolean }[]; unread: number };
    const [notification] = (await bell()).notifications;

    renderWithProviders(<NotificationsMenu />, { route: '/dashboard' });
    fireEvent.click(await screen.findByTestId('notifications'));
    const item = await screen.findByTestId('notification-item');
    // called by its number and its title (the server's notification names the vendor)
    expect(item).toHaveTextContent(`Purchase order ${number} ${r.vendor.name} waits for your approval`);
    fireEvent.click(item);
    expect(currentLocation()).toBe(`/dashboard/purchase-orders?open=${poId}`);
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url.pathname, c.body, c.status])).toEqual([
        ['/api/notifications/read', { ids: [notification.id] }, 200],
      ]),
    );
    // the server kept it read
    expect(await bell()).toMatchObject({ notifications: [{ id: notification.id, read: true }], unread: 0 });
  });
});
