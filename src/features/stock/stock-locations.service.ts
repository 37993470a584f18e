import { countedPage } from '../../server/db/paging';
import { and, asc, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { locations, stockLevels, stockLocations, stockSettings } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { escapeLike } from '../../server/db/like';
import { pathsOf, subtreeIds } from '../locations/location-tree';
import { requireLocation as requirePlace } from '../locations/locations.service';
import { STOCK_MESSAGES as M, type LocationDto, type LocationInput, type LocationList, type LocationListQuery, type StockSettings } from './stock.schema';
import { readOrgRow, readOrgSettings, saveOrgSettings } from '../../server/db/org-rows';

// Stock locations (storerooms, vans, site stores) and the organisation's stock settings (decision 071).

export const DEFAULT_LOCATION_NAME = 'Main store';

// ---- Locations ----

const locationColumns = {
  id: stockLocations.id,
  name: stockLocations.name,
  kind: stockLocations.kind,
  isDefault: stockLocations.isDefault,
  locationId: stockLocations.locationId,
  placeName: locations.name,
  createdAt: stockLocations.createdAt,
};
type LocationRow = {
  id: number;
  name: string;
  kind: LocationDto['kind'];
  isDefault: boolean;
  locationId: number | null;
  placeName: string | null;
  createdAt: Date;
};

/** Rows as the API shows them, each with its place in the location tree (issue 42) and that place's path. */
async function toLocationDtos(tx: ReadTx, orgId: number, rows: LocationRow[]): Promise<LocationDto[]> {
  const paths = await pathsOf(
    tx,
    orgId,
    rows.flatMap((r) => (r.locationId === null ? [] : [r.locationId])),
  );
  return rows.map(({ placeName, ...r }) => ({
    ...r,
    location: r.locationId !== null && placeName !== null ? { id: r.locationId, name: placeName, path: paths.get(r.locationId) ?? placeName } : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Stock locations joined to their place in the location tree. */
const locationsQuery = (tx: ReadTx) =>
  tx
    .select(locationColumns)
    .from(stockLocations)
    .leftJoin(locations, and(eq(locations.orgId, stockLocations.orgId), eq(locations.id, stockLocations.locationId)));

/**
 * The organisation's default location, made ("Main store") the first time a write needs it: organisations before
 * decision 071 got theirs in the migration, new ones get it with their first stock.
 */
export async function defaultLocationId(tx: Tx, orgId: number): Promise<number> {
  const find = () =>
    tx
      .select({ id: stockLocations.id })
      .from(stockLocations)
      .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.isDefault, true)));
  const [found] = await find();
  if (found) return found.id;
  await tx.insert(stockLocations).values({ orgId, name: DEFAULT_LOCATION_NAME, kind: 'storeroom', isDefault: true }).onConflictDoNothing();
  const [made] = await find();
  return made.id;
}

/** One location of the organisation; 404 when it is not theirs. */
export async function getLocation(tx: ReadTx, orgId: number, id: number): Promise<LocationDto> {
  const [row] = await locationsQuery(tx).where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id)));
  if (!row) throw notFound('Location');
  return (await toLocationDtos(tx, orgId, [row]))[0];
}

function locationWhere(orgId: number, query: { name?: string; kind?: string[]; locationId?: number }) {
  return and(
    eq(stockLocations.orgId, orgId),
    query.name ? ilike(stockLocations.name, `%${escapeLike(query.name)}%`) : undefined,
    query.kind?.length ? inArray(stockLocations.kind, query.kind as LocationDto['kind'][]) : undefined,
    // A place of the tree and everything under it (decision 072).
    query.locationId ? sql`${stockLocations.locationId} in ${subtreeIds('locations', orgId, query.locationId)}` : undefined,
  );
}

/** GET get-locations: the default first, then by name. */
export async function listLocations(tx: ReadTx, orgId: number, query: LocationListQuery): Promise<LocationList> {
  const where = locationWhere(orgId, query);
  const { rows, pagination } = await countedPage(
    tx,
    stockLocations,
    where,
    locationsQuery(tx).where(where).orderBy(desc(stockLocations.isDefault), asc(stockLocations.name), asc(stockLocations.id)).$dynamic(),
    query,
  );
  return { locations: await toLocationDtos(tx, orgId, rows), pagination };
}

