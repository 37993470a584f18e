import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ZodType } from 'zod';
import { looksLikeFormula } from '../../shared/csv';
import type { ReadTx, Tx } from '../../server/db/client';
import {
  assetCategories,
  assets,
  customerVendors,
  importMappings,
  parts,
  productCategories,
  services,
  taxes,
  teams,
  timeTrackingReasons,
  uomCategories,
  uoms,
  users,
  workStations,
} from '../../server/db/schema';
import { badRequest, HttpError } from '../../server/http-error';
import type { Mailer } from '../../server/mailer';
import type { AccessClaims } from '../auth/tokens';
import { importAssets } from '../assets/assets.service';
import { assetInputSchema, ASSET_MESSAGES, type AssetInput } from '../assets/assets.schema';
import { createPart } from '../parts/parts.service';
import { partInputSchema, PART_MESSAGES, type PartInput } from '../parts/parts.schema';
import { createCustomerVendor } from '../customers-vendors/customers-vendors.service';
import { customerVendorInputSchema, type CustomerVendorValues } from '../customers-vendors/customers-vendors.schema';
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
import { createService } from '../service-catalog/service-catalog.service';
import { serviceInputSchema, SERVICE_MESSAGES, type ServiceInput } from '../service-catalog/service-catalog.schema';
import { createWorkStation } from '../work-stations/work-stations.service';
import { workStationInputSchema, WORK_STATION_MESSAGES, type WorkStationInput } from '../work-stations/work-stations.schema';
import { inviteUser } from '../users/users.service';
import { inviteUserSchema } from '../users/users.schema';
import { getCompany } from '../organization/organization.service';
import { checkReadings, recordReadings, type CheckedReading, type ReadingCells } from '../meters/meters.import';
import type { ImportIssue } from '../meters/meters.schema';
import {
  CREATES_MISSING,
  IMPORT_COLUMNS,
  IMPORT_KEYS,
  IMPORT_MESSAGES,
  LIST_SEPARATOR,
  type ImportKind,
  type ImportProblem,
  type ImportRequest,
  type ImportResult,
} from './data-transfer.schema';

type Cells = Record<string, string>;
interface Row {
  row: number;
  cells: Cells;
}

/** A row that passed its schema, waiting to be written. */
interface Ready {
  row: number;
  input: unknown;
  /** The missing name (lower case) the row refers to, created first with `createMissing`. */
  pending?: string;
  /**
   * The input once the names the row refers to have ids (created missing records, earlier rows of the file);
   * throws an HttpError (the row's problem) when one has none.
   */
  finish?: () => unknown;
}

/** What an import's kinds share while it runs. */
interface Run {
  orgId: number;
  actor: AccessClaims;
  request: ImportRequest;
  problems: ImportProblem[];
  mail: ImportMail;
  /** The referenced records the rows name (lower-case name or code -> id), also those created on the way. */
  refs: Map<string, number>;
  /** Referenced names the organisation lacks (lower case -> as written), offered for creation. */
  missing: Map<string, string>;
}

/** How an invitation e-mail reaches the person (the users kind). */
export interface ImportMail {
  mailer: Mailer;
  /** The organisation's origin, for the link. */
  origin: string;
}

/** Maps a schema or service issue's path to the file's column (a key of IMPORT_COLUMNS), or null for the row. */
type ColumnOf = Record<string, string> | ((path: readonly PropertyKey[]) => string | null);

interface Importer {
  /** The key column's table (duplicates against the organisation). */
  key?: { table: PgTable; orgId: AnyPgColumn; column: AnyPgColumn };
  /** Reads the names the rows refer to and checks each row with the feature's own input schema. */
  prepare(tx: Tx, run: Run, rows: Row[]): Promise<Ready[]>;
  /** Creates one missing referenced record (`createMissing`); returns its id. */
  createMissing?(tx: Tx, run: Run, name: string): Promise<number>;
  /** Writes the ready rows through the feature's service; returns how many were written. */
  write(tx: Tx, run: Run, ready: Ready[]): Promise<number>;
}

