import { createHmac } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { now } from '../../server/clock';
import type { Mailer } from '../../server/mailer';
import { publicOrigin, type Config } from '../../server/env';
import { hashToken } from '../auth/tokens';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { maintenanceRequests, organizations } from '../../server/db/schema';
import type { WorkOrderStatus } from '../work-orders/work-order-values';
import type { RequestState } from '../maintenance-requests/maintenance-requests.schema';
import type { OrderStatus } from '../maintenance-orders/maintenance-orders.schema';
import { portalRequests as r, portalSettings } from './request-portal.table';
import { portalRequestNumber, type PortalStatus } from './request-portal.values';

// ---------------------------------------------------------------- the status link

/** What a requester's mail needs: the outbox, and the settings that make the status link (domain, port, secret). */
export interface PortalMail {
  mailer: Mailer;
  config: Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain' | 'jwtSecret'>;
}

/**
 * A request's status token, derived from the organisation and the request id with a key derived from the app's
 * secret (HMAC-SHA256, 43 characters; decision 060). Only its hash is stored, as before; deriving it again is how
 * every later mail carries the link.
 */
export function statusTokenOf(secret: string, orgId: number, requestId: number) {
  const key = createHmac('sha256', secret).update('cmms portal status link v1').digest();
  return createHmac('sha256', key).update(`${orgId}:${requestId}`).digest('base64url');
}

export const statusUrlOf = (config: PortalMail['config'], subdomain: string, token: string) => `${publicOrigin(config, subdomain)}/portal/status/${token}`;

/**
 * The working status link of a request, or null when the derived token is not the stored one: a request made
 * before decision 060 (a random token), or after the app's secret changed. Such a mail points to the first one.
 */
function statusLinkOf(config: PortalMail['config'], subdomain: string, orgId: number, row: { id: number; statusTokenHash: string }) {
  const token = statusTokenOf(config.jwtSecret, orgId, row.id);
  return hashToken(token) === row.statusTokenHash ? statusUrlOf(config, subdomain, token) : null;
}

/** The organisation's name (mail subjects, the status page) and subdomain (links). */
export async function organizationAddress(tx: ReadTx, orgId: number) {
  const [org] = await tx
    .select({ name: organizations.organization, subdomain: organizations.subdomain })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return { name: org?.name ?? '', subdomain: org?.subdomain ?? '' };
}

// ---------------------------------------------------------------- telling the requester

/**
 * The mailers of the started apps with their link settings (registered by the portal's routes, released when the
 * app closes). The services of work orders and maintenance requests call the flow deep inside their transactions,
 * with no app at hand (as webhooks' deliveries, decision 043): the mail is written on the caller's `tx` (the outbox
 * row and its job exist only if it commits), so any registered mailer of the process writes it to the right database.
 */
const mailers: PortalMail[] = [];
export function usePortalMailer(mail: PortalMail) {
  mailers.push(mail);
  return () => void mailers.splice(mailers.indexOf(mail) >>> 0, 1);
}

export const STATUS_WORDS: Record<PortalStatus, string> = {
  received: 'received',
  accepted: 'accepted',
  scheduled: 'scheduled',
  'in-progress': 'in progress',
  done: 'done',
  declined: 'declined',
};

/** The sentence of a status mail, in the language the request was filed in (decision 065). */
export const describeStatus = (row: { status: PortalStatus; declineReason: string | null; language?: string }) =>
  mailTexts.portalStatus(mailLanguage(row.language), row);

/**
 * Tells requesters with an e-mail address that their request changed, through the outbox (`mailer.send(mail,
 * tx)`), unless the organisation turned "notify requesters" off; each mail carries the request's status link
 * (decision 060). `mail` defaults to the registered one.
 */
export async function tellRequesters(
  tx: Tx,
  orgId: number,
  ids: number[],
  what: (row: { id: number; status: PortalStatus; declineReason: string | null; language: string }) => string,
  mail: PortalMail | undefined = mailers.at(-1),
  /** The subject after the organisation's name: the new status by default (a reply says it is one). */
  subject: (row: { number: string; status: PortalStatus; language: string }) => string = (row) =>
    mailTexts.portalStatusSubject(mailLanguage(row.language), row.number, row.status),
) {
  if (!ids.length) return;
  const [settings] = await tx.select({ notify: portalSettings.notifyRequester }).from(portalSettings).where(eq(portalSettings.orgId, orgId));
  if (settings && !settings.notify) return;
  const rows = (
    await tx
      .select({ id: r.id, email: r.email, status: r.status, declineReason: r.declineReason, language: r.language, statusTokenHash: r.statusTokenHash })
      .from(r)
      .where(and(eq(r.orgId, orgId), inArray(r.id, ids)))
  ).filter((x) => x.email);
  if (!rows.length) return;
  if (!mail) throw new Error('Telling portal requesters needs a mailer: the request portal routes register one');
  const org = await organizationAddress(tx, orgId);
  for (const row of rows) {
    const number = portalRequestNumber(row.id);
    const lang = mailLanguage(row.language);
    const link = statusLinkOf(mail.config, org.subdomain, orgId, row);
    await mail.mailer.send(
      {
        to: row.email!,
        ...mailTexts.portalUpdate(lang, { organization: org.name, subject: subject({ number, status: row.status, language: lang }), what: what(row), link }),
      },
      tx,
    );
  }
}

