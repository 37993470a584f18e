import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';

/**
 * Where things are (decision 072): a tree of any depth per organisation (site > building > area > line), each
 * node pointing to its parent. Assets and work stations point to one. No closure table and no trigger: a
 * subtree is a recursive CTE (`location-tree.ts`).
 */
export const locations = pgTable(
  'locations',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    code: text(),
    parentId: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    orgRef(t, t.parentId, t),
    // The children of a node (the recursive step of every subtree).
    index('locations_org_parent_idx').on(t.orgId, t.parentId),
    uniqueIndex('locations_org_code_key')
      .on(t.orgId, sql`lower(${t.code})`)
      .where(sql`${t.code} is not null`),
    // One name per parent: an import names a parent by its name without ambiguity among siblings.
    uniqueIndex('locations_org_parent_name_key').on(t.orgId, sql`coalesce(${t.parentId}, 0)`, sql`lower(${t.name})`),
  ],
);
