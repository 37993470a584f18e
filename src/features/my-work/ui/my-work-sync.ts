import { useEffect, useState, useSyncExternalStore } from 'react';
import { liveQuery } from 'dexie';
import { api, ApiError, getAccessToken, refreshSession, request } from '../../../web/lib/api';
import type { LaborDto, WorkOrderDto, WorkOrderPartDto, WorkOrderStatus } from '../../work-orders/work-orders.schema';
import type { IssuedStepDto, WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { dexieOutbox, getMeta, myWorkDb, setMeta, type CachedWorkOrder } from './my-work-db';
import { drainOutbox, newIdempotencyKey, type OutboxItem, type OutboxKind, type Sender } from './outbox';

// ---- reading Dexie from React ----

/** A Dexie query kept current (liveQuery): undefined until its first answer. */
export function useLive<T>(query: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    const sub = liveQuery(query).subscribe({ next: setValue, error: () => undefined });
    return () => sub.unsubscribe();
    // the caller lists what the query depends on
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}

// ---- the network and the sync state ----

type SyncState = { online: boolean; syncing: boolean; failed: boolean };
let state: SyncState = { online: typeof navigator === 'undefined' ? true : navigator.onLine, syncing: false, failed: false };
const listeners = new Set<() => void>();
function setState(patch: Partial<SyncState>) {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** offline / syncing / N waiting / all saved, for the indicator. */
export function useSyncState() {
  const s = useSyncExternalStore(subscribe, () => state);
  const waiting = useLive(() => myWorkDb().outbox.count(), []) ?? 0;
  return { ...s, waiting };
}

// ---- sending ----

const fileName = (blob: Blob) => `photo.${blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg'}`;

/** Sends one queued change through the API client; a POST with its Idempotency-Key. Throws when unreachable. */
export const apiSender: Sender = async (item) => {
  if (!navigator.onLine) throw new Error('offline');
  if (!getAccessToken() && !(await refreshSession())) throw new Error('no session');
  const headers: Record<string, string> = item.method === 'POST' ? { 'idempotency-key': item.key } : {};
  try {
    const body = item.file ? await api.upload(item.path, item.file, { headers, fileName: fileName(item.file) }) : await request(item.method, item.path, item.body ?? {}, { headers });
    return { ok: true, body };
  } catch (err) {
    if (err instanceof ApiError && err.status !== 0) return { ok: false, status: err.status, message: err.message, body: err.body };
    throw err;
  }
};

/** Puts what an answer says about the work order into the device copy. */
async function applyAnswer(item: OutboxItem, body: unknown) {
  const db = myWorkDb();
  const b = body as { workOrder?: WorkOrderDto; labors?: LaborDto[]; workOrderParts?: WorkOrderPartDto[]; procedure?: WorkOrderProcedureDto };
  await db.workOrders
    .where('id')
    .equals(item.workOrderId)
    .modify((c) => {
      if (b.workOrder) c.workOrder = b.workOrder;
      if (b.labors) c.labors = b.labors;
      if (b.workOrderParts) c.parts = b.workOrderParts;
      if (b.procedure) c.procedure = b.procedure;
    });
}

let draining: Promise<void> | null = null;

/**
 * Sends the outbox (one drain at a time in this tab; across tabs one at a time through a Web Lock, so two
 * tabs never send the same change at once), then refreshes the device copy when nothing is left waiting.
 */
export function syncNow(): Promise<void> {
  if (!navigator.onLine) return Promise.resolve();
  draining ??= (async () => {
    setState({ syncing: true });
    try {
      const run = async () => {
        const res = await drainOutbox(dexieOutbox, apiSender, applyAnswer);
        setState({ failed: res.stopped });
        if (!res.stopped) await refreshDeviceCopy();
      };
      if (navigator.locks) await navigator.locks.request('cmms-my-work-outbox', run);
      else await run();
    } catch {
      setState({ failed: true });
    } finally {
      setState({ syncing: false });
      draining = null;
    }
  })();
  return draining;
}

/** Watches the network: back online -> send. Returns the stop function. */
export function watchNetwork(): () => void {
  const on = () => {
    setState({ online: true });
    void syncNow();
  };
  const off = () => setState({ online: false });
  window.addEventListener('online', on);
  window.addEventListener('offline', off);
  setState({ online: navigator.onLine });
  // A change that could not go (server error) is tried again every 30 s; with nothing waiting, the device copy
  // is refreshed every 5 minutes only (each refresh reads every open order: not a phone's every half minute).
  let ticks = 0;
  const timer = window.setInterval(() => {
    ticks++;
    if (!navigator.onLine) return;
    void myWorkDb()
      .outbox.count()
      .then((waiting) => {
        if (waiting > 0 || state.failed || ticks % 10 === 0) void syncNow();
      });
  }, 30_000);
  return () => {
    window.removeEventListener('online', on);
    window.removeEventListener('offline', off);
    window.clearInterval(timer);
  };
}

// ---- the device copy ----

const OPEN: WorkOrderStatus[] = ['assigned', 'in-progress'];

/**
 * Reads my open work orders with their procedure, labour and parts, the parts and the time reasons, and
 * replaces the device copy with them, unless a change was queued meanwhile (it would be overwritten by the
 * server's older copy: the next sync brings it).
 */
export async function refreshDeviceCopy() {
  const { workOrders } = await api.get<{ workOrders: WorkOrderDto[] }>('/work-orders/get-work-orders', { query: { pageSize: 100, status: OPEN } });
  // A worker reads only their orders; a manager reads all of them: only those assigned to them are kept.
  const owner = await getMeta<number>('owner');
  const mine = workOrders.filter((wo) => wo.assignees.some((a) => a.id === owner));
  const orders: CachedWorkOrder[] = await Promise.all(
    mine.map(async (workOrder) => {
      const [{ procedure }, { labors }, { workOrderParts }] = await Promise.all([
        api.get<{ procedure: WorkOrderProcedureDto | null }>(`/work-orders/get-work-order-procedure/${workOrder.id}`),
        api.get<{ labors: LaborDto[] }>(`/work-orders/get-labors/${workOrder.id}`),
        api.get<{ workOrderParts: WorkOrderPartDto[] }>(`/work-orders/get-parts/${workOrder.id}`),
      ]);
      return { id: workOrder.id, workOrder, procedure, labors, parts: workOrderParts };
    }),
  );
  const [parts, reasons] = await Promise.all([
    api.get<{ value: number; label: string }[]>('/parts/get-parts-options', { query: { pageSize: 100 } }),
    api.get<{ timeTrackingReasons: { id: number; name: string }[] }>('/time-tracking-reasons/get-time-tracking-reasons', { query: { pageSize: 100 } }),
  ]);
  const db = myWorkDb();
  await db.transaction('rw', [db.workOrders, db.parts, db.reasons, db.outbox, db.meta], async () => {
    if (await db.outbox.count()) return;
    await db.workOrders.clear();
    await db.workOrders.bulkPut(orders);
    await db.parts.clear();
    await db.parts.bulkPut(parts.map((p) => ({ id: p.value, name: p.label })));
    await db.reasons.clear();
    await db.reasons.bulkPut(reasons.timeTrackingReasons.map((r) => ({ id: r.id, name: r.name })));
    await setMeta('refreshedAt', Date.now());
  });
}

// ---- queueing changes ----

/** Queues a change and applies it to the device copy in one transaction, then tries to send it. */
async function queue(workOrderId: number, kind: OutboxKind, call: Pick<OutboxItem, 'method' | 'path' | 'body' | 'file'>, summary: string, apply?: (c: CachedWorkOrder) => void) {
  const db = myWorkDb();
  await db.transaction('rw', db.outbox, db.workOrders, async () => {
    await db.outbox.add({ key: newIdempotencyKey(), workOrderId, kind, ...call, summary, createdAt: Date.now(), attempts: 0 });
    if (apply) await db.workOrders.where('id').equals(workOrderId).modify(apply);
  });
  void syncNow();
}

export function queueStatus(order: CachedWorkOrder, status: WorkOrderStatus, summary: string) {
  return queue(order.id, 'status', { method: 'PUT', path: `/work-orders/update-status/${order.id}`, body: { status, updatedAt: order.workOrder.updatedAt } }, summary, (c) => {
    c.workOrder.status = status;
  });
}

export function queueNote(workOrderId: number, note: string) {
  return queue(workOrderId, 'note', { method: 'POST', path: `/activities/work-order/${workOrderId}/notes`, body: { note } }, note);
}

export function queueParts(workOrderId: number, partId: number, quantity: number, summary: string) {
  return queue(workOrderId, 'parts', { method: 'POST', path: `/work-orders/add-parts/${workOrderId}`, body: { parts: [{ partId, quantity }] } }, summary);
}

export function queueAnswer(workOrderId: number, step: IssuedStepDto, value: unknown, summary: string) {
  return queue(workOrderId, 'answer', { method: 'PUT', path: `/work-orders/answer-procedure-step/${workOrderId}`, body: { stepId: step.id, value } }, summary, (c) => {
    const s = c.procedure?.steps.find((x) => x.id === step.id);
    if (s) s.value = value;
  });
}

export function queuePhoto(workOrderId: number, stepId: number, file: Blob, summary: string) {
  return queue(workOrderId, 'photo', { method: 'POST', path: `/work-orders/add-step-image/${workOrderId}/step/${stepId}`, file }, summary);
}

// ---- the labour timer ----

export async function startTimer(workOrderId: number, reasonId: number | null) {
  await myWorkDb().timers.put({ workOrderId, startedAt: Date.now(), reasonId });
}

export async function setTimerReason(workOrderId: number, reasonId: number | null) {
  await myWorkDb().timers.update(workOrderId, { reasonId });
}

/** Stops the timer: it becomes a queued labour row with its reason (one transaction: never both, never neither). */
export async function stopTimer(workOrderId: number, reasonId: number, summary: string) {
  const db = myWorkDb();
  await db.transaction('rw', db.timers, db.outbox, async () => {
    const timer = await db.timers.get(workOrderId);
    if (!timer) return;
    const end = Math.max(Date.now(), timer.startedAt + 1000);
    await db.outbox.add({
      key: newIdempotencyKey(),
      workOrderId,
      kind: 'labor',
      method: 'POST',
      path: `/work-orders/add-labor/${workOrderId}`,
      body: { startTime: new Date(timer.startedAt).toISOString(), endTime: new Date(end).toISOString(), reason: reasonId },
      summary,
      createdAt: Date.now(),
      attempts: 0,
    });
    await db.timers.delete(workOrderId);
  });
  void syncNow();
}
