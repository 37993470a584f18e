import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type PgBoss from 'pg-boss';
import type { Db, Tx } from './db/client';
import { withoutTenant } from './db/client';
import { mailOutbox, type MailAttachment } from './db/schema';
export type { MailAttachment };
import type { JobQueue } from './jobs/queue';
import { maskTokens } from './mask';

/** Text put into a mail's HTML (names, comments, titles): its markup characters as entities. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on a notification, decision 074). */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /**
   * Writes the mail to the outbox and its sending job in `tx` (decision 027): both exist only if `tx`
   * commits, and SMTP is called by the job afterwards, never inside the transaction.
   */
  send(mail: Mail, tx: Tx): Promise<void>;
}

export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The queue of outbox mail; one job per row. */
export const MAIL_QUEUE = 'mail-deliver';
/**
 * Mail jobs a worker fetches at once. pg-boss waits a polling interval after each fetch, so one job per fetch
 * would send one mail every 2 s: an import of 200 invitations would take minutes to reach people.
 */
export const MAIL_BATCH = 20;

export function createMailer(
  queue: JobQueue,
  options: { deliver: boolean; log: MailLog; retry: Pick<PgBoss.SendOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff'> },
): Mailer {
  return {
    async send(mail, tx) {
      const [row] = await tx.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      if (options.deliver) await queue.sendInTx(tx, MAIL_QUEUE, { id: row.id }, options.retry);
      else options.log.info({ outboxId: row.id, to: mail.to, subject: mail.subject, text: maskTokens(mail.text) }, 'mail kept in outbox (no SMTP_URL)');
    },
  };
}

/** A nodemailer transport for SMTP_URL, loaded on the first mail (cold start pays only for what requests need). */
export function smtpSender(smtpUrl: string, from = 'CMMS <no-reply@cmms.local>') {
  let transport: Promise<Transporter> | undefined;
  return async (mail: Mail) => {
    transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
    const attachments = mail.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') }));
    await (await transport).sendMail({ from, ...mail, attachments });
  };
}

/**
 * Mail to one address leaves in the order it was written: a requester reads "accepted", "in progress", "done" in
 * that order even when the first was refused once. A mail waits while an earlier one to the same address is
 * unsent and still being retried: written within `MAIL_ORDER_HOURS` and tried fewer than `attempts` times (a
 * mail given up, or kept from a time without SMTP, holds nothing back).
 */
export const MAIL_ORDER_HOURS = 24;

/** A mail whose address has an earlier one still on its way. */
export class MailWaiting extends Error {}

export interface OutboxDelivery {
  /** How often a mail is tried in all (pg-boss's retry limit + 1). */
  attempts?: number;
  /** Looks at a waiting mail again later: a new job, so that waiting spends none of its own retries. */
  later?: (id: number) => Promise<void>;
}

/**
 * A fetched batch of mail jobs: each mail is tried in turn, in the order written (one refused address does not
 * hold back the others; to the same address, it holds back the later ones, which are looked at again `later`),
 * then the batch throws if any failed, so that pg-boss retries it; the ones already sent are skipped then.
 */
export async function deliverOutboxBatch(db: Db, ids: number[], send: (mail: Mail) => Promise<void>, log: MailLog, options: OutboxDelivery = {}) {
  let firstError: unknown;
  // pg-boss fetches the jobs of one instant in no set order; outbox ids are the order written.
  for (const id of [...ids].sort((a, b) => a - b)) {
    try {
      await deliverOutboxMail(db, id, send, log, options.attempts);
    } catch (err) {
      if (err instanceof MailWaiting && options.later) await options.later(id).catch((e: unknown) => (firstError ??= e));
      else firstError ??= err;
    }
  }
  if (firstError) throw firstError;
}

/**
 * The job's work for one outbox row: reads it, sends it (outside any transaction), marks it sent. A failure
 * counts the attempt, keeps the error and throws, so that pg-boss retries it with backoff.
 */
export async function deliverOutboxMail(db: Db, id: number, send: (mail: Mail) => Promise<void>, log: MailLog, attempts = Infinity) {
  const [row] = await withoutTenant(db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.id, id)));
  // Gone (cleaned up) or already sent: a retry after a lost completion must not send it twice.
  if (!row || row.sentAt) return;
  const since = new Date(Date.now() - MAIL_ORDER_HOURS * 3_600_000);
  const [earlier] = await withoutTenant(db, (tx) =>
    tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.to, row.to),
          lt(mailOutbox.id, id),
          isNull(mailOutbox.sentAt),
          gt(mailOutbox.createdAt, since),
          Number.isFinite(attempts) ? lt(mailOutbox.attempts, attempts) : undefined,
        ),
      )
      .limit(1),
  );
  if (earlier) {
    // Not an attempt: nothing was sent. Only a mail's own job sends it, so none goes twice.
    log.info({ outboxId: id, waitsFor: earlier.id }, 'mail waits for an earlier one to the same address');
    throw new MailWaiting(`Waits for mail ${earlier.id} to the same address`);
  }
  const mail: Mail = {
    to: row.to,
    subject: row.subject,
    text: row.text,
    ...(row.html ? { html: row.html } : {}),
    ...(row.headers ? { headers: row.headers } : {}),
    ...(row.attachments?.length ? { attachments: row.attachments } : {}),
  };
  try {
    await send(mail);
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    await withoutTenant(db, (tx) =>
      tx
        .update(mailOutbox)
        .set({ attempts: sql`${mailOutbox.attempts} + 1`, lastError: message.slice(0, 1000) })
        .where(eq(mailOutbox.id, id)),
    );
    log.warn({ outboxId: id, err: message }, 'mail not sent; pg-boss retries it');
    throw err;
  }
  await withoutTenant(db, (tx) =>
    tx
      .update(mailOutbox)
      .set({ sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1` })
      .where(eq(mailOutbox.id, id)),
  );
}
