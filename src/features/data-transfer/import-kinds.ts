import type { ZodType } from 'zod';
import {
  assetCategories,
  assets,
  customerVendors,
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
import { importAssets, moveAsset } from '../assets/assets.service';
import { badRequest } from '../../server/http-error';
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
import { inviteUserSchema, userUpdateSchema } from '../users/users.schema';
import { getCompany } from '../organization/organization.service';
import { checkReadings, recordReadings, type CheckedReading, type ReadingCells } from '../meters/meters.import';
import type { ImportIssue } from '../meters/meters.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import {
  type Importer,
  type Ready,
  type Row,
  type Run,
  lower,
  creatableName,
  listOf,
  check,
  lookup,
  partiesNamed,
  codeFor,
  reference,
  named,
  pendingOf,
  idAtWrite,
  eachRow,
  enumCell,
} from './import-rows';
import { WORK_ORDER_IMPORTERS } from './import-work-orders';
import { PROCEDURE_IMPORTERS } from './import-procedures';
import { PM_PLAN_IMPORTERS } from './import-pm-plans';
import { LOCATION_IMPORTERS, placesOf, type Places } from './import-locations';
import { assetOf, assetsNamed } from './import-work-orders';

// Each import kind: its feature's schema, the names it resolves and the service that writes a new row (decision 042).

export const PART_COLUMNS = { categoryId: 'category', unitOfMeasureId: 'unitOfMeasure', purchaseUnitOfMeasureId: 'purchaseUnitOfMeasure' };

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

/** The location a cell names (code, path or name), or the row's problem. */
function placeOf(run: Run, places: Places, cell: string, row: number) {
  const id = places.find(cell);
  if (typeof id === 'number') return id;
  run.problems.push({ row, column: 'location', message: id === 'ambiguous' ? IMPORT_MESSAGES.locationAmbiguous : IMPORT_MESSAGES.locationUnknown });
  return undefined;
}

