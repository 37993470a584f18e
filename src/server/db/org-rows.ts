import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable, PgUpdateSetSource, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { ReadTx, Tx } from './client';
import { param, preparedRead } from './prepared';
import { refuseWhenUsed } from './simple-list';

// One row of the organisation, and the organisation's latest rows: the lookups every feature's service repeats.

/** A tenant table: its organisation and its id (`orgRowColumns()`). */
export type OrgRowTable = PgTable & { orgId: PgColumn; id: PgColumn };

/** One row of the organisation, by id: `org_id = orgId and id = id`. */
export const orgRow = (table: { orgId: PgColumn; id: PgColumn }, orgId: number, id: number): SQL | undefined => and(eq(table.orgId, orgId), eq(table.id, id));

/** One row of the organisation by id, in `columns` of its one table (no joins); undefined when there is none. */
export async function readOrgRow<C extends SelectedFields>(tx: ReadTx, table: OrgRowTable, columns: C, orgId: number, id: number) {
  const [row] = await tx
    .select(columns)
    .from(table)
    .where(orgRow(table, orgId, id));
  return row as SelectResultFields<C> | undefined;
}

/** `readOrgRow` that also locks the row until the transaction ends (`for update`): the read a change depends on. */
export async function lockOrgRow<C extends SelectedFields>(tx: Tx, table: OrgRowTable, columns: C, orgId: number, id: number) {
  // (on a generic table drizzle types `for` as a union with the builder; the answer is the rows)
  const rows = (await tx
    .select(columns)
    .from(table)
    .where(orgRow(table, orgId, id))
    .for('update')) as SelectResultFields<C>[];
  return rows[0] as SelectResultFields<C> | undefined;
}

/** The organisation's rows among `ids`, in `columns` of their one table (no joins), in no particular order. */
export function readOrgRows<C extends SelectedFields>(tx: ReadTx, table: OrgRowTable, columns: C, orgId: number, ids: number[]) {
  return tx
    .select(columns)
    .from(table)
    .where(and(eq(table.orgId, orgId), inArray(table.id, ids))) as Promise<SelectResultFields<C>[]>;
}

/** The organisation's one row of a settings table (`saveOrgSettings`) in `columns`; `defaults` while it never saved one. */
export async function readOrgSettings<C extends SelectedFields>(
  tx: ReadTx,
  table: PgTable & { orgId: PgColumn },
  columns: C,
  orgId: number,
  defaults: SelectResultFields<C>,
): Promise<SelectResultFields<C>> {
  const [row] = await tx.select(columns).from(table).where(eq(table.orgId, orgId));
  return (row as SelectResultFields<C> | undefined) ?? defaults;
}

/**
 * Saves the organisation's one row of a table keyed by the organisation (settings: `orgSettingsTable`,
 * src/server/db/org-keys.ts): inserted with `values` the first time, those `values` updated afterwards.
 */
export async function saveOrgSettings<T extends PgTable & { orgId: PgColumn }>(tx: Tx, table: T, orgId: number, values: Partial<T['$inferInsert']>) {
  // (drizzle's generic insert types cannot show that the organisation and these values make a row of `table`)
  await tx
    .insert(table)
    .values({ orgId, ...values } as T['$inferInsert'])
    .onConflictDoUpdate({ target: table.orgId, set: values as PgUpdateSetSource<T> });
}

/**
 * Deletes one row of the organisation that other records may point at, in a savepoint: the database's refusal
 * (foreign key violation 23503) becomes a 409 with `refusal`, and the transaction stays usable.
 */
export async function deleteOrgRow(tx: Tx, table: OrgRowTable, orgId: number, id: number, refusal: string): Promise<void> {
  await refuseWhenUsed(refusal, () => tx.transaction((sp) => sp.delete(table).where(orgRow(table, orgId, id))));
}

/**
 * The organisation's most recent rows (highest id first), for the application data preload: `select` gives the
 * columns and joins (`$dynamic()`); the organisation, the order and the limit are added here.
 */
export function readRecent<Q extends PgSelect>(
  tx: ReadTx,
  statement: string,
  table: { orgId: PgColumn; id: PgColumn },
  select: () => Q,
  orgId: number,
  limit: number,
): Promise<Q['_']['result']> {
  return preparedRead(
    tx,
    statement,
    () =>
      select()
        .where(eq(table.orgId, param('orgId')))
        .orderBy(desc(table.id))
        .limit(param('limit')),
    { orgId, limit },
  ) as Promise<Q['_']['result']>;
}
