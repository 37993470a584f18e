import { Readable } from 'node:stream';
import type { ZodType } from 'zod';
import type { ReadTx } from '../../server/db/client';
import { HttpError } from '../../server/http-error';
import { now } from '../../server/clock';
import type { AccessClaims } from '../auth/tokens';
import { exportAssetsBatch } from '../assets/assets.service';
import { assetListQuerySchema, type AssetDto, type AssetListQuery } from '../assets/assets.schema';
import { exportWorkOrdersBatch } from '../work-orders/work-orders.service';
import { workOrderListQuerySchema, type WorkOrderDto, type WorkOrderListQuery } from '../work-orders/work-orders.schema';
import { csvLine } from '../../shared/csv';
import type { ExportList } from './data-transfer.schema';

/** Runs one read in a scope of its own (the request's `req.read`): each batch is its own short read. */
export type Reader = <T>(fn: (tx: ReadTx) => Promise<T>) => Promise<T>;

interface ExportColumn<R> {
  /** The list screen's column key, so the visible columns name the exported ones. */
  key: string;
  header: string;
  value: (row: R) => unknown;
}

interface Exporter<Q, R extends { id: number }> {
  /** The list's own query schema: the export takes the same filters as the screen. */
  query: ZodType<Q>;
  columns: ExportColumn<R>[];
  batch(tx: ReadTx, orgId: number, actor: AccessClaims, query: Q, before: number, limit: number): Promise<R[]>;
}

const define = <Q, R extends { id: number }>(e: Exporter<Q, R>) => e as unknown as Exporter<unknown, { id: number }>;

/** The lists that export, each through its own feature's filter (decision 042). */
const EXPORTERS: Record<ExportList, Exporter<unknown, { id: number }>> = {
  'work-orders': define<WorkOrderListQuery, WorkOrderDto>({
    query: workOrderListQuerySchema as ZodType<WorkOrderListQuery>,
    batch: exportWorkOrdersBatch,
    columns: [
      { key: 'workOrderId', header: 'WO-ID', value: (r) => r.workOrderId },
      { key: 'status', header: 'Status', value: (r) => r.status },
      { key: 'title', header: 'Title', value: (r) => r.title },
      { key: 'priority', header: 'Priority', value: (r) => r.priority },
      { key: 'startDate', header: 'Start Date', value: (r) => r.startDate },
      { key: 'endDate', header: 'End Date', value: (r) => r.endDate },
      { key: 'dueDate', header: 'Due Date', value: (r) => r.dueDate },
      { key: 'duration', header: 'Duration', value: (r) => r.duration },
      { key: 'assignees', header: 'Assigned To', value: (r) => r.assignees.map((a) => `${a.firstName} ${a.lastName}`.trim()).join('; ') },
      { key: 'asset', header: 'Asset', value: (r) => r.asset?.name },
      { key: 'createdAt', header: 'Created At', value: (r) => r.createdAt },
    ],
  }),
  assets: define<AssetListQuery, AssetDto>({
    query: assetListQuerySchema as ZodType<AssetListQuery>,
    batch: (tx, orgId, _actor, query, before, limit) => exportAssetsBatch(tx, orgId, query, before, limit),
    columns: [
      { key: 'assetId', header: 'Asset ID', value: (r) => r.assetId },
      { key: 'name', header: 'Name', value: (r) => r.name },
      { key: 'category', header: 'Category', value: (r) => r.AssetCategory?.name },
      { key: 'status', header: 'Status', value: (r) => r.status },
      { key: 'owner', header: 'Owner', value: (r) => r.CustomerVendor?.name },
      { key: 'serial', header: 'Serial', value: (r) => r.serial },
      { key: 'assetCode', header: 'Asset Code', value: (r) => r.assetCode },
      { key: 'assetBarcode', header: 'Barcode', value: (r) => r.assetBarcode },
      { key: 'date', header: 'Date', value: (r) => r.date },
      { key: 'description', header: 'Description', value: (r) => r.description },
    ],
  }),
};

/** Rows read per statement: a 1M-row export holds one batch at a time. */
export const EXPORT_BATCH = 2000;

/**
 * A list as CSV (UTF-8 with a BOM, so Excel reads Arabic), with the list's filters and the named columns in
 * their order (all when none is named), streamed: batches of `EXPORT_BATCH` rows by keyset, read as the client
 * takes them. The query is checked before the first byte, so a bad filter is a 400.
 */
export function exportListCsv(read: Reader, orgId: number, actor: AccessClaims, list: ExportList, rawQuery: Record<string, unknown>) {
  const exporter = EXPORTERS[list];
  const { columns: wanted, ...filters } = rawQuery;
  const parsed = exporter.query.safeParse(filters);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new HttpError(400, issues[0]?.message ?? 'Invalid filter', issues);
  }
  const keys = typeof wanted === 'string' && wanted.trim() ? wanted.split(',').map((k) => k.trim()) : [];
  const columns = keys.length ? keys.flatMap((k) => exporter.columns.filter((c) => c.key === k)) : exporter.columns;
  if (!columns.length) throw new HttpError(400, 'No known column to export', [{ path: 'columns', message: 'No known column to export' }]);
  const query = parsed.data;

  async function* lines() {
    yield `\uFEFF${csvLine(columns.map((c) => c.header))}`;
    let before = 2147483647;
    for (;;) {
      const rows = await read((tx) => exporter.batch(tx, orgId, actor, query, before, EXPORT_BATCH));
      if (!rows.length) return;
      let chunk = '';
      for (const row of rows) chunk += csvLine(columns.map((c) => c.value(row)));
      yield chunk;
      if (rows.length < EXPORT_BATCH) return;
      before = rows[rows.length - 1].id;
    }
  }
  return { stream: Readable.from(lines(), { objectMode: false }), filename: `${list}-${now().toISOString().slice(0, 10)}.csv` };
}
