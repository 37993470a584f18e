import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgChildKeys, orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgIdColumn, orgRowColumns } from '../../server/db/columns';
import { orgOwned } from '../organization/organization.table';
import { assetCategories } from '../master-data/master-data.table';
import { FAILURE_CODE_KINDS } from './failure-code-values';

/**
 * Failure codes (decision 080): problem > cause > remedy, per organisation. A problem applies to one asset
 * category (or to all when `assetCategoryId` is null); a cause belongs to a problem, a remedy to a cause
 * (`parentId`), so deleting a problem takes its causes and remedies with it. A code a work order was closed
 * with cannot be deleted (the work orders' foreign keys refuse it).
 */
export const failureCodes = pgTable(
  'failure_codes',
  {
    ...orgRowColumns(),
    kind: text({ enum: FAILURE_CODE_KINDS }).notNull(),
    parentId: integer(),
    assetCategoryId: integer(),
    code: text().notNull(),
    name: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.parentId, t),
    orgRef(t, t.assetCategoryId, assetCategories).onDelete('cascade'),
    index('failure_codes_org_parent_idx').on(t.orgId, t.parentId),
    index('failure_codes_org_category_idx').on(t.orgId, t.assetCategoryId),
    // One name per parent (a problem: per category): the starter library and an import find a code by its name.
    uniqueIndex('failure_codes_org_place_name_key').on(
      t.orgId,
      t.kind,
      sql`coalesce(${t.parentId}, 0)`,
      sql`coalesce(${t.assetCategoryId}, 0)`,
      sql`lower(${t.name})`,
    ),
  ],
);

/** The organisation's failure-code settings (decision 080): one row per organisation, defaults when absent. */
export const failureCodeSettings = pgTable(
  'failure_code_settings',
  {
    orgId: orgIdColumn(),
    /** Closing a reactive work order requires problem, cause and remedy. */
    requireCodes: boolean().notNull().default(false),
    /** A failure of the same asset with the same problem within this many days is a repeat failure (0: never flagged). */
    repeatDays: integer().notNull().default(30),
  },
  (t) => [primaryKey({ columns: [t.orgId] }), orgOwned(t)],
);
