import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { renderContractorPage, sharedWorkOrderDto } from '../../work-order-shares/ui/test-fixtures';
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
    const shared = sharedWorkOrderDto({ permissions: { canComment: false, canLog: false, canComplete: false } });
    const dto = { ...shared, workOrder: { ...shared.workOrder, instructions: BLANK, asset: null } };
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto }) });
    renderContractorPage();
    await screen.findByTestId('contractor-title');
    expect(screen.queryByText('Instructions')).toBeNull();
  });
});
