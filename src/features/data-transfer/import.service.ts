import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { looksLikeFormula } from '../../shared/csv';
import type { ZodType } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { assetCategories, customerVendors, importMappings, parts, productCategories, uoms } from '../../server/db/schema';
import { HttpError } from '../../server/http-error';
import { existingAssetCodes, importAssets } from '../assets/assets.service';
import { assetInputSchema, ASSET_MESSAGES, type AssetInput } from '../assets/assets.schema';
import { createPart } from '../parts/parts.service';
import { partInputSchema, PART_MESSAGES, type PartInput } from '../parts/parts.schema';
import { createCustomerVendor } from '../customers-vendors/customers-vendors.service';
import { customerVendorInputSchema, type CustomerVendorValues } from '../customers-vendors/customers-vendors.schema';
import { createAssetCategory } from '../master-data/asset-categories.service';
import { createProductCategory } from '../master-data/product-categories.service';
import { assetCategoryInputSchema, productCategoryInputSchema } from '../master-data/master-data.schema';
import {
  IMPORT_COLUMNS,
  IMPORT_KEYS,
  IMPORT_MESSAGES,
  type ImportKind,
  type ImportProblem,
  type ImportRequest,
  type ImportResult,
} from './data-transfer.schema';

type Cells = Record<string, string>;

/** A row that passed its schema, waiting to be written. */
interface Ready<T> {
  row: number;
  input: T;
  /** Category names to put in once the missing ones are created. */
  pending?: string;
}

/** Thrown inside the write's savepoint to undo it (dry run, or an all-or-nothing import with problems). */
class Undo extends Error {}

const lower = (s: string) => s.trim().toLowerCase();

/** Reads the rows' cells, flags formulas, unknown columns and duplicate keys. */
function readCells(kind: ImportKind, request: ImportRequest, problems: ImportProblem[]) {
  const known = new Set(IMPORT_COLUMNS[kind].map((c) => c.key));
  const keyColumn = IMPORT_KEYS[kind];
  const seen = new Map<string, number>();
  return request.rows.map((raw, i) => {
    const row = request.firstRow + i;
    const cells: Cells = {};
    for (const [column, value] of Object.entries(raw)) {
      if (!known.has(column)) {
        problems.push({ row, column, message: IMPORT_MESSAGES.unknownColumn });
        continue;
      }
      const v = (value ?? '').trim();
      if (looksLikeFormula(v)) problems.push({ row, column, message: IMPORT_MESSAGES.formula });
      if (v !== '') cells[column] = v;
    }
    const key = cells[keyColumn] && lower(cells[keyColumn]);
    if (key) {
      const first = seen.get(key);
      if (first !== undefined) problems.push({ row, column: keyColumn, message: IMPORT_MESSAGES.duplicateInFile(first) });
      else seen.set(key, row);
    }
    return { row, cells };
  });
}

/** Runs the feature's schema; its issues become problems on the file's columns. */
function check<T>(schema: ZodType<T>, body: Record<string, unknown>, row: number, columnOf: Record<string, string>, problems: ImportProblem[]): T | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    problems.push({ row, column: field ? (columnOf[field] ?? field) : null, message: issue.message });
  }
  return undefined;
}

/** Problems of a row already flagged: the row is not written. */
const rowsWith = (problems: ImportProblem[]) => new Set(problems.map((p) => p.row));

/** Names (lower case) -> id of a small master-data table, by name and, for asset categories, by code. */
async function lookup(tx: ReadTx, table: typeof assetCategories | typeof productCategories | typeof uoms, orgId: number) {
  const map = new Map<string, number>();
  const rows = await tx.select().from(table).where(eq(table.orgId, orgId));
  for (const r of rows as { id: number; name: string; code?: string }[]) {
    if (r.code) map.set(lower(r.code), r.id);
    if (!map.has(lower(r.name))) map.set(lower(r.name), r.id);
  }
  return map;
}

/** Customers and vendors named by the rows (name or e-mail), lower case -> id. */
async function partiesNamed(tx: ReadTx, orgId: number, names: string[]) {
  const map = new Map<string, number>();
  const wanted = [...new Set(names.map(lower))];
  for (let i = 0; i < wanted.length; i += 1000) {
    const slice = wanted.slice(i, i + 1000);
    const rows = await tx
      .select({ id: customerVendors.id, name: customerVendors.name, email: customerVendors.email })
      .from(customerVendors)
      .where(and(eq(customerVendors.orgId, orgId), or(inArray(sql`lower(${customerVendors.name})`, slice), inArray(sql`lower(${customerVendors.email})`, slice))));
    for (const r of rows) {
      map.set(lower(r.email), r.id);
      if (!map.has(lower(r.name))) map.set(lower(r.name), r.id);
    }
  }
  return map;
}

