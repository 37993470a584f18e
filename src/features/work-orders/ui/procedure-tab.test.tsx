import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { solidImage } from '../../../server/test/images';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { Client, TestOrg } from '../../../server/test/harness';
import type { IssuedStepDto, ProcedureInput, WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { ProcedureTab } from './procedure-tab';

const server = realServer();
const W = '/api/work-orders';

/**
 * Through the API: a procedure "Pump check" of `steps`, a work order assigned to the signed-in worker (and to
 * `others`) with it attached; the order's id and code and the issued steps.
 */
async function orderWith(org: TestOrg, steps: ProcedureInput['steps'], assignees: number[]) {
  const procedure = await org.admin.post('/api/procedures/add-procedure', { name: 'Pump check', steps });
  expect(procedure.status, JSON.stringify(procedure.body)).toBe(201);
  const order = await org.admin.post(`${W}/add-work-order`, { title: 'Pump PM', assignees });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const id = order.body.workOrder.id as number;
  const attached = await org.admin.post(`${W}/attach-procedure/${id}`, { procedureId: procedure.body.procedure.id });
  expect(attached.status, JSON.stringify(attached.body)).toBe(200);
  return { id, steps: (attached.body.procedure as WorkOrderProcedureDto).steps };
}

const stepsOf = async (c: Client, id: number) => ((await c.get(`${W}/get-work-order-procedure/${id}`)).body.procedure as WorkOrderProcedureDto).steps;
const png = () => solidImage('png', 40, 30, '#335577');
/** An image URL without its signature (each answer signs it anew). */
const unsigned = (url: string | null | undefined) => String(url).split('?')[0];

describe('procedure tab: filling at phone width', () => {
  it('shows "n of m", sends a number as a number, shows the server field message, flags and offers the follow-up', async () => {
    const { org, user: marcus, calls } = await server.signIn('worker', { fields: { firstName: 'Marcus', lastName: 'Lee' } });
    const order = await orderWith(
      org,
      [
        { kind: 'heading', label: 'Safety' },
        { kind: 'checkbox', label: 'Isolate', required: true },
        { kind: 'number', label: 'Pressure', unit: 'bar', min: 1, max: 5, required: true, followUpOnFailure: true },
      ],
      [marcus.userId],
    );
    const [, isolate, pressure] = order.steps;
    expect((await marcus.put(`${W}/answer-procedure-step/${order.id}`, { stepId: isolate.id, value: true })).status).toBe(200);
    renderWithProviders(<ProcedureTab workOrderId={order.id} onChanged={() => {}} />);
    expect(await screen.findByTestId('procedure-progress')).toHaveTextContent('1 of 2');
    expect(screen.getByTestId('procedure-required-left')).toHaveTextContent('1 required step left');
    expect(screen.getByTestId('procedure-heading')).toHaveTextContent('Safety');
    // No attach or detach for a worker.
    expect(screen.queryByTestId('procedure-detach')).toBeNull();
    // a checklist's box is heard with its step's name, not as one more "Done"
    expect(screen.getByRole('checkbox', { name: 'Isolate: Done' })).toBeChecked();

    // a number the server refuses (out of range is kept and flagged; a number this large is refused)
    const input = within(screen.getByTestId('procedure-step-3')).getByRole('textbox');
    await userEvent.type(input, '1000000000000{Enter}');
    expect(await screen.findByTestId('procedure-step-3-error')).toHaveTextContent('Number is too large');
    const puts = () => calls.filter((c) => c.method === 'PUT');
    expect(puts().map((c) => [c.body, c.status])).toEqual([[{ stepId: pressure.id, value: 1e12, answeredAt: null }, 400]]);

    await userEvent.clear(input);
    await userEvent.type(input, '7.5{Enter}');
    await waitFor(() => expect(screen.getByTestId('procedure-progress')).toHaveTextContent('2 of 2'));
    expect(puts()[1].body).toEqual({ stepId: pressure.id, value: 7.5, answeredAt: null });
    expect(screen.queryByTestId('procedure-step-3-error')).toBeNull();
    expect(screen.getByTestId('procedure-step-3-flag')).toHaveTextContent('Out of range');

    await userEvent.click(screen.getByTestId('procedure-step-3-follow-up'));
    const link = await screen.findByTestId('procedure-step-3-follow-up-link');
    expect(screen.queryByTestId('procedure-step-3-follow-up')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.body, c.status])).toEqual([[{ stepId: pressure.id }, 201]]);
    // the server kept the answer, its flag and the follow-up, whose code the link shows
    const kept = (await stepsOf(org.admin, order.id))[2];
    expect(kept).toMatchObject({ value: 7.5, flagged: true, answeredBy: { id: marcus.userId } });
    const followUp = (await org.admin.get(`${W}/get-work-order/${kept.followUpWorkOrderId}`)).body.workOrder;
    expect(link).toHaveTextContent(`Follow-up ${followUp.workOrderId}`);
  });

  it('an answer to a step answered by someone else meanwhile: refused (409), said at the step, and their answer shown', async () => {
    const { org, user: tom, calls } = await server.signIn('worker', { fields: { firstName: 'Tom', lastName: 'Hill' } });
    const marcus = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
    const order = await orderWith(org, [{ kind: 'number', label: 'Pressure', unit: 'bar' }], [tom.userId, marcus.userId]);
    const [pressure] = order.steps;
    renderWithProviders(<ProcedureTab workOrderId={order.id} onChanged={() => {}} />);
    expect(await screen.findByTestId('procedure-progress')).toHaveTextContent('0 of 1');
    // Marcus answers from his phone while the tab shows the step unanswered
    expect((await marcus.put(`${W}/answer-procedure-step/${order.id}`, { stepId: pressure.id, value: 4.4 })).status).toBe(200);
    const input = within(screen.getByTestId('procedure-step-1')).getByRole('textbox');
    await userEvent.type(input, '3.2{Enter}');
    expect(await screen.findByTestId('procedure-step-1-error')).toHaveTextContent(
      'Someone else answered this step meanwhile: their answer is shown, yours was not saved.',
    );
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.body, c.status])).toEqual([[{ stepId: pressure.id, value: 3.2, answeredAt: null }, 409]]);
    await waitFor(() => expect(input).toHaveValue('4.4'));
    expect(screen.getByTestId('procedure-progress')).toHaveTextContent('1 of 1');
    expect(screen.getByTestId('procedure-step-1')).toHaveTextContent('Marcus Lee');
    // Marcus's answer stands
    expect((await stepsOf(org.admin, order.id))[0]).toMatchObject({ value: 4.4, answeredBy: { id: marcus.userId } });
  });

  it("a photo goes with the step's answeredAt; answered meanwhile, it is refused (409), said at the step, and their photo shown (issue 45)", async () => {
    const { org, user: tom, calls } = await server.signIn('worker', { fields: { firstName: 'Tom', lastName: 'Hill' } });
    const marcus = await org.as('worker', { firstName: 'Marcus', lastName: 'Lee' });
    const order = await orderWith(org, [{ kind: 'photo', label: 'Gauge' }], [tom.userId, marcus.userId]);
    const url = `${W}/add-step-image/${order.id}/step/${order.steps[0].id}`;
    const image = async () => [{ field: 'image', name: 'gauge.png', bytes: await png(), type: 'image/png' }];
    const first = await marcus.upload(url, await image(), { answeredAt: '' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const seen = first.body.step as IssuedStepDto;
    // the forms the tab sends, seen on their way to the server (the calls record JSON bodies only)
    const forms: FormData[] = [];
    const toServer = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      if (init?.body instanceof FormData) forms.push(init.body);
      return toServer(input, init);
    };
    renderWithProviders(<ProcedureTab workOrderId={order.id} onChanged={() => {}} />);
    await screen.findByTestId('procedure-step-1-photo');
    // Marcus takes another photo while the tab shows the first
    const theirs = await marcus.upload(url, await image(), { answeredAt: seen.answeredAt! });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    await userEvent.upload(
      document.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File([new Uint8Array(await png())], 'gauge.png', { type: 'image/png' }),
    );
    expect(await screen.findByTestId('procedure-step-1-error')).toHaveTextContent('Someone else answered this step meanwhile');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe(url);
    expect(post.status).toBe(409);
    // sent as a form with the version the tab had, before the image
    expect(forms.map((f) => [...f.keys()])).toEqual([['answeredAt', 'image']]);
    expect(forms[0].get('answeredAt')).toBe(seen.answeredAt);
    await waitFor(() =>
      expect(unsigned(screen.getByTestId('procedure-step-1').querySelector('img')?.getAttribute('src'))).toBe(unsigned(theirs.body.step.value)),
    );
    // Marcus's photo stands
    expect(unsigned((await stepsOf(org.admin, order.id))[0].value as string)).toBe(unsigned(theirs.body.step.value));
  });
});
