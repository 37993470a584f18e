import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { stubFetch } from '../../../web/test/render';
import { setLanguage } from '../../../web/i18n';
import { REFRESH_MS } from './contractor-page';
import { TOKEN, contractorStep, renderContractorPage, sharedWorkOrderDto as dto } from './test-fixtures';

describe("the contractor's page", () => {
  it('shows only what the share allows, and sends a comment with the link token', async () => {
    const calls = stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto() }),
      'POST /api/shared-work-orders/add-shared-comment': () => ({ status: 201, body: { message: 'Comment added' } }),
    });
    renderContractorPage();
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

  it('shows the work order on hold, with its reason and note, in English and Arabic (decision 080)', async () => {
    const held = dto();
    held.workOrder = { ...held.workOrder, onHold: true, holdReason: 'parts', holdNote: 'Seal kit ordered' };
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: held }) });
    const view = renderContractorPage();
    expect(await screen.findByTestId('contractor-on-hold')).toHaveTextContent('On hold');
    expect(screen.getByTestId('contractor-on-hold')).toHaveTextContent('Waiting for parts · Seal kit ordered');
    try {
      await userEvent.click(screen.getByTestId('contractor-language'));
      await waitFor(() => expect(screen.getByTestId('contractor-on-hold')).toHaveTextContent('بانتظار القطع · Seal kit ordered'), {
        timeout: 10_000,
      });
    } finally {
      setLanguage('en');
      await waitFor(() => expect(screen.getByTestId('contractor-on-hold')).toHaveTextContent('Waiting for parts'));
    }
    view.unmount();
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto() }) });
    renderContractorPage();
    await screen.findByTestId('contractor-title');
    expect(screen.queryByTestId('contractor-on-hold')).toBeNull();
  });

  it('a view-only share has no comment box, no time and no Mark as done; a dead link says so', async () => {
    stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto({ permissions: { canComment: false, canLog: false, canComplete: false } }) }),
    });
    const view = renderContractorPage();
    await screen.findByTestId('contractor-title');
    expect(screen.queryByTestId('contractor-comment')).toBeNull();
    expect(screen.queryByTestId('contractor-add-time')).toBeNull();
    expect(screen.queryByTestId('contractor-done')).toBeNull();
    view.unmount();
    stubFetch({ 'GET /api/shared-work-orders/get-shared-work-order': () => ({ status: 404, body: { error: 'Shared work order not found' } }) });
    renderContractorPage();
    expect(await screen.findByTestId('contractor-not-found')).toBeInTheDocument();
  });

  it('shows a revoked link as dead on the next request: a failed write, a return to the page, or the minute refresh (issue 45)', async () => {
    let revoked = false;
    const gone = { status: 404, body: { error: 'Shared work order not found' } };
    stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => (revoked ? gone : { body: dto() }),
      'POST /api/shared-work-orders/add-shared-comment': () => gone,
    });
    // A write after the revocation.
    const view = renderContractorPage();
    await screen.findByTestId('contractor-title');
    revoked = true;
    await userEvent.type(screen.getByTestId('contractor-comment'), 'Still there?');
    await userEvent.click(screen.getByTestId('contractor-send'));
    expect(await screen.findByTestId('contractor-not-found')).toBeInTheDocument();
    expect(screen.queryByTestId('contractor-title')).toBeNull();
    view.unmount();

    // Coming back to the page (focus) reads it again.
    revoked = false;
    const again = renderContractorPage();
    await screen.findByTestId('contractor-title');
    revoked = true;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByTestId('contractor-not-found')).toBeInTheDocument();
    focusManager.setFocused(undefined);
    again.unmount();

    // Left open: the minute refresh.
    revoked = false;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderContractorPage();
      await screen.findByTestId('contractor-title');
      revoked = true;
      await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS + 1_000));
      expect(await screen.findByTestId('contractor-not-found')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("fills the procedure's steps with the control of each kind, and reads in Arabic", async () => {
    const steps = [
      contractorStep(),
      contractorStep({ id: 2, position: 2, kind: 'choice', label: 'Filter', required: false, options: ['Clean', 'Replaced'] }),
      contractorStep({ id: 3, position: 3, kind: 'photo', label: 'Gauge', required: false }),
    ];
    const calls = stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({
        body: dto({ procedure: { name: 'Chiller check', steps, progress: { answered: 0, total: 3, requiredLeft: 1, flagged: 0 } } }),
      }),
      'POST /api/shared-work-orders/answer-shared-step': () => ({ body: { message: 'Answer saved' } }),
    });
    renderContractorPage();
    expect(await screen.findByTestId('contractor-procedure')).toHaveTextContent('0 of 3 steps done');
    await userEvent.click(screen.getByTestId('contractor-step-1-input'));
    await userEvent.click(screen.getByRole('radio', { name: 'Replaced' }));
    await waitFor(() => expect(calls.filter((c) => c.url.pathname.endsWith('/answer-shared-step'))).toHaveLength(2));
    const answers = calls.filter((c) => c.url.pathname.endsWith('/answer-shared-step'));
    expect(answers.map((c) => JSON.parse(String(c.init.body)))).toEqual([
      { stepId: 1, value: true, answeredAt: null },
      { stepId: 2, value: 'Replaced', answeredAt: null },
    ]);
    expect(answers.every((c) => c.url.searchParams.get('token') === TOKEN)).toBe(true);
    // A photo step takes a photo (the upload), not a typed value.
    expect(screen.getByTestId('contractor-step-3-photo')).toBeInTheDocument();
    try {
      await userEvent.click(screen.getByTestId('contractor-language'));
      expect(await screen.findByText('تم 0 من 3 خطوات')).toBeInTheDocument();
    } finally {
      setLanguage('en');
      await waitFor(() => expect(screen.getByTestId('contractor-procedure')).toHaveTextContent('0 of 3 steps done'));
    }
  });

  it('an answer to a step answered by someone else meanwhile: refused (409), said at the step, and the page shows their answer', async () => {
    const seen = contractorStep({ id: 4, kind: 'text', label: 'Remarks', required: false });
    let step = seen;
    const procedure = () => ({ name: 'Chiller check', steps: [step], progress: { answered: step.value ? 1 : 0, total: 1, requiredLeft: 0, flagged: 0 } });
    const bodies: unknown[] = [];
    stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto({ procedure: procedure() }) }),
      'POST /api/shared-work-orders/answer-shared-step': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        // The manager answered it meanwhile.
        step = { ...seen, value: 'Checked by the manager', answeredAt: '2026-11-26T07:30:00.000Z' };
        return { status: 409, body: { error: 'This record was changed by someone else', current: step } };
      },
    });
    renderContractorPage();
    const input = await screen.findByTestId('contractor-step-1-input');
    await userEvent.type(input, 'Oil on the floor');
    await userEvent.tab();
    expect(await screen.findByTestId('contractor-step-1-error')).toHaveTextContent(
      'Someone else answered this step meanwhile: their answer is shown, yours was not saved.',
    );
    expect(bodies).toEqual([{ stepId: 4, value: 'Oil on the floor', answeredAt: null }]);
    await waitFor(() => expect(screen.getByTestId('contractor-step-1-input')).toHaveValue('Checked by the manager'));
  });

  it("a photo goes with the step's answeredAt ('' when unanswered); answered meanwhile, it is refused (409) and said at the step (issue 45)", async () => {
    const seen = contractorStep({ id: 5, kind: 'photo', label: 'Gauge', required: false });
    const forms: FormData[] = [];
    const calls = stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({
        body: dto({ procedure: { name: 'Chiller check', steps: [seen], progress: { answered: 0, total: 1, requiredLeft: 0, flagged: 0 } } }),
      }),
      'POST /api/shared-work-orders/add-shared-step-image/5': (_url, init) => {
        forms.push(init.body as FormData);
        return {
          status: 409,
          body: {
            error: 'This record was changed by someone else',
            current: { ...seen, value: '/uploads/org-1/m.webp', answeredAt: '2026-11-26T07:30:00.000Z' },
          },
        };
      },
    });
    renderContractorPage();
    await screen.findByTestId('contractor-step-1-photo');
    await userEvent.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['png'], 'gauge.png', { type: 'image/png' }));
    expect(await screen.findByTestId('contractor-step-1-error')).toHaveTextContent('Someone else answered this step meanwhile');
    expect(forms).toHaveLength(1);
    expect([...forms[0].keys()]).toEqual(['answeredAt', 'image']);
    expect(forms[0].get('answeredAt')).toBe('');
    expect(calls.find((c) => c.url.pathname.endsWith('/5'))!.url.searchParams.get('token')).toBe(TOKEN);
  });

  it('a step answered after the link was revoked: the page reads the share again and shows the dead link (issue 45)', async () => {
    let revoked = false;
    const step = contractorStep({ id: 4, required: false });
    const gone = { status: 404, body: { error: 'Shared work order not found' } };
    stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () =>
        revoked
          ? gone
          : { body: dto({ procedure: { name: 'Chiller check', steps: [step], progress: { answered: 0, total: 1, requiredLeft: 0, flagged: 0 } } }) },
      'POST /api/shared-work-orders/answer-shared-step': () => gone,
    });
    renderContractorPage();
    await screen.findByTestId('contractor-step-1-input');
    revoked = true;
    await userEvent.click(screen.getByTestId('contractor-step-1-input'));
    expect(await screen.findByTestId('contractor-not-found')).toBeInTheDocument();
    expect(screen.queryByTestId('contractor-title')).toBeNull();
  });

  it('logs time in the date boxes of every screen (one format per language, typed day first), not native date-time inputs (issue 46)', async () => {
    const calls = stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto() }),
      'POST /api/shared-work-orders/add-shared-labor': () => ({ status: 201, body: { message: 'Time added' } }),
    });
    const view = renderContractorPage();
    const start = (await screen.findByTestId('contractor-start')) as HTMLInputElement;
    expect(view.container.querySelector('input[type="datetime-local"], input[type="date"]')).toBeNull();
    expect(start.value).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
    for (const [id, day, time] of [
      ['contractor-start', '02/03/2026', '08:00'],
      ['contractor-end', '02/03/2026', '09:30'],
    ]) {
      const box = screen.getByTestId(id) as HTMLInputElement;
      await userEvent.clear(box);
      await userEvent.type(box, day);
      await userEvent.tab();
      expect(box.value).toBe('02 Mar 2026');
      fireEvent.change(screen.getByTestId(`${id}-time`), { target: { value: time } });
    }
    await userEvent.type(screen.getByTestId('contractor-rate'), '40');
    await userEvent.click(screen.getByTestId('contractor-add-time'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/add-shared-labor'))).toBe(true));
    const sent = JSON.parse(String(calls.find((c) => c.url.pathname.endsWith('/add-shared-labor'))!.init.body));
    expect(sent).toMatchObject({ startTime: new Date(2026, 2, 2, 8, 0).toISOString(), endTime: new Date(2026, 2, 2, 9, 30).toISOString() });
    try {
      setLanguage('ar');
      await waitFor(() => expect((screen.getByTestId('contractor-start') as HTMLInputElement).value).toMatch(/مارس/));
    } finally {
      setLanguage('en');
    }
  });

  it('deletes a time line of their own after confirmation; without the right to log there is no delete', async () => {
    const labors = [{ id: 5, startDate: '2026-03-02T08:00:00.000Z', endDate: '2026-03-02T09:30:00.000Z', minutes: 90, hourlyRateMinor: 4000, costMinor: 6000 }];
    const calls = stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({ body: dto({ labors }) }),
      'DELETE /api/shared-work-orders/delete-shared-labor/5': () => ({ body: { message: 'Time deleted' } }),
    });
    const view = renderContractorPage();
    expect(await screen.findByTestId('contractor-labor')).toHaveTextContent('1h 30m');
    await userEvent.click(screen.getByTestId('contractor-delete-labor'));
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url.searchParams.get('token')).toBe(TOKEN);
    view.unmount();
    stubFetch({
      'GET /api/shared-work-orders/get-shared-work-order': () => ({
        body: dto({ labors, permissions: { canComment: true, canLog: false, canComplete: true } }),
      }),
    });
    renderContractorPage();
    await screen.findByTestId('contractor-labor');
    expect(screen.queryByTestId('contractor-delete-labor')).toBeNull();
  });
});
