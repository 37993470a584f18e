import type { AuditRecord } from './audit.table';

/**
 * What a write request did, collected while it runs (decision 078): the records its services touched, with their
 * fields old -> new, gathered by `recordActivity` and written as one audit row in the request's own transaction
 * (so a rolled-back write leaves none). The context rides on the request's `tx` (no async-local storage: db/README);
 * a savepoint's tx carries it too, and a savepoint that rolls back takes back what it collected.
 */
export interface AuditContext {
  records: AuditRecord[];
  /** More records than kept (a bulk import): only their number is logged. */
  dropped: number;
  /** A name for the write when a service knows better than its route (e.g. 'sign-off'). */
  action?: string;
}

/** Records kept per row; an import's thousands of rows are counted, not listed. */
const MAX_RECORDS = 100;
const AUDIT = Symbol('audit');

type WithTransaction = { transaction: (fn: (inner: never) => Promise<unknown>) => Promise<unknown> };

export const newAuditContext = (): AuditContext => ({ records: [], dropped: 0 });

/** Hangs `ctx` on the tx (and on the tx of each of its savepoints). */
export function attachAudit<T extends object>(tx: T, ctx: AuditContext): T {
  const savepoint = (tx as unknown as WithTransaction).transaction.bind(tx);
  return Object.assign(tx, {
    [AUDIT]: ctx,
    transaction: async (fn: (inner: object) => Promise<unknown>) => {
      const kept = ctx.records.length;
      const dropped = ctx.dropped;
      try {
        return await savepoint(((inner: object) => fn(attachAudit(inner, ctx))) as never);
      } catch (err) {
        ctx.records.length = kept;
        ctx.dropped = dropped;
        throw err;
      }
    },
  });
}

/** The request's audit context on this tx, if any (background work has none). */
export const auditOf = (tx: object): AuditContext | undefined => (tx as { [AUDIT]?: AuditContext })[AUDIT];

/** Adds a touched record to the request's audit row (nothing outside a request). */
export function noteAudit(tx: object, record: AuditRecord) {
  const ctx = auditOf(tx);
  if (!ctx) return;
  if (ctx.records.length < MAX_RECORDS) ctx.records.push(record);
  else ctx.dropped++;
}

/** Names the write (a signature: 'sign-off'). */
export function nameAudit(tx: object, action: string) {
  const ctx = auditOf(tx);
  if (ctx) ctx.action = action;
}
