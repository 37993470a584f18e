import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ZodType } from 'zod';
import type { ReadTx } from '../../server/db/client';
import { meters, pmPlans, procedures, teams, workStations } from '../../server/db/schema';
import { addPlan, getPlan, namePlans, setPaused, updatePlan } from '../pm-plans/pm-plans.service';
import { PLAN_MESSAGES, planInputSchema, type PlanDto, type PlanListQuery, type PlanValues } from '../pm-plans/pm-plans.schema';
import { IMPORT_MESSAGES, type ImportKind } from './data-transfer.schema';
import { type Current, type Importer, cellsOf, check, columnCells, eachRow, listCell, listOf, lookup, lower, readEach, readyRows } from './import-rows';
import { assetOf, assetsNamed, membersOf, partsNamed, personOf } from './import-work-orders';

// PM plans import (decision 059): one row per plan, the shape of the pm-plans export; the records a plan names
// (assets, station, team, procedure, people, parts, meter) are looked up in the importing organisation only.

/** A plan row ready to write: the drawer's input and whether the plan is paused. */
interface PlanRow {
  plan: PlanValues;
  paused: boolean;
}

const ONE_ROW = { page: 1, pageSize: 1 } as PlanListQuery;

/** The file's column of a plan field's issue. */
const PLAN_COLUMNS = (path: readonly PropertyKey[]) => {
  const [field, , part] = path.map(String);
  const columns: Record<string, string> = {
    assetIds: 'assets',
    workStationId: 'workStation',
    teamId: 'team',
    procedureId: 'procedure',
    meterId: 'meter',
    frequency: 'trigger',
    interval: 'trigger',
  };
  if (field === 'parts') return part === 'quantity' ? 'parts' : 'parts';
  return field === undefined ? null : (columns[field] ?? field);
};

/** `2 x BRG-6204` (or a part's name alone: one). */
const partLine = (cell: string) => {
  const m = /^(\d+)\s*[x×]\s+(.+)$/i.exec(cell);
  return m ? { quantity: m[1], part: m[2].trim() } : { quantity: '1', part: cell };
};

/** Procedures by name (lower case) -> ids (several when names repeat). */
async function proceduresNamed(tx: ReadTx, orgId: number, names: string[]) {
  const found = new Map<string, number[]>();
  const wanted = [...new Set(names.map(lower))];
  if (!wanted.length) return found;
  const rows = await tx
    .select({ id: procedures.id, name: procedures.name })
    .from(procedures)
    .where(and(eq(procedures.orgId, orgId), inArray(sql`lower(${procedures.name})`, wanted)));
  for (const r of rows) found.set(lower(r.name), [...(found.get(lower(r.name)) ?? []), r.id]);
  return found;
}

/** Meters by name (lower case) -> their ids and assets. */
async function metersNamed(tx: ReadTx, orgId: number, names: string[]) {
  const found = new Map<string, { id: number; assetId: number }[]>();
  const wanted = [...new Set(names.map(lower))];
  if (!wanted.length) return found;
  const rows = await tx
    .select({ id: meters.id, name: meters.name, assetId: meters.assetId })
    .from(meters)
    .where(and(eq(meters.orgId, orgId), inArray(sql`lower(${meters.name})`, wanted)));
  for (const r of rows) found.set(lower(r.name), [...(found.get(lower(r.name)) ?? []), { id: r.id, assetId: r.assetId }]);
  return found;
}

