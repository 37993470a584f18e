import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { chunksOf } from '../../server/db/chunks';
import type { ZodType } from 'zod';
import type { ReadTx } from '../../server/db/client';
import { assets, parts, timeTrackingReasons, users, workOrderLabors, workOrderParts, workOrders } from '../../server/db/schema';
import { addLabor, addParts, createWorkOrder, deleteLabor, deletePart, getWorkOrder, updateWorkOrder } from '../work-orders/work-orders.service';
import { addPartsSchema, laborInputSchema, workOrderDisplayId, workOrderInputSchema, type WorkOrderValues } from '../work-orders/work-orders.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import {
  type Cells,
  type Current,
  type Importer,
  type Row,
  type Run,
  check,
  cellsOf,
  displayIdOf,
  eachRow,
  listCell,
  listOf,
  lookup,
  lower,
  readEach,
  columnCells,
  readyRows,
} from './import-rows';
import { pick } from '../../shared/pick';

// Work orders and their labour and parts lines (decision 059): three kinds, the lines named by the order's number.

/** The rows `read` gives for the ids, a thousand at a time: a statement takes at most 65,535 parameters. */
async function inSlices<T, R>(ids: T[], read: (slice: T[]) => Promise<R[]>) {
  const rows: R[] = [];
  for (const slice of chunksOf(ids, 1000)) rows.push(...(await read(slice)));
  return rows;
}

/** "First Last", as the exports write a person. */
export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/** The members: by e-mail (unique) and by full name (null when two members share it). */
export async function membersOf(tx: ReadTx, orgId: number) {
  const byEmail = new Map<string, number>();
  const byName = new Map<string, number | null>();
  const rows = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.orgId, orgId));
  for (const u of rows) {
    byEmail.set(lower(u.email), u.id);
    const name = lower(fullName(u));
    if (name) byName.set(name, byName.has(name) ? null : u.id);
  }
  return { byEmail, byName, emailOf: new Map(rows.map((u) => [u.id, u.email])) };
}
type Members = Awaited<ReturnType<typeof membersOf>>;

/** A person a cell names (e-mail, or a full name only one member has, or the one the record already links). */
export function personOf(run: Run, members: Members, links: Map<string, number> | undefined, name: string, row: number, column: string) {
  const id = members.byEmail.get(lower(name)) ?? links?.get(`${column}:${lower(name)}`) ?? members.byName.get(lower(name));
  if (typeof id === 'number') return id;
  run.problems.push({ row, column, message: id === null ? IMPORT_MESSAGES.personAmbiguous(name) : IMPORT_MESSAGES.personUnknown(name) });
  return undefined;
}

/** The organisation's records whose key columns hold the cells (lower case): cell -> ids (several when shared). */
async function candidates(
  tx: ReadTx,
  orgId: number,
  cells: string[],
  read: (tx: ReadTx, orgId: number, wanted: string[], ids: number[]) => Promise<{ id: number; keys: (string | null)[] }[]>,
) {
  const wanted = [...new Set(cells.map(lower))];
  const found = new Map<string, Set<number>>();
  for (const slice of chunksOf(wanted, 1000)) {
    const ids = slice.flatMap((c) => displayIdOf(c) ?? []);
    for (const r of await read(tx, orgId, slice, ids)) {
      for (const key of r.keys) if (key && slice.includes(lower(key))) found.set(lower(key), (found.get(lower(key)) ?? new Set()).add(r.id));
    }
  }
  return found;
}

/** Assets a cell may name: its Asset ID (AS-0001), its code, or its name (names repeat). */
export async function assetsNamed(tx: ReadTx, orgId: number, cells: string[]) {
  return candidates(tx, orgId, cells, async (t, org, wanted, ids) => {
    const rows = await t
      .select({ id: assets.id, name: assets.name, code: assets.assetCode })
      .from(assets)
      .where(
        and(
          eq(assets.orgId, org),
          or(inArray(sql`lower(${assets.name})`, wanted), inArray(sql`lower(${assets.assetCode})`, wanted), ids.length ? inArray(assets.id, ids) : undefined),
        ),
      );
    // The code first: a code names one asset where a name may name several.
    return rows.map((a) => ({ id: a.id, keys: [`as-${String(a.id).padStart(4, '0')}`, a.code, a.name] }));
  });
}

/** The asset a cell names, or the row's problem. */
export function assetOf(run: Run, found: Map<string, Set<number>>, links: Map<string, number> | undefined, cell: string, row: number, column = 'asset') {
  const key = lower(cell);
  const byId = /^as-\d+$/.test(key) ? displayIdOf(key) : undefined;
  const ids = [...(found.get(key) ?? [])];
  if (byId !== undefined && ids.includes(byId)) return byId;
  const linked = links?.get(`asset:${key}`);
  if (linked !== undefined) return linked;
  if (ids.length === 1) return ids[0];
  run.problems.push({ row, column, message: ids.length ? IMPORT_MESSAGES.assetAmbiguous : IMPORT_MESSAGES.assetUnknown });
  return undefined;
}

