import { sql } from 'drizzle-orm';
import { integer, timestamp } from 'drizzle-orm/pg-core';

/** The owning organisation of a tenant row; part of every primary and foreign key. */
export const orgIdColumn = () => integer().notNull();

/**
 * A per-organisation id. The column has no real default: the `assign_org_scoped_id` trigger
 * (see tenancy.ts) numbers rows 1, 2, 3… inside each organisation before NOT NULL is checked.
 */
export const orgScopedId = () =>
  integer()
    .notNull()
    .default(sql`NULL`);

/** The key columns of every tenant row: its organisation and its per-organisation id (`orgRowKeys` makes them the key). */
export const orgRowColumns = () => ({ orgId: orgIdColumn(), id: orgScopedId() });

/** A point in time: timestamptz, read as a Date. */
export const timestampColumn = () => timestamp({ withTimezone: true, mode: 'date' });
export const createdAtColumn = () => timestampColumn().notNull().defaultNow();
export const updatedAtColumn = () =>
  timestampColumn()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
