import { addThenList } from '../../server/add-answer';
import { countedPage } from '../../server/db/paging';
import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { locations, serviceWorkStations, teams, workStations } from '../../server/db/schema';
import { subtreeIds } from '../locations/location-tree';
import { requireLocation } from '../locations/locations.service';
import { conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { requireReference } from '../../server/db/references';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import {
  WORK_STATION_MESSAGES as M,
  type WorkStationDto,
  type WorkStationInput,
  type WorkStationList,
  type WorkStationListQuery,
  type WorkStationOption,
} from './work-stations.schema';
import { escapeLike } from '../../server/db/like';
import { orgRow, deleteOrgRow, readRecent } from '../../server/db/org-rows';

const history = registerActivityEntity('work-station', workStations, 'Work station');

const columns = {
  id: workStations.id,
  code: workStations.code,
  name: workStations.name,
  city: workStations.city,
  teamId: workStations.teamId,
  teamName: teams.name,
  locationId: workStations.locationId,
  locationName: locations.name,
  createdAt: workStations.createdAt,
};

type Row = {
  id: number;
  code: string;
  name: string;
  city: string;
  teamId: number;
  teamName: string | null;
  locationId: number | null;
  locationName: string | null;
  createdAt: Date;
};

const toDto = ({ teamName, locationName, ...r }: Row): WorkStationDto => ({
  ...r,
  Team: teamName === null ? null : { id: r.teamId, name: teamName },
  Location: r.locationId === null || locationName === null ? null : { id: r.locationId, name: locationName },
  createdAt: r.createdAt.toISOString(),
});

const baseQuery = (tx: ReadTx) =>
  tx
    .select(columns)
    .from(workStations)
    .leftJoin(teams, and(eq(teams.orgId, workStations.orgId), eq(teams.id, workStations.teamId)))
    .leftJoin(locations, and(eq(locations.orgId, workStations.orgId), eq(locations.id, workStations.locationId)));

/** One work station of the organisation; 404 when it is not theirs. */
export async function getWorkStation(tx: ReadTx, orgId: number, id: number): Promise<WorkStationDto> {
  const [row] = await baseQuery(tx).where(orgRow(workStations, orgId, id));
  if (!row) throw notFound('Work station');
  return toDto(row);
}

function listWhere(orgId: number, query: { name?: string; teamId?: number; relatedTo?: number; locationId?: number }) {
  const like = query.name ? `%${escapeLike(query.name)}%` : undefined;
  return and(
    eq(workStations.orgId, orgId),
    like ? or(ilike(workStations.name, like), ilike(workStations.code, like)) : undefined,
    query.teamId ? eq(workStations.teamId, query.teamId) : undefined,
    // the user's related work stations (users feature's link table, read here)
    query.relatedTo
      ? sql`${workStations.id} in (select work_station_id from user_work_stations where org_id = ${orgId} and user_id = ${query.relatedTo})`
      : undefined,
    // a location and everything under it (decision 072)
    query.locationId ? sql`${workStations.locationId} in ${subtreeIds('locations', sql`${orgId}::int`, sql`${query.locationId}::int`)}` : undefined,
  );
}

/** GET get-workstations: a page of stations, newest first, filtered by name/code and team. */
export async function listWorkStations(tx: ReadTx, orgId: number, query: WorkStationListQuery): Promise<WorkStationList> {
  const where = listWhere(orgId, query);
  const { rows, pagination } = await countedPage(tx, workStations, where, baseQuery(tx).where(where).orderBy(desc(workStations.id)).$dynamic(), query);
  return { workStations: rows.map(toDto), pagination };
}

/** GET get-workstation-options: `{ value, label, code }` by name or code, alphabetical. */
export async function listWorkStationOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string }): Promise<WorkStationOption[]> {
  const rows = await tx
    .select({ value: workStations.id, label: workStations.name, code: workStations.code })
    .from(workStations)
    .where(listWhere(orgId, query))
    .orderBy(asc(workStations.name), asc(workStations.id))
    .limit(query.pageSize);
  return rows;
}

/** The most recent stations, for the application data preload. */
export async function recentWorkStations(tx: ReadTx, orgId: number, limit = 100) {
  const rows = await readRecent(tx, 'workStations.recent', workStations, () => baseQuery(tx).$dynamic(), orgId, limit);
  return rows.map(toDto);
}

async function checkReferences(tx: Tx, orgId: number, input: WorkStationInput) {
  await requireReference(tx, orgId, teams, input.teamId, 'teamId', M.teamUnknown);
  await requireLocation(tx, orgId, input.locationId, 'locationId', M.locationUnknown);
}

const uniqueCode = (err: unknown) => {
  if (pgCode(err) === '23505') return conflict(M.codeTaken, 'code');
  return err;
};

/** Creates one work station (the add route, and the import, decision 042); returns its id. */
export async function createWorkStation(tx: Tx, orgId: number, userId: number, input: WorkStationInput): Promise<number> {
  await checkReferences(tx, orgId, input);
  const [created] = await tx
    .insert(workStations)
    .values({ orgId, ...input })
    .returning({ id: workStations.id })
    .catch((err) => {
      throw uniqueCode(err);
    });
  await history(tx, orgId, created.id, userId, 'created');
  return created.id;
}

/** POST add-workstation: the new station and the refreshed list. */
export const addWorkStation = addThenList(createWorkStation, {
  message: 'Work station added successfully',
  key: 'workStation',
  get: getWorkStation,
  list: listWorkStations,
});

/** PUT update-workstation/{id}: response `updatedWorkStation` (spec section 7). */
export async function updateWorkStation(tx: Tx, orgId: number, userId: number, id: number, input: WorkStationInput) {
  const before = await getWorkStation(tx, orgId, id);
  await checkReferences(tx, orgId, input);
  await tx
    .update(workStations)
    .set(input)
    .where(orgRow(workStations, orgId, id))
    .catch((err) => {
      throw uniqueCode(err);
    });
  const changes = diffChanges(before as unknown as Record<string, unknown>, input, ['code', 'name', 'city', 'teamId', 'locationId']);
  if (Object.keys(changes).length) await history(tx, orgId, id, userId, 'updated', changes);
  return { message: 'Work station updated successfully', updatedWorkStation: await getWorkStation(tx, orgId, id) };
}

/** DELETE delete-workstation/{id}: refused (409) while a service links to it; returns the refreshed list. */
export async function deleteWorkStation(tx: Tx, orgId: number, userId: number, id: number, query: WorkStationListQuery) {
  await getWorkStation(tx, orgId, id);
  const [{ used }] = await tx
    .select({ used: count() })
    .from(serviceWorkStations)
    .where(and(eq(serviceWorkStations.orgId, orgId), eq(serviceWorkStations.workStationId, id)));
  if (used > 0) throw conflict(M.inUse);
  await deleteOrgRow(tx, workStations, orgId, id, 'This work station is used by other records and cannot be deleted');
  await history(tx, orgId, id, userId, 'deleted');
  return { message: 'Work station deleted successfully', ...(await listWorkStations(tx, orgId, query)) };
}
