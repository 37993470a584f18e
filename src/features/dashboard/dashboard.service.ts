import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ReadTx } from '../../server/db/client';
import { bindTo } from '../../server/db/prepared';
import {
  assetCategories,
  assets,
  customerVendors,
  maintenanceRequests,
  parts,
  pmPlans,
  procedures,
  productCategories,
  services,
  taxes,
  teams,
  timeTrackingReasons,
  uomCategories,
  uoms,
  users,
  workOrders,
  workStations,
} from '../../server/db/schema';
import { now } from '../../server/clock';
import type { AccessClaims } from '../auth/tokens';
import { listRecentActivities, type Viewer } from '../activity/activity.service';
import type { RecentActivity } from '../activity/activity.schema';
import { countWorkOrdersSql } from '../work-orders/work-orders.service';
import { OPEN_REQUEST_STATES, type Attention, type LatestActivity } from './dashboard.schema';

/**
 * GET get-attention: what needs attention now, in one statement (decision 066). The work-order figures are the
 * list's own filters (the same query string opens the same rows), so a worker's are their own orders; requests
 * and parts are the organisation's shared queues.
 */
export async function getAttention(tx: ReadTx, orgId: number, actor: AccessClaims, timeZone: string | undefined, at = now()): Promise<Attention> {
  const orders = (query: Parameters<typeof countWorkOrdersSql>[3]) => countWorkOrdersSql(tx, orgId, actor, { ...query, timeZone }, at);
  const bind = bindTo({ orgId, states: [...OPEN_REQUEST_STATES] });
  const openRequests = tx
    .select({ n: sql<number>`count(*)::int` })
    .from(maintenanceRequests)
    .where(and(eq(maintenanceRequests.orgId, bind('orgId')), sql`${maintenanceRequests.state} = any(${bind('states')}::text[])`));
  // The parts list's low-stock filter (parts.service.ts): stockable and under the minimum.
  const low = tx
    .select({ n: sql<number>`count(*)::int` })
    .from(parts)
    .where(and(eq(parts.orgId, bind('orgId')), eq(parts.type, 'stockable'), lt(parts.quantityOnHand, parts.minimumQuantity)));
  const figure = (q: SQL | { getSQL(): SQL }) => sql<number>`(${q})::int`.mapWith(Number);
  const [row] = await tx
    .select({
      overdue: figure(orders({ due: 'overdue' })),
      dueToday: figure(orders({ due: 'today' })),
      openRequests: figure(sql`(${openRequests})`),
      pmDueThisWeek: figure(orders({ due: 'week', pm: true })),
      partsBelowMinimum: figure(sql`(${low})`),
    })
    .from(sql`(values (1)) as figures`);
  return row;
}

/** The record types whose own name the latest activity shows, and the column that holds it. */
const NAMES: Record<string, { table: { orgId: PgColumn; id: PgColumn }; name: SQL<string> | PgColumn }> = {
  'work-order': { table: workOrders, name: workOrders.title },
  'maintenance-request': { table: maintenanceRequests, name: maintenanceRequests.title },
  asset: { table: assets, name: assets.name },
  part: { table: parts, name: parts.name },
  service: { table: services, name: services.title },
  'work-station': { table: workStations, name: workStations.name },
  team: { table: teams, name: teams.name },
  'customer-vendor': { table: customerVendors, name: customerVendors.name },
  'pm-plan': { table: pmPlans, name: pmPlans.name },
  procedure: { table: procedures, name: procedures.name },
  user: { table: users, name: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})` },
  tax: { table: taxes, name: taxes.name },
  uom: { table: uoms, name: uoms.name },
  'uom-category': { table: uomCategories, name: uomCategories.name },
  'asset-category': { table: assetCategories, name: assetCategories.name },
  'product-category': { table: productCategories, name: productCategories.name },
  'time-tracking-reason': { table: timeTrackingReasons, name: timeTrackingReasons.name },
};

/** The same person doing the same kind of change to the same record, one after the other: shown once. */
const sameLine = (a: RecentActivity, b: RecentActivity) =>
  a.entityType === b.entityType &&
  a.entityId === b.entityId &&
  a.action === b.action &&
  (a.user?.id ?? null) === (b.user?.id ?? null) &&
  (a.contractor ?? null) === (b.contractor ?? null) &&
  a.action !== 'note';

/** Consecutive repeats merged into their newest entry, with the count (decision 066). */
export function mergeRepeats(items: RecentActivity[]): (RecentActivity & { repeats: number })[] {
  const lines: (RecentActivity & { repeats: number })[] = [];
  for (const item of items) {
    const last = lines.at(-1);
    if (last && sameLine(last, item)) last.repeats += 1;
    else lines.push({ ...item, repeats: 1 });
  }
  return lines;
}

/** GET get-latest-activity: the bell's entries (what the viewer may see), repeats merged, each record named. */
export async function getLatestActivity(tx: ReadTx, orgId: number, viewer: Viewer): Promise<LatestActivity[]> {
  const lines = mergeRepeats(await listRecentActivities(tx, orgId, viewer));
  const names = new Map<string, string>();
  const byType = new Map<string, LatestActivity[] | typeof lines>();
  for (const l of lines) byType.set(l.entityType, [...(byType.get(l.entityType) ?? []), l]);
  await Promise.all(
    [...byType].map(async ([type, items]) => {
      const kind = NAMES[type];
      if (!kind) return;
      const ids = [...new Set(items.map((i) => i.entityId))];
      const rows = await tx
        .select({ id: kind.table.id, name: kind.name })
        .from(kind.table as unknown as typeof workOrders)
        .where(and(eq(kind.table.orgId, orgId), inArray(kind.table.id, ids)));
      for (const r of rows) if (r.name) names.set(`${type}:${r.id as number}`, r.name as string);
    }),
  );
  return lines.map((l) => ({ ...l, name: names.get(`${l.entityType}:${l.entityId}`) ?? null }));
}
