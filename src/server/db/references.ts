import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client';
import { badRequest } from '../http-error';

type Referable = PgTable & { orgId: PgColumn; id: PgColumn };

/**
 * DESIGN 4.4: an id in a body must name a row of the caller's organisation. A foreign or unknown id is a 400
 * naming the field, before the database's composite foreign key would refuse it less clearly.
 */
export async function requireReference(tx: Tx, orgId: number, table: Referable, id: number | null | undefined, field: string, message: string) {
  if (id === null || id === undefined) return;
  const [row] = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.orgId, orgId), eq(table.id, id)));
  if (!row) throw badRequest(message, field);
}

/** The same for a list of ids: every one must exist in the organisation. */
export async function requireReferences(tx: Tx, orgId: number, table: Referable, ids: number[], field: string, message: string) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.orgId, orgId), inArray(table.id, unique)));
  if (rows.length !== unique.length) throw badRequest(message, field);
}
