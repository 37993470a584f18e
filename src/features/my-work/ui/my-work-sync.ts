import type { FailureCodeDto } from '../../failure-codes/failure-codes.schema';
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import { liveQuery } from 'dexie';
import { replaceEqualDeep } from '@tanstack/react-query';
import { api, ApiError, getAccessToken, refreshSession, request } from '../../../web/lib/api';
import type { LaborDto, WorkOrderDto, WorkOrderPartDto, WorkOrderStatus } from '../../work-orders/work-orders.schema';
import type { IssuedStepDto, WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { isFlagged } from '../../procedures/procedure-progress';
import type { PartsReadiness } from '../../stock/stock.schema';
import type { MyPartDto, MyWorkListDto, MyWorkOrderDto, WorkOrderPhotoDto } from '../my-work.schema';
import { dexieOutbox, getMeta, myWorkDb, setMeta, type CachedWorkOrder } from './my-work-db';
import { drainOutbox, newIdempotencyKey, type OrderName, type OutboxItem, type OutboxKind, type Sender } from './outbox';
import type { Problem } from './change-checks';
import { readMyWorkPage, takeEarlyFirstPage } from './first-page';

// ---- reading Dexie from React ----

/**
 * A Dexie query kept current (liveQuery): undefined until its first answer. A query that fails (no IndexedDB:
 * a private window, storage turned off or full) is said, never waited for: the page shows the storage problem
 * (`useSyncState().storageFailed`) instead of spinning.
 *
 * Each answer keeps the previous answer's objects where they are equal (a sync that wrote the same orders again
 * renders no card again: issue 46, those renders were the long tasks before My work was interactive). The first
 * answer renders as a transition (React slices it and input interrupts it: the page's first screen was the
 * longest task of a phone's start); later answers render at once, not as transitions: a change the technician
 * just made shows with its outbox count, together.
 */
export function useLive<T>(query: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let first = true;
    const next = (v: T) => {
      if (!first) return setValue((prev) => replaceEqualDeep(prev, v));
      first = false;
      startTransition(() => setValue(v));
    };
    const sub = liveQuery(query).subscribe({ next, error: reportStorageFailure });
    return () => sub.unsubscribe();
    // the caller lists what the query depends on
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}

// ---- the network and the sync state ----

type SyncState = { online: boolean; syncing: boolean; failed: boolean; storageFailed: boolean };
let state: SyncState = { online: typeof navigator === 'undefined' ? true : navigator.onLine, syncing: false, failed: false, storageFailed: false };
const listeners = new Set<() => void>();
function setState(patch: Partial<SyncState>) {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The device store could not be used (no IndexedDB, storage refused): the app says so and works online only. */
export function reportStorageFailure(err?: unknown) {
  if (!state.storageFailed) console.warn('My work: the device store is unavailable', err);
  setState({ storageFailed: true });
}

/**
 * One flag of the sync state: the component renders again when that flag changes only (issue 46: the page and
 * the list rendered again at each start and end of a sync, long tasks of a phone's cold start).
 */
export function useSyncFlag<K extends keyof SyncState>(key: K): SyncState[K] {
  return useSyncExternalStore(subscribe, () => state[key]);
}

/** offline / syncing / N waiting / all saved, for the indicator. */
export function useSyncState() {
  const s = useSyncExternalStore(subscribe, () => state);
  const waiting = useLive(() => myWorkDb().outbox.count(), []) ?? 0;
  return { ...s, waiting };
}

// ---- sending ----

const fileName = (blob: Blob) => `photo.${blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg'}`;

/** An upload's body as its text fields, sent before the file (a step photo's answeredAt: null, unanswered, is ''). */
const formFields = (body: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(body ?? {}).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]));

/** Sends one queued change through the API client; a POST with its Idempotency-Key. Throws when unreachable. */
export const apiSender: Sender = async (item) => {
  if (!navigator.onLine) throw new Error('offline');
  if (!getAccessToken() && !(await refreshSession())) throw new Error('no session');
  const headers: Record<string, string> = item.method === 'POST' ? { 'idempotency-key': item.key } : {};
  try {
    const body = item.file
      ? await api.upload(item.path, item.file, { headers, fileName: fileName(item.file), fields: formFields(item.body) })
      : await request(item.method, item.path, item.body ?? {}, { headers });
    return { ok: true, body };
  } catch (err) {
    if (err instanceof ApiError && err.status !== 0) return { ok: false, status: err.status, message: err.message, body: err.body };
    throw err;
  }
};

