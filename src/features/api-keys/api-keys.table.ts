import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orgChildKeys } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns } from '../../server/db/columns';

import { users } from '../users/users.table';
import { API_KEY_ROLES } from './api-keys.schema';

/**
 * API keys of an organisation (decision 043). Only the SHA-256 of the key is kept; `prefix` is its first
 * characters, to recognise it in the list. A key acts as the admin who created it, with its own role capped by
 * theirs; their deletion takes their keys with them.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    role: text({ enum: API_KEY_ROLES }).notNull(),
    keyHash: text().notNull(),
    prefix: text().notNull(),
    createdById: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Written at most once a minute per key (decision 043): a read stays a read. */
    lastUsedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    ...orgChildKeys(t, t.createdById, users),
    uniqueIndex('api_keys_org_hash_idx').on(t.orgId, t.keyHash),
    index('api_keys_org_created_by_idx').on(t.orgId, t.createdById),
  ],
);
