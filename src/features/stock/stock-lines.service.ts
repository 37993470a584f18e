import { and, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { parts, stockMoves } from '../../server/db/schema';
import { postMove, shortageConflict } from './stock-ledger.service';
import { round3 } from './stock-quantity';
import { readOrgRow } from '../../server/db/org-rows';

// ---- Work order lines (consumption) ----

/** What the ledger has taken for a work order's part, net of returns, and from where (the latest consumption's location). */
export async function consumedForLine(tx: ReadTx, orgId: number, workOrderId: number, partId: number) {
  const [row] = await tx
    .select({
      net: sql<string>`coalesce(sum(case when ${stockMoves.reason} = 'consumption' then ${stockMoves.quantity} when ${stockMoves.reason} = 'return' then -${stockMoves.quantity} else 0 end), 0)`,
    })
    .from(stockMoves)
    .where(and(eq(stockMoves.orgId, orgId), eq(stockMoves.workOrderId, workOrderId), eq(stockMoves.partId, partId)));
  return round3(Number(row?.net ?? 0));
}

/** Takes a part line's quantity from its location (a `consumption` move); 409 on a shortage unless negative stock is allowed. */
export async function consumeForLine(
  tx: Tx,
  orgId: number,
  userId: number | null,
  line: { workOrderId: number; partId: number; locationId: number; quantity: number },
) {
  return postMove(
    tx,
    orgId,
    {
      partId: line.partId,
      fromLocationId: line.locationId,
      toLocationId: null,
      quantity: line.quantity,
      reason: 'consumption',
      userId,
      workOrderId: line.workOrderId,
    },
    { allowNegative: 'org', shortage: shortageConflict },
  );
}

/** Puts back what a work order took of a part (a `return` move into the line's location), up to `quantity`. */
export async function returnForLine(
  tx: Tx,
  orgId: number,
  userId: number | null,
  line: { workOrderId: number; partId: number; locationId: number; quantity?: number },
) {
  const net = await consumedForLine(tx, orgId, line.workOrderId, line.partId);
  const back = round3(Math.min(net, line.quantity ?? net));
  if (back <= 0) return null;
  return postMove(
    tx,
    orgId,
    { partId: line.partId, fromLocationId: null, toLocationId: line.locationId, quantity: back, reason: 'return', userId, workOrderId: line.workOrderId },
    {
      allowNegative: false,
      shortage: shortageConflict,
    },
  );
}

/** Whether a part keeps stock (stockable); consumable parts and unknown ids move nothing. */
export async function isStockable(tx: ReadTx, orgId: number, partId: number) {
  const row = await readOrgRow(tx, parts, { type: parts.type }, orgId, partId);
  return row?.type === 'stockable';
}
