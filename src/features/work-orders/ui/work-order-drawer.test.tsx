import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { WorkOrderDto } from '../work-orders.schema';
import { WorkOrderDrawer } from './work-order-drawer';

const workOrder = (over: Partial<WorkOrderDto>): WorkOrderDto => ({
  id: 1,
  workOrderId: 'WO-0001',
  title: 'Replace belt',
  duration: null,
  status: 'assigned',
  priority: 'medium',
  startDate: null,
  endDate: null,
  dueDate: null,
  instructions: null,
  assetId: null,
  asset: null,
  quotationId: null,
  quotation: null,
  assignees: [],
  createdById: 1,
  createdAt: '2026-11-26T06:00:00.000Z',
  updatedAt: '2026-11-26T06:00:00.000Z',
  ...over,
});

describe('work order drawer: a stale edit (decision 025)', () => {
  it('sends the loaded updatedAt, shows "changed by someone else" on 409, and Reload resets the form to the current record', async () => {
    const loaded = workOrder({});
    const current = workOrder({ title: 'Belt replaced by Bob', updatedAt: '2026-11-26T06:05:00.123Z' });
    let served = loaded;
    const calls = stubFetch({
      'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: served } }),
      'PUT /api/work-orders/update-work-order/1': () => {
        served = current;
        return { status: 409, body: { error: 'This record was changed by someone else', current } };
      },
    });
    renderWithProviders(<WorkOrderDrawer id={1} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />);
    const title = await screen.findByTestId('wo-title');
    await waitFor(() => expect(title).toHaveValue('Replace belt'));

    await userEvent.clear(title);
    await userEvent.type(title, 'My edit');
    await userEvent.click(screen.getByTestId('save-button'));

    expect(await screen.findByTestId('stale-edit-alert')).toHaveTextContent('This record was changed by someone else');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toMatchObject({ title: 'My edit', updatedAt: loaded.updatedAt });
    // The user's edit stays in the form until they choose to reload.
    expect(screen.getByTestId('wo-title')).toHaveValue('My edit');

    await userEvent.click(screen.getByTestId('stale-edit-reload'));
    await waitFor(() => expect(screen.getByTestId('wo-title')).toHaveValue('Belt replaced by Bob'));
    expect(screen.queryByTestId('stale-edit-alert')).toBeNull();
  });
});