/** Thrown inside the write's savepoint to undo it (dry run, or an all-or-nothing import with problems). */
class Undo extends Error {}

const lower = (s: string) => s.trim().toLowerCase();

/** A name for a record created from a reference: the forms want 3 to 100 characters. */
const creatableName = (name: string) => name.slice(0, 100).padEnd(3, '.');

/** The names of a cell that lists several (`WS-01; WS-02`). */
const listOf = (cell: string | undefined) => (cell ?? '').split(LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean);

/** Reads the rows' cells, flags formulas, unknown columns and duplicate keys. */
function readCells(kind: ImportKind, request: ImportRequest, problems: ImportProblem[]): Row[] {
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
    const key = keyColumn && cells[keyColumn] && lower(cells[keyColumn]);
    if (keyColumn && key) {
      const first = seen.get(key);
      if (first !== undefined) problems.push({ row, column: keyColumn, message: IMPORT_MESSAGES.duplicateInFile(first) });
      else seen.set(key, row);
    }
    return { row, cells };
  });
}

function columnFor(columnOf: ColumnOf, path: readonly PropertyKey[]): string | null {
  if (typeof columnOf === 'function') return columnOf(path);
  const field = String(path[0] ?? '');
  return field ? (columnOf[field] ?? field) : null;
}

/** Runs the feature's schema; its issues become problems on the file's columns. */
function check<T>(schema: ZodType<T>, body: Record<string, unknown>, row: number, columnOf: ColumnOf, problems: ImportProblem[]): T | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const said = new Set<string>();
  for (const issue of parsed.error.issues) {
    const problem = { row, column: columnFor(columnOf, issue.path), message: issue.message };
    // Two fields of one column (the invitation's e-mail and its confirmation) say a message once.
    if (said.has(`${problem.column}\n${problem.message}`)) continue;
    said.add(`${problem.column}\n${problem.message}`);
    problems.push(problem);
  }
  return undefined;
}

/** Rows with a problem: they are not written. */
const rowsWith = (problems: ImportProblem[]) => new Set(problems.map((p) => p.row));