/** Each kind: its feature's schema, references and service (decision 042). */
export const IMPORTERS: Record<ImportKind, Importer> = {
  ...WORK_ORDER_IMPORTERS,
  ...PROCEDURE_IMPORTERS,
  ...PM_PLAN_IMPORTERS,
  ...LOCATION_IMPORTERS,

  assets: {
    key: { table: assets, orgId: assets.orgId, id: assets.id, column: assets.assetCode },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, assetCategories, run.orgId);
      const owners = await partiesNamed(
        tx,
        run.orgId,
        rows.flatMap((r) => (r.cells.owner ? [r.cells.owner] : [])),
      );
      const places = await placesOf(tx, run.orgId);
      const inFile = fileAssets(rows);
      const parents = await assetsNamed(
        tx,
        run.orgId,
        rows.flatMap((r) => (r.cells.parent ? [r.cells.parent] : [])),
      );
      const ready: Ready[] = [];
      for (const { row, cells, match, blank } of rows) {
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
        if (!input) continue;
        if (typeof fileParent === 'number') fileParents.set(input, fileParent);
        ready.push({ row, input, pending: pendingOf(run, cat), finish: cat ? () => withCategory(run, input, cat) : undefined });
      }
      return ready;
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

  parts: {
    key: { table: parts, orgId: parts.orgId, id: parts.id, column: parts.skuCode },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, productCategories, run.orgId);
      const units = await lookup(tx, uoms, run.orgId);
      // An unknown unit is the row's problem; 1 stands in so that the schema checks the rest.
      const unit = (name: string | undefined, row: number, column: string, message: string) =>
        name ? (named(run, units, name, row, column, message) ?? 1) : undefined;
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { category: cat, unitOfMeasure, purchaseUnitOfMeasure, ...rest } = cells;
        const body = {
          ...rest,
          categoryId: reference(run, 'parts', cat, row, 'category', PART_MESSAGES.categoryUnknown),
          unitOfMeasureId: unit(unitOfMeasure, row, 'unitOfMeasure', PART_MESSAGES.uomUnknown),
          purchaseUnitOfMeasureId: unit(
            purchaseUnitOfMeasure ?? unitOfMeasure,
            row,
            purchaseUnitOfMeasure ? 'purchaseUnitOfMeasure' : 'unitOfMeasure',
            PART_MESSAGES.purchaseUomUnknown,
          ),
        };
        const columnOf = { ...PART_COLUMNS, purchaseUnitOfMeasureId: purchaseUnitOfMeasure ? 'purchaseUnitOfMeasure' : 'unitOfMeasure' };
        const input = check<PartInput>(partInputSchema as ZodType<PartInput>, body, row, columnOf, run.problems);
        if (input)
          ready.push({ row, input, pending: pendingOf(run, cat), finish: cat ? () => ({ ...input, categoryId: run.refs.get(lower(cat))! }) : undefined });
      }
      return ready;
    },
    createMissing: (tx, run, name) => createProductCategory(tx, run.orgId, run.actor.userId, productCategoryInputSchema.parse({ name: creatableName(name) })),
    write: (tx, run, ready) => eachRow<PartInput>(tx, run, ready, PART_COLUMNS, (one, input) => createPart(one, run.orgId, run.actor.userId, input)),
  },

  'customer-vendors': {
    key: { table: customerVendors, orgId: customerVendors.orgId, id: customerVendors.id, column: customerVendors.email },
    async prepare(tx, run, rows) {
      const parents = await partiesNamed(
        tx,
        run.orgId,
        rows.flatMap((r) => (r.cells.parent ? [r.cells.parent] : [])),
      );
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { parent, ...rest } = cells;
        const parentId = named(run, parents, parent, row, 'parent', IMPORT_MESSAGES.parentNotFound);
        const input = check<CustomerVendorValues>(
          customerVendorInputSchema as ZodType<CustomerVendorValues>,
          { ...rest, parentId },
          row,
          { parentId: 'parent' },
          run.problems,
        );
        if (input) ready.push({ row, input });
      }
      return ready;
    },
    write: (tx, run, ready) =>
      eachRow<CustomerVendorValues>(tx, run, ready, { parentId: 'parent' }, (one, input) => createCustomerVendor(one, run.orgId, run.actor.userId, input)),
  },

  'work-stations': {
    key: { table: workStations, orgId: workStations.orgId, id: workStations.id, column: workStations.code },
    async prepare(tx, run, rows) {
      const teamIds = await lookup(tx, teams, run.orgId);
      const ready: Ready[] = [];
      for (const { row, cells } of rows) {
        const { team, ...rest } = cells;
        const teamId = named(run, teamIds, team, row, 'team', WORK_STATION_MESSAGES.teamUnknown);
        const input = check<WorkStationInput>(
          workStationInputSchema as ZodType<WorkStationInput>,
          { ...rest, teamId: teamId ?? (team ? 1 : undefined) },
          row,
          { teamId: 'team' },
          run.problems,
        );
        if (input) ready.push({ row, input });
      }
      return ready;
    },
    write: (tx, run, ready) =>
      eachRow<WorkStationInput>(tx, run, ready, { teamId: 'team' }, (one, input) => createWorkStation(one, run.orgId, run.actor.userId, input)),
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
      const recorded = await recordReadings(
        tx,
        run.orgId,
        ready.map((r) => r.input as CheckedReading),
        run.actor.userId,
        issues,
      );
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
      eachRow<ReturnType<typeof assetCategoryInputSchema.parse>>(tx, run, ready, {}, (one, input) =>
        createAssetCategory(one, run.orgId, run.actor.userId, input),
      ),
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
        if (input)
          ready.push({
            row,
            input,
            finish: () => ({
              ...input,
              children: input.children.length ? [...new Set(children.map((name) => idAtWrite(run, name, 'children', IMPORT_MESSAGES.childUnknown)))] : [],
            }),
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
        if (input)
          ready.push({
            row,
            input,
            pending: pendingOf(run, category),
            finish: category ? () => ({ ...input, categoryId: run.refs.get(lower(category))! }) : undefined,
          });
      }
      return ready;
    },
    createMissing: (tx, run, name) => createUomCategory(tx, run.orgId, run.actor.userId, uomCategoryInputSchema.parse({ name: creatableName(name) })),
    write: (tx, run, ready) =>
      eachRow<ReturnType<typeof uomInputSchema.parse>>(tx, run, ready, { categoryId: 'category' }, (one, input) =>
        createUom(one, run.orgId, run.actor.userId, input),
      ),
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
      eachRow<ReturnType<typeof timeTrackingReasonInputSchema.parse>>(tx, run, ready, {}, (one, input) =>
        createTimeTrackingReason(one, run.orgId, run.actor.userId, input),
      ),
  },
};
