import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import ContractorPage from '../../work-order-shares/ui/contractor-page';
import type { SharedWorkOrderDto } from '../../work-order-shares/work-order-shares.schema';
import { WorkOrderDrawer } from './work-order-drawer';
import { workOrderDto } from './test-fixtures';

// An order whose instructions are blank HTML (an emptied editor leaves '<p><br></p>' or '<p>&nbsp;</p>') has no instructions.
const BLANK = '<p><br></p><p>&nbsp;</p>';

describe('an order without instructions', () => {
  it('the drawer says "No instructions yet" in Operations', async () => {
    stubFetch({ 'GET /api/work-orders/get-work-order/1': () => ({ body: { workOrder: workOrderDto({ instructions: BLANK }) } }) });
    renderWithProviders(<WorkOrderDrawer id={1} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />);
    await userEvent.click(await screen.findByTestId('tab-operations'));
    expect(await screen.findByText('No instructions yet')).toBeInTheDocument();
  });

  it("the contractor's page shows no empty Instructions block", async () => {
    const TOKEN = 'A'.repeat(43);
    const dto: SharedWorkOrderDto = {
      organization: 'Acme Plant',
      currency: 'USD',
      digits: 2,
      contractorName: 'Coolair Ltd',
      permissions: { canComment: false, canLog: false, canComplete: false },
      state: 'waiting',
      reviewComment: null,
      expiresAt: '2026-12-10T10:00:00.000Z',
      workOrder: {
        code: 'WO-0007',
        title: 'Rooftop chiller service',
        instructions: BLANK,
        status: 'assigned',
        priority: 'high',
        dueDate: null,
        asset: null,
        onHold: false,
        holdReason: null,
        holdNote: null,
      },
      procedure: null,
      messages: [],
      labors: [],
      parts: [],
    };
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto }) });
    renderWithProviders(<ContractorPage />, { route: `/shared-work-order?token=${TOKEN}` });
    await screen.findByTestId('contractor-title');
    expect(screen.queryByText('Instructions')).toBeNull();
  });
});
