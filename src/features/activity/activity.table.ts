import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';

/** What happened to a record, and notes users wrote on it (the drawer's Note Logs tab). */
export const activities = pgTable(
  'activities',
  {
    ...orgRowColumns(),
    entityType: text().notNull(),
    entityId: integer().notNull(),
    userId: integer(),
    /** Who did it when no user did: a contractor through a shared work order (shown "<name> (contractor)"). */
    actorName: text(),
    action: text({ enum: ['created', 'updated', 'status', 'deleted', 'note', 'attachment'] }).notNull(),
    changes: jsonb().$type<Record<string, { from: unknown; to: unknown }>>(),
    note: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    index('activities_entity_idx').on(t.orgId, t.entityType, t.entityId, t.createdAt),
    // The notifications bell: the organisation's newest entries (listRecentActivities), read backwards.
    index('activities_org_created_idx').on(t.orgId, t.createdAt, t.id),
  ],
);