/** Names (lower case) -> id of a small table of the organisation, by name and, where it has one, by code. */
async function lookup(tx: ReadTx, table: typeof assetCategories | typeof productCategories | typeof uoms | typeof uomCategories | typeof teams | typeof workStations | typeof taxes, orgId: number) {
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

/**
 * The values among `keys` (compared in lower case) that the organisation already has in `column`: the import
 * refuses them as duplicates (asset codes, SKUs, e-mails, names; decision 042).
 */
export async function existingKeys(tx: ReadTx, orgId: number, key: NonNullable<Importer['key']>, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // 1,000 at a time: a statement takes at most 65,535 parameters.
  for (let i = 0; i < keys.length; i += 1000) {
    const slice = keys.slice(i, i + 1000).map(lower);
    const rows = await tx
      .select({ v: sql<string | null>`${key.column}` })
      .from(key.table)
      .where(and(eq(key.orgId, orgId), inArray(sql`lower(${key.column})`, slice)));
    for (const r of rows) found.add(lower(r.v ?? ''));
  }
  return found;
}

/** A short code for a category created from its name: its letters and digits, upper case, unique. */
function codeFor(name: string, taken: Map<string, number>) {
  const base = (name.toUpperCase().replace(/[^A-Z0-9]/g, '') || 'CAT').padEnd(3, 'X').slice(0, 16);
  let code = base;
  for (let n = 2; taken.has(lower(code)); n++) code = `${base}${n}`;
  return code;
}

/**
 * The id of a record a row names in `column`: one of the organisation's (`run.refs`), or, when the kind creates
 * missing ones, a stand-in until it is created (reported in `missing`; a problem unless `createMissing`).
 */
function reference(run: Run, kind: ImportKind, name: string | undefined, row: number, column: string, message: string) {
  if (!name) return undefined;
  const id = run.refs.get(lower(name));
  if (id !== undefined) return id;
  if (CREATES_MISSING[kind] === column && !run.missing.has(lower(name))) run.missing.set(lower(name), name);
  if (CREATES_MISSING[kind] !== column || !run.request.createMissing) run.problems.push({ row, column, message });
  return 1; // a stand-in until the record is created
}

/** The id of the organisation's record a row names (`names`: lower case -> id), or undefined and the row's problem. */
function named(run: Run, names: Map<string, number>, name: string | undefined, row: number, column: string, message: string) {
  if (!name) return undefined;
  const id = names.get(lower(name));
  if (id === undefined) run.problems.push({ row, column, message });
  return id;
}

/** The pending name of a row whose reference is missing (created before the rows are written). */
const pendingOf = (run: Run, name: string | undefined) => (name && !run.refs.has(lower(name)) ? lower(name) : undefined);

/** The id of a name at write time (created missing records, earlier rows), or the row's problem. */
function idAtWrite(run: Run, name: string, path: string, message: string) {
  const id = run.refs.get(lower(name));
  if (id === undefined) throw badRequest(message, path);
  return id;
}

/**
 * Writes each ready row in a savepoint of its own through `write`: a refusal of the feature's service undoes that
 * row only and becomes its problem. `written` learns each new record's id (names later rows may refer to).
 */
async function eachRow<T>(tx: Tx, run: Run, ready: Ready[], columnOf: ColumnOf, write: (one: Tx, input: T) => Promise<unknown>, written?: (r: Ready, id: unknown) => void) {
  let imported = 0;
  for (const r of ready) {
    try {
      const id = await tx.transaction((one) => write(one, (r.finish ? r.finish() : r.input) as T));
      written?.(r, id);
      imported++;
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode >= 500) throw err;
      for (const issue of err.issues ?? [{ path: '', message: err.message }]) {
        run.problems.push({ row: r.row, column: issue.path ? columnFor(columnOf, issue.path.split('.')) : null, message: issue.message });
      }
    }
  }
  return imported;
}

/** Enum-like cells (a role, a type) match whatever their case. */
const enumCell = (v: string | undefined) => v?.toLowerCase();

const PART_COLUMNS = { categoryId: 'category', unitOfMeasureId: 'unitOfMeasure', purchaseUnitOfMeasureId: 'purchaseUnitOfMeasure' };