export const PM_PLAN_IMPORTERS: Pick<Record<ImportKind, Importer>, 'pm-plans'> = {
  'pm-plans': {
    key: { table: pmPlans, orgId: pmPlans.orgId, id: pmPlans.id, column: pmPlans.name },
    async prepare(tx, run, rows) {
      const members = await membersOf(tx, run.orgId);
      const found = await assetsNamed(
        tx,
        run.orgId,
        rows.flatMap((r) => listOf(r.cells.assets)),
      );
      const stations = await lookup(tx, workStations, run.orgId);
      const teamIds = await lookup(tx, teams, run.orgId);
      const procs = await proceduresNamed(tx, run.orgId, columnCells(rows, 'procedure'));
      const partIds = await partsNamed(
        tx,
        run.orgId,
        rows.flatMap((r) => listOf(r.cells.parts).map((c) => partLine(c).part)),
      );
      const meterIds = await metersNamed(tx, run.orgId, columnCells(rows, 'meter'));
      return readyRows(rows, ({ row, cells, match }) => {
        const problem = (column: string, message: string) => run.problems.push({ row, column, message });
        // 1 stands in for an unknown one: the row is refused anyway, the schema checks the rest.
        const assetIds = [...new Set(listOf(cells.assets).map((cell) => assetOf(run, found, match?.links, cell, row, 'assets') ?? 1))];
        const workStationId = cells.workStation ? stations.get(lower(cells.workStation)) : undefined;
        if (cells.workStation && workStationId === undefined) problem('workStation', IMPORT_MESSAGES.stationUnknown);
        const teamId = cells.team ? teamIds.get(lower(cells.team)) : undefined;
        if (cells.team && teamId === undefined) problem('team', IMPORT_MESSAGES.teamUnknown);
        const procIds = cells.procedure ? (procs.get(lower(cells.procedure)) ?? []) : [];
        const procedureId = procIds.length === 1 ? procIds[0] : (match?.links?.get(`procedure:${lower(cells.procedure ?? '')}`) ?? undefined);
        if (cells.procedure && procedureId === undefined)
          problem('procedure', procIds.length ? IMPORT_MESSAGES.procedureAmbiguous : IMPORT_MESSAGES.procedureUnknown);
        const assignees = listOf(cells.assignees).map((name) => personOf(run, members, match?.links, name, row, 'assignees') ?? 1);
        const parts = listOf(cells.parts).map((cell) => {
          const { part, quantity } = partLine(cell);
          const ids = partIds(part);
          const partId = match?.links?.get(`part:${lower(part)}`) ?? (ids.length === 1 ? ids[0] : undefined);
          if (partId === undefined) problem('parts', ids.length ? IMPORT_MESSAGES.partAmbiguous : IMPORT_MESSAGES.partUnknown);
          return { partId: partId ?? 1, quantity };
        });
        // The meter is one of the plan's assets' (the plan's own rule says so when it is not).
        const candidates = cells.meter ? (meterIds.get(lower(cells.meter)) ?? []) : [];
        const meter = candidates.find((m) => assetIds.includes(m.assetId)) ?? (candidates.length === 1 ? candidates[0] : undefined);
        if (cells.meter && !meter) problem('meter', PLAN_MESSAGES.meterNotFound);
        const state = lower(cells.state ?? 'active');
        if (state !== 'active' && state !== 'paused') problem('state', IMPORT_MESSAGES.planState);
        const [trigger, frequency, interval] = (cells.trigger ?? '').split(/\s+/).filter(Boolean).map(lower);
        const body = {
          name: cells.name,
          title: cells.title,
          assetIds,
          workStationId: cells.workStation ? (workStationId ?? 1) : undefined,
          teamId: cells.team ? (teamId ?? 1) : undefined,
          procedureId: cells.procedure ? (procedureId ?? 1) : undefined,
          assignees: [...new Set(assignees)],
          parts,
          instructions: cells.instructions,
          priority: cells.priority ? lower(cells.priority) : undefined,
          duration: cells.duration,
          trigger,
          frequency,
          interval,
          weekdays: listOf(cells.weekdays).map((d) => d.toUpperCase()),
          monthlyMode: cells.monthlyMode ? lower(cells.monthlyMode) : undefined,
          monthDay: cells.monthDay,
          monthWeek: cells.monthWeek,
          monthWeekday: cells.monthWeekday?.toUpperCase(),
          schedule: cells.schedule ? lower(cells.schedule) : undefined,
          startDate: cells.startDate,
          endDate: cells.endDate,
          leadDays: cells.leadDays,
          meterId: cells.meter ? (meter?.id ?? 1) : undefined,
          meterEvery: cells.meterEvery,
          meterThreshold: cells.meterThreshold,
          meterLeadUnits: cells.meterLeadUnits,
        };
        const plan = check<PlanValues>(planInputSchema as unknown as ZodType<PlanValues>, body, row, PLAN_COLUMNS, run.problems);
        return plan && { input: { plan, paused: state === 'paused' } satisfies PlanRow };
      });
    },
    // Through the plans' own service (its reference checks); a paused plan is then paused as the screen does.
    write: (tx, run, ready) =>
      eachRow<PlanRow>(tx, run, ready, PLAN_COLUMNS, async (one, { plan, paused }) => {
        const { plan: added } = await addPlan(one, run.orgId, run.actor, plan, ONE_ROW);
        if (paused) await setPaused(one, run.orgId, run.actor, added.id, true);
        return added.id;
      }),
    current: async (tx, run, ids) => {
      const plans: PlanDto[] = [];
      // an id the organisation lacks (404) is left out
      await readEach(
        ids,
        (id) => getPlan(tx, run.orgId, id),
        (plan) => (plans.push(plan), { id: plan.id, cells: {} }),
      );
      return (await namePlans(tx, run.orgId, plans)).map((p): Current => {
        const n = p.names;
        const links = new Map<string, number>();
        p.assetIds.forEach((id, i) => links.set(`asset:${lower(n.assets[i])}`, id));
        p.parts.forEach((l, i) => links.set(`part:${lower(n.parts[i].part)}`, l.partId));
        p.assignees.forEach((id, i) => links.set(`assignees:${lower(n.assignees[i])}`, id));
        if (p.procedureId && n.procedure) links.set(`procedure:${lower(n.procedure)}`, p.procedureId);
        return {
          id: p.id,
          updatedAt: p.updatedAt,
          links,
          cells: cellsOf({
            name: p.name,
            trigger: `${p.trigger} ${p.frequency} ${p.interval}`,
            state: p.paused ? 'paused' : 'active',
            title: p.title,
            assets: listCell(n.assets),
            workStation: n.workStation,
            priority: p.priority,
            duration: p.duration,
            team: p.team?.name,
            procedure: n.procedure,
            assignees: listCell(n.assignees),
            parts: listCell(n.parts.map((l) => `${l.quantity} x ${l.part}`)),
            weekdays: listCell(p.weekdays),
            monthlyMode: p.monthlyMode,
            monthDay: p.monthDay,
            monthWeek: p.monthWeek,
            monthWeekday: p.monthWeekday,
            schedule: p.schedule,
            startDate: p.startDate,
            endDate: p.endDate,
            leadDays: p.leadDays,
            meter: n.meter,
            meterEvery: p.meterEvery,
            meterThreshold: p.meterThreshold,
            meterLeadUnits: p.meterLeadUnits,
            instructions: p.instructions,
          }),
        };
      });
    },
    // The plan's own update, claiming the `updatedAt` read; then its state, as the pause and resume buttons set it.
    async update(tx, run, c, input) {
      const { plan, paused } = input as PlanRow;
      await updatePlan(tx, run.orgId, run.actor, c.id, { ...plan, updatedAt: c.updatedAt });
      return setPaused(tx, run.orgId, run.actor, c.id, paused);
    },
    columnOf: PLAN_COLUMNS,
  },
};
