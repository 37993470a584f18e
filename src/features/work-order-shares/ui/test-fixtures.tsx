import { renderWithProviders } from '../../../web/test/render';
import type { ContractorStepDto, SharedWorkOrderDto } from '../work-order-shares.schema';
import ContractorPage from './contractor-page';

/** A share link's token (the length the server issues). */
export const TOKEN = 'A'.repeat(43);

/** What the contractor's page reads for a share: a waiting order with every right; `over` replaces whole keys. */
export const sharedWorkOrderDto = (over: Partial<SharedWorkOrderDto> = {}): SharedWorkOrderDto => ({
  organization: 'Acme Plant',
  currency: 'USD',
  digits: 2,
  contractorName: 'Coolair Ltd',
  permissions: { canComment: true, canLog: true, canComplete: true },
  state: 'waiting',
  reviewComment: null,
  expiresAt: '2026-12-10T10:00:00.000Z',
  workOrder: {
    code: 'WO-0007',
    title: 'Rooftop chiller service',
    instructions: '<p>Check the pressure</p>',
    status: 'assigned',
    priority: 'high',
    dueDate: null,
    asset: { name: 'Chiller 2', code: 'CH-2' },
    onHold: false,
    holdReason: null,
    holdNote: null,
  },
  procedure: null,
  messages: [],
  labors: [],
  parts: [],
  ...over,
});

/** An unanswered required checkbox step "Isolate" (id 1, first). */
export const contractorStep = (over: Partial<ContractorStepDto> = {}): ContractorStepDto => ({
  id: 1,
  position: 1,
  kind: 'checkbox',
  label: 'Isolate',
  required: true,
  unit: null,
  min: null,
  max: null,
  options: [],
  meterName: null,
  value: null,
  flagged: false,
  answeredAt: null,
  ...over,
});

/** The contractor's page opened from the share link. */
export const renderContractorPage = () => renderWithProviders(<ContractorPage />, { route: `/shared-work-order?token=${TOKEN}` });
