import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn } from './columns';
import { orgOwned } from '../../features/organization/organization.table';

/** Responses to creates sent with an Idempotency-Key, so a retried request after a lost response is replayed. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    orgId: orgIdColumn(),
    key: text().notNull(),
    userId: integer().notNull(),
    route: text().notNull(),
    status: integer(),
    body: text(),
    /** A hash of the method, URL and body: the same key with another request is refused. */
    requestHash: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.key] }), orgOwned(t)],
);
