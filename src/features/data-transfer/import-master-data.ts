import { assetCategories, productCategories, taxes, timeTrackingReasons, uomCategories, uoms } from '../../server/db/schema';
import { createAssetCategory } from '../master-data/asset-categories.service';
import { createProductCategory } from '../master-data/product-categories.service';
import { createTax } from '../master-data/taxes.service';
import { createTimeTrackingReason } from '../master-data/time-tracking-reasons.service';
import { createUom, createUomCategory } from '../master-data/uoms.service';
import {
  assetCategoryInputSchema,
  productCategoryInputSchema,
  taxInputSchema,
  timeTrackingReasonInputSchema,
  uomCategoryInputSchema,
  uomInputSchema,
} from '../master-data/master-data.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import {
  type Importer,
  type Ready,
  type Run,
  lower,
  creatableName,
  listOf,
  check,
  lookup,
  reference,
  pendingOf,
  idAtWrite,
  enumCell,
  simpleRows,
  writeEach,
  columnCells,
  readyRows,
} from './import-rows';

// Master data imports (decision 042): categories, taxes, units and time tracking reasons, each through its service.

/** Learns each written record's name (a later row may name it: a parent category, a child tax). */
const remember = (run: Run) => (r: Ready, id: unknown) => run.refs.set(lower((r.input as { name: string }).name), id as number);

type MasterDataKind = 'asset-categories' | 'product-categories' | 'taxes' | 'uom-categories' | 'uoms' | 'time-tracking-reasons';

export const MASTER_DATA_IMPORTERS: Pick<Record<ImportKind, Importer>, MasterDataKind> = {
  'asset-categories': {
    key: { table: assetCategories, orgId: assetCategories.orgId, id: assetCategories.id, column: assetCategories.code },
    prepare: simpleRows(assetCategoryInputSchema, (cells) => ({ name: cells.name, code: cells.code })),
    write: writeEach(createAssetCategory),
  },

  'product-categories': {
    key: { table: productCategories, orgId: productCategories.orgId, id: productCategories.id, column: productCategories.name },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, productCategories, run.orgId);
      // A parent may be a row of the file: written in file order, an earlier row is there when its child is.
      const inFile = new Set(columnCells(rows, 'name').map(lower));
      return readyRows(rows, ({ row, cells }) => {
        const parent = cells.parent;
        const parentId = parent && inFile.has(lower(parent)) ? 1 : reference(run, 'product-categories', parent, row, 'parent', IMPORT_MESSAGES.parentUnknown);
        const input = check(productCategoryInputSchema, { name: cells.name, parentId }, row, { parentId: 'parent' }, run.problems);
        if (!input) return undefined;
        return {
          input,
          pending: parent && !inFile.has(lower(parent)) ? pendingOf(run, parent) : undefined,
          finish: parent ? () => ({ ...input, parentId: idAtWrite(run, parent, 'parentId', IMPORT_MESSAGES.parentUnknown) }) : undefined,
        };
      });
    },
    createMissing: (tx, run, name) => createProductCategory(tx, run.orgId, run.actor.userId, productCategoryInputSchema.parse({ name: creatableName(name) })),
    write: (tx, run, ready) => writeEach(createProductCategory, { parentId: 'parent' }, remember(run))(tx, run, ready),
  },

  taxes: {
    key: { table: taxes, orgId: taxes.orgId, id: taxes.id, column: taxes.name },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, taxes, run.orgId);
      // A group's children may be rows of the file written before it.
      const inFile = new Set(columnCells(rows, 'name').map(lower));
      return readyRows(rows, ({ row, cells }) => {
        const children = listOf(cells.children);
        if (children.some((name) => !run.refs.has(lower(name)) && !inFile.has(lower(name))))
          run.problems.push({ row, column: 'children', message: IMPORT_MESSAGES.childUnknown });
        const body = {
          ...cells,
          scope: enumCell(cells.scope),
          taxComputation: enumCell(cells.taxComputation),
          // stand-ins until written: the schema counts them
          children: children.length ? children.map((_, i) => i + 1) : undefined,
        };
        const input = check(taxInputSchema, body, row, {}, run.problems);
        if (!input) return undefined;
        return {
          input,
          finish: () => ({
            ...input,
            children: input.children.length ? [...new Set(children.map((name) => idAtWrite(run, name, 'children', IMPORT_MESSAGES.childUnknown)))] : [],
          }),
        };
      });
    },
    write: (tx, run, ready) => writeEach(createTax, {}, remember(run))(tx, run, ready),
  },

  'uom-categories': {
    key: { table: uomCategories, orgId: uomCategories.orgId, id: uomCategories.id, column: uomCategories.name },
    prepare: simpleRows(uomCategoryInputSchema, (cells) => ({ name: cells.name })),
    write: writeEach(createUomCategory),
  },

  uoms: {
    key: { table: uoms, orgId: uoms.orgId, id: uoms.id, column: uoms.name },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, uomCategories, run.orgId);
      return readyRows(rows, ({ row, cells }) => {
        const { category, ...rest } = cells;
        const body = { ...rest, type: enumCell(rest.type), categoryId: reference(run, 'uoms', category, row, 'category', IMPORT_MESSAGES.uomCategoryUnknown) };
        const input = check(uomInputSchema, body, row, { categoryId: 'category' }, run.problems);
        if (!input) return undefined;
        return { input, pending: pendingOf(run, category), finish: category ? () => ({ ...input, categoryId: run.refs.get(lower(category))! }) : undefined };
      });
    },
    createMissing: (tx, run, name) => createUomCategory(tx, run.orgId, run.actor.userId, uomCategoryInputSchema.parse({ name: creatableName(name) })),
    write: writeEach(createUom, { categoryId: 'category' }),
  },

  'time-tracking-reasons': {
    key: { table: timeTrackingReasons, orgId: timeTrackingReasons.orgId, id: timeTrackingReasons.id, column: timeTrackingReasons.name },
    prepare: simpleRows(
      timeTrackingReasonInputSchema,
      (cells) => ({ name: cells.name, type: enumCell(cells.type), isBlockingReason: cells.isBlockingReason }),
      { is_blocking_reason: 'isBlockingReason' },
    ),
    write: writeEach(createTimeTrackingReason),
  },
};
