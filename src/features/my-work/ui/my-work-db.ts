import { Dexie, type EntityTable } from 'dexie';
import type { WorkOrderDto } from '../../work-orders/work-orders.schema';
import type { IssuedStepDto } from '../../procedures/procedures.schema';
import { progressOf } from '../../procedures/procedure-progress';
import type { MyPartDto, MyWorkOrderDto } from '../my-work.schema';
import type { OutboxItem, OutboxStore, SyncNotice } from './outbox';

/** A work order of mine as kept on the device: the order, its procedure, labour, parts and photos (list-my-work). */
export type CachedWorkOrder = MyWorkOrderDto;

/** A part as kept on the device: searched by name, found by its label's code (SKU). */
export type CachedPart = MyPartDto;

export interface CachedOption {
  id: number;
  name: string;
}

/** A running labour timer: survives a reload, a lost network and a closed tab. */
export interface RunningTimer {
  workOrderId: number;
  startedAt: number;
  reasonId: number | null;
}

interface Meta {
  key: string;
  value: unknown;
}

/**
 * The technician's device store (IndexedDB through Dexie, decision 041). One database per origin, so per
 * organisation host; `meta.owner` is the user whose data it holds (another user's sign-in clears it).
 */
class MyWorkDb extends Dexie {
  workOrders!: EntityTable<CachedWorkOrder, 'id'>;
  parts!: EntityTable<CachedPart, 'id'>;
  reasons!: EntityTable<CachedOption, 'id'>;
  outbox!: EntityTable<OutboxItem, 'seq'>;
  notices!: EntityTable<SyncNotice, 'id'>;
  timers!: EntityTable<RunningTimer, 'workOrderId'>;
  meta!: EntityTable<Meta, 'key'>;

  constructor() {
    super('cmms-my-work');
    this.version(1).stores({
      workOrders: 'id',
      parts: 'id, name',
      reasons: 'id',
      outbox: '++seq, workOrderId',
      notices: '++id, workOrderId',
      timers: 'workOrderId',
      meta: 'key',
    });
    // Parts keep their SKU code (found by a scanned label): read again from the server. Orders keep their
    // photos: the copy (with the technician's unsent changes applied) is kept and starts with none.
    this.version(2)
      .stores({ parts: 'id, name, skuCode' })
      .upgrade(async (tx) => {
        await tx.table('parts').clear();
        await tx
          .table('workOrders')
          .toCollection()
          .modify((c: { photos?: unknown[] }) => void (c.photos ??= []));
      });
  }
}

let instance: MyWorkDb | undefined;
export function myWorkDb(): MyWorkDb {
  instance ??= new MyWorkDb();
  return instance;
}

export async function getMeta<T>(key: string): Promise<T | undefined> {
  return (await myWorkDb().meta.get(key))?.value as T | undefined;
}
export async function setMeta(key: string, value: unknown) {
  await myWorkDb().meta.put({ key, value });
}

/** Makes the store the given user's: another user's data (and unsent changes) are removed. */
export async function claimFor(userId: number) {
  const db = myWorkDb();
  await db.transaction('rw', db.tables, async () => {
    const owner = (await db.meta.get('owner'))?.value;
    if (owner === userId) return;
    await Promise.all(db.tables.map((t) => t.clear()));
    await db.meta.put({ key: 'owner', value: userId });
  });
}

/** The outbox over Dexie: a refusal's notice and the item's removal are one transaction. */
export const dexieOutbox: OutboxStore = {
  all: () => myWorkDb().outbox.orderBy('seq').toArray(),
  remove: async (seq) => {
    await myWorkDb().outbox.delete(seq);
  },
  bump: async (seq) => {
    await myWorkDb()
      .outbox.where('seq')
      .equals(seq)
      .modify((i) => void (i.attempts += 1));
  },
  reject: async (seq, notice) => {
    const db = myWorkDb();
    await db.transaction('rw', db.outbox, db.notices, db.workOrders, async () => {
      await db.notices.add(notice);
      await db.outbox.delete(seq);
      // What was kept: the server's record (the work order, or the answered step) replaces the device's changed copy.
      if (notice.reason !== 'changed') return;
      if (notice.kind === 'answer') {
        const step = notice.current as IssuedStepDto | undefined;
        if (typeof step?.id !== 'number') return;
        await db.workOrders
          .where('id')
          .equals(notice.workOrderId)
          .modify((c) => {
            if (!c.procedure) return;
            const steps = c.procedure.steps.map((s) => (s.id === step.id ? step : s));
            c.procedure = { ...c.procedure, steps, progress: progressOf(steps) };
          });
        return;
      }
      const current = notice.current as WorkOrderDto | undefined;
      if (current?.id === notice.workOrderId && typeof current.updatedAt === 'string') {
        await db.workOrders
          .where('id')
          .equals(notice.workOrderId)
          .modify((c) => void (c.workOrder = current));
      }
    });
  },
};
