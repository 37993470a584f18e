import { describe, expect, it } from 'vitest';
import { drainOutbox, newIdempotencyKey, type OutboxItem, type OutboxStore, type SendResult, type SyncNotice } from './outbox';

/** The outbox over an array: what the Dexie store does, in memory. */
function memoryStore(items: Omit<OutboxItem, 'seq' | 'key' | 'createdAt' | 'attempts'>[]) {
  let seq = 0;
  const queue: OutboxItem[] = items.map((i) => ({ ...i, seq: ++seq, key: newIdempotencyKey(), createdAt: Date.now(), attempts: 0 }));
  const notices: SyncNotice[] = [];
  const store: OutboxStore = {
    all: async () => queue.map((i) => ({ ...i })),
    remove: async (s) =>
      void queue.splice(
        queue.findIndex((i) => i.seq === s),
        1,
      ),
    bump: async (s) => void (queue.find((i) => i.seq === s)!.attempts += 1),
    reject: async (s, n) => {
      notices.push(n);
      queue.splice(
        queue.findIndex((i) => i.seq === s),
        1,
      );
    },
  };
  return { store, queue, notices };
}

/**
 * A server with the API's rules that matter here: a keyed POST is done once and its answer replayed
 * (decision 025); a status change with an older updatedAt is refused with 409 and the current record.
 */
function fakeServer() {
  const done = new Map<string, SendResult>();
  const rows: { path: string; body: unknown }[] = [];
  const order = { id: 1, status: 'assigned', updatedAt: '2026-01-01T00:00:00.000Z' };
  /** A number step, unanswered; answeredAt is its version. */
  const step = { id: 3, kind: 'number', label: 'Discharge pressure', unit: 'bar', value: null as unknown, answeredAt: null as string | null };
  let tick = 0;
  const answerStep = (value: unknown) => {
    step.value = value;
    step.answeredAt = new Date(Date.UTC(2026, 0, 4, 0, 0, ++tick)).toISOString();
  };
  return {
    rows,
    order,
    step,
    /** Someone else answers the step online. */
    answerStep,
    /** Someone else changes the order. */
    changeOrder(status: string) {
      order.status = status;
      order.updatedAt = new Date(Date.UTC(2026, 0, 2, 0, 0, ++tick)).toISOString();
    },
    handle(item: OutboxItem): SendResult {
      if (item.method === 'POST' && done.has(item.key)) return done.get(item.key)!;
      let res: SendResult;
      if (item.kind === 'status') {
        const body = item.body as { status: string; updatedAt?: string };
        if (body.updatedAt && body.updatedAt !== order.updatedAt)
          return { ok: false, status: 409, message: 'This record was changed by someone else', body: { current: { ...order } } };
        order.status = body.status;
        order.updatedAt = new Date(Date.UTC(2026, 0, 3, 0, 0, ++tick)).toISOString();
        res = { ok: true, body: { workOrder: { ...order } } };
      } else if (item.kind === 'answer' || (item.kind === 'photo' && item.path.endsWith(`/step/${step.id}`))) {
        // A photo answers the step with its image (its version comes as a field before the file).
        const body = (item.kind === 'photo' ? { value: '/uploads/photo.webp', answeredAt: item.body?.answeredAt } : item.body) as {
          value: unknown;
          answeredAt?: string | null;
        };
        if (body.answeredAt !== undefined && body.answeredAt !== step.answeredAt)
          return { ok: false, status: 409, message: 'This record was changed by someone else', body: { current: { ...step } } };
        answerStep(body.value);
        res = { ok: true, body: { step: { ...step } } };
      } else {
        rows.push({ path: item.path, body: item.body });
        res = { ok: true, body: { count: rows.length } };
      }
      if (item.method === 'POST') done.set(item.key, res);
      return res;
    },
  };
}

