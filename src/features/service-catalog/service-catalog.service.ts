import { addThenList } from '../../server/add-answer';
import { countedPage } from '../../server/db/paging';
import { and, asc, desc, eq, exists, ilike, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { services, serviceWorkStations, workStations } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { requireReferences } from '../../server/db/references';
import { displayId } from '../../shared/reference-fields';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import { checkCurrencyDecimals, moneySettings } from '../organization/organization.service';
import { sanitizeHtml } from '../../server/sanitize-html';
import {
  SERVICE_MESSAGES as M,
  type ServiceDto,
  type ServiceInput,
  type ServiceList,
  type ServiceListQuery,
  type ServiceOption,
  type ServiceStationDto,
} from './service-catalog.schema';
import { escapeLike } from '../../server/db/like';
import { isAnyOf, param, preparedRead } from '../../server/db/prepared';
import { orgRow, deleteOrgRow, readOrgRow } from '../../server/db/org-rows';

const history = registerActivityEntity('service', services, 'Service');

const serviceColumns = { id: services.id, title: services.title, price: services.price, operations: services.operations, createdAt: services.createdAt };
type ServiceRow = { id: number; title: string; price: number; operations: string | null; createdAt: Date };

/** The linked stations of some services, in their order. */
export async function stationsOf(tx: ReadTx, orgId: number, serviceIds: number[]) {
  const byService = new Map<number, ServiceStationDto[]>();
  if (serviceIds.length === 0) return byService;
  const rows = await preparedRead(
    tx,
    'services.stations',
    () =>
      tx
        .select({
          serviceId: serviceWorkStations.serviceId,
          id: workStations.id,
          code: workStations.code,
          name: workStations.name,
          city: workStations.city,
          operation: serviceWorkStations.operation,
          timeRequired: serviceWorkStations.timeRequired,
          order: serviceWorkStations.position,
        })
        .from(serviceWorkStations)
        .innerJoin(workStations, and(eq(workStations.orgId, serviceWorkStations.orgId), eq(workStations.id, serviceWorkStations.workStationId)))
        .where(and(eq(serviceWorkStations.orgId, param('orgId')), isAnyOf(serviceWorkStations.serviceId, param('ids'))))
        .orderBy(asc(serviceWorkStations.position), asc(workStations.id)),
    { orgId, ids: serviceIds },
  );
  for (const { serviceId, ...station } of rows) {
    const list = byService.get(serviceId) ?? [];
    list.push(station);
    byService.set(serviceId, list);
  }
  return byService;
}

function toDto(row: ServiceRow, stations: ServiceStationDto[]): ServiceDto {
  return {
    id: row.id,
    serviceId: displayId('SV', row.id),
    title: row.title,
    price: Number(row.price),
    operations: row.operations ?? '',
    related_workStation: stations.map((s) => s.id),
    WorkStation: stations[0] ? { id: stations[0].id, name: stations[0].name } : null,
    WorkStations: stations,
    workStationDetails: stations.map((s) => ({ id: s.id, operation: s.operation, timeRequired: s.timeRequired, order: s.order })),
    createdAt: row.createdAt.toISOString(),
  };
}

async function withStations(tx: ReadTx, orgId: number, rows: ServiceRow[]) {
  const stations = await stationsOf(
    tx,
    orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toDto(r, stations.get(r.id) ?? []));
}

/** One service of the organisation with its stations; 404 when it is not theirs. */
export async function getService(tx: ReadTx, orgId: number, id: number): Promise<ServiceDto> {
  const row = await readOrgRow(tx, services, serviceColumns, orgId, id);
  if (!row) throw notFound('Service');
  return (await withStations(tx, orgId, [row]))[0];
}

function listWhere(tx: ReadTx, orgId: number, query: { title?: string; name?: string; workStationId?: number; relatedTo?: number }) {
  const text = query.title ?? query.name;
  return and(
    eq(services.orgId, orgId),
    text ? ilike(services.title, `%${escapeLike(text)}%`) : undefined,
    query.workStationId
      ? exists(
          tx
            .select({ one: serviceWorkStations.serviceId })
            .from(serviceWorkStations)
            .where(
              and(
                eq(serviceWorkStations.orgId, orgId),
                eq(serviceWorkStations.serviceId, services.id),
                eq(serviceWorkStations.workStationId, query.workStationId),
              ),
            ),
        )
      : undefined,
    // the user's related services (users feature's link table, read here)
    query.relatedTo ? sql`${services.id} in (select service_id from user_services where org_id = ${orgId} and user_id = ${query.relatedTo})` : undefined,
  );
}

/** GET get-services: a page of services, newest first, each with its stations. */
export async function listServices(tx: ReadTx, orgId: number, query: ServiceListQuery): Promise<ServiceList> {
  const where = listWhere(tx, orgId, query);
  const { rows, pagination } = await countedPage(
    tx,
    services,
    where,
    tx.select(serviceColumns).from(services).where(where).orderBy(desc(services.id)).$dynamic(),
    query,
  );
  return { services: await withStations(tx, orgId, rows), pagination };
}

/** GET get-services-options: `{ value, label, price }` by title, alphabetical. */
export async function listServiceOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string }): Promise<ServiceOption[]> {
  const rows = await tx
    .select({ value: services.id, label: services.title, price: services.price })
    .from(services)
    .where(listWhere(tx, orgId, query))
    .orderBy(asc(services.title), asc(services.id))
    .limit(query.pageSize);
  return rows.map((r) => ({ ...r, price: Number(r.price) }));
}

