/**
 * My work's checks before a change is queued, and its storage failure (issue 27, decision 041). jsdom has no
 * IndexedDB: exactly the browser whose storage is off, so the page must say so instead of spinning, and every
 * change refused by its route's schema is refused before the store is touched (the message at the field).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { TOKEN_KEY } from '../../../web/lib/session';
import type { IssuedStepDto } from '../../procedures/procedures.schema';
import type { CachedWorkOrder } from './my-work-db';
import { apiSender, ChangeRefused, queueAnswer, queueParts } from './my-work-sync';
import { AuthProvider } from '../../../web/app/auth-context';
import { issuedProcedure, issuedStep, workOrderDto } from '../../work-orders/ui/test-fixtures';
import MyWorkPage from './my-work-page';
import { WorkOrderScreen } from './work-order-screen';
import { NoticeCard } from './notice-list';

const step = (over: Partial<IssuedStepDto>) => issuedStep({ kind: 'text', label: 'Reading', ...over });

const order = (steps: IssuedStepDto[] = []): CachedWorkOrder => ({
  id: 5,
  workOrder: workOrderDto({
    id: 5,
    workOrderId: 'WO-0005',
    title: 'Replace pump seal',
    status: 'in-progress',
    priority: 'high',
    assignees: [{ id: 7, firstName: 'Marcus', lastName: 'Lee' }],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }),
  procedure: steps.length ? issuedProcedure(5, steps, { answered: 0, total: steps.length, requiredLeft: 0, flagged: 0 }) : null,
  labors: [],
  parts: [],
  photos: [],
});

/** The checks load on demand (their chunk): on a busy machine that is seconds. */
const WAIT = { timeout: 40_000 };

/** A token of a signed-in worker (the page reads its claims; the server is not asked). */
const signInWorker = () => {
  const payload = btoa(JSON.stringify({ sub: '7', org: 1, role: 'worker' })).replace(/=+$/, '');
  window.sessionStorage.setItem(TOKEN_KEY, `e30.${payload}.sig`);
};

describe('My work without a device store', { timeout: 60_000 }, () => {
  it('says the browser cannot keep the work and offers the full app online, instead of spinning', async () => {
    stubFetch({});
    signInWorker();
    renderWithProviders(
      <AuthProvider>
        <MyWorkPage />
      </AuthProvider>,
      { route: '/dashboard/my-work', path: '/dashboard/my-work' },
    );
    const alert = await screen.findByTestId('my-work-storage-failed', {}, WAIT);
    expect(alert).toHaveTextContent('This browser cannot keep your work on the device');
    expect(screen.getByTestId('my-work-online-only')).toHaveAttribute('href', '/dashboard/work-orders');
  });
});

