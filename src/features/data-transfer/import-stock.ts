import type { ReadTx, Tx } from '../../server/db/client';
import { stockLocations } from '../../server/db/schema';
import { addLocation, countStock, getLocation, listLevels, listLocationOptions, updateLevelSettings, updateLocation } from '../stock/stock.service';
import { makeDefaultLocation } from '../stock/default-location';
import {
  countInputSchema,
  levelSettingsInputSchema,
  locationInputSchema,
  locationListQuerySchema,
  type CountInput,
  type LevelSettingsInput,
  type LocationInput,
} from '../stock/stock.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import { type Current, type Importer, type Row, type Run, cellsOf, check, columnCells, eachRow, lower, readEach, readyRows, yesNo } from './import-rows';
import { partsNamed } from './import-work-orders';
import { placeOf, placesOf } from './import-locations';

// Stock imports (issue 41), written through the stock service only. Storerooms: a row is the organisation's
// storeroom of its name. Stock levels: a row is a part at a storeroom; its quantity is a count (the difference
// posted as a move, never an overwritten number), with the reorder point, reorder quantity and bin.

const STOREROOM_COLUMNS = { name: 'name', kind: 'kind', locationId: 'location' };
const LEVEL_COLUMNS = {
  partId: 'part',
  locationId: 'storeroom',
  countedQuantity: 'quantity',
  reorderPoint: 'reorderPoint',
  reorderQuantity: 'reorderQuantity',
};

interface StoreroomRow {
  input: LocationInput;
  isDefault: boolean;
}

interface LevelRow {
  settings: LevelSettingsInput;
  count?: CountInput;
}

/** Writes a storeroom's name and kind (new or the one it names), then makes it the default when the row says so. */
async function writeStoreroom(tx: Tx, run: Run, value: StoreroomRow, id?: number) {
  const saved = id
    ? await updateLocation(tx, run.orgId, id, value.input)
    : await addLocation(tx, run.orgId, value.input, locationListQuerySchema.parse({ pageSize: 10 }));
  if (value.isDefault) await makeDefaultLocation(tx, run.orgId, saved.location.id);
  return saved.location.id;
}

/** Counts (when the row has a quantity) and sets the level's reorder values and bin (when it has any). */
async function writeLevel(tx: Tx, run: Run, value: LevelRow) {
  if (value.count) await countStock(tx, run.orgId, run.actor.userId, value.count);
  const { reorderPoint, reorderQuantity, bin } = value.settings;
  if (reorderPoint !== undefined || reorderQuantity !== undefined || bin !== undefined) await updateLevelSettings(tx, run.orgId, value.settings);
}

/** The organisation's storerooms by lower-case name (names are unique in an organisation). */
async function storeroomsByName(tx: ReadTx, orgId: number) {
  return new Map((await listLocationOptions(tx, orgId)).map((o) => [lower(o.label), o.value]));
}

/** Every level of the organisation as the cells its export writes, by `partId:locationId`. */
async function levelsOf(tx: ReadTx, orgId: number) {
  const found = new Map<string, Current>();
  for (let page = 1; ; page++) {
    const { stockLevels } = await listLevels(tx, orgId, { page, pageSize: 100 });
    for (const l of stockLevels) {
      const cells = cellsOf({ storeroom: l.location.name, quantity: l.quantity, reorderPoint: l.reorderPoint, reorderQuantity: l.reorderQuantity, bin: l.bin });
      found.set(`${l.partId}:${l.locationId}`, { id: l.partId, cells, links: new Map([['level', l.locationId]]) });
    }
    if (stockLevels.length < 100) return found;
  }
}

/** A row's part (SKU or name) and storeroom (name) as ids, or the row's problems. */
async function namesOf(tx: ReadTx, run: Run, rows: Row[]) {
  const parts = await partsNamed(tx, run.orgId, columnCells(rows, 'part'));
  const rooms = await storeroomsByName(tx, run.orgId);
  return {
    part(cell: string | undefined, row: number, report: boolean) {
      if (!cell) return undefined;
      const ids = parts(cell);
      if (ids.length === 1) return ids[0];
      if (report) run.problems.push({ row, column: 'part', message: ids.length ? IMPORT_MESSAGES.partAmbiguous : IMPORT_MESSAGES.partUnknown });
      return undefined;
    },
    storeroom(cell: string | undefined, row: number, report: boolean) {
      if (!cell) return undefined;
      const id = rooms.get(lower(cell));
      if (id === undefined && report) run.problems.push({ row, column: 'storeroom', message: IMPORT_MESSAGES.storeroomUnknown });
      return id;
    },
  };
}

