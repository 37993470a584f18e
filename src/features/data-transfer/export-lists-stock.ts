import type { ZodType } from 'zod';
import { and, eq, inArray } from 'drizzle-orm';
import { parts } from '../../server/db/schema';
import { MANAGERS } from '../../server/plugins/request-context';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { exportMovesBatch, listLevels, listLocations } from '../stock/stock.service';
import { locationListQuerySchema, moveListQuerySchema, type MoveListQuery } from '../stock/stock.schema';
import { listFailureCodes } from '../failure-codes/failure-codes.service';
import type { FailureCodeDto } from '../failure-codes/failure-codes.schema';
import { keyed, paged, unfiltered, type Exporter } from './export-kit';
import { type ExportList } from './data-transfer.schema';

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** Failure codes in tree order (each problem, its causes, each cause's remedies) with the parent's codes and the problem's category. */
function codeTree(codes: FailureCodeDto[]) {
  const children = new Map<number | null, FailureCodeDto[]>();
  for (const c of codes) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);
  const rows: (FailureCodeDto & { parent: string; category: string })[] = [];
  const walk = (parentId: number | null, path: string, category: string) => {
    for (const c of children.get(parentId) ?? []) {
      const own = c.kind === 'problem' ? (c.assetCategory ?? '') : category;
      rows.push({ ...c, parent: path, category: own });
      walk(c.id, path ? `${path} > ${c.code}` : c.code, own);
    }
  };
  walk(null, '', '');
  return rows;
}

/** Stock (decisions 071, 081) and failure codes (decision 080): the ledger, storerooms, levels and codes. */
export const STOCK_EXPORTERS = {
  // The stock ledger (decision 071), with the moves list's filters.
  'stock-moves': keyed({
    query: moveListQuerySchema as ZodType<MoveListQuery>,
    batch: exportMovesBatch,
    columns: [
      ['createdAt', 'Date', (r) => r.createdAt],
      ['part', 'Part', (r) => r.part?.name],
      ['reason', 'Reason'],
      ['quantity', 'Quantity'],
      ['fromLocation', 'From', (r) => r.fromLocation?.name],
      ['toLocation', 'To', (r) => r.toLocation?.name],
      ['workOrder', 'Work Order', (r) => (r.workOrderId ? workOrderDisplayId(r.workOrderId) : '')],
      ['note', 'Note'],
      ['user', 'User', (r) => (r.user ? `${r.user.firstName} ${r.user.lastName}`.trim() : '')],
    ],
  }),
  // Storerooms and levels re-import as they are (issue 41): managers only, as the import.
  storerooms: paged({
    query: locationListQuerySchema,
    access: MANAGERS,
    list: (tx, orgId, _actor, query) => listLocations(tx, orgId, query),
    key: 'locations',
    columns: [
      ['name', 'Name'],
      ['kind', 'Kind'],
      ['isDefault', 'Default', (r) => yesNo(r.isDefault)],
      ['location', 'Location', (r) => r.location?.path],
    ],
  }),
  'stock-levels': unfiltered(
    // The SKU when the part has one (what the import looks up first), else its name.
    async (tx, orgId, step, limit) => {
      const { stockLevels } = await listLevels(tx, orgId, { page: step.page, pageSize: limit });
      const ids = [...new Set(stockLevels.map((l) => l.partId))];
      const skus = ids.length
        ? new Map(
            (
              await tx
                .select({ id: parts.id, sku: parts.skuCode })
                .from(parts)
                .where(and(eq(parts.orgId, orgId), inArray(parts.id, ids)))
            ).map((p) => [p.id, p.sku]),
          )
        : new Map<number, string | null>();
      return stockLevels.map((l, i) => ({ ...l, id: i + 1, sku: skus.get(l.partId) || l.part.name }));
    },
    [
      ['part', 'Part', (r) => r.sku],
      ['partName', 'Part Name', (r) => r.part.name],
      ['storeroom', 'Storeroom', (r) => r.location.name],
      ['quantity', 'Quantity'],
      ['reorderPoint', 'Reorder Point'],
      ['reorderQuantity', 'Reorder Quantity'],
      ['bin', 'Bin'],
    ],
  ),
  // Problem > cause > remedy, parents first (issue 42): the file re-imports as it is.
  'failure-codes': unfiltered(
    async (tx, orgId, step) => (step.page > 1 ? [] : codeTree((await listFailureCodes(tx, orgId)).failureCodes)),
    [
      ['kind', 'Kind'],
      ['code', 'Code'],
      ['name', 'Name'],
      ['parent', 'Parent'],
      ['assetCategory', 'Asset Category', (r) => r.category],
    ],
  ),
} satisfies Partial<Record<ExportList, Exporter>>;