/** Puts what an answer says about the work order into the device copy. */
async function applyAnswer(item: OutboxItem, body: unknown) {
  const db = myWorkDb();
  const b = body as {
    workOrder?: WorkOrderDto;
    labors?: LaborDto[];
    workOrderParts?: WorkOrderPartDto[];
    partsReadiness?: PartsReadiness;
    procedure?: WorkOrderProcedureDto;
    photos?: WorkOrderPhotoDto[];
  };
  await db.workOrders
    .where('id')
    .equals(item.workOrderId)
    .modify((c) => {
      if (b.workOrder) c.workOrder = b.workOrder;
      if (b.labors) c.labors = b.labors;
      if (b.workOrderParts) c.parts = b.workOrderParts;
      if (b.partsReadiness) c.partsReadiness = b.partsReadiness;
      if (b.procedure) c.procedure = b.procedure;
      if (b.photos) c.photos = b.photos;
    });
}

let draining: Promise<void> | null = null;
let againAfterDrain = false;

/**
 * Sends the outbox (one drain at a time in this tab; across tabs one at a time through a Web Lock, so two
 * tabs never send the same change at once), then refreshes the device copy when nothing is left waiting.
 */
export function syncNow(): Promise<void> {
  if (!navigator.onLine) return Promise.resolve();
  // Asked again while a sync runs (a change queued during its last steps, e.g. the device-copy refresh):
  // that sync runs once more when it ends, so the change is not left for the next tick.
  if (draining) {
    againAfterDrain = true;
    return draining;
  }
  draining = (async () => {
    setState({ syncing: true });
    try {
      const run = async () => {
        let res = await drainOutbox(dexieOutbox, apiSender, applyAnswer);
        let sent = res.sent + res.rejected > 0;
        // Changes queued while it ran (a logged timer, then the completion) go now, not at the next tick.
        while (!res.stopped && (await myWorkDb().outbox.count()) > 0) {
          res = await drainOutbox(dexieOutbox, apiSender, applyAnswer);
          sent ||= res.sent + res.rejected > 0;
        }
        setState({ failed: res.stopped });
        if (!res.stopped) await refreshDeviceCopy(sent);
      };
      if (navigator.locks) await navigator.locks.request('cmms-my-work-outbox', run);
      else await run();
    } catch {
      setState({ failed: true });
    } finally {
      setState({ syncing: false });
      draining = null;
      if (againAfterDrain) {
        againAfterDrain = false;
        void syncNow();
      }
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
      }, reportStorageFailure);
  }, 30_000);
  return () => {
    window.removeEventListener('online', on);
    window.removeEventListener('offline', off);
    window.clearInterval(timer);
  };
}

// ---- the device copy ----

/** Parts change rarely and may be thousands: read again at most every hour (and whenever the copy has none). */
const PARTS_EVERY_MS = 3600_000;

/**
 * Every page of list-my-work: my open orders with their procedure, labour, parts and photos, and the reasons.
 * `earlyFirst`: the first page as the entry asked it early (first-page.ts), when it is still current.
 */
async function readMyWork(earlyFirst: Promise<MyWorkListDto | null>) {
  const orders: MyWorkOrderDto[] = [];
  let reasons: { id: number; name: string }[] = [];
  let failure: FailureReference = { failureCodes: [], requireFailureCodes: false };
  for (let page = 1; ; page++) {
    const res = (page === 1 && (await earlyFirst)) || (await readMyWorkPage(page));
    orders.push(...res.workOrders);
    reasons = res.reasons;
    failure = { failureCodes: res.failureCodes ?? [], requireFailureCodes: res.requireFailureCodes ?? false };
    if (page >= res.pagination.totalPages) return { orders, reasons, failure };
  }
}

/** Every part of the organisation (id, name, SKU code), a thousand a call: none is left out of the search. */
async function readParts() {
  const parts: MyPartDto[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const res: { parts: MyPartDto[]; next: number | null } = await api.get<{ parts: MyPartDto[]; next: number | null }>('/my-work/list-my-parts', {
      query: { after, limit: 1000 },
    });
    parts.push(...res.parts);
    after = res.next;
  }
  return parts;
}

/**
 * Reads my open work orders (with procedure, labour, parts and photos) and the time reasons in one call per
 * page, and replaces the device copy with them, unless a change was queued meanwhile (the server's older copy
 * would overwrite it: the next sync brings it). The parts, when they are an hour old, are asked meanwhile and
 * kept when they come, apart: a first start shows the cards without waiting for the whole parts catalogue
 * (thousands of rows on a slow network, issue 46).
 */
