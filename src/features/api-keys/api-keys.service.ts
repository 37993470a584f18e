import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, ReadTx, Tx } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { badRequest, notFound } from '../../server/http-error';
import { now } from '../../server/clock';
import { hashToken, type AccessClaims, type Role } from '../auth/tokens';
import { users } from '../users/users.table';
import { apiKeys } from './api-keys.table';
import { API_KEY_MESSAGES, API_KEY_PREFIX, MAX_KEY_DAYS, apiKeyInputSchema, type ApiKey, type ApiKeyInput, type ApiKeyRole } from './api-keys.schema';

/** A new key: the prefix and 32 random bytes (256 bits), and the SHA-256 we keep in its place. */
export function newApiKey() {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashToken(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}

/** Looks like one of our keys (any other bearer token is an access token). */
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

const listed = {
  id: apiKeys.id,
  name: apiKeys.name,
  role: apiKeys.role,
  prefix: apiKeys.prefix,
  createdById: apiKeys.createdById,
  createdByName: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  createdAt: apiKeys.createdAt,
};

/** The organisation's keys, newest first (revoked and expired ones too: they are the record). */
export async function listApiKeys(tx: ReadTx, orgId: number): Promise<{ apiKeys: ApiKey[] }> {
  const rows = await tx
    .select(listed)
    .from(apiKeys)
    .leftJoin(users, and(eq(users.orgId, apiKeys.orgId), eq(users.id, apiKeys.createdById)))
    .where(eq(apiKeys.orgId, orgId))
    .orderBy(desc(apiKeys.id));
  return { apiKeys: rows };
}

/** Creates a key acting for `userId`; the answer holds the key in clear, the only time it is ever shown. */
export async function createApiKey(tx: Tx, orgId: number, input: ApiKeyInput, userId: number) {
  const data = apiKeyInputSchema.parse(input);
  const at = now();
  if (data.expiresAt.getTime() <= at.getTime()) throw badRequest(API_KEY_MESSAGES.expiresAtPast, 'expiresAt');
  if (data.expiresAt.getTime() > at.getTime() + MAX_KEY_DAYS * 86400_000) throw badRequest(API_KEY_MESSAGES.expiresAtFar, 'expiresAt');
  const { key, hash, prefix } = newApiKey();
  const [row] = await tx
    .insert(apiKeys)
    .values({ orgId, name: data.name, role: data.role, keyHash: hash, prefix, createdById: userId, expiresAt: data.expiresAt })
    .returning({ id: apiKeys.id });
  const list = await listApiKeys(tx, orgId);
  return { ...list, apiKey: list.apiKeys.find((k) => k.id === row.id)!, key };
}

/** Revokes a key: its next request is refused (the caller check reads the key on every request). */
export async function revokeApiKey(tx: Tx, orgId: number, id: number) {
  const rows = await tx
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, id)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw notFound('API key');
  return listApiKeys(tx, orgId);
}

const RANK: Record<Role, number> = { worker: 1, manager: 2, admin: 3 };
const ROLE_OF_KEY: Record<ApiKeyRole, Role> = { 'read-only': 'manager', worker: 'worker', manager: 'manager' };

/** The role a key acts with: its own, never above its creator's role now (a demoted creator's keys follow). */
export function keyRole(keyRole: ApiKeyRole, creatorRole: Role): Role {
  const own = ROLE_OF_KEY[keyRole];
  return RANK[own] <= RANK[creatorRole] ? own : creatorRole;
}

/** A key's last use is written at most this often (a GET stays a read the rest of the time). */
export const LAST_USED_EVERY_MS = 60_000;

export interface KeyCaller {
  claims: AccessClaims;
  keyId: number;
  readOnly: boolean;
  /** The last use is old enough to be written again. */
  stale: boolean;
}

/**
 * The caller a key names on its organisation's host, or null (unknown, revoked, expired, or its creator no
 * longer active). One read by the organisation and the key's hash, on every request: a revocation applies to
 * the next one.
 */
export async function apiKeyCaller(db: Db, orgId: number, key: string): Promise<KeyCaller | null> {
  const at = now();
  const [row] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({
          id: apiKeys.id,
          role: apiKeys.role,
          userId: apiKeys.createdById,
          lastUsedAt: apiKeys.lastUsedAt,
          userRole: users.role,
          tokenVersion: users.tokenVersion,
        })
        .from(apiKeys)
        .innerJoin(users, and(eq(users.orgId, apiKeys.orgId), eq(users.id, apiKeys.createdById)))
        .where(
          and(
            eq(apiKeys.orgId, orgId),
            eq(apiKeys.keyHash, hashToken(key)),
            isNull(apiKeys.revokedAt),
            gt(apiKeys.expiresAt, at),
            eq(users.inviteStatus, 'ACTIVE'),
          ),
        ),
    { readOnly: true },
  );
  if (!row) return null;
  const role = keyRole(row.role, row.userRole);
  return {
    claims: { userId: row.userId, orgId, role, sessionId: 0, tokenVersion: row.tokenVersion, apiKeyId: row.id },
    keyId: row.id,
    readOnly: row.role === 'read-only',
    stale: !row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS,
  };
}

/**
 * Records a key's use: one short write of its own, before the request's own scope opens, at most once a minute
 * per key (the condition holds when two requests race).
 */
export async function touchApiKey(db: Db, orgId: number, keyId: number) {
  const at = now();
  await withTenant(db, orgId, (tx) =>
    tx
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(
        and(
          eq(apiKeys.orgId, orgId),
          eq(apiKeys.id, keyId),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(at.getTime() - LAST_USED_EVERY_MS))),
        ),
      ),
  );
}
