import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { emailOfUser, type Client, type TestOrg } from '../../../server/test/harness';
import { addStockablePart, masterRows } from '../../assets/test-fixtures';
import { WorkOrderDrawer } from './work-order-drawer';

const server = realServer();
const W = '/api/work-orders';

/**
 * Through the API: a work order assigned to `fitter` (at 30.00 an hour), 2 h 30 min of their labour and two seals at
 * 12.75: labour 75.00, parts 25.50, 100.50 in all. The order's id.
 */
async function costedOrder(org: TestOrg, fitter: Client & { userId: number }) {
  const rate = await org.admin.put(`/api/user/updateUser/${fitter.userId}`, {
    firstName: 'Fritz',
    email: await emailOfUser(server.test, org.orgId, fitter.userId),
    role: 'worker',
    hourlyRate: 3000,
  });
  expect(rate.status, JSON.stringify(rate.body)).toBe(200);
  const reason = await org.admin.post('/api/time-tracking-reasons/add-time-tracking-reason', {
    name: 'Repair',
    type: 'productivity',
    is_blocking_reason: false,
  });
  expect(reason.status, JSON.stringify(reason.body)).toBe(201);
  const seal = await addStockablePart(org, await masterRows(server.test, org.orgId), { name: 'Seal', type: 'consumable', salesPrice: 12.75 });
  const order = await org.admin.post(`${W}/add-work-order`, { title: 'Replace belt', assignees: [fitter.userId] });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const id = order.body.workOrder.id as number;
  const labor = await fitter.post(`${W}/add-labor/${id}`, {
    startTime: '2026-03-02T08:00:00.000Z',
    endTime: '2026-03-02T10:30:00.000Z',
    reason: reason.body.timeTrackingReason.id,
  });
  expect(labor.status, JSON.stringify(labor.body)).toBe(201);
  const parts = await org.admin.post(`${W}/add-parts/${id}`, { parts: [{ partId: seal.id, quantity: 2 }] });
  expect(parts.status, JSON.stringify(parts.body)).toBe(201);
  return id;
}

const drawer = (id: number) => <WorkOrderDrawer id={id} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />;

describe("the work order drawer's overview", () => {
  it('sums up labour, parts and cost; Delete sits away from Save', async () => {
    const { org } = await server.signIn('admin');
    const id = await costedOrder(org, await org.as('worker', { firstName: 'Fritz', lastName: 'Rate' }));
    renderWithProviders(drawer(id));
    const summary = await screen.findByTestId('wo-cost-summary');
    await waitFor(() => expect(screen.getByTestId('wo-cost-labor')).toHaveTextContent('2h 30m'));
    expect(screen.getByTestId('wo-cost-parts')).toHaveTextContent('$25.50');
    expect(screen.getByTestId('wo-cost-total')).toHaveTextContent('$100.50');
    expect(summary).toHaveAccessibleName('Labour, parts and cost');
    // Delete first in the footer, pushed to its start; Save last, at its end.
    const del = await screen.findByTestId('delete-button');
    const buttons = [...del.parentElement!.querySelectorAll('button')];
    expect(buttons.at(-1)).toBe(screen.getByTestId('save-button'));
    expect(del.style.order).toBe('-1');
    expect(del.style.marginInlineEnd).toBe('auto');
  });

  it('a worker sees the time only (amounts are for managers)', async () => {
    const { org, user } = await server.signIn('worker', { fields: { firstName: 'Fritz', lastName: 'Rate' } });
    const id = await costedOrder(org, user);
    renderWithProviders(drawer(id));
    await waitFor(() => expect(screen.getByTestId('wo-cost-labor')).toHaveTextContent('2h 30m'));
    expect(screen.queryByTestId('wo-cost-parts')).toBeNull();
    expect(screen.queryByTestId('wo-cost-total')).toBeNull();
  });
});