async function refreshDeviceCopy(sentBefore: boolean) {
  // the early first page is taken (and dropped) either way: it serves this load's first refresh only
  const early = takeEarlyFirstPage();
  const partsAt = await getMeta<number>('partsAt');
  const partsDue = !partsAt || Date.now() - partsAt > PARTS_EVERY_MS || (await myWorkDb().parts.count()) === 0;
  const parts = partsDue ? readParts().then(keepParts) : Promise.resolve();
  // awaited below; marked handled now, so a failed read is not reported as unhandled while the orders load
  parts.catch(() => undefined);
  try {
    await keepOrders(await readMyWork(sentBefore ? Promise.resolve(null) : early));
  } finally {
    await parts;
  }
}

async function keepOrders({ orders, reasons, failure }: Awaited<ReturnType<typeof readMyWork>>) {
  const db = myWorkDb();
  await db.transaction('rw', [db.workOrders, db.reasons, db.outbox, db.meta], async () => {
    if (await db.outbox.count()) return;
    // A table whose copy is already the server's is not written: an unchanged refresh then wakes no live query,
    // so the page does not render every card again on a phone (it was the last long task before interactive).
    if (!(await sameRows(db.workOrders, orders))) {
      await db.workOrders.clear();
      await db.workOrders.bulkPut(orders);
    }
    if (!(await sameRows(db.reasons, reasons))) {
      await db.reasons.clear();
      await db.reasons.bulkPut(reasons);
    }
    // The failure codes (decision 080): reference data kept on the device for closing offline.
    await setMeta('failure', failure);
    await setMeta('refreshedAt', Date.now());
  });
}

/** The organisation's parts (reference data: no change of the technician's is queued against them). */
async function keepParts(parts: MyPartDto[]) {
  const db = myWorkDb();
  await db.transaction('rw', [db.parts, db.meta], async () => {
    await db.parts.clear();
    await db.parts.bulkPut(parts);
    await setMeta('partsAt', Date.now());
  });
}

/** The failure codes and the organisation's rule, as the device keeps them (decision 080). */
export interface FailureReference {
  failureCodes: FailureCodeDto[];
  requireFailureCodes: boolean;
}

/** Whether a table holds exactly these rows (by id, as the device keeps them). */
async function sameRows<T extends { id: number }>(table: { toArray(): Promise<T[]> }, rows: T[]) {
  const kept = await table.toArray();
  return kept.length === rows.length && JSON.stringify(kept) === JSON.stringify([...rows].sort((a, b) => a.id - b.id));
}

// ---- queueing changes ----

/** A change refused before it was queued: the route's schema said no (the field and its message). */
export class ChangeRefused extends Error {
  constructor(public readonly problem: Problem) {
    super(problem.message);
  }
}

/** The checks: loaded on demand (zod is not in My work's first load), fetched early by the page (`preloadChecks`). */
const checks = () => import('./change-checks');
export const preloadChecks = () => void checks().catch(() => undefined);

function refuseIf(problem: Problem | null) {
  if (problem) throw new ChangeRefused(problem);
}

/** The order's number and title as the device holds it, kept with a change so its notice can name it later. */
async function orderName(workOrderId: number): Promise<OrderName | undefined> {
  const cached = await myWorkDb().workOrders.get(workOrderId);
  return cached ? { code: cached.workOrder.workOrderId, title: cached.workOrder.title } : undefined;
}

/** Queues a change and applies it to the device copy in one transaction, then tries to send it. */
async function queue(
  workOrderId: number,
  kind: OutboxKind,
  call: Pick<OutboxItem, 'method' | 'path' | 'body' | 'file'>,
  summary: string,
  apply?: (c: CachedWorkOrder) => void,
) {
  const db = myWorkDb();
  await db.transaction('rw', db.outbox, db.workOrders, async () => {
    const order = await orderName(workOrderId);
    await db.outbox.add({ key: newIdempotencyKey(), workOrderId, ...(order ? { order } : {}), kind, ...call, summary, createdAt: Date.now(), attempts: 0 });
    if (apply) await db.workOrders.where('id').equals(workOrderId).modify(apply);
  });
  void syncNow();
}