const labor = (workOrderId = 1) => ({
  workOrderId,
  kind: 'labor' as const,
  method: 'POST' as const,
  path: `/work-orders/add-labor/${workOrderId}`,
  body: { reason: 1 },
  summary: '1 h',
});
const note = (text: string, workOrderId = 1) => ({
  workOrderId,
  kind: 'note' as const,
  method: 'POST' as const,
  path: `/activities/work-order/${workOrderId}/notes`,
  body: { note: text },
  summary: text,
});
const status = (s: string, updatedAt: string) => ({
  workOrderId: 1,
  kind: 'status' as const,
  method: 'PUT' as const,
  path: '/work-orders/update-status/1',
  body: { status: s, updatedAt },
  summary: s,
});
const PUMP = { code: 'WO-0001', title: 'Replace the seal of pump P-7' };
const answer = (value: unknown, answeredAt: string | null) => ({
  workOrderId: 1,
  order: PUMP,
  kind: 'answer' as const,
  method: 'PUT' as const,
  path: '/work-orders/answer-procedure-step/1',
  body: { stepId: 3, value, answeredAt },
  summary: `Step "Discharge pressure": ${String(value)}`,
});

/** A photo of step 3 (its version goes with the file). */
const photo = (answeredAt: string | null) => ({
  workOrderId: 1,
  order: PUMP,
  kind: 'photo' as const,
  method: 'POST' as const,
  path: '/work-orders/add-step-image/1/step/3',
  body: { answeredAt },
  file: new Blob(['x'], { type: 'image/png' }),
  summary: 'Photo: "Discharge pressure"',
});

/**
 * A change to step 3 made offline from the step as the phone saw it, then someone answers the step online before it is
 * sent: the change is refused (409) and dropped, the note after it still goes, the server keeps its answer and the
 * notice names the order, the change and the server's step.
 */
async function expectRefusedAfterOnlineAnswer(
  change: (seen: string | null) => ReturnType<typeof answer | typeof photo>,
  notice: { kind: string; summary: string },
) {
  const server = fakeServer();
  const { store, queue, notices } = memoryStore([change(server.step.answeredAt), note('after')]);
  server.answerStep(4.4);
  const res = await drainOutbox(store, async (i) => server.handle(i));
  expect(res).toEqual({ sent: 1, rejected: 1, stopped: false });
  expect(queue).toHaveLength(0);
  expect(server.step.value).toBe(4.4);
  expect(notices).toEqual([expect.objectContaining({ reason: 'changed', ...notice, order: PUMP, current: expect.objectContaining({ id: 3, value: 4.4 }) })]);
}