/** Each kind: its feature's schema, references and service (decision 042). */
const IMPORTERS: Record<ImportKind, Importer> = {
  assets: {
    key: { table: assets, orgId: assets.orgId, column: assets.assetCode },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, assetCategories, run.orgId);
      const owners = await partiesNamed(tx, run.orgId, rows.flatMap((r) => (r.cells.owner ? [r.cells.owner] : [])));
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { category: cat, owner, ...rest } = cells;
        const customerVendorId = named(run, owners, owner, row, 'owner', ASSET_MESSAGES.customerVendorUnknown);
        const body = { ...rest, assetCategoryId: reference(run, 'assets', cat, row, 'category', ASSET_MESSAGES.categoryUnknown), customerVendorId };
        const input = check<AssetInput>(assetInputSchema as ZodType<AssetInput>, body, row, { assetCategoryId: 'category', customerVendorId: 'owner' }, run.problems);
        if (input) ready.push({ row, input, pending: pendingOf(run, cat), finish: cat ? () => ({ ...input, assetCategoryId: run.refs.get(lower(cat))! }) : undefined });
      }
      return ready;
    },
    createMissing: (tx, run, name) => createAssetCategory(tx, run.orgId, run.actor.userId, assetCategoryInputSchema.parse({ name: creatableName(name), code: codeFor(name, run.refs) })),
    // Batched inserts, one history line each: a refusal here is the whole import's (a 4xx).
    async write(tx, run, ready) {
      return (await importAssets(tx, run.orgId, run.actor.userId, ready.map((r) => (r.finish ? r.finish() : r.input) as AssetInput))).length;
    },
  },

  parts: {
    key: { table: parts, orgId: parts.orgId, column: parts.skuCode },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, productCategories, run.orgId);
      const units = await lookup(tx, uoms, run.orgId);
      // An unknown unit is the row's problem; 1 stands in so that the schema checks the rest.
      const unit = (name: string | undefined, row: number, column: string, message: string) => (name ? (named(run, units, name, row, column, message) ?? 1) : undefined);
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { category: cat, unitOfMeasure, purchaseUnitOfMeasure, ...rest } = cells;
        const body = {
          ...rest,
          categoryId: reference(run, 'parts', cat, row, 'category', PART_MESSAGES.categoryUnknown),
          unitOfMeasureId: unit(unitOfMeasure, row, 'unitOfMeasure', PART_MESSAGES.uomUnknown),
          purchaseUnitOfMeasureId: unit(purchaseUnitOfMeasure ?? unitOfMeasure, row, purchaseUnitOfMeasure ? 'purchaseUnitOfMeasure' : 'unitOfMeasure', PART_MESSAGES.purchaseUomUnknown),
        };
        const columnOf = { ...PART_COLUMNS, purchaseUnitOfMeasureId: purchaseUnitOfMeasure ? 'purchaseUnitOfMeasure' : 'unitOfMeasure' };
        const input = check<PartInput>(partInputSchema as ZodType<PartInput>, body, row, columnOf, run.problems);
        if (input) ready.push({ row, input, pending: pendingOf(run, cat), finish: cat ? () => ({ ...input, categoryId: run.refs.get(lower(cat))! }) : undefined });
      }
      return ready;
    },
    createMissing: (tx, run, name) => createProductCategory(tx, run.orgId, run.actor.userId, productCategoryInputSchema.parse({ name: creatableName(name) })),
    write: (tx, run, ready) => eachRow<PartInput>(tx, run, ready, PART_COLUMNS, (one, input) => createPart(one, run.orgId, run.actor.userId, input)),
  },

  'customer-vendors': {
    key: { table: customerVendors, orgId: customerVendors.orgId, column: customerVendors.email },
    async prepare(tx, run, rows) {
      const parents = await partiesNamed(tx, run.orgId, rows.flatMap((r) => (r.cells.parent ? [r.cells.parent] : [])));
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { parent, ...rest } = cells;
        const parentId = named(run, parents, parent, row, 'parent', IMPORT_MESSAGES.parentNotFound);
        const input = check<CustomerVendorValues>(customerVendorInputSchema as ZodType<CustomerVendorValues>, { ...rest, parentId }, row, { parentId: 'parent' }, run.problems);
        if (input) ready.push({ row, input });
      }
      return ready;
    },
    write: (tx, run, ready) => eachRow<CustomerVendorValues>(tx, run, ready, { parentId: 'parent' }, (one, input) => createCustomerVendor(one, run.orgId, run.actor.userId, input)),
  },

  'work-stations': {
    key: { table: workStations, orgId: workStations.orgId, column: workStations.code },
    async prepare(tx, run, rows) {
      const teamIds = await lookup(tx, teams, run.orgId);
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { team, ...rest } = cells;
        const teamId = named(run, teamIds, team, row, 'team', WORK_STATION_MESSAGES.teamUnknown);
        const input = check<WorkStationInput>(workStationInputSchema as ZodType<WorkStationInput>, { ...rest, teamId: teamId ?? (team ? 1 : undefined) }, row, { teamId: 'team' }, run.problems);
        if (input) ready.push({ row, input });
      }
      return ready;
    },
    write: (tx, run, ready) => eachRow<WorkStationInput>(tx, run, ready, { teamId: 'team' }, (one, input) => createWorkStation(one, run.orgId, run.actor.userId, input)),
  },

  services: {
    key: { table: services, orgId: services.orgId, column: services.title },
    async prepare(tx, run, rows) {
      const stations = await lookup(tx, workStations, run.orgId);
      // A station's operation and time are problems of those columns; anything else about stations, of theirs.
      const columnOf = (path: readonly PropertyKey[]) => {
        const [field, , part] = path.map(String);
        if (field === 'workStations') return part === 'operation' || part === 'timeRequired' ? part : 'workStations';
        return field ?? null;
      };
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const names = listOf(cells.workStations);
        const ids = names.map((name) => stations.get(lower(name)));
        if (ids.some((id) => id === undefined)) run.problems.push({ row, column: 'workStations', message: SERVICE_MESSAGES.stationUnknown });
        // One operation (and time) for every station, or one per station.
        const perStation = (column: 'operation' | 'timeRequired') => {
          const values = listOf(cells[column]);
          if (values.length > 1 && values.length !== names.length) run.problems.push({ row, column, message: IMPORT_MESSAGES.stationParts });
          return (i: number) => (values.length > 1 ? values[i] : values[0]);
        };
        const operation = perStation('operation');
        const time = perStation('timeRequired');
        const body = {
          title: cells.title,
          price: cells.price,
          operations: cells.operations,
          // an unknown station's stand-in never equals a real one (the schema refuses a station named twice)
          workStations: ids.map((id, i) => ({ workStationId: id ?? 2147483647 - i, operation: operation(i), timeRequired: time(i), order: i })),
        };
        const input = check<ServiceInput>(serviceInputSchema as ZodType<ServiceInput>, body, row, columnOf, run.problems);
        if (input) ready.push({ row, input });
      }
      return ready;
    },
    write: (tx, run, ready) => eachRow<ServiceInput>(tx, run, ready, {}, (one, input) => createService(one, run.orgId, run.actor.userId, input)),
  },

  users: {
    key: { table: users, orgId: users.orgId, column: users.email },
    async prepare(_tx, run, rows) {
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        // The invite form's schema: the roles a manager may give (never admin), the e-mail given once.
        const body = { email: cells.email, confirmEmail: cells.email, role: enumCell(cells.role) };
        const input = check(inviteUserSchema, body, row, { confirmEmail: 'email' }, run.problems);
        if (input) ready.push({ row, input });
      }
      return ready;
    },
    async write(tx, run, ready) {
      if (!ready.length) return 0;
      const { organization } = await getCompany(tx, run.orgId);
      // Each invitation's e-mail goes through the outbox in this transaction: sent only if the import commits.
      return eachRow<ReturnType<typeof inviteUserSchema.parse>>(tx, run, ready, { confirmEmail: 'email' }, (one, input) =>
        inviteUser(one, run.orgId, run.actor, input, { mailer: run.mail.mailer, origin: run.mail.origin, organization }),
      );
    },
  },

  'meter-readings': {
    // The meters' own importer checks and records the rows (decision 031); its issues name the column keys.
    async prepare(tx, run, rows) {
      const issues: ImportIssue[] = [];
      const checked = await checkReadings(tx, run.orgId, rows as ReadingCells[], { timeZone: run.request.timeZone, formulasFlagged: true }, issues);
      run.problems.push(...issues);
      return checked.map((r) => ({ row: r.row, input: r }));
    },
    async write(tx, run, ready) {
      const issues: ImportIssue[] = [];
      const recorded = await recordReadings(tx, run.orgId, ready.map((r) => r.input as CheckedReading), run.actor.userId, issues);
      run.problems.push(...issues);
      return recorded;
    },
  },

  'asset-categories': {
    key: { table: assetCategories, orgId: assetCategories.orgId, column: assetCategories.code },
    async prepare(_tx, run, rows) {
      return rows.flatMap(({ row, cells }) => {
        const input = check(assetCategoryInputSchema, { name: cells.name, code: cells.code }, row, {}, run.problems);
        return input ? [{ row, input }] : [];
      });
    },
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof assetCategoryInputSchema.parse>>(tx, run, ready, {}, (one, input) => createAssetCategory(one, run.orgId, run.actor.userId, input)),
  },

  'product-categories': {
    key: { table: productCategories, orgId: productCategories.orgId, column: productCategories.name },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, productCategories, run.orgId);
      // A parent may be a row of the file: written in file order, an earlier row is there when its child is.
      const inFile = new Set(rows.flatMap((r) => (r.cells.name ? [lower(r.cells.name)] : [])));
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const parent = cells.parent;
        const parentId = parent && inFile.has(lower(parent)) ? 1 : reference(run, 'product-categories', parent, row, 'parent', IMPORT_MESSAGES.parentUnknown);
        const input = check(productCategoryInputSchema, { name: cells.name, parentId }, row, { parentId: 'parent' }, run.problems);
        if (input)
          ready.push({
            row,
            input,
            pending: parent && !inFile.has(lower(parent)) ? pendingOf(run, parent) : undefined,
            finish: parent ? () => ({ ...input, parentId: idAtWrite(run, parent, 'parentId', IMPORT_MESSAGES.parentUnknown) }) : undefined,
          });
      }
      return ready;
    },
    createMissing: (tx, run, name) => createProductCategory(tx, run.orgId, run.actor.userId, productCategoryInputSchema.parse({ name: creatableName(name) })),
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof productCategoryInputSchema.parse>>(
        tx,
        run,
        ready,
        { parentId: 'parent' },
        (one, input) => createProductCategory(one, run.orgId, run.actor.userId, input),
        (r, id) => run.refs.set(lower((r.input as { name: string }).name), id as number),
      ),
  },

  taxes: {
    key: { table: taxes, orgId: taxes.orgId, column: taxes.name },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, taxes, run.orgId);
      // A group's children may be rows of the file written before it.
      const inFile = new Set(rows.flatMap((r) => (r.cells.name ? [lower(r.cells.name)] : [])));
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const children = listOf(cells.children);
        if (children.some((name) => !run.refs.has(lower(name)) && !inFile.has(lower(name)))) run.problems.push({ row, column: 'children', message: IMPORT_MESSAGES.childUnknown });
        const body = {
          ...cells,
          scope: enumCell(cells.scope),
          taxComputation: enumCell(cells.taxComputation),
          // stand-ins until written: the schema counts them
          children: children.length ? children.map((_, i) => i + 1) : undefined,
        };
        const input = check(taxInputSchema, body, row, {}, run.problems);
        if (input)
          ready.push({
            row,
            input,
            finish: () => ({ ...input, children: input.children.length ? [...new Set(children.map((name) => idAtWrite(run, name, 'children', IMPORT_MESSAGES.childUnknown)))] : [] }),
          });
      }
      return ready;
    },
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof taxInputSchema.parse>>(
        tx,
        run,
        ready,
        {},
        (one, input) => createTax(one, run.orgId, run.actor.userId, input),
        (r, id) => run.refs.set(lower((r.input as { name: string }).name), id as number),
      ),
  },

  'uom-categories': {
    key: { table: uomCategories, orgId: uomCategories.orgId, column: uomCategories.name },
    async prepare(_tx, run, rows) {
      return rows.flatMap(({ row, cells }) => {
        const input = check(uomCategoryInputSchema, { name: cells.name }, row, {}, run.problems);
        return input ? [{ row, input }] : [];
      });
    },
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof uomCategoryInputSchema.parse>>(tx, run, ready, {}, (one, input) => createUomCategory(one, run.orgId, run.actor.userId, input)),
  },

  uoms: {
    key: { table: uoms, orgId: uoms.orgId, column: uoms.name },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, uomCategories, run.orgId);
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { category, ...rest } = cells;
        const body = { ...rest, type: enumCell(rest.type), categoryId: reference(run, 'uoms', category, row, 'category', IMPORT_MESSAGES.uomCategoryUnknown) };
        const input = check(uomInputSchema, body, row, { categoryId: 'category' }, run.problems);
        if (input) ready.push({ row, input, pending: pendingOf(run, category), finish: category ? () => ({ ...input, categoryId: run.refs.get(lower(category))! }) : undefined });
      }
      return ready;
    },
    createMissing: (tx, run, name) => createUomCategory(tx, run.orgId, run.actor.userId, uomCategoryInputSchema.parse({ name: creatableName(name) })),
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof uomInputSchema.parse>>(tx, run, ready, { categoryId: 'category' }, (one, input) => createUom(one, run.orgId, run.actor.userId, input)),
  },

  'time-tracking-reasons': {
    key: { table: timeTrackingReasons, orgId: timeTrackingReasons.orgId, column: timeTrackingReasons.name },
    async prepare(_tx, run, rows) {
      return rows.flatMap(({ row, cells }) => {
        const body = { name: cells.name, type: enumCell(cells.type), isBlockingReason: cells.isBlockingReason };
        const input = check(timeTrackingReasonInputSchema, body, row, { is_blocking_reason: 'isBlockingReason' }, run.problems);
        return input ? [{ row, input }] : [];
      });
    },
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof timeTrackingReasonInputSchema.parse>>(tx, run, ready, {}, (one, input) => createTimeTrackingReason(one, run.orgId, run.actor.userId, input)),
  },
};