/** The organisation's work orders among the numbers the rows' work order cells give (WO-0001 or 1). */
async function ordersNamed(tx: ReadTx, orgId: number, rows: Row[]) {
  const ids = [...new Set(rows.flatMap(({ cells: { workOrder: c } }) => (c ? (displayIdOf(c) ?? []) : [])))];
  const found = await inSlices(ids, (slice) =>
    tx
      .select({ id: workOrders.id })
      .from(workOrders)
      .where(and(eq(workOrders.orgId, orgId), inArray(workOrders.id, slice))),
  );
  return new Set(found.map((r) => r.id));
}

/** The work order a line's cell names, or the row's problem. */
function orderOf(run: Run, orders: Set<number>, cell: string | undefined, row: number) {
  if (!cell) return undefined;
  const id = displayIdOf(cell);
  if (id !== undefined && orders.has(id)) return id;
  run.problems.push({ row, column: 'workOrder', message: IMPORT_MESSAGES.workOrderUnknown });
  return undefined;
}

/**
 * Sets each row's match (`keyOf` the row: its line in `lines`) and overlays its cells as `matchRows` does; a
 * line named twice by the file is the later row's problem (`column`).
 */
function matchLines(run: Run, rows: Row[], keyOf: (r: Row) => string | undefined, lines: Map<string, Current>, column: string) {
  const seen = new Map<string, number>();
  for (const r of rows) {
    const key = keyOf(r);
    if (key === undefined) continue;
    const first = seen.get(key);
    if (first !== undefined) {
      run.problems.push({ row: r.row, column, message: IMPORT_MESSAGES.duplicateInFile(first) });
      continue;
    }
    seen.set(key, r.row);
    const match = lines.get(key);
    if (!match) continue;
    const cells: Cells = { ...match.cells, ...r.cells };
    for (const c of r.blank) delete cells[c];
    r.cells = cells;
    r.match = match;
  }
}

/** Parts a cell may name: its SKU, else its name. */
export async function partsNamed(tx: ReadTx, orgId: number, cells: string[]) {
  // one column at a time, so that a SKU wins over another part's name
  const by = (column: typeof parts.skuCode | typeof parts.name) =>
    candidates(tx, orgId, cells, async (t, org, wanted) =>
      (
        await t
          .select({ id: parts.id, key: column })
          .from(parts)
          .where(and(eq(parts.orgId, org), inArray(sql`lower(${column})`, wanted)))
      ).map((p) => ({ id: p.id, keys: [p.key] })),
    );
  const bySku = await by(parts.skuCode);
  const byName = await by(parts.name);
  return (cell: string) => [...(bySku.get(lower(cell)) ?? byName.get(lower(cell)) ?? [])];
}

interface LaborRow {
  workOrderId: number;
  labor: ReturnType<typeof laborInputSchema.parse>;
}
interface PartRow {
  workOrderId: number;
  partId: number;
  quantity: number;
}

const WORK_ORDER_COLUMNS = { assetId: 'asset' };
const LABOR_COLUMNS = { workerId: 'worker' };
const PART_LINE_COLUMNS = (path: readonly PropertyKey[]) =>
  path[0] === 'parts' ? (path[2] === 'quantity' ? 'quantity' : 'part') : path[0] === undefined ? null : String(path[0]);

