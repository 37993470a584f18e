import type { ZodType } from 'zod';
import { assetCategories, assets } from '../../server/db/schema';
import { importAssets, moveAsset } from '../assets/assets.service';
import { badRequest } from '../../server/http-error';
import { assetInputSchema, ASSET_MESSAGES, type AssetInput } from '../assets/assets.schema';
import { createAssetCategory } from '../master-data/asset-categories.service';
import { assetCategoryInputSchema } from '../master-data/master-data.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import {
  type Importer,
  type Row,
  type Run,
  lower,
  creatableName,
  check,
  lookup,
  partiesNamed,
  codeFor,
  reference,
  named,
  pendingOf,
  eachRow,
  columnCells,
  readyRows,
} from './import-rows';
import { placeOf, placesOf } from './import-locations';
import { assetOf, assetsNamed } from './import-work-orders';

// Assets import (decisions 042, 072): a category created on the way, a location by code or path, a parent that is
// an asset of the organisation or a row of the same file (linked after the rows are written, through `moveAsset`).

/** An asset row's category once it has an id (a category created on the way, decision 042). */
const withCategory = (run: Run, input: AssetInput, cat: string) => ({ ...input, assetCategoryId: run.refs.get(lower(cat))! });

/** The rows of an assets file by code and name (lower case) -> row, 'ambiguous' where names repeat: parents in the file. */
function fileAssets(rows: Row[]) {
  const found = new Map<string, number | 'ambiguous'>();
  for (const { row, cells } of rows)
    for (const key of [cells.assetCode, cells.name]) {
      if (!key) continue;
      const k = lower(key);
      found.set(k, found.has(k) && found.get(k) !== row ? 'ambiguous' : row);
    }
  return found;
}

/** Asset inputs whose parent is a row of the same file (-> that row), linked after the rows are written. */
const fileParents = new WeakMap<object, number>();
/** The ids the run's new asset rows got (row -> id). */
const newAssetsOf = new WeakMap<Run, Map<number, number>>();

/** An updated asset row's parent that is a new row of the same file: its id, written before the updates. */
export function withFileParent(run: Run, input: AssetInput): AssetInput {
  const row = fileParents.get(input);
  if (row === undefined) return input;
  const parentId = newAssetsOf.get(run)?.get(row);
  if (parentId === undefined) throw badRequest(IMPORT_MESSAGES.assetUnknown, 'parentId');
  return { ...input, parentId };
}

export const ASSET_IMPORTERS: Pick<Record<ImportKind, Importer>, 'assets'> = {
  assets: {
    key: { table: assets, orgId: assets.orgId, id: assets.id, column: assets.assetCode },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, assetCategories, run.orgId);
      const owners = await partiesNamed(tx, run.orgId, columnCells(rows, 'owner'));
      const places = await placesOf(tx, run.orgId);
      const inFile = fileAssets(rows);
      const parents = await assetsNamed(tx, run.orgId, columnCells(rows, 'parent'));
      return readyRows(rows, ({ row, cells, match, blank }) => {
        const { category: cat, owner, location, parent, ...rest } = cells;
        // A Location or Parent cell left empty clears what the record has (an update); no column keeps it.
        const customerVendorId = named(run, owners, owner, row, 'owner', ASSET_MESSAGES.customerVendorUnknown);
        const locationId = location ? placeOf(run, places, location, row) : blank.has('location') && match?.cells.location ? null : undefined;
        // A parent is an asset the organisation has, else a row of this file (linked once the rows are written).
        const known = parent ? parents.has(lower(parent)) || match?.links?.has(`asset:${lower(parent)}`) : false;
        const fileParent = parent && !known ? inFile.get(lower(parent)) : undefined;
        if (fileParent === 'ambiguous') run.problems.push({ row, column: 'parent', message: IMPORT_MESSAGES.assetAmbiguous });
        const parentId = !parent
          ? blank.has('parent') && match?.cells.parent
            ? null
            : undefined
          : fileParent
            ? undefined
            : assetOf(run, parents, match?.links, parent, row, 'parent');
        const body = {
          ...rest,
          assetCategoryId: reference(run, 'assets', cat, row, 'category', ASSET_MESSAGES.categoryUnknown),
          customerVendorId,
          ...(locationId !== undefined ? { locationId } : {}),
          ...(parentId !== undefined ? { parentId } : {}),
        };
        const input = check<AssetInput>(
          assetInputSchema as ZodType<AssetInput>,
          body,
          row,
          { assetCategoryId: 'category', customerVendorId: 'owner', locationId: 'location', parentId: 'parent' },
          run.problems,
        );
        if (!input) return undefined;
        if (typeof fileParent === 'number') fileParents.set(input, fileParent);
        return { input, pending: pendingOf(run, cat), finish: cat ? () => withCategory(run, input, cat) : undefined };
      });
    },
    createMissing: (tx, run, name) =>
      createAssetCategory(tx, run.orgId, run.actor.userId, assetCategoryInputSchema.parse({ name: creatableName(name), code: codeFor(name, run.refs) })),
    // Batched inserts, one history line each: a refusal here is the whole import's (a 4xx). Then the rows whose
    // parent is another row of the file move under it (cycles refused as the move route refuses them).
    async write(tx, run, ready) {
      const inputs = ready.map((r) => (r.finish ? r.finish() : r.input) as AssetInput);
      const ids = await importAssets(tx, run.orgId, run.actor.userId, inputs);
      const idOfRow = new Map(ready.map((r, i) => [r.row, ids[i]]));
      newAssetsOf.set(run, idOfRow);
      await eachRow<AssetInput>(
        tx,
        run,
        ready.filter((r) => fileParents.has(r.input as object)),
        { parentId: 'parent' },
        async (one, _input, r) => {
          const parentId = idOfRow.get(fileParents.get(r.input as object)!);
          if (parentId === undefined) throw badRequest(IMPORT_MESSAGES.assetUnknown, 'parentId');
          return moveAsset(one, run.orgId, run.actor.userId, idOfRow.get(r.row)!, parentId);
        },
      );
      return ids.length;
    },
  },
};
