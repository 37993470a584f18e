import { foreignKey, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgIdColumn, orgScopedId, updatedAtColumn } from '../../server/db/columns';
import { organizations } from '../organization/organization.table';

/** The column mapping an organisation last used for each import kind (file header -> column key; decision 042). */
export const importMappings = pgTable(
  'import_mappings',
  {
    orgId: orgIdColumn(),
    id: orgScopedId(),
    kind: text().notNull(),
    mapping: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId], foreignColumns: [organizations.id] }).onDelete('cascade'),
    uniqueIndex('import_mappings_org_kind_idx').on(t.orgId, t.kind),
  ],
);
