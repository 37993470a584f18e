import { createHash } from 'node:crypto';
import type { AnchorKeys } from './audit-anchor';
import { and, asc, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { auditHeads, auditLog, users, type AuditRecord } from '../../server/db/schema';
import { rowsOf } from '../../server/db/rows';
import { csvLine } from '../../shared/csv';
import { addDays, dayToDate } from '../../shared/dates';
import { pagination } from '../../shared/pagination';
import { AUDIT_MESSAGES, type AuditCheck, type AuditEntry, type AuditFilter, type AuditListQuery, type AuditSettings } from './audit.schema';
import { readOrgSettings, saveOrgSettings } from '../../server/db/org-rows';

/** What one audit row says (decision 078); the chain fields are added by `appendAudit`. */
export interface AuditWrite {
  actorKind: 'user' | 'api-key' | 'public' | 'system';
  userId?: number | null;
  apiKeyId?: number | null;
  actorLabel?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  method: string;
  route: string;
  action: string;
  records: AuditRecord[];
  input?: unknown;
}

/** Field names whose values never reach the log: passwords, tokens, secrets, keys, codes of a second factor. */
const SENSITIVE = /pass(word|wd|phrase)?$|password|token|secret|hash|api_?key|private_?key|credential|otp|recovery|^code$|signature_?key|proof/i;
export const MASK = '***';
/** The input kept with a row, at most (JSON characters); a bigger one says only its size. */
const MAX_INPUT = 4000;

/** The value with every sensitive field masked, dates as ISO text, NUL characters removed (jsonb refuses them). */
export function maskSensitive(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.split('\u0000').join('');
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return typeof value === 'boolean' ? value : null;
  if (depth > 8) return '…';
  if (Buffer.isBuffer(value)) return `(${value.length} bytes)`;
  if (Array.isArray(value)) return value.map((v) => maskSensitive(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    const k = key.split('\u0000').join('');
    out[k] = SENSITIVE.test(k) && v !== null && v !== '' ? MASK : maskSensitive(v, depth + 1);
  }
  return out;
}

/** A record's changes with sensitive fields masked (the field name is the key of `changes`). */
const maskRecord = (r: AuditRecord): AuditRecord => {
  const changes = r.changes
    ? Object.fromEntries(
        Object.entries(r.changes).map(([field, c]) => [
          field,
          SENSITIVE.test(field) ? { from: MASK, to: MASK } : (maskSensitive(c) as { from: unknown; to: unknown }),
        ]),
      )
    : null;
  return { entityType: r.entityType, entityId: r.entityId, action: r.action, changes };
};

/** JSON with object keys sorted at every depth: the row's canonical text, which its hash covers. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

type Row = typeof auditLog.$inferSelect;
/** The fields a row's hash covers: all but its own hash. */
const contentOf = (r: Omit<Row, 'hash' | 'orgId' | 'prevHash'>) => ({
  seq: r.seq,
  createdAt: r.createdAt.toISOString(),
  actorKind: r.actorKind,
  userId: r.userId,
  apiKeyId: r.apiKeyId,
  actorLabel: r.actorLabel,
  ip: r.ip,
  userAgent: r.userAgent,
  method: r.method,
  route: r.route,
  action: r.action,
  entityType: r.entityType,
  entityId: r.entityId,
  records: r.records,
  input: r.input ?? null,
});
export const rowHash = (prevHash: string, orgId: number, r: Omit<Row, 'hash' | 'orgId' | 'prevHash'>) =>
  createHash('sha256')
    .update(`${prevHash}\n${orgId}\n${canonical(contentOf(r))}`)
    .digest('hex');

const clip = (s: string | null | undefined, n: number) => (s ? s.split('\u0000').join('').slice(0, n) : null);

/**
 * Appends one row to the organisation's chain in the caller's transaction: the head row is locked first (an upsert),
 * so concurrent writes of one organisation queue there and the chain stays one line; the row's hash covers the
 * previous row's hash. Three statements.
 */
export async function appendAudit(tx: Tx, orgId: number, entry: AuditWrite, at: Date = new Date()) {
  const [head] = await tx
    .insert(auditHeads)
    .values({ orgId })
    .onConflictDoUpdate({ target: auditHeads.orgId, set: { orgId } })
    .returning({ lastSeq: auditHeads.lastSeq, lastHash: auditHeads.lastHash });
  const records = entry.records.map(maskRecord);
  let input = entry.input === undefined ? null : maskSensitive(entry.input);
  if (input !== null) {
    const size = JSON.stringify(input).length;
    if (size > MAX_INPUT) input = { omitted: `${size} characters` };
  }
  const first = records[0];
  const row = {
    seq: head.lastSeq + 1,
    createdAt: at,
    actorKind: entry.actorKind,
    userId: entry.userId ?? null,
    apiKeyId: entry.apiKeyId ?? null,
    actorLabel: clip(entry.actorLabel, 200),
    ip: clip(entry.ip, 100),
    userAgent: clip(entry.userAgent, 500),
    method: entry.method,
    route: clip(entry.route, 300)!,
    action: entry.action,
    entityType: first?.entityType ?? null,
    entityId: first?.entityId ?? null,
    // What jsonb gives back: the hash is computed over what is stored.
    records: JSON.parse(JSON.stringify(records)) as AuditRecord[],
    input: input === null ? null : (JSON.parse(JSON.stringify(input)) as unknown),
  };
  const hash = rowHash(head.lastHash, orgId, row);
  await tx.insert(auditLog).values({ orgId, ...row, prevHash: head.lastHash, hash });
  await tx.update(auditHeads).set({ lastSeq: row.seq, lastHash: hash }).where(eq(auditHeads.orgId, orgId));
}

/** The action a write's records say, else its method's. */
export function actionOf(method: string, records: AuditRecord[], named?: string): string {
  if (named) return named;
  const first = records[0]?.action;
  if (first === 'created') return 'create';
  if (first === 'deleted') return 'delete';
  if (first) return 'update';
  if (method === 'DELETE') return 'delete';
  if (method === 'PUT' || method === 'PATCH') return 'update';
  return 'other';
}

function filters(orgId: number, f: AuditFilter): SQL {
  const where: (SQL | undefined)[] = [eq(auditLog.orgId, orgId)];
  if (f.userId) where.push(eq(auditLog.userId, f.userId));
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.entityType || f.entityId) {
    const record: Record<string, unknown> = {};
    if (f.entityType) record.entityType = f.entityType;
    if (f.entityId) record.entityId = f.entityId;
    where.push(sql`${auditLog.records} @> ${JSON.stringify([record])}::jsonb`);
  }
  if (f.from) where.push(gte(auditLog.createdAt, dayToDate(f.from)));
  if (f.to) where.push(lt(auditLog.createdAt, dayToDate(addDays(f.to, 1))));
  return and(...where)!;
}

const selectEntries = (tx: ReadTx) =>
  tx
    .select({ row: auditLog, firstName: users.firstName, lastName: users.lastName })
    .from(auditLog)
    .leftJoin(users, and(eq(users.orgId, auditLog.orgId), eq(users.id, auditLog.userId)));

const toEntry = ({ row, firstName, lastName }: { row: Row; firstName: string | null; lastName: string | null }): AuditEntry => ({
  seq: row.seq,
  createdAt: row.createdAt.toISOString(),
  actorKind: row.actorKind,
  user: row.userId ? { id: row.userId, firstName: firstName ?? '', lastName: lastName ?? '' } : null,
  apiKeyId: row.apiKeyId,
  actorLabel: row.actorLabel,
  ip: row.ip,
  userAgent: row.userAgent,
  method: row.method,
  route: row.route,
  action: row.action,
  entityType: row.entityType,
  entityId: row.entityId,
  records: row.records,
  input: row.input,
  hash: row.hash,
});

/** GET list-audit-log (admins): newest first, filtered. */
export async function listAuditLog(tx: ReadTx, orgId: number, q: AuditListQuery) {
  const where = filters(orgId, q);
  const [rows, [{ total }]] = await Promise.all([
    selectEntries(tx)
      .where(where)
      .orderBy(desc(auditLog.seq))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    tx
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  return { entries: rows.map(toEntry), pagination: pagination(total, q.page, q.pageSize) };
}

const EXPORT_MAX = 100_000;
const CSV_HEADER = [
  'Seq',
  'Time (UTC)',
  'Actor',
  'User id',
  'API key id',
  'IP',
  'User agent',
  'Method',
  'Route',
  'Action',
  'Entity type',
  'Entity id',
  'Changes',
  'Hash',
];

const changesText = (records: AuditRecord[]) =>
  records
    .map((r) => {
      const fields = Object.entries(r.changes ?? {}).map(([f, c]) => `${f}: ${JSON.stringify(c.from)} -> ${JSON.stringify(c.to)}`);
      return `${r.entityType} #${r.entityId} ${r.action}${fields.length ? ` (${fields.join('; ')})` : ''}`;
    })
    .join(' | ');

/** GET export-audit-log (admins): the filtered log as CSV (oldest first, at most 100,000 rows), one statement per 2,000 rows. */
export async function exportAuditLogCsv(tx: ReadTx, orgId: number, f: AuditFilter): Promise<string> {
  const where = filters(orgId, f);
  let out = `\uFEFF${csvLine(CSV_HEADER)}`;
  let after = 0;
  for (let read = 0; read < EXPORT_MAX; ) {
    const rows = await selectEntries(tx)
      .where(and(where, gt(auditLog.seq, after)))
      .orderBy(asc(auditLog.seq))
      .limit(2000);
    for (const r of rows.map(toEntry)) {
      const actor = r.user ? `${r.user.firstName} ${r.user.lastName}`.trim() : (r.actorLabel ?? r.actorKind);
      out += csvLine([
        r.seq,
        r.createdAt,
        actor,
        r.user?.id ?? '',
        r.apiKeyId ?? '',
        r.ip ?? '',
        r.userAgent ?? '',
        r.method,
        r.route,
        r.action,
        r.entityType ?? '',
        r.entityId ?? '',
        changesText(r.records),
        r.hash,
      ]);
    }
    read += rows.length;
    if (rows.length < 2000) break;
    after = rows[rows.length - 1].row.seq;
  }
  return out;
}

/**
 * GET check-audit-chain (admins): recomputes every row's hash from the anchor (or the start) and reports the first
 * row that breaks the chain: `edited` (its content or its link differs), `missing` (a seq is absent: a deleted
 * row), `anchor` (the retention anchor's signature is wrong), `tail` (the head names a later row: the last rows
 * were deleted).
 */
export async function checkAuditChain(tx: ReadTx, orgId: number, keys: AnchorKeys): Promise<AuditCheck> {
  const [head] = await tx.select().from(auditHeads).where(eq(auditHeads.orgId, orgId));
  const anchorSeq = head?.anchorSeq ?? 0;
  let prev = head?.anchorHash ?? '';
  const result = (broken: AuditCheck['broken'], checked: number): AuditCheck => ({ ok: !broken, checked, anchorSeq, broken });
  if (anchorSeq > 0 && !keys.verify(head!.anchorSignature, orgId, anchorSeq, prev)) {
    return result({ seq: anchorSeq, reason: 'anchor' }, 0);
  }
  let expected = anchorSeq + 1;
  let checked = 0;
  for (;;) {
    const rows = await tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, orgId), gt(auditLog.seq, expected - 1)))
      .orderBy(asc(auditLog.seq))
      .limit(2000);
    for (const row of rows) {
      if (row.seq !== expected) return result({ seq: expected, reason: 'missing' }, checked);
      if (row.prevHash !== prev || rowHash(prev, orgId, row) !== row.hash) return result({ seq: row.seq, reason: 'edited' }, checked);
      prev = row.hash;
      expected++;
      checked++;
    }
    if (rows.length < 2000) break;
  }
  if (head && (head.lastSeq !== expected - 1 || head.lastHash !== prev)) return result({ seq: expected, reason: 'tail' }, checked);
  return result(null, checked);
}

