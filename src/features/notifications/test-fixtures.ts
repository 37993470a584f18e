import { and, eq } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { notificationDeliveries, notifications } from '../../server/db/schema';
import type { TestApp, TestOrg } from '../../server/test/harness';

/** A member's bell notifications, oldest first. */
export const notificationsOf = (t: TestApp, org: TestOrg, userId: number) =>
  withTenant(t.database.db, org.orgId, (tx) =>
    tx
      .select()
      .from(notifications)
      .where(and(eq(notifications.orgId, org.orgId), eq(notifications.userId, userId)))
      .orderBy(notifications.id),
  );

/** What was sent to a member (mail, push), oldest first. */
export const deliveriesOf = (t: TestApp, org: TestOrg, userId: number) =>
  withTenant(t.database.db, org.orgId, (tx) =>
    tx
      .select()
      .from(notificationDeliveries)
      .where(and(eq(notificationDeliveries.orgId, org.orgId), eq(notificationDeliveries.userId, userId)))
      .orderBy(notificationDeliveries.id),
  );
