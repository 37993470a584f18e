import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { WorkOrderDrawer } from './work-order-drawer';
import { workOrderDto } from './test-fixtures';

const cost = { laborMinutes: 150, externalLaborMinutes: 0, externalLaborMinor: 0, partsMinor: 2550, externalPartsMinor: 0, totalMinor: 10050 };
const appData = (role: string) => ({
  loggedInUser: { id: 1, role, firstName: 'Ada', lastName: 'Admin', email: 'admin@demo.com' },
  workers: [],
  company: { currency: 'USD' },
});

function routes(role: string, body: object) {
  stubFetch({
    'GET /api/user/get-app-data': () => ({ body: appData(role) }),
    'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: workOrderDto({}) } }),
    'GET /api/work-orders/get-cost/1': () => ({ body: { cost: body } }),
  });
}
const drawer = <WorkOrderDrawer id={1} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />;

describe("the work order drawer's overview", () => {
  it('sums up labour, parts and cost; Delete sits away from Save', { timeout: 45_000 }, async () => {
    routes('admin', cost);
    renderWithProviders(drawer);
    const summary = await screen.findByTestId('wo-cost-summary', {}, { timeout: 20_000 });
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

  it('a worker sees the time only (amounts are for managers)', { timeout: 45_000 }, async () => {
    routes('worker', { ...cost, externalLaborMinor: null, partsMinor: null, externalPartsMinor: null, totalMinor: null });
    renderWithProviders(drawer);
    await waitFor(() => expect(screen.getByTestId('wo-cost-labor')).toHaveTextContent('2h 30m'), { timeout: 20_000 });
    expect(screen.queryByTestId('wo-cost-parts')).toBeNull();
    expect(screen.queryByTestId('wo-cost-total')).toBeNull();
  });
});
