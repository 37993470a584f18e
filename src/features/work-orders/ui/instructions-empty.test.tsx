import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import ContractorPage from '../../work-order-shares/ui/contractor-page';
import { WorkOrderDrawer } from './work-order-drawer';

const server = realServer();

// An order whose instructions are blank HTML (an emptied editor leaves '<p><br></p>' or '<p>&nbsp;</p>') has no instructions.
const BLANK = '<p><br></p><p>&nbsp;</p>';

/** A work order with blank instructions, through the API; its id, after checking the server kept them as sent (not null). */
async function orderWithBlankInstructions(org: TestOrg) {
  const res = await org.admin.post('/api/work-orders/add-work-order', { title: 'Rooftop chiller service', instructions: BLANK });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.workOrder.id as number;
  // the blank HTML is what the screens get (so "no instructions" is theirs to see, not an absent field)
  expect((await org.admin.get(`/api/work-orders/get-work-order/${id}`)).body.workOrder.instructions).toBeTruthy();
  return id;
}

describe('an order without instructions', () => {
  it('the drawer says "No instructions yet" in Operations', async () => {
    const { org } = await server.signIn('manager');
    const id = await orderWithBlankInstructions(org);
    renderWithProviders(<WorkOrderDrawer id={id} onClose={() => {}} onCreated={() => {}} query={{}} onList={() => {}} invalidate={() => {}} />);
    await userEvent.click(await screen.findByTestId('tab-operations'));
    expect(await screen.findByText('No instructions yet')).toBeInTheDocument();
  });

  it("the contractor's page shows no empty Instructions block", async () => {
    const org = await server.newOrg();
    const id = await orderWithBlankInstructions(org);
    const shared = await org.admin.post('/api/shared-work-orders/create-share', {
      workOrderId: id,
      contractorName: 'Coolair Ltd',
      email: 'tech@coolair.example.com',
      canComment: false,
      canLog: false,
      canComplete: false,
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const token = new URL(shared.body.link).searchParams.get('token')!;
    // the contractor has no session: the link's token only
    server.anonymous(org);
    renderWithProviders(<ContractorPage />, { route: `/shared-work-order?token=${encodeURIComponent(token)}` });
    expect(await screen.findByTestId('contractor-title')).toHaveTextContent('Rooftop chiller service');
    expect(screen.queryByText('Instructions')).toBeNull();
  });
});
