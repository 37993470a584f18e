import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { recordActivity } from '../activity/activity.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { managersOf, notify } from '../notifications/notifications.service';
import { type DocumentKind } from './document-kind.service';
import type { documentQueries } from './document-queries.service';

/** A kind's status changes and what they announce (webhook, managers' approval). */
export function documentStatus(k: DocumentKind, queries: ReturnType<typeof documentQueries>) {
  const T = k.table;
  const { getRow, shape } = queries;

  /** The kind's webhook when a document arrives at its status; the managers when it waits for their approval (decision 074). */
  async function announce(tx: Tx, orgId: number, id: number, from: string | undefined, to: string, actorId?: number) {
    if (k.approval && to === k.approval.status && from !== to)
      await notify(tx, orgId, {
        kind: k.approval.kind,
        entityType: k.entityType,
        entityId: id,
        recipients: await managersOf(tx, orgId),
        actorId,
        data: { number: k.numberOf(id), title: (await getRow(tx, orgId, id)).partyName ?? undefined },
      });
    if (!k.webhook || to !== k.webhook.status || from === to) return;
    const row = await getRow(tx, orgId, id);
    await emitWebhookEvent(tx, orgId, k.webhook.event, {
      id,
      number: k.numberOf(id),
      [k.partyColumn]: row.partyId,
      partyName: row.partyName,
      totalMinorUnits: row.total,
      currency: row.currency,
      status: to,
    });
  }

  async function setStatus(tx: Tx, orgId: number, userId: number, id: number, status: string) {
    const before = await getRow(tx, orgId, id);
    if (before.status !== status) {
      await tx
        .update(T)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(T.orgId, orgId), eq(T.id, id)));
      await recordActivity(tx, orgId, {
        entityType: k.entityType,
        entityId: id,
        userId,
        action: 'status',
        changes: { status: { from: before.status, to: status } },
      });
      await announce(tx, orgId, id, before.status, status, userId);
    }
    const doc = shape(await getRow(tx, orgId, id));
    return { message: `${k.label} status updated successfully`, status, [k.singularKey]: doc };
  }

  return { announce, setStatus };
}
