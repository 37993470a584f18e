import { and, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './db/client';
import { STALE_EDIT_MESSAGE } from '../shared/edit-version';
import { HttpError } from './http-error';

/** 409 for an edit made from an older version; the body carries the record as it is now (decision 025). */
export class StaleEdit extends HttpError {
  constructor(public readonly current: unknown) {
    super(409, STALE_EDIT_MESSAGE);
  }
}

/**
 * The condition "still the version the client loaded" for a claiming UPDATE, or none when the client sent
 * no version. The claiming UPDATE (bump the version or updated_at, WHERE this condition) is one statement:
 * two edits from the same version cannot both pass it, and it locks the row for the rest of the transaction.
 */
export function sameVersion(column: AnyColumn, expected: number | undefined): SQL | undefined {
  return expected === undefined ? undefined : sql`${column} = ${expected}`;
}

/** As `sameVersion` for an updated_at column: the client holds it to the millisecond (JSON dates). */
export function sameUpdatedAt(column: AnyColumn, expected: string | undefined): SQL | undefined {
  return expected === undefined ? undefined : sql`date_trunc('milliseconds', ${column}) = ${expected}::timestamptz`;
}

/** A table whose rows carry an edit version (assets, parts, maintenance requests and orders). */
type Versioned = PgTable & { orgId: PgColumn; id: PgColumn; version: PgColumn };

/**
 * The claiming UPDATE of a versioned record: bumps its version when it is still the one the client loaded
 * (or the client sent none), which also locks the row until the edit commits. False: changed by someone else,
 * or no such record; the caller throws `StaleEdit` with the record as it is (or its 404).
 */
export async function claimVersion(tx: Tx, table: Versioned, orgId: number, id: number, expected: number | undefined): Promise<boolean> {
  const claimed = await tx
    .update(table)
    .set({ version: sql`${table.version} + 1` } as never)
    .where(and(eq(table.orgId, orgId), eq(table.id, id), sameVersion(table.version, expected)))
    .returning({ id: table.id });
  return claimed.length > 0;
}
