import { isDeepStrictEqual } from 'node:util';
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
import { getAsset, importAssets, updateAsset } from '../assets/assets.service';
import { assetInputSchema, ASSET_MESSAGES, type AssetInput } from '../assets/assets.schema';
import { createPart, getPart, updatePart } from '../parts/parts.service';
import { partInputSchema, PART_MESSAGES, type PartInput } from '../parts/parts.schema';
import { createCustomerVendor, getCustomerVendor, updateCustomerVendor } from '../customers-vendors/customers-vendors.service';
import { customerVendorInputSchema, type CustomerVendorValues } from '../customers-vendors/customers-vendors.schema';
import { createAssetCategory, getAssetCategory, updateAssetCategory } from '../master-data/asset-categories.service';
import { createProductCategory, getProductCategory, updateProductCategory } from '../master-data/product-categories.service';
import { createTax, getTax, updateTax } from '../master-data/taxes.service';
import { createTimeTrackingReason, getTimeTrackingReason, updateTimeTrackingReason } from '../master-data/time-tracking-reasons.service';
import { createUom, createUomCategory, getUom, getUomCategory, updateUom, updateUomCategory } from '../master-data/uoms.service';
import {
  assetCategoryInputSchema,
  productCategoryInputSchema,
  taxInputSchema,
  timeTrackingReasonInputSchema,
  uomCategoryInputSchema,
  uomInputSchema,
} from '../master-data/master-data.schema';
import { createService, getService, updateService } from '../service-catalog/service-catalog.service';
import { serviceInputSchema, SERVICE_MESSAGES, type ServiceInput } from '../service-catalog/service-catalog.schema';
import { createWorkStation, getWorkStation, updateWorkStation } from '../work-stations/work-stations.service';
import { workStationInputSchema, WORK_STATION_MESSAGES, type WorkStationInput } from '../work-stations/work-stations.schema';
import { getUser, inviteUser, updateUser } from '../users/users.service';
import { inviteUserSchema, userUpdateSchema, type Role } from '../users/users.schema';
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
  /** Columns the file has and the row leaves empty: an update clears them. */
  blank: Set<string>;
  /** The record's display id of the export's ID column (`AS-0001` or `1`). */
  id?: number;
  /** The organisation's record the row updates (found by its key or its ID column). */
  match?: Current;
}

/** A record of the organisation as the import's cells (what its export would say, every import column). */
export interface Current {
  id: number;
  cells: Cells;
  /** The version an update claims (assets and parts, decision 025). */
  version?: number;
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
  key?: { table: PgTable; orgId: AnyPgColumn; id: AnyPgColumn; column: AnyPgColumn };
  /** Reads the names the rows refer to and checks each row with the feature's own input schema. */
  prepare(tx: Tx, run: Run, rows: Row[]): Promise<Ready[]>;
  /** Creates one missing referenced record (`createMissing`); returns its id. */
  createMissing?(tx: Tx, run: Run, name: string): Promise<number>;
  /** Writes the ready rows through the feature's service; returns how many were written. */
  write(tx: Tx, run: Run, ready: Ready[]): Promise<number>;
  /**
   * Re-import: the records the rows name read through the feature (missing ids left out), so that a row
   * updates its record (only the columns it has) rather than duplicate it.
   */
  current?(tx: Tx, run: Run, ids: number[]): Promise<Current[]>;
  /** Writes one updated row through the feature's update service. */
  update?(tx: Tx, run: Run, current: Current, input: unknown): Promise<unknown>;
  /** How a service's issue path names the file's column (updates). */
  columnOf?: ColumnOf;
}

/** Thrown inside the write's savepoint to undo it (dry run, or an all-or-nothing import with problems). */
class Undo extends Error {}

const lower = (s: string) => s.trim().toLowerCase();

/** A name for a record created from a reference: the forms want 3 to 100 characters. */
const creatableName = (name: string) => name.slice(0, 100).padEnd(3, '.');

/** The names of a cell that lists several (`WS-01; WS-02`). */
const listOf = (cell: string | undefined) => (cell ?? '').split(LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean);

