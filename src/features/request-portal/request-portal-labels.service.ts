import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { notFound } from '../../server/http-error';
import { assets, organizations, workOrders } from '../../server/db/schema';
import type { AccessClaims } from '../auth/tokens';
import { assignedTo } from '../work-orders/work-orders.service';
import { r, targetsOf, ensureCodes } from './request-portal-codes.service';
import { dto } from './request-portal-inbox.service';
import { pick } from '../../shared/pick';
import { readOrgRow } from '../../server/db/org-rows';

// ---------------------------------------------------------------- labels

/**
 * What the label PDF prints: each asset's and work station's name, number and code token (made on first use),
 * and the logo. Assets first, then work stations, each in the order given.
 */
export async function labelData(tx: Tx, orgId: number, assetIds: number[], workStationIds: number[] = []) {
  const labels: { name: string; number: string; token: string }[] = [];
  for (const [kind, ids] of [
    ['asset', assetIds],
    ['work-station', workStationIds],
  ] as const) {
    const unique = [...new Set(ids)];
    if (!unique.length) continue;
    const found = await targetsOf(
      tx,
      orgId,
      unique.map((id) => ({ kind, id })),
    );
    if (found.length !== unique.length) throw notFound(kind === 'asset' ? 'Asset' : 'Work station');
    const tokens = await ensureCodes(tx, orgId, kind, unique);
    labels.push(...found.map((t) => ({ name: t.name, number: t.number ?? `#${t.id}`, token: tokens.get(t.id)! })));
  }
  const [org] = await tx
    .select({ name: organizations.organization, logo: organizations.profilePicture })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return { organization: org?.name ?? '', logo: org?.logo ?? null, labels };
}

// ---------------------------------------------------------------- the asset a code names, for the signed-in scan

/**
 * GET asset-summary/:id (signed in; the landing of a scanned label): the asset, its open work orders and its
 * latest closed ones (a worker sees only those assigned to them, as in the work orders list), and the portal
 * requests about it still open.
 */
export async function assetSummary(tx: ReadTx, orgId: number, actor: AccessClaims, id: number) {
  const asset = await readOrgRow(tx, assets, { id: assets.id, name: assets.name, number: assets.assetCode, status: assets.status }, orgId, id);
  if (!asset) throw notFound('Asset');
  const visible = actor.role === 'worker' ? assignedTo(orgId, actor.userId) : undefined;
  const orders = await tx
    .select({
      ...pick(workOrders, 'id', 'title', 'status', 'priority', 'dueDate', 'createdAt'),
    })
    .from(workOrders)
    .where(and(eq(workOrders.orgId, orgId), eq(workOrders.assetId, id), visible))
    .orderBy(desc(workOrders.id))
    .limit(50);
  const requests = await tx
    .select({ id: r.id, description: r.description, status: r.status, urgency: r.urgency, createdAt: r.createdAt })
    .from(r)
    .where(and(eq(r.orgId, orgId), eq(r.targetKind, 'asset'), eq(r.targetId, id), inArray(r.status, ['received', 'accepted', 'scheduled', 'in-progress'])))
    .orderBy(desc(r.id))
    .limit(20);
  const open = orders.filter((o) => o.status === 'assigned' || o.status === 'in-progress');
  return { asset, openWork: open, history: orders.filter((o) => !open.includes(o)).slice(0, 10), requests: requests.map(dto) };
}

/** GET find-asset?number= (signed in; the scanner's typed fallback): the asset whose number (code) or barcode is this. */
export async function findAssetByNumber(tx: ReadTx, orgId: number, number: string) {
  const [asset] = await tx
    .select({ id: assets.id, name: assets.name })
    .from(assets)
    .where(
      and(
        eq(assets.orgId, orgId),
        or(
          sql`lower(${assets.assetCode}) = lower(${number})`,
          sql`lower(${assets.assetBarcode}) = lower(${number})`,
          sql`lower(${assets.serial}) = lower(${number})`,
        ),
      ),
    )
    .limit(1);
  if (!asset) throw notFound('Asset');
  return { asset };
}
