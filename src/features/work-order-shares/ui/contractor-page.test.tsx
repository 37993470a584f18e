import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { SharedWorkOrderDto } from '../work-order-shares.schema';
import ContractorPage from './contractor-page';

const TOKEN = 'A'.repeat(43);
const dto = (over: Partial<SharedWorkOrderDto> = {}): SharedWorkOrderDto => ({
  organization: 'Acme Plant',
  currency: 'USD',
  digits: 2,
  contractorName: 'Coolair Ltd',
  permissions: { canComment: true, canLog: true, canComplete: true },
  state: 'waiting',
  reviewComment: null,
  expiresAt: '2026-12-10T10:00:00.000Z',
  workOrder: { code: 'WO-0007', title: 'Rooftop chiller service', instructions: '<p>Check the pressure</p>', status: 'assigned', priority: 'high', dueDate: null, asset: { name: 'Chiller 2', code: 'CH-2' } },
  procedure: null,
  messages: [],
  labors: [],
  parts: [],
  ...over,
});

describe("the contractor's page", () => {
  it('shows only what the share allows, and sends a comment with the link token', async () => {
    const calls = stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto() }),
      'POST /api/shared-work-orders/add-shared-comment': () => ({ status: 201, body: { message: 'Comment added' } }),
    });
    renderWithProviders(<ContractorPage />, { route: `/shared-work-order?token=${TOKEN}` });
    expect(await screen.findByTestId('contractor-title')).toHaveTextContent('Rooftop chiller service');
    expect(screen.getByText('Check the pressure')).toBeInTheDocument();
    expect(screen.getByText(/Chiller 2/)).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('contractor-comment'), 'On site');
    await userEvent.click(screen.getByTestId('contractor-send'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.pathname.endsWith('/add-shared-comment'))).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.searchParams.get('token')).toBe(TOKEN);
    expect(JSON.parse(String(post.init.body))).toEqual({ body: 'On site' });
  });

  it('a view-only share has no comment box, no time and no Mark as done; a dead link says so', async () => {
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto({ permissions: { canComment: false, canLog: false, canComplete: false } }) }) });
    const view = renderWithProviders(<ContractorPage />, { route: `/shared-work-order?token=${TOKEN}` });
    await screen.findByTestId('contractor-title');
    expect(screen.queryByTestId('contractor-comment')).toBeNull();
    expect(screen.queryByTestId('contractor-add-time')).toBeNull();
    expect(screen.queryByTestId('contractor-done')).toBeNull();
    view.unmount();
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ status: 404, body: { error: 'Shared work order not found' } }) });
    renderWithProviders(<ContractorPage />, { route: `/shared-work-order?token=${TOKEN}` });
    expect(await screen.findByTestId('contractor-not-found')).toBeInTheDocument();
  });
});