/** An export's neutralised cell (`'+cmd`) back as it was: the import flags it again if it is a formula. */
const unneutralised = (v: string) => (/^'[=+\-@]/.test(v) ? v.slice(1) : v);

/** Reads the rows' cells, flags formulas, unknown columns and duplicate keys; drops the export-only columns. */
function readCells(kind: ImportKind, request: ImportRequest, problems: ImportProblem[]): Row[] {
  const columns = new Map(IMPORT_COLUMNS[kind].map((c) => [c.key, c]));
  const keyColumn = IMPORT_KEYS[kind];
  const seen = new Map<string, number>();
  return request.rows.map((raw, i) => {
    const row = request.firstRow + i;
    const cells: Cells = {};
    const blank = new Set<string>();
    let id: number | undefined;
    for (const [column, value] of Object.entries(raw)) {
      const known = columns.get(column);
      if (!known) {
        problems.push({ row, column, message: IMPORT_MESSAGES.unknownColumn });
        continue;
      }
      const v = unneutralised((value ?? '').trim());
      if (known.exportOnly === 'id') id = displayIdOf(v);
      if (known.exportOnly) continue;
      if (looksLikeFormula(v)) problems.push({ row, column, message: IMPORT_MESSAGES.formula });
      if (v !== '') cells[column] = v;
      else blank.add(column);
    }
    const key = keyColumn && cells[keyColumn] && lower(cells[keyColumn]);
    if (keyColumn && key) {
      const first = seen.get(key);
      if (first !== undefined) problems.push({ row, column: keyColumn, message: IMPORT_MESSAGES.duplicateInFile(first) });
      else seen.set(key, row);
    }
    return { row, cells, blank, id };
  });
}

/** The number of an export's display id (`AS-0001`, `SV-0012`, `7`); anything else is no id. */
function displayIdOf(v: string) {
  const m = /^(?:[A-Za-z]{1,5}-)?0*(\d{1,10})$/.exec(v);
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= 2147483647 ? n : undefined;
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
 * The organisation's records whose `column` is among `keys` (compared in lower case): value -> their ids. A row
 * with such a value updates that record (asset codes, SKUs, e-mails, names; decision 042, 055).
 */
export async function idsByKey(tx: ReadTx, orgId: number, key: NonNullable<Importer['key']>, keys: string[]): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  const wanted = [...new Set(keys.map(lower))];
  // 1,000 at a time: a statement takes at most 65,535 parameters.
  for (let i = 0; i < wanted.length; i += 1000) {
    const rows = await tx
      .select({ id: sql<number>`${key.id}`, v: sql<string | null>`${key.column}` })
      .from(key.table)
      .where(and(eq(key.orgId, orgId), inArray(sql`lower(${key.column})`, wanted.slice(i, i + 1000))));
    for (const r of rows) found.set(lower(r.v ?? ''), [...(found.get(lower(r.v ?? '')) ?? []), Number(r.id)]);
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
async function eachRow<T>(tx: Tx, run: Run, ready: Ready[], columnOf: ColumnOf, write: (one: Tx, input: T, r: Ready) => Promise<unknown>, written?: (r: Ready, id: unknown) => void) {
  let imported = 0;
  for (const r of ready) {
    try {
      const id = await tx.transaction((one) => write(one, (r.finish ? r.finish() : r.input) as T, r));
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
    key: { table: assets, orgId: assets.orgId, id: assets.id, column: assets.assetCode },
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
    key: { table: parts, orgId: parts.orgId, id: parts.id, column: parts.skuCode },
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
    key: { table: customerVendors, orgId: customerVendors.orgId, id: customerVendors.id, column: customerVendors.email },
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
    key: { table: workStations, orgId: workStations.orgId, id: workStations.id, column: workStations.code },
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
    key: { table: services, orgId: services.orgId, id: services.id, column: services.title },
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
    key: { table: users, orgId: users.orgId, id: users.id, column: users.email },
    async prepare(_tx, run, rows) {
      const ready: Ready[] = [];
      for (const { row, cells, match } of rows) {
        const role = enumCell(cells.role);
        if (match) {
          // A member's row changes their role only (the user's own rules apply when it is written).
          const parsed = userUpdateSchema.shape.role.safeParse(role);
          if (parsed.success) ready.push({ row, input: { role: parsed.data } });
          else run.problems.push({ row, column: 'role', message: parsed.error.issues[0].message });
          continue;
        }
        // An invitation gives manager or worker (the invite form's rule): admin is refused by its reason.
        if (role === 'admin') {
          run.problems.push({ row, column: 'role', message: IMPORT_MESSAGES.adminInvite });
          continue;
        }
        // The invite form's schema: the roles a manager may give, the e-mail given once.
        const body = { email: cells.email, confirmEmail: cells.email, role };
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
    key: { table: assetCategories, orgId: assetCategories.orgId, id: assetCategories.id, column: assetCategories.code },
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
    key: { table: productCategories, orgId: productCategories.orgId, id: productCategories.id, column: productCategories.name },
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
    key: { table: taxes, orgId: taxes.orgId, id: taxes.id, column: taxes.name },
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
    key: { table: uomCategories, orgId: uomCategories.orgId, id: uomCategories.id, column: uomCategories.name },
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
    key: { table: uoms, orgId: uoms.orgId, id: uoms.id, column: uoms.name },
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
    key: { table: timeTrackingReasons, orgId: timeTrackingReasons.orgId, id: timeTrackingReasons.id, column: timeTrackingReasons.name },
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
 * Finds the record each row names, by its ID column or its key (decision 055): the row then updates it, and its
 * cells are the record's own overlaid by the file's (a column the file lacks keeps its value, an empty cell
 * clears it). Only this organisation's records are read, so another's id or key finds nothing of theirs.
 */
async function matchRows(tx: Tx, run: Run, kind: ImportKind, importer: Importer, rows: Row[]) {
  const keyColumn = IMPORT_KEYS[kind];
  if (!importer.key || !keyColumn) return;
  const keyOf = (r: Row) => (r.cells[keyColumn] ? lower(r.cells[keyColumn]) : undefined);
  const byKey = await idsByKey(tx, run.orgId, importer.key, rows.flatMap((r) => keyOf(r) ?? []));
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
async function unchangedRows(tx: Tx, run: Run, importer: Importer, rows: Row[], ready: Ready[]) {
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

/** A record's values as import cells: empty values left out (an absent cell and an empty one mean the same). */
function cellsOf(values: Record<string, unknown>): Cells {
  const cells: Cells = {};
  for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined && v !== '') cells[k] = typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
  return cells;
}

/** Reads each id through the feature's own get function; an id the organisation lacks (404) is left out. */
async function readEach<T>(ids: number[], get: (id: number) => Promise<T>, toCurrent: (record: T, id: number) => Current): Promise<Current[]> {
  const found: Current[] = [];
  for (const id of ids) {
    try {
      found.push(toCurrent(await get(id), id));
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) continue;
      throw err;
    }
  }
  return found;
}

/** The names of a list cell, as the export writes them. */
const listCell = (names: string[]) => names.join(`${LIST_SEPARATOR} `);

type Input<F extends (...args: never[]) => unknown> = Parameters<F>[4];

/**
 * Re-import (decision 055): how each kind reads the records its rows name (as the cells its export writes, every
 * import column) and updates one through the feature's update service. Assets and parts claim the version read.
 */
const REIMPORT: Partial<Record<ImportKind, Pick<Importer, 'current' | 'update' | 'columnOf'>>> = {
  assets: {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getAsset(tx, run.orgId, id), (a) => ({
        id: a.id,
        version: a.version,
        cells: cellsOf({ name: a.name, assetCode: a.assetCode, category: a.AssetCategory?.name, date: a.date, status: a.status, serial: a.serial, assetBarcode: a.assetBarcode, owner: a.CustomerVendor?.name, description: a.description }),
      })),
    update: (tx, run, c, input) => updateAsset(tx, run.orgId, run.actor.userId, c.id, { ...(input as AssetInput), version: c.version }),
    columnOf: { assetCategoryId: 'category', customerVendorId: 'owner' },
  },
  parts: {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getPart(tx, run.orgId, id), (p) => ({
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
      })),
    // A changed quantity on hand is booked as a stock count by the part's own update.
    update: (tx, run, c, input) => updatePart(tx, run.orgId, run.actor.userId, c.id, { ...(input as PartInput), version: c.version }),
    columnOf: PART_COLUMNS,
  },
  'customer-vendors': {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getCustomerVendor(tx, run.orgId, id), (cv) => ({
        id: cv.id,
        cells: cellsOf({
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
      })),
    // The documents are left out of the input: the update keeps them.
    update: (tx, run, c, input) => updateCustomerVendor(tx, run.orgId, run.actor.userId, c.id, input as CustomerVendorValues),
    columnOf: { parentId: 'parent' },
  },
  users: {
    current: (tx, run, ids) => readEach(ids, (id) => getUser(tx, run.orgId, id), (u) => ({ id: u.id, cells: cellsOf({ email: u.email, role: u.role }) })),
    // Only the role comes from the file; the user's rules apply (an admin role by an admin, never one's own).
    update: async (tx, run, c, input) => {
      const user = await getUser(tx, run.orgId, c.id);
      return updateUser(tx, run.orgId, run.actor, c.id, { firstName: user.firstName, email: user.email, role: (input as { role: Role }).role });
    },
    columnOf: { role: 'role' },
  },
  'asset-categories': {
    current: (tx, run, ids) => readEach(ids, (id) => getAssetCategory(tx, run.orgId, id), (r) => ({ id: r.id, cells: cellsOf({ code: r.code, name: r.name }) })),
    update: (tx, run, c, input) => updateAssetCategory(tx, run.orgId, run.actor.userId, c.id, input as Input<typeof updateAssetCategory>),
  },
  'product-categories': {
    current: (tx, run, ids) => readEach(ids, (id) => getProductCategory(tx, run.orgId, id), (r) => ({ id: r.id, cells: cellsOf({ name: r.name, parent: r.parent?.name }) })),
    update: (tx, run, c, input) => updateProductCategory(tx, run.orgId, run.actor.userId, c.id, input as Input<typeof updateProductCategory>),
    columnOf: { parentId: 'parent' },
  },
  taxes: {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getTax(tx, run.orgId, id), (t) => ({
        id: t.id,
        cells: cellsOf({
          name: t.name,
          scope: t.scope,
          taxComputation: t.taxComputation,
          amount: t.amount,
          isPriceIncluded: t.isPriceIncluded,
          sequence: t.sequence,
          includeBaseAmount: t.includeBaseAmount,
          children: listCell(t.Children.map((ch) => ch.name)),
        }),
      })),
    update: (tx, run, c, input) => updateTax(tx, run.orgId, run.actor.userId, c.id, input as Input<typeof updateTax>),
  },
  'uom-categories': {
    current: (tx, run, ids) => readEach(ids, (id) => getUomCategory(tx, run.orgId, id), (r) => ({ id: r.id, cells: cellsOf({ name: r.name }) })),
    update: (tx, run, c, input) => updateUomCategory(tx, run.orgId, run.actor.userId, c.id, input as Input<typeof updateUomCategory>),
  },
  uoms: {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getUom(tx, run.orgId, id), (u) => ({ id: u.id, cells: cellsOf({ name: u.name, category: u.category?.name, type: u.type, ratio: u.ratio }) })),
    update: (tx, run, c, input) => updateUom(tx, run.orgId, run.actor.userId, c.id, input as Input<typeof updateUom>),
    columnOf: { categoryId: 'category' },
  },
  'time-tracking-reasons': {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getTimeTrackingReason(tx, run.orgId, id), (r) => ({ id: r.id, cells: cellsOf({ name: r.name, type: r.type, isBlockingReason: r.isBlockingReason }) })),
    update: (tx, run, c, input) => updateTimeTrackingReason(tx, run.orgId, run.actor.userId, c.id, input as Input<typeof updateTimeTrackingReason>),
    columnOf: { is_blocking_reason: 'isBlockingReason' },
  },
  'work-stations': {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getWorkStation(tx, run.orgId, id), (w) => ({ id: w.id, cells: cellsOf({ code: w.code, name: w.name, city: w.city, team: w.Team?.name }) })),
    update: (tx, run, c, input) => updateWorkStation(tx, run.orgId, run.actor.userId, c.id, input as WorkStationInput),
    columnOf: { teamId: 'team' },
  },
  services: {
    current: (tx, run, ids) =>
      readEach(ids, (id) => getService(tx, run.orgId, id), (sv) => {
        const stations = [...sv.WorkStations].sort((a, b) => a.order - b.order);
        return {
          id: sv.id,
          cells: cellsOf({
            title: sv.title,
            price: sv.price,
            operations: sv.operations,
            workStations: listCell(stations.map((w) => w.code)),
            operation: listCell(stations.map((w) => w.operation)),
            timeRequired: listCell(stations.map((w) => w.timeRequired)),
          }),
        };
      }),
    update: (tx, run, c, input) => updateService(tx, run.orgId, run.actor.userId, c.id, input as ServiceInput),
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
  const importer: Importer = { ...IMPORTERS[kind], ...REIMPORT[kind] };
  const run: Run = { orgId, actor, request, problems, mail, refs: new Map(), missing: new Map() };
  await matchRows(tx, run, kind, importer, rows);
  let ready = await importer.prepare(tx, run, rows);

  // Rows flagged before their schema ran (formulas, duplicates, unknown names) are not written either.
  let bad = rowsWith(problems);
  ready = ready.filter((r) => !bad.has(r.row));
  const matched = new Map(rows.flatMap((r) => (r.match ? [[r.row, r.match] as const] : [])));
  const same = await unchangedRows(tx, run, importer, rows, ready);
  const fresh = ready.filter((r) => !matched.has(r.row));
  const changed = ready.filter((r) => matched.has(r.row) && !same.has(r.row));
  const result: ImportResult = {
    total: rows.length,
    valid: rows.length - bad.size,
    imported: 0,
    new: 0,
    updated: 0,
    unchanged: same.size,
    dryRun: request.dryRun,
    problems,
    created: [],
    missing: request.createMissing ? [] : [...run.missing.values()],
  };

  // Written even when an all-or-nothing import already has problems (then undone): the refusals of the
  // features' services (a counter going down, a unit's second reference) are reported with the rest.
  let added = 0;
  let updated = 0;
  try {
    await tx.transaction(async (sp) => {
      // The missing records the rows to write name, when asked to create them.
      const created: string[] = [];
      if (request.createMissing && importer.createMissing) {
        for (const name of new Set([...fresh, ...changed].flatMap((r) => (r.pending ? [r.pending] : [])))) {
          const shown = run.missing.get(name) ?? name;
          run.refs.set(name, await importer.createMissing(sp, run, shown));
          created.push(shown);
        }
      }
      added = await importer.write(sp, run, fresh);
      // After the new rows: an updated row may name one of them (a parent, a child tax).
      if (changed.length && importer.update) {
        const update = importer.update.bind(importer);
        updated = await eachRow(sp, run, changed, importer.columnOf ?? {}, (one, input: unknown, r) => update(one, run, matched.get(r.row)!, input));
      }
      bad = rowsWith(problems);
      result.valid = rows.length - bad.size;
      const aborted = request.mode === 'all' && problems.length > 0;
      // A dry run says what the import would create; an aborted one creates nothing.
      if (!aborted) result.created = created;
      if (aborted && !request.dryRun) added = updated = 0;
      if (request.dryRun || aborted) throw new Undo();
    });
  } catch (err) {
    if (!(err instanceof Undo)) throw err;
  }
  result.new = added;
  result.updated = updated;
  result.imported = request.dryRun ? 0 : added + updated;
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