export const WORK_ORDER_IMPORTERS: Pick<Record<ImportKind, Importer>, 'work-orders' | 'work-order-labor' | 'work-order-parts'> = {
  'work-orders': {
    async prepare(tx, run, rows) {
      const members = await membersOf(tx, run.orgId);
      const found = await assetsNamed(tx, run.orgId, columnCells(rows, 'asset'));
      return readyRows(rows, ({ row, cells, match }) => {
        const assetId = cells.asset ? assetOf(run, found, match?.links, cells.asset, row) : null;
        const assignees = listOf(cells.assignees).map((name) => personOf(run, members, match?.links, name, row, 'assignees'));
        // Absent cells are null: on a matched row an empty cell clears the field (decision 055).
        const body = {
          ...pick(cells, 'title', 'status', 'priority'),
          startDate: cells.startDate ?? null,
          endDate: cells.endDate ?? null,
          dueDate: cells.dueDate ?? null,
          duration: cells.duration ?? null,
          instructions: cells.instructions ?? null,
          assetId: assetId ?? null,
          // sorted: the same people in another order are no change
          assignees: [...new Set(assignees.map((id) => id ?? 0))].sort((a, b) => a - b).filter(Boolean),
        };
        const input = check<WorkOrderValues>(workOrderInputSchema as unknown as ZodType<WorkOrderValues>, body, row, WORK_ORDER_COLUMNS, run.problems);
        return input && { input };
      });
    },
    // A new order takes the next number of the organisation, as one added on its screen; its status is the file's.
    write: (tx, run, ready) => eachRow<WorkOrderValues>(tx, run, ready, WORK_ORDER_COLUMNS, (one, input) => createWorkOrder(one, run.orgId, run.actor, input)),
    current: (tx, run, ids) =>
      readEach(
        ids,
        (id) => getWorkOrder(tx, run.orgId, run.actor, id),
        (wo) => {
          const links = new Map(wo.assignees.map((a) => [`assignees:${lower(fullName(a))}`, a.id]));
          if (wo.asset) links.set(`asset:${lower(wo.asset.name)}`, wo.asset.id);
          return {
            id: wo.id,
            updatedAt: wo.updatedAt,
            links,
            cells: cellsOf({
              ...pick(wo, 'title', 'status', 'priority', 'startDate', 'endDate', 'dueDate', 'duration'),
              assignees: listCell(wo.assignees.map(fullName)),
              asset: wo.asset?.name,
              instructions: wo.instructions,
            }),
          };
        },
      ),
    // The order's own update: its version claimed, its status rules (a closed order's required procedure steps).
    update: (tx, run, c, input) => updateWorkOrder(tx, run.orgId, run.actor, c.id, { ...(input as WorkOrderValues), updatedAt: c.updatedAt }),
    columnOf: WORK_ORDER_COLUMNS,
  },

  'work-order-labor': {
    // A line is its order's, its worker's, from its start: the same three in the file are that line.
    async match(tx, run, rows) {
      const members = await membersOf(tx, run.orgId);
      const orders = [...(await ordersNamed(tx, run.orgId, rows))];
      const lines = new Map<string, Current>();
      const l = workOrderLabors;
      const found = await inSlices(orders, (slice) =>
        tx
          .select({ id: l.id, workOrderId: l.workOrderId, workerId: l.workerId, reason: timeTrackingReasons.name, startDate: l.startDate, endDate: l.endDate })
          .from(l)
          .leftJoin(timeTrackingReasons, and(eq(timeTrackingReasons.orgId, l.orgId), eq(timeTrackingReasons.id, l.reasonId)))
          .where(and(eq(l.orgId, run.orgId), inArray(l.workOrderId, slice), isNull(l.shareId))),
      );
      for (const f of found) {
        const cells = cellsOf({
          workOrder: workOrderDisplayId(f.workOrderId),
          worker: members.emailOf.get(f.workerId ?? 0),
          reason: f.reason,
          startTime: f.startDate.toISOString(),
          endTime: f.endDate.toISOString(),
        });
        lines.set(`${f.workOrderId}|${f.workerId}|${f.startDate.getTime()}`, { id: f.id, cells });
      }
      const keyOf = (r: Row) => {
        const order = r.cells.workOrder ? displayIdOf(r.cells.workOrder) : undefined;
        const worker = r.cells.worker ? (members.byEmail.get(lower(r.cells.worker)) ?? members.byName.get(lower(r.cells.worker))) : undefined;
        const start = r.cells.startTime ? new Date(r.cells.startTime).getTime() : NaN;
        return order !== undefined && typeof worker === 'number' && !Number.isNaN(start) ? `${order}|${worker}|${start}` : undefined;
      };
      matchLines(run, rows, keyOf, lines, 'startTime');
    },
    async prepare(tx, run, rows) {
      const members = await membersOf(tx, run.orgId);
      const orders = await ordersNamed(tx, run.orgId, rows);
      const reasons = await lookup(tx, timeTrackingReasons, run.orgId);
      return readyRows(rows, ({ row, cells }) => {
        const workOrderId = orderOf(run, orders, cells.workOrder, row);
        const workerId = cells.worker ? personOf(run, members, undefined, cells.worker, row, 'worker') : undefined;
        const reason = cells.reason ? reasons.get(lower(cells.reason)) : undefined;
        if (cells.reason && reason === undefined) run.problems.push({ row, column: 'reason', message: IMPORT_MESSAGES.reasonUnknown });
        // Stand-ins (1) for unknown names: the row is refused anyway, the schema checks the rest.
        const body = {
          startTime: cells.startTime,
          endTime: cells.endTime,
          reason: cells.reason ? (reason ?? 1) : undefined,
          workerId: cells.worker ? (workerId ?? 1) : undefined,
        };
        if (!cells.worker) run.problems.push({ row, column: 'worker', message: 'Worker is required' });
        const labor = check(laborInputSchema, body, row, LABOR_COLUMNS, run.problems);
        return labor && workOrderId !== undefined ? { input: { workOrderId, labor } satisfies LaborRow } : undefined;
      });
    },
    write: (tx, run, ready) =>
      eachRow<LaborRow>(tx, run, ready, LABOR_COLUMNS, (one, input) => addLabor(one, run.orgId, run.actor, input.workOrderId, input.labor)),
    // A time entry has no edit of its own: the old one goes and the file's is logged, by the labour rules.
    async update(tx, run, c, input) {
      const { workOrderId, labor } = input as LaborRow;
      await deleteLabor(tx, run.orgId, run.actor, workOrderId, c.id);
      return addLabor(tx, run.orgId, run.actor, workOrderId, labor);
    },
    columnOf: LABOR_COLUMNS,
  },

  'work-order-parts': {
    // A part is on an order once (DESIGN 11): the order and the part name the line.
    async match(tx, run, rows) {
      const orders = [...(await ordersNamed(tx, run.orgId, rows))];
      const partIds = await partsNamed(tx, run.orgId, columnCells(rows, 'part'));
      const lines = new Map<string, Current>();
      const onOrder = new Map<number, number[]>();
      const p = workOrderParts;
      const found = await inSlices(orders, (slice) =>
        tx
          .select({ id: p.id, workOrderId: p.workOrderId, partId: p.partId, quantity: p.quantity, sku: parts.skuCode, name: parts.name })
          .from(p)
          .innerJoin(parts, and(eq(parts.orgId, p.orgId), eq(parts.id, p.partId)))
          .where(and(eq(p.orgId, run.orgId), inArray(p.workOrderId, slice))),
      );
      for (const f of found) {
        const part = f.sku || f.name;
        lines.set(`${f.workOrderId}|${f.partId}`, {
          id: f.id,
          cells: cellsOf({ workOrder: workOrderDisplayId(f.workOrderId), part, quantity: f.quantity }),
          links: new Map([[`part:${lower(part)}`, f.partId!]]),
        });
        onOrder.set(f.workOrderId, [...(onOrder.get(f.workOrderId) ?? []), f.partId!]);
      }
      const keyOf = (r: Row) => {
        const order = r.cells.workOrder ? displayIdOf(r.cells.workOrder) : undefined;
        if (order === undefined || !r.cells.part) return undefined;
        const ids = partIds(r.cells.part);
        // A name several parts share still names the one the order has.
        const id = ids.length === 1 ? ids[0] : ids.filter((i) => onOrder.get(order)?.includes(i)).at(0);
        return id === undefined ? undefined : `${order}|${id}`;
      };
      matchLines(run, rows, keyOf, lines, 'part');
    },
    async prepare(tx, run, rows) {
      const orders = await ordersNamed(tx, run.orgId, rows);
      const partIds = await partsNamed(tx, run.orgId, columnCells(rows, 'part'));
      return readyRows(rows, ({ row, cells, match }) => {
        const workOrderId = orderOf(run, orders, cells.workOrder, row);
        const ids = cells.part ? partIds(cells.part) : [];
        const linked = cells.part ? match?.links?.get(`part:${lower(cells.part)}`) : undefined;
        const partId = linked ?? (ids.length === 1 ? ids[0] : undefined);
        if (cells.part && partId === undefined)
          run.problems.push({ row, column: 'part', message: ids.length ? IMPORT_MESSAGES.partAmbiguous : IMPORT_MESSAGES.partUnknown });
        if (!cells.part) run.problems.push({ row, column: 'part', message: 'Part is required' });
        const input = check(addPartsSchema, { parts: [{ partId: partId ?? 1, quantity: cells.quantity ?? 1 }] }, row, PART_LINE_COLUMNS, run.problems);
        const line = input?.parts[0];
        if (!line || typeof line !== 'object' || workOrderId === undefined || partId === undefined) return undefined;
        return { input: { workOrderId, partId, quantity: line.quantity } satisfies PartRow };
      });
    },
    write: (tx, run, ready) =>
      eachRow<PartRow>(tx, run, ready, PART_LINE_COLUMNS, (one, { workOrderId, partId, quantity }) =>
        addParts(one, run.orgId, run.actor, workOrderId, { parts: [{ partId, quantity }] }),
      ),
    // The line takes the file's quantity: the parts' own remove and add (adding again adds up).
    async update(tx, run, _c, input) {
      const { workOrderId, partId, quantity } = input as PartRow;
      await deletePart(tx, run.orgId, run.actor, workOrderId, partId);
      return addParts(tx, run.orgId, run.actor, workOrderId, { parts: [{ partId, quantity }] });
    },
    columnOf: PART_LINE_COLUMNS,
  },
};