/** GET get-location-options: every location as `{ value, label, kind, isDefault }` (an organisation has few). */
export async function listLocationOptions(tx: ReadTx, orgId: number) {
  const rows = await tx
    .select({ id: stockLocations.id, name: stockLocations.name, kind: stockLocations.kind, isDefault: stockLocations.isDefault })
    .from(stockLocations)
    .where(eq(stockLocations.orgId, orgId))
    .orderBy(desc(stockLocations.isDefault), asc(stockLocations.name))
    .limit(500);
  return rows.map((r) => ({ value: r.id, label: r.name, kind: r.kind, isDefault: r.isDefault }));
}

async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict(M.nameTaken, 'name');
    throw err;
  }
}

/** POST add-location: the new location and the refreshed list. The first location of an organisation is its default. */
export async function addLocation(tx: Tx, orgId: number, input: LocationInput, query: LocationListQuery) {
  await requirePlace(tx, orgId, input.locationId, 'locationId', M.locationUnknown);
  const [any] = await tx.select({ id: stockLocations.id }).from(stockLocations).where(eq(stockLocations.orgId, orgId)).limit(1);
  const [created] = await uniqueName(() =>
    tx.transaction((sp) =>
      sp
        .insert(stockLocations)
        .values({ orgId, name: input.name, kind: input.kind, locationId: input.locationId ?? null, isDefault: !any })
        .returning({ id: stockLocations.id }),
    ),
  );
  return { message: 'Location added successfully', location: await getLocation(tx, orgId, created.id), ...(await listLocations(tx, orgId, query)) };
}

/** PUT update-location/{id}. */
export async function updateLocation(tx: Tx, orgId: number, id: number, input: LocationInput) {
  await getLocation(tx, orgId, id);
  await requirePlace(tx, orgId, input.locationId, 'locationId', M.locationUnknown);
  await uniqueName(() =>
    tx.transaction((sp) =>
      sp
        .update(stockLocations)
        .set({ name: input.name, kind: input.kind, ...(input.locationId !== undefined ? { locationId: input.locationId } : {}) })
        .where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id))),
    ),
  );
  return { message: 'Location updated successfully', location: await getLocation(tx, orgId, id) };
}

/** DELETE delete-location/{id}: not the default, nor one with stock, history or work order lines (409). */
export async function deleteLocation(tx: Tx, orgId: number, id: number, query: LocationListQuery) {
  const location = await getLocation(tx, orgId, id);
  if (location.isDefault) throw conflict(M.defaultKept);
  const [stocked] = await tx
    .select({ n: count() })
    .from(stockLevels)
    .where(and(eq(stockLevels.orgId, orgId), eq(stockLevels.locationId, id), sql`${stockLevels.quantity} <> 0`));
  if (stocked.n > 0) throw conflict(M.locationInUse);
  try {
    await tx.transaction((sp) => sp.delete(stockLocations).where(and(eq(stockLocations.orgId, orgId), eq(stockLocations.id, id))));
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict(M.locationInUse);
    throw err;
  }
  return { message: 'Location deleted successfully', ...(await listLocations(tx, orgId, query)) };
}

/** A location of the organisation by id (400 on `field` when it is not theirs). */
export async function requireLocation(tx: Tx, orgId: number, id: number, field: string) {
  const row = await readOrgRow(tx, stockLocations, { id: stockLocations.id, name: stockLocations.name }, orgId, id);
  if (!row) throw badRequest(M.locationUnknown, field);
  return row;
}

// ---- Settings ----

/** The organisation's stock settings (defaults when it never set them). */
export async function getStockSettings(tx: ReadTx, orgId: number): Promise<StockSettings> {
  return readOrgSettings(tx, stockSettings, { allowNegativeStock: stockSettings.allowNegativeStock }, orgId, { allowNegativeStock: false });
}

/** PUT update-stock-settings (managers). */
export async function updateStockSettings(tx: Tx, orgId: number, input: StockSettings) {
  await saveOrgSettings(tx, stockSettings, orgId, input);
  return { message: 'Stock settings updated successfully', settings: await getStockSettings(tx, orgId) };
}
