/**
 * The records the UI tests of work orders, their procedure tab and My work build (shared, not copied): a work
 * order as get-work-order answers it, a step of its issued procedure and that procedure, each with the fields a test changes.
 */
import type { IssuedStepDto, ProcedureProgress, WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import type { WorkOrderDto } from '../work-orders.schema';

export const workOrderDto = (over: Partial<WorkOrderDto> = {}): WorkOrderDto => ({
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
  reactive: true,
  assetCategoryId: null,
  problemCodeId: null,
  causeCodeId: null,
  remedyCodeId: null,
  failure: null,
  onHold: false,
  holdReason: null,
  holdNote: null,
  heldAt: null,
  createdAt: '2026-11-26T06:00:00.000Z',
  updatedAt: '2026-11-26T06:00:00.000Z',
  ...over,
});

export const issuedStep = (over: Partial<IssuedStepDto> = {}): IssuedStepDto => ({
  id: 1,
  position: 1,
  kind: 'checkbox',
  label: 'Step',
  meterName: null,
  required: false,
  unit: null,
  min: null,
  max: null,
  options: [],
  followUpOnFailure: false,
  value: null,
  flagged: false,
  answeredAt: null,
  answeredBy: null,
  followUpWorkOrderId: null,
  ...over,
});

/** Work order `workOrderId`'s issued procedure "Check" with these steps; its progress as the test states it. */
export const issuedProcedure = (workOrderId: number, steps: IssuedStepDto[], progress: ProcedureProgress): WorkOrderProcedureDto => ({
  workOrderId,
  procedureId: 1,
  name: 'Check',
  description: null,
  attachedAt: '2026-01-01T00:00:00.000Z',
  steps,
  progress,
});
