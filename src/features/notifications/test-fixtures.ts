import { and, eq } from 'drizzle-orm';
import { withTenant } from '../../server/db/client';
import { notificationDeliveries, notifications } from '../../server/db/schema';
import type { TestApp, TestOrg } from '../../server/test/harness';

type MemberTable = typeof notifications | typeof notificationDeliveries;

/** A member's rows of `table`, oldest first. */
const memberRows = <T extends MemberTable>(t: TestApp, table: T, org: TestOrg, userId: number) =>
  withTenant(t.database.db, org.orgId, (tx) =>
    tx
      .select()
      .from(table as MemberTable)
      .where(and(eq(table.orgId, org.orgId), eq(table.userId, userId)))
      .orderBy(table.id),
  ) as Promise<T['$inferSelect'][]>;

/** A member's bell notifications, oldest first. */
export const notificationsOf = (t: TestApp, org: TestOrg, userId: number) => memberRows(t, notifications, org, userId);

/** What was sent to a member (mail, push), oldest first. */
export const deliveriesOf = (t: TestApp, org: TestOrg, userId: number) => memberRows(t, notificationDeliveries, org, userId);
