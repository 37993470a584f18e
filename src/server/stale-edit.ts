import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
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