// ---------------------------------------------------------------- the work flowing back

const CANCELLED = 'The work was cancelled';
const REJECTED = 'The request was not accepted for maintenance';

type Outcome = { status: PortalStatus; reason?: string };

/** What a requester sees of a work order: null when it was deleted. A due date makes an open order "scheduled". */
export function fromWorkOrder(order: { status: WorkOrderStatus; dueDate: Date | null } | null): Outcome {
  if (!order || order.status === 'cancelled') return { status: 'declined', reason: CANCELLED };
  if (order.status === 'completed') return { status: 'done' };
  if (order.status === 'in-progress') return { status: 'in-progress' };
  return { status: order.dueDate ? 'scheduled' : 'accepted' };
}

/**
 * What a requester sees of a maintenance request and its newest maintenance order (a cancelled order counts as
 * none): null when the request was deleted. A schedule or due date makes open work "scheduled".
 */
export function fromMaintenance(
  request: { state: RequestState; scheduleDate: Date | string | null } | null,
  order: { status: OrderStatus; dueDate: Date | string | null } | null,
): Outcome {
  if (!request || request.state === 'cancelled') return { status: 'declined', reason: CANCELLED };
  if (request.state === 'rejected') return { status: 'declined', reason: REJECTED };
  const live = order && order.status !== 'cancel' ? order : null;
  if (request.state === 'completed' || live?.status === 'validate') return { status: 'done' };
  if (request.state === 'in-progress' || live?.status === 'in-progress') return { status: 'in-progress' };
  return { status: live?.dueDate || request.scheduleDate ? 'scheduled' : 'accepted' };
}

/** Sets the outcome on the requests linked by `link` whose status differs, and tells their requesters. */
async function apply(tx: Tx, orgId: number, link: ReturnType<typeof eq>, outcome: Outcome) {
  const { status } = outcome;
  const closed = status === 'done' || status === 'declined';
  const changed = await tx
    .update(r)
    .set({ status, closedAt: closed ? now() : null, declineReason: status === 'declined' ? (outcome.reason ?? null) : null, updatedAt: new Date() })
    .where(and(eq(r.orgId, orgId), link, sql`${r.status} <> ${status}`))
    .returning({ id: r.id });
  await tellRequesters(
    tx,
    orgId,
    changed.map((c) => c.id),
    describeStatus,
  );
}

/**
 * Called by the work-orders service when an order's status or due date changes, or the order is deleted
 * (`order` null): portal requests accepted into it (and their duplicates) take the matching status; done and
 * declined close them (the link's 30 days start); their requesters are mailed (decision 039).
 */
export async function workOrderChanged(tx: Tx, orgId: number, workOrderId: number, order: { status: WorkOrderStatus; dueDate: Date | null } | null) {
  await apply(tx, orgId, eq(r.workOrderId, workOrderId), fromWorkOrder(order));
}

/**
 * Called by the maintenance requests' and orders' services after a request's state or schedule, or one of its
 * orders, changed (or the request was deleted): reads the request and its newest order in one statement and
 * applies what the requester sees, as for work orders.
 */
export async function maintenanceWorkChanged(tx: Tx, orgId: number, maintenanceRequestId: number) {
  const mr = maintenanceRequests;
  // Table names written out: in a one-table select drizzle prints the columns unqualified (decision 037).
  const [row] = await tx
    .select({
      state: mr.state,
      scheduleDate: mr.scheduleDate,
      order: sql<{ status: OrderStatus; dueDate: string | null } | string | null>`(
        select json_build_object('status', mo.status, 'dueDate', coalesce(mo.due_date, mo.schedule_date)) from maintenance_orders mo
        where mo.org_id = maintenance_requests.org_id and mo.maintenance_request_id = maintenance_requests.id and mo.status <> 'cancel'
        order by mo.id desc limit 1)`,
    })
    .from(mr)
    .where(and(eq(mr.orgId, orgId), eq(mr.id, maintenanceRequestId)));
  const order = typeof row?.order === 'string' ? (JSON.parse(row.order) as { status: OrderStatus; dueDate: string | null }) : (row?.order ?? null);
  await apply(tx, orgId, eq(r.maintenanceRequestId, maintenanceRequestId), fromMaintenance(row ?? null, order));
}