/** The most recent services with their stations, for the application data preload. */
export async function recentServices(tx: ReadTx, orgId: number, limit = 50) {
  const rows = await preparedRead(
    tx,
    'services.recent',
    () =>
      tx
        .select(serviceColumns)
        .from(services)
        .where(eq(services.orgId, param('orgId')))
        .orderBy(desc(services.id))
        .limit(param('limit')),
    { orgId, limit },
  );
  return withStations(tx, orgId, rows);
}

async function writeStations(tx: Tx, orgId: number, serviceId: number, input: ServiceInput) {
  await tx.delete(serviceWorkStations).where(and(eq(serviceWorkStations.orgId, orgId), eq(serviceWorkStations.serviceId, serviceId)));
  await tx.insert(serviceWorkStations).values(
    input.workStations.map((s, i) => ({
      orgId,
      serviceId,
      workStationId: s.workStationId,
      operation: s.operation,
      timeRequired: s.timeRequired,
      position: s.order ?? i,
    })),
  );
}

async function checkStations(tx: Tx, orgId: number, input: ServiceInput) {
  checkCurrencyDecimals(input.price, await moneySettings(tx, orgId), 'price');
  await requireReferences(
    tx,
    orgId,
    workStations,
    input.workStations.map((s) => s.workStationId),
    'workStations',
    M.stationUnknown,
  );
}

const stationSummary = (s: ServiceDto) => s.workStationDetails.map((d) => ({ id: d.id, operation: d.operation, timeRequired: d.timeRequired }));

/** Creates one service with its stations (the add route, and the import, decision 042); returns its id. */
export async function createService(tx: Tx, orgId: number, userId: number, input: ServiceInput): Promise<number> {
  await checkStations(tx, orgId, input);
  const [created] = await tx
    .insert(services)
    .values({ orgId, title: input.title, price: input.price, operations: sanitizeHtml(input.operations ?? '') })
    .returning({ id: services.id });
  await writeStations(tx, orgId, created.id, input);
  await history(tx, orgId, created.id, userId, 'created');
  return created.id;
}

/** POST add-service: the new service (with its stations) and the refreshed list. */
export const addService = addThenList(createService, { message: 'Service added successfully', key: 'service', get: getService, list: listServices });

/** PUT update-service/{id}: replaces the fields and the station links; response `service`. */
export async function updateService(tx: Tx, orgId: number, userId: number, id: number, input: ServiceInput) {
  const before = await getService(tx, orgId, id);
  await checkStations(tx, orgId, input);
  // rich text from the editor: formatting only, never script (rendered by other screens too)
  const values = { title: input.title, price: input.price, operations: input.operations === undefined ? before.operations : sanitizeHtml(input.operations) };
  await tx
    .update(services)
    .set(values)
    .where(orgRow(services, orgId, id));
  await writeStations(tx, orgId, id, input);
  const after = await getService(tx, orgId, id);
  const changes = diffChanges(
    { ...before, workStations: stationSummary(before) } as unknown as Record<string, unknown>,
    { ...values, workStations: stationSummary(after) },
    ['title', 'price', 'operations', 'workStations'],
  );
  if (Object.keys(changes).length) await history(tx, orgId, id, userId, 'updated', changes);
  return { message: 'Service updated successfully', service: after };
}

/** DELETE delete-service/{id}: refused (409) while another record uses it; returns the refreshed list. */
export async function deleteService(tx: Tx, orgId: number, userId: number, id: number, query: ServiceListQuery) {
  await getService(tx, orgId, id);
  await deleteOrgRow(tx, services, orgId, id, 'This service is used by other records and cannot be deleted');
  await history(tx, orgId, id, userId, 'deleted');
  return { message: 'Service deleted successfully', ...(await listServices(tx, orgId, query)) };
}