/** Each queue function checks the change with its route's schema first and throws `ChangeRefused` (nothing queued). */
export async function queueStatus(order: CachedWorkOrder, status: WorkOrderStatus, summary: string, codes: object = {}) {
  const body = { status, updatedAt: order.workOrder.updatedAt, ...codes };
  refuseIf((await checks()).checkStatus(body));
  return queue(order.id, 'status', { method: 'PUT', path: `/work-orders/update-status/${order.id}`, body }, summary, (c) => {
    c.workOrder.status = status;
  });
}

export async function queueNote(workOrderId: number, note: string) {
  const body = { note };
  refuseIf((await checks()).checkNote(body));
  return queue(workOrderId, 'note', { method: 'POST', path: `/activities/work-order/${workOrderId}/notes`, body }, note);
}

export async function queueParts(workOrderId: number, partId: number, quantity: number, summary: string) {
  const body = { parts: [{ partId, quantity }] };
  refuseIf((await checks()).checkParts(body));
  return queue(workOrderId, 'parts', { method: 'POST', path: `/work-orders/add-parts/${workOrderId}`, body }, summary);
}

/** An answer carries the step's answeredAt as the device holds it: the server refuses it if the step was answered since (409). */
export async function queueAnswer(workOrderId: number, step: IssuedStepDto, value: unknown, summary: string) {
  const body = { stepId: step.id, value, answeredAt: step.answeredAt };
  refuseIf((await checks()).checkAnswer(step, body));
  return queue(workOrderId, 'answer', { method: 'PUT', path: `/work-orders/answer-procedure-step/${workOrderId}`, body }, summary, (c) => {
    const s = c.procedure?.steps.find((x) => x.id === step.id);
    if (s) {
      s.value = value;
      s.flagged = isFlagged(s, value);
    }
  });
}

/** A step's photo carries the step's answeredAt as the device holds it, as an answer does: answered since, the server refuses it (409). */
export async function queuePhoto(workOrderId: number, step: Pick<IssuedStepDto, 'id' | 'answeredAt'>, file: Blob, summary: string) {
  refuseIf((await checks()).checkPhoto(file));
  return queue(
    workOrderId,
    'photo',
    { method: 'POST', path: `/work-orders/add-step-image/${workOrderId}/step/${step.id}`, body: { answeredAt: step.answeredAt }, file },
    summary,
  );
}

/** A photo into the work order itself (not a procedure step): `add-photo` of the technician's API. */
export async function queueWorkOrderPhoto(workOrderId: number, file: Blob, summary: string) {
  refuseIf((await checks()).checkPhoto(file));
  return queue(workOrderId, 'photo', { method: 'POST', path: `/my-work/add-photo/${workOrderId}`, file }, summary);
}

// ---- the labour timer ----

export async function startTimer(workOrderId: number, reasonId: number | null) {
  await myWorkDb().timers.put({ workOrderId, startedAt: Date.now(), reasonId });
}

/** Drops the running timer: its time is not logged (the technician chose so). */
export async function discardTimer(workOrderId: number) {
  await myWorkDb().timers.delete(workOrderId);
}

export async function setTimerReason(workOrderId: number, reasonId: number | null) {
  await myWorkDb().timers.update(workOrderId, { reasonId });
}

/** The labour row a running timer becomes when stopped now. */
const laborBody = (startedAt: number, reasonId: number) => ({
  startTime: new Date(startedAt).toISOString(),
  endTime: new Date(Math.max(Date.now(), startedAt + 1000)).toISOString(),
  reason: reasonId,
});

/**
 * Stops the timer: it becomes a queued labour row with its reason (one transaction: never both, never neither).
 * The row is checked with add-labor's schema first: refused, the timer keeps running.
 */
export async function stopTimer(workOrderId: number, reasonId: number, summary: string) {
  const db = myWorkDb();
  const running = await db.timers.get(workOrderId);
  if (!running) return;
  const { checkLabor } = await checks();
  refuseIf(checkLabor(laborBody(running.startedAt, reasonId)));
  await db.transaction('rw', db.timers, db.outbox, db.workOrders, async () => {
    const timer = await db.timers.get(workOrderId);
    if (!timer) return;
    const order = await orderName(workOrderId);
    await db.outbox.add({
      key: newIdempotencyKey(),
      workOrderId,
      ...(order ? { order } : {}),
      kind: 'labor',
      method: 'POST',
      path: `/work-orders/add-labor/${workOrderId}`,
      body: laborBody(timer.startedAt, reasonId),
      summary,
      createdAt: Date.now(),
      attempts: 0,
    });
    await db.timers.delete(workOrderId);
  });
  void syncNow();
}
