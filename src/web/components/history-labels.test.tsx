import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { currentLocation, renderWithProviders, stubFetch } from '../test/render';
import { i18n, loadLanguage } from '../i18n';
import { NoteLogs } from './note-logs';
import { NotificationsMenu } from '../app/layouts/top-bar-tools';
import '../../features/work-orders/ui/labels';

const statusChange = {
  id: 1,
  action: 'status',
  changes: { status: { from: 'assigned', to: 'completed' }, dueDate: { from: null, to: '2026-12-01T09:30:00.000Z' } },
  note: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  user: { id: 2, firstName: 'Sam', lastName: 'Lee' },
};

// Issue 29: history and the bell show labels, not internal values, and a notification opens its record.
describe("history and the bell in the reader's words", () => {
  afterEach(() => i18n.changeLanguage('en'));

  it("names a work order's fields and statuses as the screens do, in English and Arabic", async () => {
    stubFetch({ 'GET /api/activities/work-order/4': () => ({ body: { activities: [statusChange] } }) });
    const view = renderWithProviders(<NoteLogs entityType="work-order" entityId={4} />);
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
    const generated = { ...statusChange, id: 2, action: 'created', changes: null, user: null };
    stubFetch({ 'GET /api/activities/work-order/5': () => ({ body: { activities: [generated] } }) });
    const view = renderWithProviders(<NoteLogs entityType="work-order" entityId={5} />);
    expect(await screen.findByText('System')).toBeInTheDocument();
    expect(screen.queryByText(/notes\.system/)).toBeNull();
    await loadLanguage('ar');
    await act(() => i18n.changeLanguage('ar'));
    expect(await screen.findByText('النظام')).toBeInTheDocument();
    expect(screen.queryByText(/notes\.system/)).toBeNull();
    view.unmount();
  });

  it('calls a record by its number and opens it from the bell (my notifications, decision 074), marking it read', async () => {
    const reads: unknown[] = [];
    stubFetch({
      'GET /api/notifications': () => ({
        body: {
          notifications: [
            {
              id: 9,
              kind: 'purchase-order-approval',
              entityType: 'purchase-order',
              entityId: 4,
              data: { number: 'PO-0004' },
              read: false,
              createdAt: statusChange.createdAt,
            },
          ],
          unread: 1,
        },
      }),
      'POST /api/notifications/read': (_url, init) => {
        reads.push(JSON.parse(String(init.body)));
        return { body: { unread: 0 } };
      },
    });
    renderWithProviders(<NotificationsMenu />, { route: '/dashboard' });
    fireEvent.click(await screen.findByTestId('notifications'));
    const item = await screen.findByTestId('notification-item', {}, { timeout: 3000 });
    expect(item).toHaveTextContent('Purchase order PO-0004 waits for your approval');
    fireEvent.click(item);
    expect(currentLocation()).toBe('/dashboard/purchase-orders?open=4');
    await waitFor(() => expect(reads).toEqual([{ ids: [9] }]));
  });
});