describe('changes are checked with their route schema before they are queued', { timeout: 60_000 }, () => {
  it('a note over 5000 characters is refused at the field', async () => {
    stubFetch({});
    renderWithProviders(<WorkOrderScreen order={order()} onBack={() => undefined} />);
    fireEvent.change(screen.getByTestId('note-input'), { target: { value: 'x'.repeat(5001) } });
    fireEvent.click(screen.getByTestId('note-add'));
    expect(await screen.findByText('Note must be at most 5000 characters', {}, WAIT)).toBeInTheDocument();
    // kept in the box, to be shortened
    expect(screen.getByTestId('note-input')).toHaveValue('x'.repeat(5001));
  });

  it('a text answer over 2000 characters and a number too large are refused at their step', async () => {
    stubFetch({});
    const text = step({ id: 1, position: 1, kind: 'text', label: 'Finding' });
    const number = step({ id: 2, position: 2, kind: 'number', label: 'Pressure' });
    renderWithProviders(<WorkOrderScreen order={order([text, number])} onBack={() => undefined} />);
    fireEvent.change(screen.getByTestId('step-1'), { target: { value: 'y'.repeat(2001) } });
    fireEvent.click(screen.getByTestId('step-1-save'));
    expect(await screen.findByText('Enter a text of at most 2000 characters', {}, WAIT)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('step-2'), { target: { value: '1000000000000000' } });
    fireEvent.click(screen.getByTestId('step-2-save'));
    expect(await screen.findByText('Number is too large', {}, WAIT)).toBeInTheDocument();
  });

  it('a photo that is not JPEG, PNG or WebP is refused with the upload rule’s message', async () => {
    stubFetch({});
    renderWithProviders(<WorkOrderScreen order={order()} onBack={() => undefined} />);
    const gif = new File([new Uint8Array([71, 73, 70, 56])], 'a.gif', { type: 'image/gif' });
    fireEvent.change(screen.getByTestId('wo-photo-input'), { target: { files: [gif] } });
    expect(await screen.findByTestId('wo-photo-error', {}, WAIT)).toHaveTextContent('Only JPEG, PNG, and WebP images are allowed.');
  });

  it('a part quantity is judged by add-parts’ schema: 100,000 is allowed, 100,001 is not', async () => {
    await expect(queueParts(5, 3, 100_001, '')).rejects.toThrow(new ChangeRefused({ message: 'Quantity is too large', field: 'parts.0.quantity' }));
    await expect(queueParts(5, 3, 0, '')).rejects.toBeInstanceOf(ChangeRefused);
    // a valid change passes the check and reaches the store (absent here: the store's own error, not a refusal)
    const error = await queueParts(5, 3, 100_000, '').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ChangeRefused);
  });

  it('a choice answer must be one of the step’s options', async () => {
    const choice = step({ kind: 'choice', options: ['Left', 'Right'] });
    await expect(queueAnswer(5, choice, 'Middle', '')).rejects.toBeInstanceOf(ChangeRefused);
  });
});

describe("a step's photo from the phone", () => {
  it("goes with the step's answeredAt as a field before the file ('' when it was unanswered), as the route reads it (issue 45)", async () => {
    window.sessionStorage.setItem(TOKEN_KEY, 'e30.e30.sig');
    const calls = stubFetch({ 'POST /api/work-orders/add-step-image/5/step/2': () => ({ body: { message: 'Image saved' } }) });
    const item = {
      key: 'tech-1',
      workOrderId: 5,
      kind: 'photo' as const,
      method: 'POST' as const,
      path: '/work-orders/add-step-image/5/step/2',
      file: new Blob(['x'], { type: 'image/png' }),
      summary: '',
      createdAt: 0,
      attempts: 0,
    };
    for (const answeredAt of [null, '2026-01-04T00:00:01.000Z']) {
      expect(await apiSender({ ...item, body: { answeredAt } })).toMatchObject({ ok: true });
      const form = calls.at(-1)!.init.body as FormData;
      expect([...form.keys()]).toEqual(['answeredAt', 'image']);
      expect(form.get('answeredAt')).toBe(answeredAt ?? '');
    }
  });
});

describe('a refused change is told with the work order it was about', () => {
  /** The notice of a change to a step of WO-0005 refused because the step was answered meanwhile (409): `current`, the server's step. */
  const renderStaleNotice = (kind: 'answer' | 'photo', summary: string, current: IssuedStepDto) =>
    renderWithProviders(
      <NoticeCard
        onDismiss={() => undefined}
        notice={{
          workOrderId: 5,
          order: { code: 'WO-0005', title: 'Replace pump seal' },
          at: Date.now(),
          kind,
          summary,
          reason: 'changed',
          message: 'This record was changed by someone else',
          current,
        }}
      />,
    );

  it("a stale answer: the order's number and title (kept with the change), the change, and the server's answer", () => {
    renderStaleNotice('answer', 'Step "Pressure": 3.2', step({ id: 2, kind: 'number', label: 'Pressure', unit: 'bar', value: 4.4 }));
    const notice = screen.getByTestId('sync-notice');
    expect(notice).toHaveTextContent('Not applied: someone answered this step meanwhile.');
    expect(screen.getByTestId('sync-notice-order')).toHaveTextContent('WO-0005 · Replace pump seal');
    expect(notice).toHaveTextContent('Step "Pressure": 3.2');
    expect(screen.getByTestId('sync-notice-kept')).toHaveTextContent('Kept: the answer on the server now, "Pressure": 4.4 bar.');
  });

  it("a stale step photo is told as a stale answer is, with the step's image kept (issue 45)", () => {
    renderStaleNotice('photo', 'Photo: "Gauge"', step({ id: 2, kind: 'photo', label: 'Gauge', value: '/uploads/org-1/a.webp' }));
    expect(screen.getByTestId('sync-notice')).toHaveTextContent('Not applied: someone answered this step meanwhile.');
    expect(screen.getByTestId('sync-notice-kept')).toHaveTextContent('Kept: the answer on the server now, "Gauge": an image.');
  });
});