export const STOCK_IMPORTERS: Pick<Record<ImportKind, Importer>, 'storerooms' | 'stock-levels'> = {
  storerooms: {
    key: { table: stockLocations, orgId: stockLocations.orgId, id: stockLocations.id, column: stockLocations.name },
    current: async (tx, run, ids) =>
      readEach(
        ids,
        (id) => getLocation(tx, run.orgId, id),
        (l) => ({ id: l.id, cells: cellsOf({ name: l.name, kind: l.kind, isDefault: l.isDefault, location: l.location?.path }) }),
      ),
    async prepare(tx, run, rows) {
      const places = await placesOf(tx, run.orgId);
      return readyRows(rows, ({ row, cells, match, blank }) => {
        const isDefault = yesNo(run, cells.isDefault, row, 'isDefault');
        // The default moves by a yes on another storeroom: a no on today's default would leave none.
        if (isDefault === false && match?.cells.isDefault === 'yes') run.problems.push({ row, column: 'isDefault', message: IMPORT_MESSAGES.defaultKept });
        // A Location cell left empty clears the storeroom's place (an update); no column keeps it.
        const locationId = cells.location ? placeOf(run, places, cells.location, row) : blank.has('location') && match?.cells.location ? null : undefined;
        const body = { name: cells.name, kind: cells.kind, ...(locationId !== undefined ? { locationId } : {}) };
        const input = check<LocationInput>(locationInputSchema, body, row, STOREROOM_COLUMNS, run.problems);
        const placeFound = !cells.location || locationId !== undefined;
        return input && isDefault !== undefined && placeFound ? { input: { input, isDefault } satisfies StoreroomRow } : undefined;
      });
    },
    write: (tx, run, ready) => eachRow<StoreroomRow>(tx, run, ready, STOREROOM_COLUMNS, (one, value) => writeStoreroom(one, run, value)),
    update: (tx, run, current, value) => writeStoreroom(tx, run, value as StoreroomRow, current.id),
    columnOf: STOREROOM_COLUMNS,
  },

  'stock-levels': {
    // A row is the level of its part at its storeroom; a missing column keeps the level's value, an empty bin clears it.
    async match(tx, run, rows) {
      const names = await namesOf(tx, run, rows);
      const levels = await levelsOf(tx, run.orgId);
      const claimed = new Map<string, number>();
      for (const r of rows) {
        const partId = names.part(r.cells.part, r.row, false);
        const locationId = names.storeroom(r.cells.storeroom, r.row, false);
        const key = `${partId}:${locationId}`;
        const level = levels.get(key);
        if (!level) continue;
        if (claimed.has(key)) {
          run.problems.push({ row: r.row, column: 'part', message: IMPORT_MESSAGES.duplicateInFile(claimed.get(key)!) });
          continue;
        }
        claimed.set(key, r.row);
        const cells = { ...level.cells, ...r.cells };
        for (const column of r.blank) delete cells[column];
        r.cells = cells;
        r.match = { ...level, cells: { ...level.cells, part: r.cells.part } };
      }
    },
    async prepare(tx, run, rows) {
      const names = await namesOf(tx, run, rows);
      return readyRows(rows, ({ row, cells, blank, match }) => {
        const ids = {
          partId: names.part(cells.part, row, true) ?? (cells.part ? 1 : undefined),
          locationId: names.storeroom(cells.storeroom, row, true) ?? (cells.storeroom ? 1 : undefined),
        };
        const bin = cells.bin ?? (blank.has('bin') && match ? '' : undefined);
        const settings = check<LevelSettingsInput>(
          levelSettingsInputSchema,
          { ...ids, reorderPoint: cells.reorderPoint, reorderQuantity: cells.reorderQuantity, bin },
          row,
          LEVEL_COLUMNS,
          run.problems,
        );
        const count =
          cells.quantity === undefined
            ? undefined
            : check<CountInput>(countInputSchema, { ...ids, countedQuantity: cells.quantity, note: 'Import' }, row, LEVEL_COLUMNS, run.problems);
        return settings && (count || cells.quantity === undefined) ? { input: { settings, count } satisfies LevelRow } : undefined;
      });
    },
    write: (tx, run, ready) => eachRow<LevelRow>(tx, run, ready, LEVEL_COLUMNS, (one, value) => writeLevel(one, run, value)),
    update: (tx, run, _current, value) => writeLevel(tx, run, value as LevelRow),
    columnOf: LEVEL_COLUMNS,
  },
};
