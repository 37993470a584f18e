/**
 * The technician app's close with failure codes, on-hold badge, parts readiness and "takes the technician to the
 * missing step" (decisions 080, 081, 084). The dialog and the badges read what the device keeps (no server call:
 * nothing to stub); the sign-off step and the count screen talk to the server and are driven in the browser
 * journeys (`e2e/asset-failure.e2e.ts`, `e2e/technician-sign-off-count.e2e.ts`).
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { issuedProcedure, issuedStep, workOrderDto } from '../../work-orders/ui/test-fixtures';
import type { FailureCodeDto } from '../../failure-codes/failure-codes.schema';
import type { IssuedStepDto } from '../../procedures/procedures.schema';
import type { CachedWorkOrder } from './my-work-db';
import { asksForCodes, CloseOrderDialog } from './close-order-dialog';
import { HoldBadge } from './hold-badge';
import { ReadinessBadge } from './parts-card';
import { WorkOrderScreen } from './work-order-screen';

const code = (id: number, kind: FailureCodeDto['kind'], name: string, parentId: number | null, assetCategoryId: number | null = null): FailureCodeDto => ({
  id,
  kind,
  parentId,
  assetCategoryId,
  assetCategory: null,
  code: name.slice(0, 4).toUpperCase(),
  name,
});
const CODES = [
  code(1, 'problem', 'Does not start', null, 7),
  code(2, 'cause', 'Protection tripped', 1),
  code(3, 'remedy', 'Reset', 2),
  code(4, 'problem', 'Belt slipping', null, 8),
  code(5, 'problem', 'Noise', null, null),
];
const order = workOrderDto({ id: 5, assetId: 3, assetCategoryId: 7, reactive: true });

async function choose(testId: string, option: string) {
  fireEvent.click(screen.getByTestId(testId));
  fireEvent.click(await screen.findByRole('option', { name: new RegExp(option) }));
}

describe('closing with failure codes on the phone', { timeout: 60_000 }, () => {
  it('asks only for a reactive order on an asset', () => {
    expect(asksForCodes({ reactive: true, assetId: 3 })).toBe(true);
    expect(asksForCodes({ reactive: false, assetId: 3 })).toBe(false);
    expect(asksForCodes({ reactive: true, assetId: null })).toBe(false);
  });

  it('required: refuses without the three codes, offers the asset category’s problems (and those for all), sends the chosen ids', async () => {
    const onConfirm = vi.fn();
    renderWithProviders(
      <CloseOrderDialog order={order} reference={{ failureCodes: CODES, requireFailureCodes: true }} onClose={() => undefined} onConfirm={onConfirm} />,
    );
    expect(screen.queryByTestId('close-order-without')).toBeNull();
    fireEvent.click(screen.getByTestId('close-order-confirm'));
    expect(await screen.findByTestId('close-codes-error')).toHaveTextContent('Select the problem, cause and remedy before closing this reactive work order');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('failure-problem'));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['DOES · Does not start', 'NOIS · Noise']);
    fireEvent.click(within(listbox).getByRole('option', { name: /Does not start/ }));
    await choose('failure-cause', 'Protection tripped');
    await choose('failure-remedy', 'Reset');
    fireEvent.click(screen.getByTestId('close-order-confirm'));
    expect(onConfirm).toHaveBeenCalledWith({ problemCodeId: 1, causeCodeId: 2, remedyCodeId: 3 });
  });

  it('not required: closes without codes too', () => {
    const onConfirm = vi.fn();
    renderWithProviders(
      <CloseOrderDialog order={order} reference={{ failureCodes: CODES, requireFailureCodes: false }} onClose={() => undefined} onConfirm={onConfirm} />,
    );
    fireEvent.click(screen.getByTestId('close-order-without'));
    expect(onConfirm).toHaveBeenCalledWith({});
  });

  it('says when the phone has no codes yet', () => {
    renderWithProviders(
      <CloseOrderDialog order={order} reference={{ failureCodes: [], requireFailureCodes: true }} onClose={() => undefined} onConfirm={() => undefined} />,
    );
    expect(screen.getByTestId('close-no-codes')).toHaveTextContent('No failure codes on this phone yet');
  });
});

describe('badges of the technician’s order', () => {
  it('on hold with its reason, in English and nothing when not held', () => {
    const view = renderWithProviders(<HoldBadge order={{ onHold: true, holdReason: 'vendor', holdNote: 'Motor at the rewinder' }} />);
    expect(screen.getByTestId('wo-on-hold')).toHaveTextContent('On hold: Waiting for vendor');
    expect(screen.getByTestId('wo-on-hold')).toHaveAttribute('title', 'Motor at the rewinder');
    view.unmount();
    renderWithProviders(<HoldBadge order={{ onHold: false, holdReason: null, holdNote: null }} />);
    expect(screen.queryByTestId('wo-on-hold')).toBeNull();
  });

  it('parts readiness: ready, short naming what lacks where, nothing when none is reserved', () => {
    const cached = (partsReadiness: CachedWorkOrder['partsReadiness']): CachedWorkOrder => ({
      id: 5,
      workOrder: order,
      procedure: null,
      labors: [],
      parts: [],
      photos: [],
      partsReadiness,
    });
    const view = renderWithProviders(<ReadinessBadge order={cached({ status: 'ready', shortages: [] })} />);
    expect(screen.getByTestId('wo-parts-readiness')).toHaveTextContent('Parts ready');
    view.unmount();
    const short = renderWithProviders(
      <ReadinessBadge
        order={cached({
          status: 'short',
          shortages: [{ partId: 1, part: { id: 1, name: 'Seal kit' }, location: { id: 2, name: 'Main store' }, quantity: 2, reserved: 3 }],
        })}
      />,
    );
    expect(screen.getByTestId('wo-parts-readiness')).toHaveTextContent('Parts short: 2 × Seal kit at Main store');
    short.unmount();
    renderWithProviders(<ReadinessBadge order={cached({ status: 'none', shortages: [] })} />);
    expect(screen.queryByTestId('wo-parts-readiness')).toBeNull();
  });
});

describe('a refused completion takes the technician to the missing step', { timeout: 60_000 }, () => {
  it('names the step and moves the focus to it', async () => {
    // No server answer is used: the refusal is the phone's own check (the stub only keeps the test off the network).
    stubFetch({});
    const steps: IssuedStepDto[] = [
      issuedStep({ id: 1, position: 1, kind: 'text', label: 'Remarks', value: 'ok' }),
      issuedStep({ id: 2, position: 2, kind: 'sign-off', label: 'Supervisor sign-off', required: true, value: null }),
    ];
    const cached: CachedWorkOrder = {
      id: 5,
      workOrder: { ...order, status: 'in-progress' },
      procedure: issuedProcedure(5, steps, { answered: 1, total: 2, requiredLeft: 1, flagged: 0 }),
      labors: [],
      parts: [],
      photos: [],
    };
    renderWithProviders(<WorkOrderScreen order={cached} onBack={() => undefined} />);
    // The sign-off step is signed here (not "in the full app").
    expect(screen.getByTestId('step-2-sign-off')).toHaveTextContent('Sign off');
    fireEvent.click(screen.getByTestId('wo-complete'));
    expect(await screen.findByTestId('wo-status-error')).toHaveTextContent('Fill the required step "Supervisor sign-off" before completing.');
    expect(document.activeElement).toBe(screen.getByTestId('wo-step-2'));
    screen.getByTestId('wo-step-1').focus();
    fireEvent.click(screen.getByTestId('wo-go-to-step'));
    expect(document.activeElement).toBe(screen.getByTestId('wo-step-2'));
  });
});
