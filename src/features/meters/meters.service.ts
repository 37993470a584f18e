import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { assets, meterReadings, meters, users, workOrders } from '../../server/db/schema';
import { badRequest, conflict, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import { claimVersion, StaleEdit } from '../../server/stale-edit';
import { isDateInRange } from '../../shared/dates';
import {
  isNotInFuture,
  MAX_READING,
  METER_MESSAGES as M,
  type MeterDto,
  type MeterInput,
  type MeterUpdate,
  type ReadingDto,
  type ReadingExportQuery,
  type ReadingList,
  type ReadingListQuery,
  type ReadingSource,
} from './meters.schema';
import { readOrgRow, lockOrgRow } from '../../server/db/org-rows';

const readingColumns = {
  id: meterReadings.id,
  meterId: meterReadings.meterId,
  value: meterReadings.value,
  total: meterReadings.total,
  reset: meterReadings.reset,
  readAt: meterReadings.readAt,
  source: meterReadings.source,
  workOrderId: meterReadings.workOrderId,
  recordedById: meterReadings.recordedById,
  createdAt: meterReadings.createdAt,
  recordedBy: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
};

const readingsQuery = (tx: ReadTx) =>
  tx
    .select(readingColumns)
    .from(meterReadings)
    .leftJoin(users, and(eq(users.orgId, meterReadings.orgId), eq(users.id, meterReadings.recordedById)));

type ReadingRow = Awaited<ReturnType<ReturnType<typeof readingsQuery>['execute']>>[number];

const toReading = (r: ReadingRow): ReadingDto => ({
  ...r,
  value: Number(r.value),
  total: r.total === null ? null : Number(r.total),
  readAt: r.readAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
});

const meterColumns = {
  id: meters.id,
  assetId: meters.assetId,
  name: meters.name,
  kind: meters.kind,
  unit: meters.unit,
  description: meters.description,
  version: meters.version,
  createdAt: meters.createdAt,
};
type MeterRow = { [K in keyof typeof meterColumns]: (typeof meters.$inferSelect)[K] };

const toMeter = (m: MeterRow, latest: ReadingDto | null): MeterDto => ({ ...m, createdAt: m.createdAt.toISOString(), latestReading: latest });

/** The latest reading (by read time, then entry) of each meter named, in one statement; meters without readings are absent. */
export async function latestReadings(tx: ReadTx, orgId: number, meterIds: number[]): Promise<Map<number, ReadingDto>> {
  const ids = [...new Set(meterIds)];
  if (ids.length === 0) return new Map();
  // DISTINCT ON walks the (org, meter, read_at, id) index backwards per meter.
  const rows = await tx
    .selectDistinctOn([meterReadings.meterId], readingColumns)
    .from(meterReadings)
    .leftJoin(users, and(eq(users.orgId, meterReadings.orgId), eq(users.id, meterReadings.recordedById)))
    .where(and(eq(meterReadings.orgId, orgId), inArray(meterReadings.meterId, ids)))
    .orderBy(meterReadings.meterId, desc(meterReadings.readAt), desc(meterReadings.id));
  return new Map(rows.map((r) => [r.meterId, toReading(r)]));
}

/** One meter of the organisation with its latest reading; 404 when it is not theirs. */
export async function getMeter(tx: ReadTx, orgId: number, id: number): Promise<MeterDto> {
  const row = await readOrgRow(tx, meters, meterColumns, orgId, id);
  if (!row) throw notFound('Meter');
  return toMeter(row, (await latestReadings(tx, orgId, [id])).get(id) ?? null);
}

async function requireAsset(tx: ReadTx, orgId: number, assetId: number) {
  const row = await readOrgRow(tx, assets, { id: assets.id }, orgId, assetId);
  if (!row) throw notFound('Asset');
}

/** A reading as JSON inside a statement: the latest of a meter, carried in the meter's row. */
interface ReadingJson extends Omit<ReadingDto, 'readAt' | 'createdAt' | 'value' | 'total'> {
  value: number | string;
  total: number | string | null;
  readAt: string;
  createdAt: string;
}

/** The latest reading (by read time, then entry) of the meter of the outer row, as JSON: one backwards step of the index. */
const latestReadingJson = sql<ReadingJson | null>`(
  select json_build_object(
    'id', ${meterReadings.id}, 'meterId', ${meterReadings.meterId}, 'value', ${meterReadings.value}, 'total', ${meterReadings.total},
    'reset', ${meterReadings.reset}, 'readAt', ${meterReadings.readAt}, 'source', ${meterReadings.source},
    'workOrderId', ${meterReadings.workOrderId}, 'recordedById', ${meterReadings.recordedById},
    'recordedBy', nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), 'createdAt', ${meterReadings.createdAt})
  from ${meterReadings}
  left join ${users} on ${users.orgId} = ${meterReadings.orgId} and ${users.id} = ${meterReadings.recordedById}
  where ${meterReadings.orgId} = ${meters.orgId} and ${meterReadings.meterId} = ${meters.id}
  order by ${meterReadings.readAt} desc, ${meterReadings.id} desc
  limit 1)`;

const fromJson = (r: ReadingJson): ReadingDto => ({
  ...r,
  value: Number(r.value),
  total: r.total === null ? null : Number(r.total),
  readAt: new Date(r.readAt).toISOString(),
  createdAt: new Date(r.createdAt).toISOString(),
});

/**
 * GET list-meters?assetId=: the asset's meters by name, each with its latest reading, in one statement (the
 * asset, its meters and their latest readings seen at one instant); 404 for another organisation's asset.
 */
export async function listMeters(tx: ReadTx, orgId: number, assetId: number): Promise<{ meters: MeterDto[] }> {
  const rows = await tx
    .select({ asset: assets.id, meter: meterColumns, latest: latestReadingJson })
    .from(assets)
    .leftJoin(meters, and(eq(meters.orgId, assets.orgId), eq(meters.assetId, assets.id)))
    .where(and(eq(assets.orgId, orgId), eq(assets.id, assetId)))
    .orderBy(asc(sql`lower(${meters.name})`), asc(meters.id));
  if (rows.length === 0) throw notFound('Asset');
  return { meters: rows.flatMap(({ meter, latest }) => (meter ? [toMeter(meter as MeterRow, latest ? fromJson(latest) : null)] : [])) };
}

/** The readings of the organisation, of one meter or asset, read in [from, to] (absent filters left out). */
const readingsWhere = (orgId: number, q: { meterId?: number | null; assetId?: number | null; from?: Date; to?: Date }) =>
  and(
    eq(meterReadings.orgId, orgId),
    q.meterId ? eq(meterReadings.meterId, q.meterId) : undefined,
    q.assetId ? eq(meters.assetId, q.assetId) : undefined,
    q.from ? gte(meterReadings.readAt, q.from) : undefined,
    q.to ? lte(meterReadings.readAt, q.to) : undefined,
  );

/**
 * One batch of readings for an export (decision 042), each with its meter and asset: the readings filter,
 * newest entered first, ids below `before` (keyset), `limit` rows at a time.
 */
export async function exportReadingsBatch(tx: ReadTx, orgId: number, query: ReadingExportQuery, before: number, limit: number) {
  const rows = await tx
    .select({ ...readingColumns, meter: meters.name, unit: meters.unit, asset: assets.name })
    .from(meterReadings)
    .innerJoin(meters, and(eq(meters.orgId, meterReadings.orgId), eq(meters.id, meterReadings.meterId)))
    .innerJoin(assets, and(eq(assets.orgId, meters.orgId), eq(assets.id, meters.assetId)))
    .leftJoin(users, and(eq(users.orgId, meterReadings.orgId), eq(users.id, meterReadings.recordedById)))
    .where(and(readingsWhere(orgId, query), lt(meterReadings.id, before)))
    .orderBy(desc(meterReadings.id))
    .limit(limit);
  return rows.map(({ meter, unit, asset, ...r }) => ({ ...toReading(r), meter, unit, asset }));
}

/** GET list-meter-readings/:id: the meter and its latest `limit` readings in [from, to], oldest first. */
export async function listReadings(tx: ReadTx, orgId: number, meterId: number, range: ReadingListQuery): Promise<ReadingList> {
  const meter = await getMeter(tx, orgId, meterId);
  const rows = await readingsQuery(tx)
    .where(readingsWhere(orgId, { meterId, ...range }))
    .orderBy(desc(meterReadings.readAt), desc(meterReadings.id))
    .limit(range.limit + 1);
  const limited = rows.length > range.limit;
  return { meter, readings: rows.slice(0, range.limit).reverse().map(toReading), limited };
}

const nameTaken = (err: unknown) => pgCode(err) === '23505';

/** POST add-meter: the new meter and the asset's refreshed list. A second meter of the same name on the asset is a 409. */
export async function addMeter(tx: Tx, orgId: number, input: MeterInput) {
  await requireAsset(tx, orgId, input.assetId);
  let id: number;
  try {
    [{ id }] = await tx.transaction((sp) =>
      sp
        .insert(meters)
        .values({ orgId, assetId: input.assetId, name: input.name, kind: input.kind, unit: input.unit, description: input.description ?? null })
        .returning({ id: meters.id }),
    );
  } catch (err) {
    if (nameTaken(err)) throw conflict(M.nameTaken, 'name');
    throw err;
  }
  return { message: 'Meter added successfully', meter: await getMeter(tx, orgId, id), ...(await listMeters(tx, orgId, input.assetId)) };
}

/** PUT update-meter/:id: name, unit, description; the kind only while the meter has no readings. */
export async function updateMeter(tx: Tx, orgId: number, id: number, input: MeterUpdate) {
  if (!(await claimVersion(tx, meters, orgId, id, input.version))) throw new StaleEdit(await getMeter(tx, orgId, id));
  const before = await getMeter(tx, orgId, id);
  if (before.kind !== input.kind && before.latestReading) throw badRequest(M.kindLocked, 'kind');
  try {
    await tx.transaction((sp) =>
      sp
        .update(meters)
        .set({ name: input.name, kind: input.kind, unit: input.unit, description: input.description ?? null })
        .where(and(eq(meters.orgId, orgId), eq(meters.id, id))),
    );
  } catch (err) {
    if (nameTaken(err)) throw conflict(M.nameTaken, 'name');
    throw err;
  }
  return { message: 'Meter updated successfully', meter: await getMeter(tx, orgId, id) };
}

/** DELETE delete-meter/:id: the meter and all its readings (cascade); returns the asset's refreshed list. */
export async function deleteMeter(tx: Tx, orgId: number, id: number) {
  const meter = await getMeter(tx, orgId, id);
  await tx.delete(meters).where(and(eq(meters.orgId, orgId), eq(meters.id, id)));
  return { message: 'Meter deleted successfully', ...(await listMeters(tx, orgId, meter.assetId)) };
}

/** What `recordReading` takes; `readAt` defaults to now. */
export interface RecordReadingInput {
  meterId: number;
  value: number;
  readAt?: Date;
  source: ReadingSource;
  workOrderId?: number | null;
  /** A counter restarted from zero before this reading (replaced, or rolled over). Refused on a gauge. */
  reset?: boolean;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Records one reading of a meter and returns it (decision 031). For every caller: the asset screen, the CSV
 * import, a work order's procedure step. Checks, each a 400 naming its field:
 * - `readAt` a valid date (years of dates.ts) and not later than now plus `FUTURE_TOLERANCE_MS`;
 * - `value` finite and within ±`MAX_READING`;
 * - a counter: not negative; not lower than the reading before it in time unless `reset`; not higher than the
 *   reading after it (a reading added in the past) unless that one is a reset; a gauge cannot be `reset`;
 * - `source: 'work-order'` names a work order of the organisation, of the meter's asset (or of none).
 * A counter's `total` (usage since its first reading, across resets) is set, and the totals after it are moved
 * when the new reading changes them. The meter row is locked first, so concurrent readings of one meter queue.
 * 404 `Meter not found` when the meter is not the organisation's.
 */
export async function recordReading(tx: Tx, orgId: number, input: RecordReadingInput, userId: number | null): Promise<ReadingDto> {
  const meter = await lockOrgRow(tx, meters, { id: meters.id, kind: meters.kind, assetId: meters.assetId }, orgId, input.meterId);
  if (!meter) throw notFound('Meter');
  const readAt = input.readAt ?? new Date();
  if (!(readAt instanceof Date) || Number.isNaN(readAt.getTime()) || !isDateInRange(readAt)) throw badRequest(M.readAtInvalid, 'readAt');
  if (!isNotInFuture(readAt)) throw badRequest(M.readAtFuture, 'readAt');
  const value = round4(input.value);
  if (!Number.isFinite(input.value)) throw badRequest(M.valueInvalid, 'value');
  if (Math.abs(value) > MAX_READING) throw badRequest(M.valueRange, 'value');
  const reset = input.reset ?? false;
  if (meter.kind === 'gauge' && reset) throw badRequest(M.resetGauge, 'reset');
  if (meter.kind === 'counter' && value < 0) throw badRequest(M.counterNegative, 'value');
  if (input.source === 'work-order' && !input.workOrderId) throw badRequest(M.workOrderRequired, 'workOrderId');
  if (input.workOrderId) {
    const wo = await readOrgRow(tx, workOrders, { assetId: workOrders.assetId }, orgId, input.workOrderId);
    if (!wo) throw badRequest(M.workOrderUnknown, 'workOrderId');
    if (wo.assetId !== null && wo.assetId !== meter.assetId) throw badRequest(M.workOrderOtherAsset, 'workOrderId');
  }

  let total: number | null = null;
  let shift = 0;
  if (meter.kind === 'counter') {
    const ofMeter = and(eq(meterReadings.orgId, orgId), eq(meterReadings.meterId, meter.id));
    // The reading nearest to the new one on one side, by time then id.
    const nearest = (side: SQL, order: typeof asc) =>
      tx
        .select({ value: meterReadings.value, total: meterReadings.total, reset: meterReadings.reset })
        .from(meterReadings)
        .where(and(ofMeter, side))
        .orderBy(order(meterReadings.readAt), order(meterReadings.id))
        .limit(1);
    // The new reading sorts after every reading at the same instant (its id is the largest).
    const [prev] = await nearest(lte(meterReadings.readAt, readAt), desc);
    const [next] = await nearest(gt(meterReadings.readAt, readAt), asc);
    if (prev && !reset && value < Number(prev.value)) throw badRequest(M.counterLower, 'value');
    if (next && !next.reset && value > Number(next.value)) throw badRequest(M.counterHigher, 'value');
    // Usage since the first reading: each reading adds its rise over the one before, a reset (or the first) its value.
    const rise = !prev || reset ? value : value - Number(prev.value);
    total = round4((prev ? Number(prev.total ?? 0) : 0) + rise);
    if (next && !next.reset) {
      // `next` rose from prev before and rises from this reading now; every later total moves by the difference.
      const nextRiseBefore = prev ? Number(next.value) - Number(prev.value) : Number(next.value);
      shift = round4(rise + (Number(next.value) - value) - nextRiseBefore);
    } else if (next) {
      shift = rise;
    }
  }

  const [created] = await tx
    .insert(meterReadings)
    .values({ orgId, meterId: meter.id, value, total, reset, readAt, source: input.source, workOrderId: input.workOrderId ?? null, recordedById: userId })
    .returning({ id: meterReadings.id });
  if (shift !== 0) {
    await tx
      .update(meterReadings)
      .set({ total: sql`${meterReadings.total} + ${shift}` })
      .where(and(eq(meterReadings.orgId, orgId), eq(meterReadings.meterId, meter.id), gt(meterReadings.readAt, readAt)));
  }
  const [row] = await readingsQuery(tx).where(and(eq(meterReadings.orgId, orgId), eq(meterReadings.id, created.id)));
  return toReading(row);
}

/** POST add-meter-reading: the new reading and its asset's refreshed meters. */
export async function recordReadingOnAsset(tx: Tx, orgId: number, input: RecordReadingInput, userId: number) {
  const reading = await recordReading(tx, orgId, input, userId);
  const [{ assetId }] = await tx
    .select({ assetId: meters.assetId })
    .from(meters)
    .where(and(eq(meters.orgId, orgId), eq(meters.id, input.meterId)));
  return { message: 'Reading added successfully', reading, ...(await listMeters(tx, orgId, assetId)) };
}
