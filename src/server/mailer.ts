import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from './db/client';
import { withoutTenant } from './db/client';
import { mailOutbox } from './db/schema';
import { maskTokens } from './mask';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Sends now; without SMTP the outbox row joins `tx` when given (PGlite has one connection). */
  send(mail: Mail, tx?: Tx): Promise<void>;
}

/** SMTP when SMTP_URL is set; otherwise mail is kept in the outbox table and written to the log. */
export function createMailer(opts: { smtpUrl?: string; db: Db; log: FastifyBaseLogger; from?: string }): Mailer {
  const from = opts.from ?? 'CMMS <no-reply@cmms.local>';
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    // Loaded on the first mail, not at start: cold start pays only for what every request needs.
    let transport: Promise<import('nodemailer').Transporter> | undefined;
    return {
      async send(mail) {
        transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
        await (await transport).sendMail({ from, ...mail });
      },
    };
  }
  return {
    async send(mail, tx) {
      if (tx) await tx.insert(mailOutbox).values(mail);
      else await withoutTenant(opts.db, (t) => t.insert(mailOutbox).values(mail));
      opts.log.info({ to: mail.to, subject: mail.subject, text: maskTokens(mail.text) }, 'mail kept in outbox (no SMTP_URL)');
    },
  };
}
