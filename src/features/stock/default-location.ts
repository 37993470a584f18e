import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../server/db/client';
import { stockLocations } from '../../server/db/schema';
import { getLocation } from './stock.service';

/**
 * Makes a location the organisation's default (the import's Default column, issue 41): the previous default stops
 * being it first, so the one-default index holds at every statement. 404 when the location is not theirs.
 */
export async function makeDefaultLocation(tx: Tx, orgId: number, id: number) {
  const location = await getLocation(tx, orgId, id);
  if (location.isDefault) return location;
  await tx
    .update(stockLocations)
    .set({ isDefault: false })
    .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.isDefault, true)));
  await tx
    .update(stockLocations)
    .set({ isDefault: true })
    .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id)));
  return getLocation(tx, orgId, id);
}
