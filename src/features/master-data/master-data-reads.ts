import type { PgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { ReadTx } from '../../server/db/client';
import { readOrgRow } from '../../server/db/org-rows';
import { readSimpleTable, type SimpleTable } from '../../server/db/simple-list';
import { notFound } from '../../server/http-error';
import type { Pagination } from '../../shared/pagination';
import type { SimpleListQuery } from './master-data.schema';

/**
 * The reads of a master-data list kept in one table and answered as it is read (no child rows): `list`, a page
 * (`readSimpleTable`, searched by name and `alsoSearched`) under `key`; `get`, one record, 404 `noun` when missing.
 */
export function simpleTableReads<C extends SelectedFields, D, K extends string>(read: {
  statement: string;
  table: SimpleTable;
  columns: C;
  toDto: (row: SelectResultFields<C>) => D;
  key: K;
  noun: string;
  alsoSearched?: PgColumn[];
}) {
  async function list(tx: ReadTx, orgId: number, query: SimpleListQuery) {
    const { rows, pagination } = await readSimpleTable(tx, read.statement, orgId, query, read.table, read.columns, read.alsoSearched);
    return { [read.key]: rows.map(read.toDto), pagination } as Record<K, D[]> & { pagination: Pagination };
  }
  async function get(tx: ReadTx, orgId: number, id: number): Promise<D> {
    const row = await readOrgRow(tx, read.table, read.columns, orgId, id);
    if (!row) throw notFound(read.noun);
    return read.toDto(row);
  }
  return { list, get };
}