/** Values of `column` in the file that the organisation already has (duplicate keys). */
async function existingKeys(tx: ReadTx, orgId: number, kind: ImportKind, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  if (kind === 'assets') return existingAssetCodes(tx, orgId, keys);
  const out = new Set<string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const slice = keys.slice(i, i + 1000).map(lower);
    const rows =
      kind === 'parts'
        ? await tx.select({ v: parts.skuCode }).from(parts).where(and(eq(parts.orgId, orgId), inArray(sql`lower(${parts.skuCode})`, slice)))
        : await tx.select({ v: customerVendors.email }).from(customerVendors).where(and(eq(customerVendors.orgId, orgId), inArray(sql`lower(${customerVendors.email})`, slice)));
    for (const r of rows) out.add(lower(r.v ?? ''));
  }
  return out;
}

/** A short code for a category created from its name: its letters and digits, upper case, unique. */
function codeFor(name: string, taken: Map<string, number>) {
  const base = (name.toUpperCase().replace(/[^A-Z0-9]/g, '') || 'CAT').padEnd(3, 'X').slice(0, 16);
  let code = base;
  for (let n = 2; taken.has(lower(code)); n++) code = `${base}${n}`;
  return code;
}

/**
 * Checks every row of an import with the feature's own schema, resolves names to ids, and writes the valid
 * rows through the feature's service in one transaction (decision 042). `all` writes nothing when a row has a
 * problem; `valid` writes the others. A dry run does everything and then undoes it.
 */
