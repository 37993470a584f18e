/**
 * The technician's outbox (issue 27, decision 041): every change made on the phone is a queued call, sent in
 * the order it was made when the network is there. A POST carries the Idempotency-Key it got when it was
 * queued, and keeps it across retries, so a call the server committed but whose answer was lost is not done
 * twice (decision 025). The server decides conflicts: a refusal (409 changed meanwhile, 404 no longer yours,
 * 400 not allowed) drops the change and leaves a notice saying what happened and what was kept.
 *
 * Pure logic over two interfaces (the store, the sender): the Dexie store and the API sender are in
 * my-work-db.ts and my-work-sync.ts; the tests drive it with in-memory ones.
 */

export type OutboxKind = 'status' | 'labor' | 'parts' | 'answer' | 'note' | 'photo';

/** The work order a change is about, as the technician knows it: kept with the change, so a notice can name it after the order left the device. */
export interface OrderName {
  /** Its number ("WO-0012"). */
  code: string;
  title: string;
}

export interface OutboxItem {
  /** Order of the queue (auto-increment). */
  seq?: number;
  /** The Idempotency-Key, made once when the change is queued and sent with every try. */
  key: string;
  workOrderId: number;
  /** The order's number and title when the change was queued. */
  order?: OrderName;
  kind: OutboxKind;
  method: 'POST' | 'PUT';
  /** API path under /api. */
  path: string;
  body?: Record<string, unknown>;
  /** A photo, kept as a blob until it is uploaded (field `image`; `body`, if any, goes as text fields before it). */
  file?: Blob;
  /** What the technician did, in their words ("Status: Completed", "1 h 20 min, Repair"). */
  summary: string;
  createdAt: number;
  attempts: number;
}

/** A change the server refused: shown to the technician until they dismiss it. */
export interface SyncNotice {
  id?: number;
  workOrderId: number;
  /** The order's number and title (from the change: the order may no longer be on the device). */
  order?: OrderName;
  at: number;
  kind: OutboxKind;
  /** The change that was not applied. */
  summary: string;
  /**
   * Why: 'changed' (409, someone changed the record), 'short' (409 on parts: the location has too little stock when
   * the change syncs, decision 071), 'gone' (404, deleted or no longer assigned), 'refused' (other 4xx).
   */
  reason: 'changed' | 'short' | 'gone' | 'refused';
  /** The server's message. */
  message: string;
  /** The record as the server holds it now (409 body `current`: the work order, or the step of an answer), when it sent one. */
  current?: unknown;
}

export interface OutboxStore {
  /** The queued items, oldest first. */
  all(): Promise<OutboxItem[]>;
  remove(seq: number): Promise<void>;
  /** Counts a failed try (the item stays, with its key). */
  bump(seq: number): Promise<void>;
  /** Keeps a notice of a refused change and removes the item, in one step. */
  reject(seq: number, notice: SyncNotice): Promise<void>;
}

export type SendResult = { ok: true; body: unknown } | { ok: false; status: number; message: string; body: Record<string, unknown> };

/**
 * Sends one item; resolves with the server's answer (any status), throws when the server could not be
 * reached (the item is tried again later with the same key).
 */
export type Sender = (item: OutboxItem) => Promise<SendResult>;

export interface DrainResult {
  sent: number;
  rejected: number;
  /** True when the drain stopped with items left (network lost, server error, session needed). */
  stopped: boolean;
}

/** Answers that mean "try again later, unchanged": not a decision of the server about the change. */
const RETRY_LATER = new Set([401, 408, 425, 429]);

/**
 * The version a change was made from, where the server checks one (decision 025): a status change carries the
 * work order's `updatedAt`, a step answer or a step's photo the step's `answeredAt` (null: it was unanswered).
 * `chain` names what the version is of; `after` reads the version the change's answer gave.
 */
function versionOf(item: OutboxItem): { chain: string; field: string; base: string | null; after(body: unknown): string | null | undefined } | undefined {
  const body = item.body ?? {};
  if (item.kind === 'status' && typeof body.updatedAt === 'string') {
    return {
      chain: `order:${item.workOrderId}`,
      field: 'updatedAt',
      base: body.updatedAt,
      after: (b) => readString((b as { workOrder?: { updatedAt?: unknown } } | null)?.workOrder?.updatedAt),
    };
  }
  if ((item.kind === 'answer' || item.kind === 'photo') && 'answeredAt' in body && (typeof body.answeredAt === 'string' || body.answeredAt === null)) {
    // A photo names its step in its path (add-step-image/{order}/step/{step}); an answer in its body.
    const stepId = item.kind === 'answer' ? String(body.stepId) : /\/step\/(\d+)$/.exec(item.path)?.[1];
    return {
      chain: `step:${item.workOrderId}:${stepId}`,
      field: 'answeredAt',
      base: body.answeredAt,
      after: (b) => readString((b as { step?: { answeredAt?: unknown } } | null)?.step?.answeredAt),
    };
  }
  return undefined;
}
const readString = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * Sends the queue in order, one call at a time. Success removes the item; a network failure, a 5xx or a
 * 401/429 stops the drain and keeps the item (and its key) for the next one; any other refusal is the
 * server's decision: the item is dropped with a notice, and the drain goes on with the next change.
 *
 * A status change carries the `updatedAt` of the work order as the technician saw it, a step answer the step's
 * `answeredAt`. Two changes queued from the same copy (started, then completed; 3.2 then 3.5, offline) are one
 * person's sequence, not a conflict: the second is sent with the version the first one's answer gave.
 */
export async function drainOutbox(store: OutboxStore, send: Sender, onSent?: (item: OutboxItem, body: unknown) => Promise<void>): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, rejected: 0, stopped: false };
  /** order or step -> [the version my earlier change was made from, the one its answer gave]. */
  const mine = new Map<string, { from: string | null; to: string }>();
  for (const queued of await store.all()) {
    const seq = queued.seq!;
    let item = queued;
    const version = versionOf(item);
    const chain = version && mine.get(version.chain);
    if (version && chain && chain.from === version.base) item = { ...item, body: { ...item.body, [version.field]: chain.to } };
    let res: SendResult;
    try {
      res = await send(item);
    } catch {
      await store.bump(seq);
      return { ...result, stopped: true };
    }
    if (res.ok) {
      const to = version?.after(res.body);
      if (version && to) mine.set(version.chain, { from: version.base, to });
      await onSent?.(item, res.body);
      await store.remove(seq);
      result.sent++;
      continue;
    }
    if (res.status >= 500 || RETRY_LATER.has(res.status)) {
      await store.bump(seq);
      return { ...result, stopped: true };
    }
    const reason = res.status === 409 ? (item.kind === 'parts' ? 'short' : 'changed') : res.status === 404 ? 'gone' : 'refused';
    await store.reject(seq, {
      workOrderId: item.workOrderId,
      ...(item.order ? { order: item.order } : {}),
      at: Date.now(),
      kind: item.kind,
      summary: item.summary,
      reason,
      message: res.message,
      ...(res.body.current !== undefined ? { current: res.body.current } : {}),
    });
    result.rejected++;
  }
  return result;
}

/** A fresh Idempotency-Key (letters, digits and dashes: the server's pattern). */
export function newIdempotencyKey(): string {
  return `tech-${crypto.randomUUID()}`;
}
