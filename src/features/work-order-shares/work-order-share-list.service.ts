import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { workOrders, workOrderShareMessages, workOrderShares, workOrderLabors, workOrderParts } from '../../server/db/schema';
import { HttpError, notFound } from '../../server/http-error';
import type { Mailer } from '../../server/mailer';
import { now } from '../../server/clock';
import { escapeLike } from '../../server/db/like';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { pagination } from '../../shared/pagination';
import { laborCostMinor } from '../work-orders/work-orders.service';
import type { ShareDto, ShareListQuery, ShareMessageDto, ShareState } from './work-order-shares.schema';

export const WORK_ORDER = 'work-order';
const NOT_FOUND = 'Shared work order not found';
/** The one answer for a token that is unknown, altered, expired, revoked or of another organisation. */
export const gone = () => new HttpError(404, NOT_FOUND);
export const CODE_MINUTES = 10;
/**
 * Per share, whatever the address (issue 45): code mails (one a minute, five an hour) and wrong codes (five an
 * hour), counted in the rate limits table; a new code never gives the tries back.
 */
export const CODE_MAIL_LIMITS = [
  { max: 1, windowSeconds: 60 },
  { max: 5, windowSeconds: 3600 },
];
export const CODE_TRY_LIMIT = { max: 5, windowSeconds: 3600 };

export const sameHash = (a: string | null, b: string) => !!a && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Where the mails' links point and the organisation's name in them. */
export interface ShareMail {
  mailer: Mailer;
  origin: string;
}

export type ShareRow = typeof workOrderShares.$inferSelect;

// ---- The organisation's side ----

const externalCostOf = sql<number>`(
  coalesce((select sum(${laborCostMinor(workOrderLabors.startDate, workOrderLabors.endDate, workOrderLabors.externalRateMinor)})
    from ${workOrderLabors} where ${workOrderLabors.orgId} = ${workOrderShares.orgId} and ${workOrderLabors.shareId} = ${workOrderShares.id}), 0)
  + coalesce((select sum(${workOrderParts.externalUnitPriceMinor}::bigint * ${workOrderParts.quantity})
    from ${workOrderParts} where ${workOrderParts.orgId} = ${workOrderShares.orgId} and ${workOrderParts.shareId} = ${workOrderShares.id}), 0))`.mapWith(
  Number,
);

const shareColumns = {
  share: workOrderShares,
  workOrderTitle: workOrders.title,
  externalCostMinor: externalCostOf,
};

/** A share's state as the list shows it: expired or revoked once the link no longer works. */
function statusOf(r: Pick<ShareRow, 'state' | 'revokedAt' | 'expiresAt'>, at = now()): ShareDto['status'] {
  if (r.revokedAt) return 'revoked';
  if (r.state !== 'accepted' && r.expiresAt.getTime() <= at.getTime()) return 'expired';
  return r.state;
}

function toDto(r: { share: ShareRow; workOrderTitle: string; externalCostMinor: number }): ShareDto {
  const s = r.share;
  return {
    id: s.id,
    workOrderId: s.workOrderId,
    workOrderTitle: r.workOrderTitle,
    vendorId: s.vendorId,
    contractorName: s.contractorName,
    email: s.email,
    canComment: s.canComment,
    canLog: s.canLog,
    canComplete: s.canComplete,
    requireCode: s.requireCode,
    state: s.state,
    status: statusOf(s),
    reviewComment: s.reviewComment,
    expiresAt: s.expiresAt.toISOString(),
    revokedAt: iso(s.revokedAt),
    lastActivityAt: iso(s.lastActivityAt),
    createdAt: s.createdAt.toISOString(),
    externalCostMinor: Number(r.externalCostMinor ?? 0),
  };
}

function stateFilter(states: ShareListQuery['state']): SQL | undefined {
  if (!states?.length) return undefined;
  const at = now();
  const parts: SQL[] = [];
  const live = and(isNull(workOrderShares.revokedAt), sql`${workOrderShares.expiresAt} > ${at}`);
  const plain = states.filter((s): s is ShareState => s !== 'expired' && s !== 'revoked');
  if (plain.length) parts.push(and(live, inArray(workOrderShares.state, plain))!);
  if (states.includes('revoked')) parts.push(sql`${workOrderShares.revokedAt} is not null`);
  if (states.includes('expired')) parts.push(sql`${workOrderShares.revokedAt} is null and ${workOrderShares.expiresAt} <= ${at}`);
  return or(...parts);
}

/** GET list-shares: every share of the organisation, newest first; search by contractor, e-mail or work order title. */
export async function listShares(tx: ReadTx, orgId: number, query: ShareListQuery) {
  const term = query.search ? `%${escapeLike(query.search)}%` : undefined;
  const where = and(
    eq(workOrderShares.orgId, orgId),
    query.workOrderId ? eq(workOrderShares.workOrderId, query.workOrderId) : undefined,
    term ? or(ilike(workOrderShares.contractorName, term), ilike(workOrderShares.email, term), ilike(workOrders.title, term)) : undefined,
    stateFilter(query.state),
  );
  const { rows, total } = await pageAndTotal({ limit: query.pageSize, offset: (query.page - 1) * query.pageSize }, (v) =>
    tx
      .select({ ...shareColumns, total: totalOver() })
      .from(workOrderShares)
      .innerJoin(workOrders, and(eq(workOrders.orgId, workOrderShares.orgId), eq(workOrders.id, workOrderShares.workOrderId)))
      .where(where)
      .orderBy(desc(workOrderShares.createdAt), desc(workOrderShares.id))
      .limit(v.limit)
      .offset(v.offset),
  );
  return { shares: rows.map(toDto), pagination: pagination(total, query.page, query.pageSize) };
}

export async function readShare(tx: ReadTx, orgId: number, id: number): Promise<ShareDto> {
  const [row] = await tx
    .select(shareColumns)
    .from(workOrderShares)
    .innerJoin(workOrders, and(eq(workOrders.orgId, workOrderShares.orgId), eq(workOrders.id, workOrderShares.workOrderId)))
    .where(and(eq(workOrderShares.orgId, orgId), eq(workOrderShares.id, id)));
  if (!row) throw notFound('Share');
  return toDto(row);
}

export async function readMessages(tx: ReadTx, orgId: number, shareId: number, sign: (url: string) => string): Promise<ShareMessageDto[]> {
  const m = workOrderShareMessages;
  const rows = await tx
    .select()
    .from(m)
    .where(and(eq(m.orgId, orgId), eq(m.shareId, shareId)))
    .orderBy(m.createdAt, m.id)
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    author: r.authorName,
    fromContractor: r.userId === null,
    body: r.body,
    fileUrl: r.fileUrl ? sign(r.fileUrl) : null,
    fileName: r.fileName,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** GET get-share/{id}: a share and its thread (the team's view; upload URLs are signed by the app for members). */
export async function getShare(tx: ReadTx, orgId: number, id: number) {
  const share = await readShare(tx, orgId, id);
  return { share, messages: await readMessages(tx, orgId, id, (url) => url) };
}

export const linkOf = (origin: string, token: string) => `${origin}/shared-work-order?token=${encodeURIComponent(token)}`;
