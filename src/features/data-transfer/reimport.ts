import { isDeepStrictEqual } from 'node:util';
import type { Tx } from '../../server/db/client';
import { getAsset, updateAsset } from '../assets/assets.service';
import { withFileParent } from './import-assets';
import { locationPaths } from '../locations/locations.service';
import { type AssetInput } from '../assets/assets.schema';
import { getPart, updatePart } from '../parts/parts.service';
import { type PartInput } from '../parts/parts.schema';
import { getCustomerVendor, updateCustomerVendor } from '../customers-vendors/customers-vendors.service';
import { getAssetCategory, updateAssetCategory } from '../master-data/asset-categories.service';
import { getProductCategory, updateProductCategory } from '../master-data/product-categories.service';
import { getTax, updateTax } from '../master-data/taxes.service';
import { getTimeTrackingReason, updateTimeTrackingReason } from '../master-data/time-tracking-reasons.service';
import { getUom, getUomCategory, updateUom, updateUomCategory } from '../master-data/uoms.service';
import { getService, updateService } from '../service-catalog/service-catalog.service';
import { getWorkStation, updateWorkStation } from '../work-stations/work-stations.service';
import { getUser, updateUser } from '../users/users.service';
import { type Role } from '../users/users.schema';
import { IMPORT_COLUMNS, IMPORT_KEYS, IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import { type Importer, type Ready, type Row, type Run, lower, idsByKey, cellsOf, readEach, listCell } from './import-rows';
import { PART_COLUMNS } from './import-kinds';

// Re-import (decision 055): a row names its record by key or ID column; matched rows update it or are unchanged.

/**
 * Finds the record each row names, by its ID column or its key (decision 055): the row then updates it, and its
 * cells are the record's own overlaid by the file's (a column the file lacks keeps its value, an empty cell
 * clears it). Only this organisation's records are read, so another's id or key finds nothing of theirs.
 */
export async function matchRows(tx: Tx, run: Run, kind: ImportKind, importer: Importer, rows: Row[]) {
  const key = IMPORT_KEYS[kind];
  // A kind without a key column (work orders) is matched by its ID column alone.
  const keyColumn = key ?? IMPORT_COLUMNS[kind].find((c) => c.exportOnly === 'id')?.key;
  if (!keyColumn || (!importer.current && (!importer.key || !key))) return;
  const keyOf = (r: Row) => (key && r.cells[key] ? lower(r.cells[key]) : undefined);
  const byKey =
    importer.key && key
      ? await idsByKey(
          tx,
          run.orgId,
          importer.key,
          rows.flatMap((r) => keyOf(r) ?? []),
        )
      : new Map<string, number[]>();
  if (!importer.current) {
    for (const r of rows) if (byKey.has(keyOf(r) ?? '')) run.problems.push({ row: r.row, column: keyColumn, message: IMPORT_MESSAGES.duplicateExisting });
    return;
  }
  const wanted = new Set<number>();
  for (const r of rows) {
    if (r.id !== undefined) wanted.add(r.id);
    const ids = byKey.get(keyOf(r) ?? '');
    if (ids?.length === 1) wanted.add(ids[0]);
  }
  const current = new Map((await importer.current(tx, run, [...wanted])).map((c) => [c.id, c]));
  const taken = new Map<number, number>();
  for (const r of rows) {
    const ids = byKey.get(keyOf(r) ?? '') ?? [];
    const byId = r.id !== undefined && current.has(r.id) ? r.id : undefined;
    let id: number | undefined;
    if (byId !== undefined) {
      // the ID column names one record, the key another: changing the key would make it a duplicate
      if (ids.length && !ids.includes(byId)) {
        run.problems.push({ row: r.row, column: keyColumn, message: IMPORT_MESSAGES.keyOtherRecord });
        continue;
      }
      id = byId;
    } else if (ids.length > 1) {
      run.problems.push({ row: r.row, column: keyColumn, message: IMPORT_MESSAGES.keyAmbiguous });
      continue;
    } else id = ids[0];
    const match = id === undefined ? undefined : current.get(id);
    if (!match) continue;
    const first = taken.get(match.id);
    if (first !== undefined) {
      run.problems.push({ row: r.row, column: keyColumn, message: IMPORT_MESSAGES.duplicateInFile(first) });
      continue;
    }
    taken.set(match.id, r.row);
    const cells = { ...match.cells, ...r.cells };
    for (const column of r.blank) delete cells[column];
    r.cells = cells;
    r.match = match;
  }
}

/** A ready row's input with its names resolved; a name not resolvable yet leaves the row itself (never equal). */
function finished(r: Ready): unknown {
  try {
    return r.finish ? r.finish() : r.input;
  } catch {
    return r;
  }
}

/**
 * The matched rows that would write what their record already holds: the record's own cells go through the
 * same checks, and equal inputs mean nothing to write ("unchanged").
 */
export async function unchangedRows(tx: Tx, run: Run, importer: Importer, rows: Row[], ready: Ready[]) {
  const same = new Set<number>();
  const matched = rows.flatMap((r) => (r.match ? [{ row: r.row, cells: r.match.cells, blank: new Set<string>(), match: r.match }] : []));
  if (!matched.length) return same;
  const scratch: Run = { ...run, problems: [], refs: new Map(), missing: new Map() };
  const base = new Map((await importer.prepare(tx, scratch, matched)).map((b) => [b.row, b]));
  for (const r of ready) {
    const b = base.get(r.row);
    if (b && !r.pending && !b.pending && isDeepStrictEqual(finished(r), finished(b))) same.add(r.row);
  }
  return same;
}

/**
 * A kind re-imported through its feature's `get` and `update` services (`(tx, orgId, id)` and
 * `(tx, orgId, actorId, id, input)`): `cells` writes a record as its export does.
 */
function throughServices<R extends { id: number }, I>(
  get: (tx: Tx, orgId: number, id: number) => Promise<R>,
  update: (tx: Tx, orgId: number, actorId: number, id: number, input: I) => Promise<unknown>,
  cells: (record: R) => Record<string, unknown>,
  columnOf?: Importer['columnOf'],
): Pick<Importer, 'current' | 'update' | 'columnOf'> {
  return {
    current: (tx, run, ids) =>
      readEach(
        ids,
        (id) => get(tx, run.orgId, id),
        (r) => ({ id: r.id, cells: cellsOf(cells(r)) }),
      ),
    update: (tx, run, c, input) => update(tx, run.orgId, run.actor.userId, c.id, input as I),
    ...(columnOf ? { columnOf } : {}),
  };
}

/**
 * Re-import (decision 055): how each kind reads the records its rows name (as the cells its export writes, every
 * import column) and updates one through the feature's update service. Assets and parts claim the version read.
 */
export const REIMPORT: Partial<Record<ImportKind, Pick<Importer, 'current' | 'update' | 'columnOf'>>> = {
  assets: {
    current: async (tx, run, ids) => {
      const paths = new Map((await locationPaths(tx, run.orgId)).map((l) => [l.id, l.path]));
      return readEach(
        ids,
        (id) => getAsset(tx, run.orgId, id),
        (a) => ({
          id: a.id,
          version: a.version,
          cells: cellsOf({
            name: a.name,
            assetCode: a.assetCode,
            category: a.AssetCategory?.name,
            date: a.date,
            status: a.status,
            serial: a.serial,
            assetBarcode: a.assetBarcode,
            owner: a.CustomerVendor?.name,
            description: a.description,
            location: a.locationId ? paths.get(a.locationId) : undefined,
            parent: a.Parent?.assetId,
          }),
        }),
      );
    },
    update: (tx, run, c, input) => updateAsset(tx, run.orgId, run.actor.userId, c.id, { ...withFileParent(run, input as AssetInput), version: c.version }),
    columnOf: { assetCategoryId: 'category', customerVendorId: 'owner', locationId: 'location', parentId: 'parent' },
  },
  parts: {
    current: (tx, run, ids) =>
      readEach(
        ids,
        (id) => getPart(tx, run.orgId, id),
        (p) => ({
          id: p.id,
          version: p.version,
          cells: cellsOf({
            name: p.name,
            skuCode: p.skuCode,
            type: p.type,
            category: p.category?.name,
            salesPrice: p.salesPrice,
            unitOfMeasure: p.unitOfMeasure?.name,
            purchaseUnitOfMeasure: p.purchaseUnitOfMeasure?.name,
            // a consumable's export leaves its stock empty
            quantityOnHand: p.type === 'stockable' ? p.quantityOnHand : undefined,
            minimumQuantity: p.type === 'stockable' ? p.minimumQuantity : undefined,
          }),
        }),
      ),
    // A changed quantity on hand is booked as a stock count by the part's own update.
    update: (tx, run, c, input) => updatePart(tx, run.orgId, run.actor.userId, c.id, { ...(input as PartInput), version: c.version }),
    columnOf: PART_COLUMNS,
  },
  // The documents are left out of the input: the update keeps them.
  'customer-vendors': throughServices(
    getCustomerVendor,
    updateCustomerVendor,
    (cv) => ({
      name: cv.name,
      email: cv.email,
      type: cv.type,
      category: cv.category,
      parent: cv.Parent?.name,
      phone: cv.phone,
      mobile: cv.mobile,
      street: cv.street,
      street2: cv.street2,
      city: cv.city,
      state: cv.state,
      zipCode: cv.zipCode,
      country: cv.country,
      tinVat: cv.tinVat,
      website: cv.website,
    }),
    { parentId: 'parent' },
  ),
  users: {
    current: (tx, run, ids) =>
      readEach(
        ids,
        (id) => getUser(tx, run.orgId, id),
        (u) => ({ id: u.id, cells: cellsOf({ email: u.email, role: u.role }) }),
      ),
    // Only the role comes from the file; the user's rules apply (an admin role by an admin, never one's own).
    update: async (tx, run, c, input) => {
      const user = await getUser(tx, run.orgId, c.id);
      return updateUser(tx, run.orgId, run.actor, c.id, { firstName: user.firstName, email: user.email, role: (input as { role: Role }).role });
    },
    columnOf: { role: 'role' },
  },
  'asset-categories': throughServices(getAssetCategory, updateAssetCategory, (r) => ({ code: r.code, name: r.name })),
  'product-categories': throughServices(getProductCategory, updateProductCategory, (r) => ({ name: r.name, parent: r.parent?.name }), { parentId: 'parent' }),
  taxes: throughServices(getTax, updateTax, (t) => ({
    name: t.name,
    scope: t.scope,
    taxComputation: t.taxComputation,
    amount: t.amount,
    isPriceIncluded: t.isPriceIncluded,
    sequence: t.sequence,
    includeBaseAmount: t.includeBaseAmount,
    children: listCell(t.Children.map((ch) => ch.name)),
  })),
  'uom-categories': throughServices(getUomCategory, updateUomCategory, (r) => ({ name: r.name })),
  uoms: throughServices(getUom, updateUom, (u) => ({ name: u.name, category: u.category?.name, type: u.type, ratio: u.ratio }), { categoryId: 'category' }),
  'time-tracking-reasons': throughServices(
    getTimeTrackingReason,
    updateTimeTrackingReason,
    (r) => ({ name: r.name, type: r.type, isBlockingReason: r.isBlockingReason }),
    { is_blocking_reason: 'isBlockingReason' },
  ),
  'work-stations': throughServices(getWorkStation, updateWorkStation, (w) => ({ code: w.code, name: w.name, city: w.city, team: w.Team?.name }), {
    teamId: 'team',
  }),
  services: throughServices(getService, updateService, (sv) => {
    const stations = [...sv.WorkStations].sort((a, b) => a.order - b.order);
    return {
      title: sv.title,
      price: sv.price,
      operations: sv.operations,
      workStations: listCell(stations.map((w) => w.code)),
      operation: listCell(stations.map((w) => w.operation)),
      timeRequired: listCell(stations.map((w) => w.timeRequired)),
    };
  }),
};
