import { and, eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import type { VapidKeys } from '../../server/env';
import { now } from '../../server/clock';
import { postJson } from '../webhooks/outbound';
import { pushSubscriptions } from './push.table';
import type { PushJob } from './push.service';

export interface PushSettings {
  vapid: VapidKeys;
  allowPrivate: boolean;
  timeoutMs: number;
}

/** A push service's answer that means the subscription is gone for good (RFC 8030, 7.3): the device is dropped. */
const GONE = new Set([404, 410]);

/**
 * One try of one push (the `push-deliver` job): the payload encrypted to the device's keys (aes128gcm, RFC 8291)
 * and signed for the push service with the deployment's VAPID keys (RFC 8292), by web-push; POSTed through the
 * webhooks' guarded client (no private address unless allowed). 2xx: the device's last success; 404/410: the
 * subscription deleted; anything else throws, so pg-boss tries again with its backoff.
 */
export async function deliverPush(db: Db, job: PushJob, settings: PushSettings): Promise<'sent' | 'gone' | 'missing'> {
  const { orgId, subscriptionId, message } = job;
  const mine = and(eq(pushSubscriptions.orgId, orgId), eq(pushSubscriptions.id, subscriptionId));
  const [sub] = await withTenant(db, orgId, (tx) => tx.select().from(pushSubscriptions).where(mine), { readOnly: true });
  if (!sub) return 'missing';
  // Loaded on the first push, not at start (decision 013). A CommonJS package: its functions are on `default` once
  // bundled (dist/server), on the namespace too under Node's own loader.
  const loaded = (await import('web-push')) as typeof import('web-push') & { default?: typeof import('web-push') };
  const webpush = loaded.default ?? loaded;
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify({ title: message.title, body: message.body, url: message.url, ...(message.tag ? { tag: message.tag } : {}) }),
    { vapidDetails: settings.vapid, TTL: 24 * 3600, contentEncoding: 'aes128gcm', urgency: 'normal' },
  );
  const headers = Object.fromEntries(
    Object.entries(details.headers)
      .filter(([name]) => name.toLowerCase() !== 'content-type' && name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  const res = await postJson(details.endpoint, details.body ?? Buffer.alloc(0), {
    headers,
    contentType: 'application/octet-stream',
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: 16 * 1024,
    allowPrivate: settings.allowPrivate,
  });
  if (GONE.has(res.status)) {
    await withTenant(db, orgId, (tx) => tx.delete(pushSubscriptions).where(mine));
    return 'gone';
  }
  if (res.status < 200 || res.status >= 300) throw new Error(`Push service answered HTTP ${res.status}`);
  await withTenant(db, orgId, (tx) => tx.update(pushSubscriptions).set({ lastSuccessAt: now() }).where(mine));
  return 'sent';
}