export async function importRows(tx: Tx, orgId: number, userId: number, kind: ImportKind, request: ImportRequest): Promise<ImportResult> {
  const problems: ImportProblem[] = [];
  const rows = readCells(kind, request, problems);
  const keyColumn = IMPORT_KEYS[kind];
  const existing = await existingKeys(tx, orgId, kind, rows.flatMap((r) => (r.cells[keyColumn] ? [r.cells[keyColumn]] : [])));
  for (const r of rows) {
    if (r.cells[keyColumn] && existing.has(lower(r.cells[keyColumn]))) problems.push({ row: r.row, column: keyColumn, message: IMPORT_MESSAGES.duplicateExisting });
  }

  const missing = new Map<string, string>();
  let categories: Map<string, number> | undefined;
  const category = (name: string | undefined, row: number, message: string) => {
    if (!name) return undefined;
    const id = categories!.get(lower(name));
    if (id !== undefined) return id;
    if (!missing.has(lower(name))) missing.set(lower(name), name);
    if (!request.createMissing) problems.push({ row, column: 'category', message });
    return 1; // a stand-in until the category is created
  };

  let ready: Ready<unknown>[] = [];
  if (kind === 'assets') {
    categories = await lookup(tx, assetCategories, orgId);
    const owners = await partiesNamed(tx, orgId, rows.flatMap((r) => (r.cells.owner ? [r.cells.owner] : [])));
    for (const { row, cells } of rows) {
      const { category: cat, owner, ...rest } = cells;
      let customerVendorId: number | undefined;
      if (owner) {
        customerVendorId = owners.get(lower(owner));
        if (customerVendorId === undefined) problems.push({ row, column: 'owner', message: ASSET_MESSAGES.customerVendorUnknown });
      }
      const body = { ...rest, assetCategoryId: category(cat, row, ASSET_MESSAGES.categoryUnknown), customerVendorId };
      const input = check<AssetInput>(assetInputSchema as ZodType<AssetInput>, body, row, { assetCategoryId: 'category', customerVendorId: 'owner' }, problems);
      if (input) ready.push({ row, input, pending: cat && !categories.has(lower(cat)) ? cat : undefined });
    }
  } else if (kind === 'parts') {
    categories = await lookup(tx, productCategories, orgId);
    const units = await lookup(tx, uoms, orgId);
    const unit = (name: string | undefined, row: number, column: string, message: string) => {
      if (!name) return undefined;
      const id = units.get(lower(name));
      if (id === undefined) problems.push({ row, column, message });
      return id ?? 1;
    };
    for (const { row, cells } of rows) {
      const { category: cat, unitOfMeasure, purchaseUnitOfMeasure, ...rest } = cells;
      const body = {
        ...rest,
        categoryId: category(cat, row, PART_MESSAGES.categoryUnknown),
        unitOfMeasureId: unit(unitOfMeasure, row, 'unitOfMeasure', PART_MESSAGES.uomUnknown),
        purchaseUnitOfMeasureId: unit(purchaseUnitOfMeasure ?? unitOfMeasure, row, purchaseUnitOfMeasure ? 'purchaseUnitOfMeasure' : 'unitOfMeasure', PART_MESSAGES.purchaseUomUnknown),
      };
      const columnOf = { categoryId: 'category', unitOfMeasureId: 'unitOfMeasure', purchaseUnitOfMeasureId: purchaseUnitOfMeasure ? 'purchaseUnitOfMeasure' : 'unitOfMeasure' };
      const input = check<PartInput>(partInputSchema as ZodType<PartInput>, body, row, columnOf, problems);
      if (input) ready.push({ row, input, pending: cat && !categories.has(lower(cat)) ? cat : undefined });
    }
  } else {
    const parents = await partiesNamed(tx, orgId, rows.flatMap((r) => (r.cells.parent ? [r.cells.parent] : [])));
    for (const { row, cells } of rows) {
      const { parent, ...rest } = cells;
      let parentId: number | undefined;
      if (parent) {
        parentId = parents.get(lower(parent));
        if (parentId === undefined) problems.push({ row, column: 'parent', message: 'Parent not found' });
      }
      const input = check<CustomerVendorValues>(customerVendorInputSchema as ZodType<CustomerVendorValues>, { ...rest, parentId }, row, { parentId: 'parent' }, problems);
      if (input) ready.push({ row, input });
    }
  }

  // Rows flagged before their schema ran (formulas, duplicates, unknown names) are not written either.
  let bad = rowsWith(problems);
  ready = ready.filter((r) => !bad.has(r.row));
  const result: ImportResult = {
    total: rows.length,
    valid: rows.length - bad.size,
    imported: 0,
    dryRun: request.dryRun,
    problems,
    created: request.createMissing ? [...missing.values()] : [],
    missing: request.createMissing ? [] : [...missing.values()],
  };
  const byRow = () => problems.sort((a, b) => a.row - b.row);
  if (request.mode === 'all' && problems.length) {
    byRow();
    return result;
  }

  let imported = 0;
  try {
    await tx.transaction(async (sp) => {
      // The categories the rows name and the organisation lacks, when asked to create them.
      if (request.createMissing && missing.size) {
        for (const name of missing.values()) {
          const id =
            kind === 'assets'
              ? await createAssetCategory(sp, orgId, userId, assetCategoryInputSchema.parse({ name: name.slice(0, 100).padEnd(3, '.'), code: codeFor(name, categories!) }))
              : await createProductCategory(sp, orgId, userId, productCategoryInputSchema.parse({ name: name.slice(0, 100).padEnd(3, '.') }));
          categories!.set(lower(name), id);
        }
        for (const r of ready) {
          if (!r.pending) continue;
          const id = categories!.get(lower(r.pending))!;
          r.input = kind === 'assets' ? { ...(r.input as AssetInput), assetCategoryId: id } : { ...(r.input as PartInput), categoryId: id };
        }
      }
      if (kind === 'assets') {
        imported = (await importAssets(sp, orgId, userId, ready.map((r) => r.input as AssetInput))).length;
      } else {
        const columnOf: Record<string, string> =
          kind === 'parts' ? { categoryId: 'category', unitOfMeasureId: 'unitOfMeasure', purchaseUnitOfMeasureId: 'purchaseUnitOfMeasure' } : { parentId: 'parent' };
        for (const r of ready) {
          try {
            // A savepoint per row: a refusal of the service undoes that row only.
            await sp.transaction((one) =>
              kind === 'parts' ? createPart(one, orgId, userId, r.input as PartInput) : createCustomerVendor(one, orgId, userId, r.input as CustomerVendorValues),
            );
            imported++;
          } catch (err) {
            if (!(err instanceof HttpError) || err.statusCode >= 500) throw err;
            for (const issue of err.issues ?? [{ path: '', message: err.message }]) {
              problems.push({ row: r.row, column: issue.path ? (columnOf[issue.path] ?? issue.path) : null, message: issue.message });
            }
          }
        }
      }
      bad = rowsWith(problems);
      result.valid = rows.length - bad.size;
      if (request.dryRun || (request.mode === 'all' && problems.length)) throw new Undo();
    });
  } catch (err) {
    if (!(err instanceof Undo)) throw err;
    imported = 0;
  }
  result.imported = imported;
  byRow();
  return result;
}

/** The mapping the organisation last used for a kind (file header -> column key), or an empty one. */
export async function getImportMapping(tx: ReadTx, orgId: number, kind: ImportKind) {
  const [row] = await tx.select({ mapping: importMappings.mapping }).from(importMappings).where(and(eq(importMappings.orgId, orgId), eq(importMappings.kind, kind)));
  return { mapping: row?.mapping ?? {} };
}

/** Remembers a kind's mapping for the organisation (one per kind). */
export async function saveImportMapping(tx: Tx, orgId: number, kind: ImportKind, mapping: Record<string, string>) {
  await tx
    .insert(importMappings)
    .values({ orgId, kind, mapping })
    .onConflictDoUpdate({ target: [importMappings.orgId, importMappings.kind], set: { mapping, updatedAt: sql`now()` } });
  return { message: 'Mapping saved', mapping };
}
