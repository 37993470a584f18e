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

export interface OutboxItem {
  /** Order of the queue (auto-increment). */
  seq?: number;
  /** The Idempotency-Key, made once when the change is queued and sent with every try. */
  key: string;
  workOrderId: number;
  kind: OutboxKind;
  method: 'POST' | 'PUT';
  /** API path under /api. */
  path: string;
  body?: Record<string, unknown>;
  /** A photo, kept as a blob until it is uploaded (field `image`). */
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
  at: number;
  kind: OutboxKind;
  /** The change that was not applied. */
  summary: string;
  /** Why: 'changed' (409, someone changed the record), 'gone' (404, deleted or no longer assigned), 'refused' (other 4xx). */
  reason: 'changed' | 'gone' | 'refused';
  /** The server's message. */
  message: string;
  /** The record as the server holds it now (409 body `current`), when it sent one. */
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

/** The updatedAt of a work order in an answer (update-status returns `workOrder`). */
function answeredUpdatedAt(body: unknown): string | undefined {
  const wo = (body as { workOrder?: { updatedAt?: unknown } } | null)?.workOrder;
  return typeof wo?.updatedAt === 'string' ? wo.updatedAt : undefined;
}

/**
 * Sends the queue in order, one call at a time. Success removes the item; a network failure, a 5xx or a
 * 401/429 stops the drain and keeps the item (and its key) for the next one; any other refusal is the
 * server's decision: the item is dropped with a notice, and the drain goes on with the next change.
 *
 * A status change carries the `updatedAt` of the work order as the technician saw it. Two changes queued
 * from the same copy (started, then completed, offline) are one person's sequence, not a conflict: the second
 * is sent with the `updatedAt` the first one's answer gave.
 */
export async function drainOutbox(store: OutboxStore, send: Sender, onSent?: (item: OutboxItem, body: unknown) => Promise<void>): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, rejected: 0, stopped: false };
  /** workOrderId -> [the updatedAt my earlier change was made from, the one its answer gave]. */
  const mine = new Map<number, { from: string; to: string }>();
  for (const queued of await store.all()) {
    const seq = queued.seq!;
    let item = queued;
    const base = typeof item.body?.updatedAt === 'string' ? item.body.updatedAt : undefined;
    const chain = mine.get(item.workOrderId);
    if (base && chain && chain.from === base) item = { ...item, body: { ...item.body, updatedAt: chain.to } };
    let res: SendResult;
    try {
      res = await send(item);
    } catch {
      await store.bump(seq);
      return { ...result, stopped: true };
    }
    if (res.ok) {
      const to = answeredUpdatedAt(res.body);
      if (base && to) mine.set(item.workOrderId, { from: base, to });
      await onSent?.(item, res.body);
      await store.remove(seq);
      result.sent++;
      continue;
    }
    if (res.status >= 500 || RETRY_LATER.has(res.status)) {
      await store.bump(seq);
      return { ...result, stopped: true };
    }
    const reason = res.status === 409 ? 'changed' : res.status === 404 ? 'gone' : 'refused';
    await store.reject(seq, {
      workOrderId: item.workOrderId,
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