/** The audit settings (retention). */
export async function getAuditSettings(tx: ReadTx, orgId: number): Promise<AuditSettings> {
  return readOrgSettings(tx, auditHeads, { retentionMonths: auditHeads.retentionMonths }, orgId, { retentionMonths: null });
}

/** PUT audit-settings (admins). */
export async function saveAuditSettings(tx: Tx, orgId: number, input: AuditSettings) {
  await saveOrgSettings(tx, auditHeads, orgId, { retentionMonths: input.retentionMonths });
  return { message: AUDIT_MESSAGES.saved, settings: { retentionMonths: input.retentionMonths } };
}

/**
 * Retention (the nightly job): removes the rows older than the organisation's setting, oldest first (a prefix of
 * the chain, through `prune_audit_log`, the one way rows leave: the runtime role may not delete them), and keeps
 * the last removed row's seq and hash as the chain's signed anchor. Returns the number of rows removed.
 */
export async function pruneAuditLog(tx: Tx, orgId: number, now: Date, keys: AnchorKeys): Promise<number> {
  const [head] = await tx.select({ retentionMonths: auditHeads.retentionMonths }).from(auditHeads).where(eq(auditHeads.orgId, orgId)).for('update');
  if (!head?.retentionMonths) return 0;
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - head.retentionMonths);
  const [gone] = rowsOf<{ last_seq: number; last_hash: string; removed: number }>(
    await tx.execute(sql`select last_seq, last_hash, removed from prune_audit_log(${orgId}, ${cutoff.toISOString()}::timestamptz)`),
  );
  if (!gone?.removed) return 0;
  await tx
    .update(auditHeads)
    .set({
      anchorSeq: gone.last_seq,
      anchorHash: gone.last_hash,
      anchorSignature: keys.sign(orgId, gone.last_seq, gone.last_hash),
      anchorAt: now,
    })
    .where(eq(auditHeads.orgId, orgId));
  return gone.removed;
}
