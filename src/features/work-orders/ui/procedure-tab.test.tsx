import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { progressOf, type IssuedStepDto, type WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { ProcedureTab } from './procedure-tab';
import { issuedStep } from './test-fixtures';

const procedureOf = (steps: IssuedStepDto[]): WorkOrderProcedureDto => ({
  workOrderId: 7,
  procedureId: 1,
  name: 'Pump check',
  description: null,
  attachedAt: '2026-11-26T06:00:00.000Z',
  steps,
  progress: progressOf(steps),
});

const worker = { loggedInUser: { id: 5, role: 'worker', firstName: 'Marcus', lastName: 'Lee', email: 'tech1@demo.com' } };

describe('procedure tab: filling at phone width', () => {
  it('shows "n of m", sends a number as a number, shows the server field message, flags and offers the follow-up', async () => {
    let steps = [
      issuedStep({ id: 1, position: 1, kind: 'heading', label: 'Safety' }),
      issuedStep({
        id: 2,
        position: 2,
        kind: 'checkbox',
        label: 'Isolate',
        required: true,
        value: true,
        answeredBy: { id: 5, firstName: 'Marcus', lastName: 'Lee' },
        answeredAt: '2026-11-26T07:00:00.000Z',
      }),
      issuedStep({ id: 3, position: 3, kind: 'number', label: 'Pressure', unit: 'bar', min: 1, max: 5, required: true, followUpOnFailure: true }),
    ];
    const bodies: unknown[] = [];
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: worker }),
      'GET /api/work-orders/get-work-order-procedure/7': () => ({ body: { procedure: procedureOf(steps) } }),
      'PUT /api/work-orders/answer-procedure-step/7': (_url, init) => {
        const body = JSON.parse(String(init.body)) as { stepId: number; value: unknown };
        bodies.push(body);
        if (body.value === 99) return { status: 400, body: { error: 'Number is too large', issues: [{ path: 'value', message: 'Number is too large' }] } };
        steps = steps.map((s) => (s.id === body.stepId ? { ...s, value: body.value, flagged: typeof body.value === 'number' && body.value > 5 } : s));
        return { body: { step: steps.find((s) => s.id === body.stepId), procedure: procedureOf(steps) } };
      },
      'POST /api/work-orders/create-follow-up/7': () => {
        steps = steps.map((s) => (s.id === 3 ? { ...s, followUpWorkOrderId: 12 } : s));
        return { status: 201, body: { followUp: { id: 12, workOrderId: 'WO-0012' }, procedure: procedureOf(steps) } };
      },
    });
    renderWithProviders(<ProcedureTab workOrderId={7} onChanged={() => {}} />);
    expect(await screen.findByTestId('procedure-progress')).toHaveTextContent('1 of 2');
    expect(screen.getByTestId('procedure-required-left')).toHaveTextContent('1 required step left');
    expect(screen.getByTestId('procedure-heading')).toHaveTextContent('Safety');
    // No attach or detach for a worker.
    expect(screen.queryByTestId('procedure-detach')).toBeNull();
    // a checklist's box is heard with its step's name, not as one more "Done"
    expect(screen.getByRole('checkbox', { name: 'Isolate: Done' })).toBeChecked();

    const input = within(screen.getByTestId('procedure-step-3')).getByRole('textbox');
    await userEvent.type(input, '99{Enter}');
    expect(await screen.findByTestId('procedure-step-3-error')).toHaveTextContent('Number is too large');
    expect(bodies).toEqual([{ stepId: 3, value: 99, answeredAt: null }]);

    await userEvent.clear(input);
    await userEvent.type(input, '7.5{Enter}');
    await waitFor(() => expect(screen.getByTestId('procedure-progress')).toHaveTextContent('2 of 2'));
    expect(bodies[1]).toEqual({ stepId: 3, value: 7.5, answeredAt: null });
    expect(screen.queryByTestId('procedure-step-3-error')).toBeNull();
    expect(screen.getByTestId('procedure-step-3-flag')).toHaveTextContent('Out of range');

    await userEvent.click(screen.getByTestId('procedure-step-3-follow-up'));
    expect(await screen.findByTestId('procedure-step-3-follow-up-link')).toHaveTextContent('Follow-up WO-0012');
    expect(screen.queryByTestId('procedure-step-3-follow-up')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => JSON.parse(String(c.init.body)))).toEqual([{ stepId: 3 }]);
  });

  it('an answer to a step answered by someone else meanwhile: refused (409), said at the step, and their answer shown', async () => {
    const seen = issuedStep({ id: 3, position: 1, kind: 'number', label: 'Pressure', unit: 'bar' });
    const theirs = { ...seen, value: 4.4, answeredAt: '2026-11-26T07:30:00.000Z', answeredBy: { id: 9, firstName: 'Marcus', lastName: 'Lee' } };
    const bodies: unknown[] = [];
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: worker }),
      'GET /api/work-orders/get-work-order-procedure/7': () => ({ body: { procedure: procedureOf([seen]) } }),
      'PUT /api/work-orders/answer-procedure-step/7': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return { status: 409, body: { error: 'This record was changed by someone else', current: theirs } };
      },
    });
    renderWithProviders(<ProcedureTab workOrderId={7} onChanged={() => {}} />);
    expect(await screen.findByTestId('procedure-progress')).toHaveTextContent('0 of 1');
    const input = within(screen.getByTestId('procedure-step-1')).getByRole('textbox');
    await userEvent.type(input, '3.2{Enter}');
    expect(await screen.findByTestId('procedure-step-1-error')).toHaveTextContent(
      'Someone else answered this step meanwhile: their answer is shown, yours was not saved.',
    );
    expect(bodies).toEqual([{ stepId: 3, value: 3.2, answeredAt: null }]);
    await waitFor(() => expect(input).toHaveValue('4.4'));
    expect(screen.getByTestId('procedure-progress')).toHaveTextContent('1 of 1');
    expect(screen.getByTestId('procedure-step-1')).toHaveTextContent('Marcus Lee');
  });

  it("a photo goes with the step's answeredAt; answered meanwhile, it is refused (409), said at the step, and their photo shown (issue 45)", async () => {
    const seen = issuedStep({ id: 4, position: 1, kind: 'photo', label: 'Gauge', value: '/uploads/org-1/old.webp', answeredAt: '2026-11-26T07:00:00.000Z' });
    const theirs = { ...seen, value: '/uploads/org-1/theirs.webp', answeredAt: '2026-11-26T07:30:00.000Z' };
    const forms: FormData[] = [];
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: worker }),
      'GET /api/work-orders/get-work-order-procedure/7': () => ({ body: { procedure: procedureOf([seen]) } }),
      'POST /api/work-orders/add-step-image/7/step/4': (_url, init) => {
        forms.push(init.body as FormData);
        return { status: 409, body: { error: 'This record was changed by someone else', current: theirs } };
      },
    });
    renderWithProviders(<ProcedureTab workOrderId={7} onChanged={() => {}} />);
    await screen.findByTestId('procedure-step-1-photo');
    await userEvent.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['png'], 'gauge.png', { type: 'image/png' }));
    expect(await screen.findByTestId('procedure-step-1-error')).toHaveTextContent('Someone else answered this step meanwhile');
    expect(forms.map((f) => [...f.keys()])).toEqual([['answeredAt', 'image']]);
    expect(forms[0].get('answeredAt')).toBe('2026-11-26T07:00:00.000Z');
    await waitFor(() => expect(screen.getByTestId('procedure-step-1').querySelector('img')?.getAttribute('src')).toBe('/uploads/org-1/theirs.webp'));
  });
});
