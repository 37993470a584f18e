import type { ReadTx, Tx } from '../../server/db/client';
import { badRequest } from '../../server/http-error';
import { createLocation, locationPaths, updateLocation } from '../locations/locations.service';
import { locationInputSchema, type LocationInput } from '../locations/locations.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import { type Current, type Importer, type Run, cellsOf, check, eachRow, lower, readyRows } from './import-rows';

// Locations import (issue 42): one row per location, parents before their children as the export writes them. A
// row names its parent by code, path ("Plant / Hall A") or name; a row is the organisation's location of that code,
// else of that path. A parent may be a row above in the same file: it is resolved when the row is written.

const COLUMNS = { parentId: 'parent', name: 'name', code: 'code' };

/** "plant /hall a" -> "plant / hall a": the key a path is found by. */
const pathKey = (cell: string) =>
  cell
    .split('/')
    .map((s) => lower(s))
    .filter(Boolean)
    .join(' / ');

/** The organisation's locations by code, path and name (names repeat), kept up to date as rows are written. */
export class Places {
  byCode = new Map<string, number>();
  byPath = new Map<string, number>();
  byName = new Map<string, number[]>();
  pathOf = new Map<number, string>();

  add(p: { id: number; name: string; code: string | null; path: string }) {
    if (p.code) this.byCode.set(lower(p.code), p.id);
    this.byPath.set(pathKey(p.path), p.id);
    this.byName.set(lower(p.name), [...(this.byName.get(lower(p.name)) ?? []).filter((id) => id !== p.id), p.id]);
    this.pathOf.set(p.id, p.path);
  }

  /** The location a cell names: its code, its path, or a name one location has; null when none, 'ambiguous' when several. */
  find(cell: string): number | null | 'ambiguous' {
    const key = lower(cell);
    const hit = this.byCode.get(key) ?? this.byPath.get(pathKey(cell));
    if (hit !== undefined) return hit;
    const named = this.byName.get(key) ?? [];
    return named.length === 1 ? named[0] : named.length ? 'ambiguous' : null;
  }
}

export async function placesOf(tx: ReadTx, orgId: number) {
  const places = new Places();
  for (const p of await locationPaths(tx, orgId)) places.add(p);
  return places;
}

/** The location a cell names (code, path or name), or the row's problem. */
export function placeOf(run: Run, places: Places, cell: string, row: number) {
  const id = places.find(cell);
  if (typeof id === 'number') return id;
  run.problems.push({ row, column: 'location', message: id === 'ambiguous' ? IMPORT_MESSAGES.locationAmbiguous : IMPORT_MESSAGES.locationUnknown });
  return undefined;
}

/** What a row writes: the checked name and code, and its parent (an id, the top level, or a file row's cell). */
interface LocationRow {
  input: LocationInput;
  parentCell?: string;
}

/** The places each run writes against (a row above may be the parent of the next). */
const written = new WeakMap<Run, Places>();

async function parentOf(tx: Tx, run: Run, row: LocationRow): Promise<number | null | undefined> {
  if (row.parentCell === undefined) return row.input.parentId;
  const places = written.get(run) ?? (await placesOf(tx, run.orgId));
  written.set(run, places);
  const id = places.find(row.parentCell);
  if (id === 'ambiguous') throw badRequest(IMPORT_MESSAGES.locationAmbiguous, 'parentId');
  if (id === null) throw badRequest(IMPORT_MESSAGES.locationUnknown, 'parentId');
  return id;
}

async function remember(tx: Tx, run: Run, id: number, input: LocationInput) {
  const places = written.get(run) ?? (await placesOf(tx, run.orgId));
  const parentPath = input.parentId ? places.pathOf.get(input.parentId) : undefined;
  places.add({ id, name: input.name, code: input.code ?? null, path: parentPath ? `${parentPath} / ${input.name}` : input.name });
  written.set(run, places);
}

export const LOCATION_IMPORTERS: Pick<Record<ImportKind, Importer>, 'locations'> = {
  locations: {
    // A row is the organisation's location with its code, else the one at its path (its parent's path / its name).
    async match(tx, run, rows) {
      const places = await placesOf(tx, run.orgId);
      const byId = new Map<number, Current>();
      const all = await locationPaths(tx, run.orgId);
      for (const p of all) {
        const parentPath = p.path.includes(' / ') ? p.path.slice(0, p.path.lastIndexOf(' / ')) : '';
        byId.set(p.id, { id: p.id, cells: cellsOf({ name: p.name, code: p.code, parent: parentPath, path: p.path }) });
      }
      const claimed = new Map<number, number>();
      for (const r of rows) {
        const { name, code, parent } = r.cells;
        let id: number | undefined = code ? places.byCode.get(lower(code)) : undefined;
        if (id === undefined && name) {
          const parentId = parent ? places.find(parent) : null;
          if (parentId !== 'ambiguous' && (parentId !== null || !parent)) {
            const parentPath = parentId === null ? '' : places.pathOf.get(parentId);
            id = places.byPath.get(pathKey(parentPath ? `${parentPath} / ${name}` : name));
          }
        }
        if (id === undefined) continue;
        if (claimed.has(id)) {
          run.problems.push({ row: r.row, column: code ? 'code' : 'name', message: IMPORT_MESSAGES.duplicateInFile(claimed.get(id)!) });
          continue;
        }
        claimed.set(id, r.row);
        r.match = byId.get(id);
      }
    },
    async prepare(tx, run, rows) {
      const places = await placesOf(tx, run.orgId);
      return readyRows(rows, ({ row, cells }) => {
        const input = check<LocationInput>(locationInputSchema, { name: cells.name, code: cells.code }, row, COLUMNS, run.problems);
        if (!input) return undefined;
        // A parent the organisation has is an id now (so an unchanged row compares equal); another is a row above.
        const found = cells.parent ? places.find(cells.parent) : null;
        if (found === 'ambiguous') {
          run.problems.push({ row, column: 'parent', message: IMPORT_MESSAGES.locationAmbiguous });
          return undefined;
        }
        const value: LocationRow =
          found !== null || !cells.parent ? { input: { ...input, parentId: found } } : { input: { ...input, parentId: undefined }, parentCell: cells.parent };
        return { input: value };
      });
    },
    write: (tx, run, ready) =>
      eachRow<LocationRow>(tx, run, ready, COLUMNS, async (one, value) => {
        const input = { ...value.input, parentId: await parentOf(one, run, value) };
        const id = await createLocation(one, run.orgId, run.actor.userId, input);
        await remember(one, run, id, input);
        return id;
      }),
    update: async (tx, run, current, value) => {
      const row = value as LocationRow;
      const input = { ...row.input, parentId: await parentOf(tx, run, row) };
      const answer = await updateLocation(tx, run.orgId, run.actor.userId, current.id, input);
      await remember(tx, run, current.id, { ...input, parentId: answer.location.parentId });
      return answer;
    },
    columnOf: COLUMNS,
  },
};
