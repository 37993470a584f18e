import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgRowColumns, updatedAtColumn } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';

/** The column mapping an organisation last used for each import kind (file header -> column key; decision 042). */
export const importMappings = pgTable(
  'import_mappings',
  {
    ...orgRowColumns(),
    kind: text().notNull(),
    mapping: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [...orgRowKeys(t), uniqueIndex('import_mappings_org_kind_idx').on(t.orgId, t.kind)],
);