/**
 * Checks every row of an import with the feature's own schema, resolves names to ids, and writes the valid
 * rows through the feature's service in one transaction (decision 042). `all` writes nothing when a row has a
 * problem; `valid` writes the others. A dry run does everything and then undoes it.
 */
export async function importRows(tx: Tx, orgId: number, actor: AccessClaims, kind: ImportKind, request: ImportRequest, mail: ImportMail): Promise<ImportResult> {
  const problems: ImportProblem[] = [];
  const rows = readCells(kind, request, problems);
  const importer = IMPORTERS[kind];
  const keyColumn = IMPORT_KEYS[kind];
  if (keyColumn && importer.key) {
    const existing = await existingKeys(tx, orgId, importer.key, rows.flatMap((r) => (r.cells[keyColumn] ? [r.cells[keyColumn]] : [])));
    for (const r of rows) {
      if (r.cells[keyColumn] && existing.has(lower(r.cells[keyColumn]))) problems.push({ row: r.row, column: keyColumn, message: IMPORT_MESSAGES.duplicateExisting });
    }
  }
  const run: Run = { orgId, actor, request, problems, mail, refs: new Map(), missing: new Map() };
  let ready = await importer.prepare(tx, run, rows);

  // Rows flagged before their schema ran (formulas, duplicates, unknown names) are not written either.
  let bad = rowsWith(problems);
  ready = ready.filter((r) => !bad.has(r.row));
  const result: ImportResult = {
    total: rows.length,
    valid: rows.length - bad.size,
    imported: 0,
    dryRun: request.dryRun,
    problems,
    created: [],
    missing: request.createMissing ? [] : [...run.missing.values()],
  };

  // Written even when an all-or-nothing import already has problems (then undone): the refusals of the
  // features' services (a counter going down, a unit's second reference) are reported with the rest.
  let imported = 0;
  try {
    await tx.transaction(async (sp) => {
      // The missing records the rows to write name, when asked to create them.
      const created: string[] = [];
      if (request.createMissing && importer.createMissing) {
        for (const name of new Set(ready.flatMap((r) => (r.pending ? [r.pending] : [])))) {
          const shown = run.missing.get(name) ?? name;
          run.refs.set(name, await importer.createMissing(sp, run, shown));
          created.push(shown);
        }
      }
      imported = await importer.write(sp, run, ready);
      bad = rowsWith(problems);
      result.valid = rows.length - bad.size;
      const aborted = request.mode === 'all' && problems.length > 0;
      // A dry run says what the import would create; an aborted one creates nothing.
      if (!aborted) result.created = created;
      if (request.dryRun || aborted) throw new Undo();
    });
  } catch (err) {
    if (!(err instanceof Undo)) throw err;
    imported = 0;
  }
  result.imported = imported;
  problems.sort((a, b) => a.row - b.row);
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