describe('the technician outbox (decision 041)', () => {
  it('sends the changes in the order they were made, each once, and empties the queue', async () => {
    const server = fakeServer();
    const { store, queue } = memoryStore([note('first'), labor(), note('second')]);
    const sent: string[] = [];
    const res = await drainOutbox(store, async (i) => {
      sent.push(i.summary);
      return server.handle(i);
    });
    expect(res).toEqual({ sent: 3, rejected: 0, stopped: false });
    expect(sent).toEqual(['first', '1 h', 'second']);
    expect(queue).toHaveLength(0);
    expect(server.rows.map((r) => (r.body as { note?: string }).note ?? 'labor')).toEqual(['first', 'labor', 'second']);
  });

  it('a lost network stops the drain, keeps the change and its key; the retry is done once on the server', async () => {
    const server = fakeServer();
    const { store, queue } = memoryStore([labor(), note('after')]);
    const key = queue[0].key;
    // The first try reaches the server, which commits it, but the answer is lost on the way back.
    const first = await drainOutbox(store, async (i) => {
      server.handle(i);
      throw new TypeError('Failed to fetch');
    });
    expect(first).toEqual({ sent: 0, rejected: 0, stopped: true });
    expect(queue.map((i) => i.summary)).toEqual(['1 h', 'after']);
    expect(queue[0].attempts).toBe(1);
    const keys: string[] = [];
    const second = await drainOutbox(store, async (i) => {
      keys.push(i.key);
      return server.handle(i);
    });
    expect(second).toEqual({ sent: 2, rejected: 0, stopped: false });
    expect(keys[0]).toBe(key);
    // one labour row and one note: the retry was replayed, not done again
    expect(server.rows).toHaveLength(2);
  });

  it('a server error, a rate limit or an ended session keeps the change for later', async () => {
    for (const code of [500, 503, 429, 401]) {
      const { store, queue, notices } = memoryStore([note('kept'), note('next')]);
      const res = await drainOutbox(store, async () => ({ ok: false, status: code, message: 'later', body: {} }));
      expect(res.stopped).toBe(true);
      expect(queue).toHaveLength(2);
      expect(notices).toHaveLength(0);
    }
  });

  it('a work order changed meanwhile: the server decides (409), the change is dropped with a notice of what was kept, the rest goes on', async () => {
    const server = fakeServer();
    const seen = server.order.updatedAt;
    const { store, queue, notices } = memoryStore([status('in-progress', seen), note('found a leak')]);
    server.changeOrder('cancelled');
    const res = await drainOutbox(store, async (i) => server.handle(i));
    expect(res).toEqual({ sent: 1, rejected: 1, stopped: false });
    expect(queue).toHaveLength(0);
    expect(server.order.status).toBe('cancelled');
    expect(notices).toEqual([
      expect.objectContaining({ reason: 'changed', summary: 'in-progress', current: expect.objectContaining({ status: 'cancelled' }) }),
    ]);
    expect(server.rows).toHaveLength(1);
  });

  it('a work order no longer mine (404) or a refused change (400): dropped with its notice', async () => {
    const { store, notices } = memoryStore([labor(9), note('x')]);
    const answers: SendResult[] = [
      { ok: false, status: 404, message: 'Work order not found', body: {} },
      { ok: false, status: 400, message: 'Note is required', body: {} },
    ];
    const res = await drainOutbox(store, async () => answers.shift()!);
    expect(res).toEqual({ sent: 0, rejected: 2, stopped: false });
    expect(notices.map((n) => n.reason)).toEqual(['gone', 'refused']);
  });

  it('parts used offline that the location no longer has (409 when it syncs): a shortage notice, not a lost change', async () => {
    const parts = {
      workOrderId: 1,
      kind: 'parts' as const,
      method: 'POST' as const,
      path: '/work-orders/add-parts/1',
      body: { parts: [{ partId: 4, quantity: 2 }] },
      summary: '2 x Seal kit',
    };
    const { store, queue, notices } = memoryStore([parts, note('fitted')]);
    const answers: SendResult[] = [
      { ok: false, status: 409, message: 'Not enough stock: Seal kit has 1 at Main store', body: { field: 'quantity' } },
      { ok: true, body: {} },
    ];
    const res = await drainOutbox(store, async () => answers.shift()!);
    expect(res).toEqual({ sent: 1, rejected: 1, stopped: false });
    expect(queue).toHaveLength(0);
    expect(notices).toEqual([
      expect.objectContaining({ reason: 'short', kind: 'parts', summary: '2 x Seal kit', message: 'Not enough stock: Seal kit has 1 at Main store' }),
    ]);
  });

  it('two status changes made offline from the same copy are one sequence, not a conflict', async () => {
    const server = fakeServer();
    const seen = server.order.updatedAt;
    const { store, notices } = memoryStore([status('in-progress', seen), status('completed', seen)]);
    const res = await drainOutbox(store, async (i) => server.handle(i));
    expect(notices).toEqual([]);
    expect(res.sent).toBe(2);
    expect(server.order.status).toBe('completed');
  });

  it("an answer made offline from a step answered online meanwhile: refused (409), the notice names the order and keeps the server's answer", async () => {
    await expectRefusedAfterOnlineAnswer((seen) => answer(3.2, seen), { kind: 'answer', summary: 'Step "Discharge pressure": 3.2' });
  });

  it('two answers to one step made offline from the same copy are one sequence, not a conflict', async () => {
    const server = fakeServer();
    const { store, notices } = memoryStore([answer(3.2, null), answer(3.5, null)]);
    const res = await drainOutbox(store, async (i) => server.handle(i));
    expect(notices).toEqual([]);
    expect(res.sent).toBe(2);
    expect(server.step.value).toBe(3.5);
  });

  it("a step's photo taken offline from a step answered online meanwhile: refused (409) like an answer, with the server's step (issue 45)", async () => {
    await expectRefusedAfterOnlineAnswer(photo, { kind: 'photo', summary: 'Photo: "Discharge pressure"' });
  });

  it("a step's photo and a retake, or a photo then an answer, made offline from the same copy are one sequence, not a conflict", async () => {
    const server = fakeServer();
    const { store, notices } = memoryStore([photo(null), photo(null), answer(null, null)]);
    const res = await drainOutbox(store, async (i) => server.handle(i));
    expect(notices).toEqual([]);
    expect(res.sent).toBe(3);
    expect(server.step.value).toBeNull();
  });

  it('gives every change its own key, in the form the server accepts', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[A-Za-z0-9_\-:.]{8,128}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
