import { addThenList } from '../../server/add-answer';
import { and, count, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { assets, locations, stockLocations, workStations } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { rowsOf } from '../../server/db/rows';
import { escapeLike } from '../../server/db/like';
import { pagination } from '../../shared/pagination';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import {
  LOCATION_MESSAGES as M,
  LOCATION_TREE_CAP,
  type LocationDto,
  type LocationInput,
  type LocationList,
  type LocationListQuery,
  type LocationNode,
  type LocationOption,
} from './locations.schema';
import { lockTree, subtreeIds, wouldCycle } from './location-tree';
import { orgRow, deleteOrgRow, readOrgRow } from '../../server/db/org-rows';

const history = registerActivityEntity('location', locations, 'Location');

type PathRow = {
  id: number;
  name: string;
  code: string | null;
  parent_id: number | null;
  path: string;
  depth: number;
  parent_name: string | null;
  created_at: string | Date;
};

/**
 * Every location of the organisation with its path from the top (a recursive CTE from the roots down), filtered
 * by `where` (alias `p`) and paged. The organisation's whole tree is walked: locations number in the hundreds or
 * thousands, not millions.
 */
function withPaths(orgId: number, where = sql`true`) {
  return sql`with recursive tree(id, path, depth) as (
      select l.id, l.name::text, 0 from locations l where l.org_id = ${orgId}::int and l.parent_id is null
      union all
      select c.id, tree.path || ' / ' || c.name, tree.depth + 1 from locations c join tree on c.parent_id = tree.id where c.org_id = ${orgId}::int
    ), p as (
      select l.id, l.name, l.code, l.parent_id, tree.path, tree.depth, parent.name as parent_name, l.created_at
      from tree join locations l on l.org_id = ${orgId}::int and l.id = tree.id
      left join locations parent on parent.org_id = l.org_id and parent.id = l.parent_id
    ) select * from p where ${where}`;
}

const toDto = (r: PathRow): LocationDto => ({
  id: r.id,
  name: r.name,
  code: r.code,
  parentId: r.parent_id,
  path: r.path,
  depth: Number(r.depth),
  Parent: r.parent_id !== null && r.parent_name !== null ? { id: r.parent_id, name: r.parent_name } : null,
  createdAt: new Date(r.created_at).toISOString(),
});

/** One location with its path; 404 when it is not the organisation's. */
export async function getLocation(tx: ReadTx, orgId: number, id: number): Promise<LocationDto> {
  const [row] = rowsOf<PathRow>(await tx.execute(withPaths(orgId, sql`p.id = ${id}::int`)));
  if (!row) throw notFound('Location');
  return toDto(row);
}

/** GET get-location/{id}: the location and what is in it and everything under it. */
export async function getLocationDetail(tx: ReadTx, orgId: number, id: number) {
  const location = await getLocation(tx, orgId, id);
  const sub = subtreeIds('locations', sql`${orgId}::int`, sql`${id}::int`);
  const [row] = rowsOf<{ locations: number; assets: number; work_stations: number }>(
    await tx.execute(sql`select
        (select count(*)::int from locations l where l.org_id = ${orgId}::int and l.id in ${sub}) - 1 as locations,
        (select count(*)::int from assets a where a.org_id = ${orgId}::int and a.location_id in ${sub}) as assets,
        (select count(*)::int from work_stations w where w.org_id = ${orgId}::int and w.location_id in ${sub}) as work_stations`),
  );
  return { location, summary: { locations: Number(row.locations), assets: Number(row.assets), workStations: Number(row.work_stations) } };
}

function listWhere(query: { name?: string; under?: number }, orgId: number) {
  const like = query.name ? `%${escapeLike(query.name)}%` : undefined;
  return sql.join(
    [
      sql`true`,
      like ? sql`(p.name ilike ${like} or p.code ilike ${like})` : undefined,
      query.under ? sql`p.id in ${subtreeIds('locations', sql`${orgId}::int`, sql`${query.under}::int`)}` : undefined,
    ].filter((c) => c !== undefined),
    sql` and `,
  );
}

/** GET get-locations: a page of locations in tree order (by path), filtered by name/code and by a subtree. */
export async function listLocations(tx: ReadTx, orgId: number, query: LocationListQuery): Promise<LocationList> {
  const where = listWhere(query, orgId);
  const [{ total }] = rowsOf<{ total: number }>(await tx.execute(sql`select count(*)::int as total from (${withPaths(orgId, where)}) x`));
  const rows = rowsOf<PathRow>(
    await tx.execute(sql`${withPaths(orgId, where)} order by p.path, p.id limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
  );
  return { locations: rows.map(toDto), pagination: pagination(Number(total), query.page, query.pageSize) };
}

/** Every location of the organisation with its path (the import resolves codes, paths and names against them). */
export async function locationPaths(tx: ReadTx, orgId: number): Promise<{ id: number; name: string; code: string | null; path: string }[]> {
  return rowsOf<PathRow>(await tx.execute(sql`${withPaths(orgId)} order by p.path, p.id`)).map((r) => ({ id: r.id, name: r.name, code: r.code, path: r.path }));
}

/** GET get-location-tree: every location (up to LOCATION_TREE_CAP) with what is directly in it. */
export async function locationTree(tx: ReadTx, orgId: number): Promise<{ locations: LocationNode[]; truncated: boolean }> {
  const rows = rowsOf<{ id: number; name: string; code: string | null; parent_id: number | null; assets: number; work_stations: number }>(
    await tx.execute(sql`select l.id, l.name, l.code, l.parent_id,
        (select count(*)::int from assets a where a.org_id = l.org_id and a.location_id = l.id) as assets,
        (select count(*)::int from work_stations w where w.org_id = l.org_id and w.location_id = l.id) as work_stations
      from locations l where l.org_id = ${orgId}::int order by lower(l.name), l.id limit ${LOCATION_TREE_CAP + 1}`),
  );
  const truncated = rows.length > LOCATION_TREE_CAP;
  return {
    locations: rows
      .slice(0, LOCATION_TREE_CAP)
      .map((r) => ({ id: r.id, name: r.name, code: r.code, parentId: r.parent_id, assets: Number(r.assets), workStations: Number(r.work_stations) })),
    truncated,
  };
}

/** GET get-location-options: `{ value, label, code, path }` by name or code, in tree order. */
export async function listLocationOptions(tx: ReadTx, orgId: number, query: { pageSize: number; name?: string }): Promise<LocationOption[]> {
  const rows = rowsOf<PathRow>(await tx.execute(sql`${withPaths(orgId, listWhere(query, orgId))} order by p.path, p.id limit ${query.pageSize}`));
  return rows.map((r) => ({ value: r.id, label: r.name, code: r.code, path: r.path }));
}

/** 400 naming `field` unless `id` is a location of the organisation (other areas check their locationId with it). */
export async function requireLocation(tx: Tx, orgId: number, id: number | null | undefined, field = 'locationId', message: string = M.locationUnknown) {
  if (id === null || id === undefined) return;
  const row = await readOrgRow(tx, locations, { id: locations.id }, orgId, id);
  if (!row) throw badRequest(message, field);
}

/** The parent must be the organisation's, and not the location itself or one of its children (no cycle). */
async function checkParent(tx: Tx, orgId: number, id: number | null, parentId: number | null | undefined) {
  if (parentId === null || parentId === undefined) return;
  await requireLocation(tx, orgId, parentId, 'parentId', M.parentUnknown);
  if (id !== null && (await wouldCycle(tx, 'locations', orgId, id, parentId))) throw badRequest(M.cycle, 'parentId');
}

const uniqueness = (err: unknown) => {
  if (pgCode(err) === '23505') {
    const text = String((err as { message?: string }).message ?? '') + String((err as { cause?: { message?: string } }).cause?.message ?? '');
    if (text.includes('locations_org_code_key')) return conflict(M.codeTaken, 'code');
    return conflict(M.nameTaken, 'name');
  }
  return err;
};

/** Inserts one location (the add route and the import); returns its id. */
export async function createLocation(tx: Tx, orgId: number, userId: number, input: LocationInput): Promise<number> {
  await checkParent(tx, orgId, null, input.parentId);
  const [created] = await tx
    .transaction((sp) =>
      sp
        .insert(locations)
        .values({ orgId, name: input.name, code: input.code ?? null, parentId: input.parentId ?? null })
        .returning({ id: locations.id }),
    )
    .catch((err) => {
      throw uniqueness(err);
    });
  await history(tx, orgId, created.id, userId, 'created');
  return created.id;
}

/** POST add-location: the new location and the refreshed list. */
export const addLocation = addThenList(createLocation, { message: 'Location added successfully', key: 'location', get: getLocation, list: listLocations });

/**
 * PUT update-location/{id}: name, code and parent. A parent absent from the body keeps the current one; a new
 * parent moves the location with everything under it (refused when it would make a cycle).
 */
export async function updateLocation(tx: Tx, orgId: number, userId: number, id: number, input: LocationInput) {
  await lockTree(tx, 'locations', orgId);
  const before = await getLocation(tx, orgId, id);
  const parentId = input.parentId === undefined ? before.parentId : input.parentId;
  if (parentId !== before.parentId) await checkParent(tx, orgId, id, parentId);
  const values = { name: input.name, code: input.code ?? null, parentId };
  await tx
    .transaction((sp) =>
      sp
        .update(locations)
        .set(values)
        .where(orgRow(locations, orgId, id)),
    )
    .catch((err) => {
      throw uniqueness(err);
    });
  const changes = diffChanges(before as unknown as Record<string, unknown>, values, ['name', 'code', 'parentId']);
  if (Object.keys(changes).length) await history(tx, orgId, id, userId, 'updated', changes);
  return { message: 'Location updated successfully', location: await getLocation(tx, orgId, id) };
}

/** POST move-location/{id}: under another location (or to the top, null) with everything under it. */
export async function moveLocation(tx: Tx, orgId: number, userId: number, id: number, parentId: number | null) {
  await lockTree(tx, 'locations', orgId);
  const before = await getLocation(tx, orgId, id);
  if (parentId !== before.parentId) {
    await checkParent(tx, orgId, id, parentId);
    await tx
      .transaction((sp) =>
        sp
          .update(locations)
          .set({ parentId })
          .where(orgRow(locations, orgId, id)),
      )
      .catch((err) => {
        throw uniqueness(err);
      });
    await history(tx, orgId, id, userId, 'updated', { parentId: { from: before.parentId, to: parentId } });
  }
  return { message: 'Location moved successfully', location: await getLocation(tx, orgId, id) };
}

/** DELETE delete-location/{id}: refused (409) while locations are under it or assets or work stations are in it. */
export async function deleteLocation(tx: Tx, orgId: number, userId: number, id: number, query: LocationListQuery) {
  await lockTree(tx, 'locations', orgId);
  await getLocation(tx, orgId, id);
  const [{ children }] = await tx
    .select({ children: count() })
    .from(locations)
    .where(and(eq(locations.orgId, orgId), eq(locations.parentId, id)));
  if (children > 0) throw conflict(M.hasChildren);
  const [{ inAssets }] = await tx
    .select({ inAssets: count() })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.locationId, id)));
  const [{ inStations }] = await tx
    .select({ inStations: count() })
    .from(workStations)
    .where(and(eq(workStations.orgId, orgId), eq(workStations.locationId, id)));
  if (inAssets + inStations > 0) throw conflict(M.hasContents);
  const [{ inStock }] = await tx
    .select({ inStock: count() })
    .from(stockLocations)
    .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.locationId, id)));
  if (inStock > 0) throw conflict(M.hasStorerooms);
  await deleteOrgRow(tx, locations, orgId, id, M.hasContents);
  await history(tx, orgId, id, userId, 'deleted');
  return { message: 'Location deleted successfully', ...(await listLocations(tx, orgId, query)) };
}
