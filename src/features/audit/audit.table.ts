import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orgOwned } from '../organization/organization.table';
import { orgIdColumn } from '../../server/db/columns';

/** One record a write touched, with its fields old -> new (sensitive fields masked). */
export interface AuditRecord {
  entityType: string;
  entityId: number;
  action: string;
  changes?: Record<string, { from: unknown; to: unknown }> | null;
}

/**
 * The auditor's log (decision 078): one row per successful write request (and per sign-in, failed or not), append
 * only (the runtime role may only SELECT and INSERT it: tenancy.ts), each row chained to the one before by a
 * sha256 hash (`hash = sha256(prevHash + canonical row)`). `seq` numbers an organisation's rows 1, 2, 3… without
 * gaps: it is the chain's order, given under the lock of the organisation's `audit_heads` row, not by the
 * per-organisation id trigger.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    orgId: orgIdColumn(),
    seq: integer().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** 'user' | 'api-key' | 'public' (a public route: sign-in, the request portal, a shared work order) | 'system' (a background job). */
    actorKind: text().notNull(),
    userId: integer(),
    apiKeyId: integer(),
    /** Who, as written: the e-mail of a sign-in, a contractor's name; the user's name is read from users. */
    actorLabel: text(),
    ip: text(),
    userAgent: text(),
    method: text().notNull(),
    route: text().notNull(),
    action: text().notNull(),
    /** The first record touched (filters); every record is in `records`. */
    entityType: text(),
    entityId: integer(),
    records: jsonb().$type<AuditRecord[]>().notNull(),
    /** The request's input, sensitive fields masked, when small (what a write without a field history set). */
    input: jsonb().$type<unknown>(),
    prevHash: text().notNull(),
    hash: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.seq] }),
    orgOwned(t),
    index('audit_log_org_created_idx').on(t.orgId, t.createdAt),
    index('audit_log_org_entity_idx').on(t.orgId, t.entityType, t.entityId),
  ],
);

/**
 * An organisation's chain head, locked by each audit write (so concurrent writes keep one chain): the last row's
 * seq and hash (a deleted last row is caught), the retention setting and the anchor a pruning left: the seq and
 * hash of the last row removed, signed with the server's key (an anchor the database role could forge would not
 * be one).
 */
export const auditHeads = pgTable(
  'audit_heads',
  {
    orgId: orgIdColumn(),
    lastSeq: integer().notNull().default(0),
    lastHash: text().notNull().default(''),
    /** Months rows are kept; null: kept for ever. */
    retentionMonths: integer(),
    anchorSeq: integer().notNull().default(0),
    anchorHash: text().notNull().default(''),
    anchorSignature: text(),
    anchorAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.orgId] }), orgOwned(t)],
);