describe('completing from the phone', { timeout: 60_000 }, () => {
  it('with required steps empty: refused at once, naming the steps (nothing queued)', async () => {
    const calls = stubFetch({});
    const steps = [
      step({ id: 1, position: 1, kind: 'checkbox', label: 'Isolate the pump', required: true, value: false }),
      step({ id: 2, position: 2, kind: 'number', label: 'Pressure', required: true, value: 3 }),
      step({ id: 3, position: 3, kind: 'text', label: 'Remarks' }),
    ];
    const view = renderWithProviders(<WorkOrderScreen order={order(steps)} onBack={() => undefined} />);
    fireEvent.click(screen.getByTestId('wo-complete'));
    expect(await screen.findByText('Fill the required step "Isolate the pump" before completing.')).toBeInTheDocument();
    view.unmount();
    renderWithProviders(
      <WorkOrderScreen
        order={order([...steps, step({ id: 4, position: 4, kind: 'pass-fail', label: 'Seal test', required: true })])}
        onBack={() => undefined}
      />,
    );
    fireEvent.click(screen.getByTestId('wo-complete'));
    expect(await screen.findByText('Fill the 2 required steps before completing: "Isolate the pump", "Seal test".')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.includes('update-status'))).toHaveLength(0);
  });
});

describe('My work: a signature step on the phone', { timeout: 60_000 }, () => {
  it('is signed here with a finger, not "in the full app"', async () => {
    stubFetch({});
    const steps = [step({ id: 9, position: 1, kind: 'signature', label: 'Technician signature', required: true, value: null })];
    renderWithProviders(<WorkOrderScreen order={order(steps)} onBack={() => undefined} />);
    expect(screen.queryByText('Sign in the full app')).toBeNull();
    const sign = await screen.findByRole('button', { name: 'Sign' });
    fireEvent.click(sign);
    const canvas = await screen.findByTestId('signature-canvas');
    expect(canvas).toHaveAccessibleName('Sign with your finger in the box');
    const save = screen.getByRole('button', { name: 'Save signature' });
    expect(save).toBeDisabled();
    fireEvent.pointerDown(canvas, { clientX: 10, clientY: 10, pointerId: 1 });
    fireEvent.pointerMove(canvas, { clientX: 40, clientY: 20, pointerId: 1 });
    fireEvent.pointerUp(canvas);
    expect(save).toBeEnabled();
  });
});

describe('My work: sections', () => {
  it('a completed or cancelled order leaves Overdue', async () => {
    const { sectionOf } = await import('./my-work-page');
    const now = new Date('2026-12-06T12:00:00Z');
    expect(sectionOf('2026-12-01T08:00:00Z', now, 'in-progress')).toBe('overdue');
    expect(sectionOf('2026-12-01T08:00:00Z', now, 'completed')).toBe('closed');
    expect(sectionOf('2026-12-01T08:00:00Z', now, 'cancelled')).toBe('closed');
    expect(sectionOf(null, now, 'assigned')).toBe('upcoming');
  });
});
