import { and, eq, sql } from 'drizzle-orm';
import { Webhook as Signer } from 'standardwebhooks';
import type { Db } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import type { Mailer } from '../../server/mailer';
import type { WebhookSettings } from '../../server/env';
import { now } from '../../server/clock';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { users } from '../users/users.table';
import { webhookDeliveries, webhookEndpoints } from './webhooks.table';
import { scheduleDelivery, type DeliveryJob } from './webhooks.service';
import { postJson } from './outbound';

/** The delay before try `n + 1` after `n` failed tries: the base, doubled each time. */
export const retryDelayMs = (settings: Pick<WebhookSettings, 'retryBaseSeconds'>, failedTries: number) =>
  settings.retryBaseSeconds * 1000 * 2 ** Math.max(0, failedTries - 1);

/**
 * One try of one delivery (the `webhook-deliver` job): read it, POST it signed (Standard Webhooks: webhook-id,
 * webhook-timestamp, webhook-signature over `id.timestamp.body`) outside any transaction, then record the answer
 * in one short write that also queues the next try (exponential backoff within the retry window) or gives up.
 * An endpoint failing longer than `disableAfterHours` since its last success is disabled and its admins mailed.
 */
/** A try that failed, for the job's log line and metrics (decision 067): `retrying` or given up (`failed`). */
export interface FailedTry {
  endpointId: number;
  attempt: number;
  status: 'retrying' | 'failed';
  error: string;
}

export async function deliverWebhook(db: Db, job: DeliveryJob, deps: { settings: WebhookSettings; mailer: Mailer }): Promise<FailedTry | undefined> {
  const { orgId, deliveryId, seq } = job;
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  const [row] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({
          messageId: d.messageId,
          payload: d.payload,
          status: d.status,
          jobSeq: d.jobSeq,
          attempts: d.attempts,
          windowStart: d.windowStart,
          url: e.url,
          secret: e.secret,
          enabled: e.enabled,
          endpointId: e.id,
        })
        .from(d)
        .innerJoin(e, and(eq(e.orgId, d.orgId), eq(e.id, d.endpointId)))
        .where(and(eq(d.orgId, orgId), eq(d.id, deliveryId))),
    { readOnly: true },
  );
  // Gone, taken over by a redelivery, or already settled: nothing to do.
  if (!row || row.jobSeq !== seq || (row.status !== 'pending' && row.status !== 'retrying')) return;
  const mine = and(eq(d.orgId, orgId), eq(d.id, deliveryId), eq(d.jobSeq, seq));
  if (!row.enabled) {
    await withTenant(db, orgId, (tx) => tx.update(d).set({ status: 'failed', lastError: 'The endpoint is disabled', nextAttemptAt: null }).where(mine));
    return;
  }

  const body = JSON.stringify(row.payload);
  // Signed with the real time: receivers compare it with theirs (five minutes' tolerance).
  const sentAt = new Date();
  let responseCode: number | null = null;
  let responseBody: string | null = null;
  let lastError: string | null = null;
  try {
    const res = await postJson(row.url, body, {
      headers: {
        'webhook-id': row.messageId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Signer(row.secret).sign(row.messageId, sentAt, body),
        'user-agent': 'CMMS-Webhooks/1.0',
      },
      timeoutMs: deps.settings.timeoutMs,
      maxResponseBytes: deps.settings.maxResponseBytes,
      allowPrivate: deps.settings.allowPrivate,
    });
    responseCode = res.status;
    responseBody = res.body;
    if (res.status < 200 || res.status >= 300) lastError = `HTTP ${res.status}`;
  } catch (err) {
    lastError = (err as Error).message.slice(0, 500);
  }

  const at = now();
  const tries = row.attempts + 1;
  let failed: FailedTry | undefined;
  await withTenant(db, orgId, async (tx) => {
    if (!lastError) {
      await tx
        .update(d)
        .set({ status: 'succeeded', attempts: tries, responseCode, responseBody, lastError: null, nextAttemptAt: null, deliveredAt: at })
        .where(mine);
      await tx
        .update(e)
        .set({ failingSince: null })
        .where(and(eq(e.orgId, orgId), eq(e.id, row.endpointId)));
      return;
    }
    const delay = retryDelayMs(deps.settings, tries);
    const retry = at.getTime() + delay - row.windowStart.getTime() <= deps.settings.retryHours * 3600_000;
    const [updated] = await tx
      .update(d)
      .set({
        status: retry ? 'retrying' : 'failed',
        attempts: tries,
        responseCode,
        responseBody,
        lastError,
        nextAttemptAt: retry ? new Date(at.getTime() + delay) : null,
        jobSeq: retry ? seq + 1 : seq,
      })
      .where(mine)
      .returning({ id: d.id });
    if (updated && retry) await scheduleDelivery(tx, { orgId, deliveryId, seq: seq + 1 }, delay / 1000);
    if (updated) failed = { endpointId: row.endpointId, attempt: tries, status: retry ? 'retrying' : 'failed', error: lastError };

    const [endpoint] = await tx
      .update(e)
      .set({ failingSince: sql`coalesce(${e.failingSince}, ${at})` })
      .where(and(eq(e.orgId, orgId), eq(e.id, row.endpointId)))
      .returning({ failingSince: e.failingSince, enabled: e.enabled, url: e.url });
    const failingMs = endpoint?.failingSince ? at.getTime() - endpoint.failingSince.getTime() : 0;
    if (endpoint?.enabled && failingMs >= deps.settings.disableAfterHours * 3600_000) {
      const hours = Math.floor(failingMs / 3600_000);
      const reason = `Every delivery failed for ${hours} hours (last: ${lastError})`;
      await tx
        .update(e)
        .set({ enabled: false, disabledAt: at, disabledReason: reason })
        .where(and(eq(e.orgId, orgId), eq(e.id, row.endpointId)));
      const admins = await tx
        .select({ email: users.email, language: users.language })
        .from(users)
        .where(and(eq(users.orgId, orgId), eq(users.role, 'admin'), eq(users.inviteStatus, 'ACTIVE')));
      // Each admin reads it in their own language (decision 065).
      for (const admin of admins)
        await deps.mailer.send(
          { to: admin.email, ...mailTexts.webhookDisabled(mailLanguage(admin.language), { url: endpoint.url, hours, lastError: String(lastError) }) },
          tx,
        );
    }
  });
  return failed;
}
