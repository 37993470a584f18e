import type { ZodType } from 'zod';
import { customerVendors, parts, productCategories, services, teams, uoms, users, workStations } from '../../server/db/schema';
import { createPart } from '../parts/parts.service';
import { partInputSchema, PART_MESSAGES, type PartInput } from '../parts/parts.schema';
import { createCustomerVendor } from '../customers-vendors/customers-vendors.service';
import { customerVendorInputSchema, type CustomerVendorValues } from '../customers-vendors/customers-vendors.schema';
import { createProductCategory } from '../master-data/product-categories.service';
import { productCategoryInputSchema } from '../master-data/master-data.schema';
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
  lower,
  creatableName,
  listOf,
  check,
  lookup,
  partiesNamed,
  reference,
  named,
  pendingOf,
  eachRow,
  enumCell,
  writeEach,
  columnCells,
  readyRows,
} from './import-rows';
import { WORK_ORDER_IMPORTERS } from './import-work-orders';
import { PROCEDURE_IMPORTERS } from './import-procedures';
import { PM_PLAN_IMPORTERS } from './import-pm-plans';
import { LOCATION_IMPORTERS } from './import-locations';
import { ASSET_IMPORTERS } from './import-assets';
import { MASTER_DATA_IMPORTERS } from './import-master-data';
import { STOCK_IMPORTERS } from './import-stock';
import { FAILURE_CODE_IMPORTERS } from './import-failure-codes';

// Each import kind: its feature's schema, the names it resolves and the service that writes a new row (decision 042).
// The kinds of one area have a file of their own (assets, master data, work orders, procedures, plans, locations, stock, failure codes).

export const PART_COLUMNS = { categoryId: 'category', unitOfMeasureId: 'unitOfMeasure', purchaseUnitOfMeasureId: 'purchaseUnitOfMeasure' };
const CUSTOMER_VENDOR_COLUMNS = { parentId: 'parent' };
const WORK_STATION_COLUMNS = { teamId: 'team' };

/** Each kind: its feature's schema, references and service (decision 042). */
export const IMPORTERS: Record<ImportKind, Importer> = {
  ...WORK_ORDER_IMPORTERS,
  ...PROCEDURE_IMPORTERS,
  ...PM_PLAN_IMPORTERS,
  ...LOCATION_IMPORTERS,
  ...ASSET_IMPORTERS,
  ...MASTER_DATA_IMPORTERS,
  ...STOCK_IMPORTERS,
  ...FAILURE_CODE_IMPORTERS,

  parts: {
    key: { table: parts, orgId: parts.orgId, id: parts.id, column: parts.skuCode },
    async prepare(tx, run, rows) {
      run.refs = await lookup(tx, productCategories, run.orgId);
      const units = await lookup(tx, uoms, run.orgId);
      // An unknown unit is the row's problem; 1 stands in so that the schema checks the rest.
      const unit = (name: string | undefined, row: number, column: string, message: string) =>
        name ? (named(run, units, name, row, column, message) ?? 1) : undefined;
      return readyRows(rows, ({ row, cells }) => {
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
        return input && { input, pending: pendingOf(run, cat), finish: cat ? () => ({ ...input, categoryId: run.refs.get(lower(cat))! }) : undefined };
      });
    },
    createMissing: (tx, run, name) => createProductCategory(tx, run.orgId, run.actor.userId, productCategoryInputSchema.parse({ name: creatableName(name) })),
    write: writeEach(createPart, PART_COLUMNS),
  },

  'customer-vendors': {
    key: { table: customerVendors, orgId: customerVendors.orgId, id: customerVendors.id, column: customerVendors.email },
    async prepare(tx, run, rows) {
      const parents = await partiesNamed(tx, run.orgId, columnCells(rows, 'parent'));
      return readyRows(rows, ({ row, cells }) => {
        const { parent, ...rest } = cells;
        const parentId = named(run, parents, parent, row, 'parent', IMPORT_MESSAGES.parentNotFound);
        const schema = customerVendorInputSchema as ZodType<CustomerVendorValues>;
        const input = check<CustomerVendorValues>(schema, { ...rest, parentId }, row, CUSTOMER_VENDOR_COLUMNS, run.problems);
        return input && { input };
      });
    },
    write: writeEach(createCustomerVendor, CUSTOMER_VENDOR_COLUMNS),
  },

  'work-stations': {
    key: { table: workStations, orgId: workStations.orgId, id: workStations.id, column: workStations.code },
    async prepare(tx, run, rows) {
      const teamIds = await lookup(tx, teams, run.orgId);
      return readyRows(rows, ({ row, cells }) => {
        const { team, ...rest } = cells;
        const teamId = named(run, teamIds, team, row, 'team', WORK_STATION_MESSAGES.teamUnknown);
        const schema = workStationInputSchema as ZodType<WorkStationInput>;
        const input = check<WorkStationInput>(schema, { ...rest, teamId: teamId ?? (team ? 1 : undefined) }, row, WORK_STATION_COLUMNS, run.problems);
        return input && { input };
      });
    },
    write: writeEach(createWorkStation, WORK_STATION_COLUMNS),
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
      return readyRows(rows, ({ row, cells }) => {
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
        return input && { input };
      });
    },
    write: writeEach(createService),
  },

  users: {
    key: { table: users, orgId: users.orgId, id: users.id, column: users.email },
    async prepare(_tx, run, rows) {
      return readyRows(rows, ({ row, cells, match }) => {
        const role = enumCell(cells.role);
        if (match) {
          // A member's row changes their role only (the user's own rules apply when it is written).
          const parsed = userUpdateSchema.shape.role.safeParse(role);
          if (parsed.success) return { input: { role: parsed.data } };
          run.problems.push({ row, column: 'role', message: parsed.error.issues[0].message });
          return undefined;
        }
        // An invitation gives manager or worker (the invite form's rule): admin is refused by its reason.
        if (role === 'admin') {
          run.problems.push({ row, column: 'role', message: IMPORT_MESSAGES.adminInvite });
          return undefined;
        }
        // The invite form's schema: the roles a manager may give, the e-mail given once.
        const body = { email: cells.email, confirmEmail: cells.email, role };
        const input = check(inviteUserSchema, body, row, { confirmEmail: 'email' }, run.problems);
        return input && { input };
      });
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
};
