import { and, eq, sql } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { notifyGeneratedWork } from '../notifications/notification-events';
import { meterReadings, pmOccurrences, pmPlans, workOrders } from '../../server/db/schema';
import { createWorkOrders, type NewWorkOrder } from '../work-orders/work-orders.service';
import { latestReadings } from '../meters/meters.service';
import { attachProcedure } from '../procedures/procedures.service';
import { planDisplayId, type DateRange, type PlannedOccurrence } from './pm-plans.schema';
import { dayInZone } from '../../shared/dates';
import { orgTimeZone } from '../organization/organization.service';
import { addDays } from './recurrence';
import { rowsOf } from '../../server/db/rows';
import { BACKLOG_LIMIT, PROJECTION_LIMIT, dueInstant, PlanRow } from './pm-plan-read.service';
import { targetsOf, NO_STATE, stateKey, completedAtOf, readStates, projectDueDays, byCalendar } from './pm-plan-compliance.service';
import { nextMultiple, activePlans, assigneesFor, planned } from './pm-plan-occurrences.service';
import { chunksOf } from '../../server/db/chunks';

/**
 * GET dry-run: the work orders the generator would create on the days [from, to] (by creation day: due day
 * minus lead time), nothing created. Occurrences already due and not created yet come on `from` when it is today.
 */
export async function dryRun(tx: ReadTx, orgId: number, range: DateRange, now: Date = new Date()) {
  const zone = await orgTimeZone(tx, orgId);
  const today = dayInZone(now, zone);
  const plans = await activePlans(tx, orgId);
  const states = await readStates(
    tx,
    orgId,
    zone,
    plans.map((p) => p.id),
  );
  const occurrences: PlannedOccurrence[] = [];
  for (const p of plans) {
    for (const assetId of targetsOf(p)) {
      const state = states.get(stateKey(p.id, assetId)) ?? NO_STATE;
      const untilDue = addDays(range.to, p.leadDays);
      // Like the generator: floating ones only after the latest is completed.
      for (const day of projectDueDays(p, state, untilDue, PROJECTION_LIMIT, false)) {
        const createOn = addDays(day, -p.leadDays);
        if (createOn >= range.from || (range.from <= today && createOn < today)) occurrences.push(planned(p, assetId, day));
      }
    }
  }
  occurrences.sort((a, b) => a.createOn.localeCompare(b.createOn) || a.planId - b.planId);
  return { occurrences, total: occurrences.length };
}

// ---------- the generator ----------

/**
 * Creates the work orders that are due (due day minus lead time on or before today) for one organisation, in
 * the caller's transaction. Each occurrence is inserted with ON CONFLICT DO NOTHING first: only the ones this
 * run inserted get a work order, so two runs at once (two instances, a retry) never create one twice; the
 * second waits on the first's uncommitted key and then skips it.
 */
export async function generateDueWork(tx: Tx, orgId: number, now: Date = new Date()): Promise<{ created: number }> {
  const plans = await activePlans(tx, orgId, {}, true);
  if (!plans.length) return { created: 0 };
  // The organisation's today: its due days are its own calendar's (decision 064).
  const zone = await orgTimeZone(tx, orgId);
  const today = dayInZone(now, zone);
  const states = await readStates(tx, orgId, zone);
  const due: Due[] = [];
  for (const p of plans.filter(byCalendar)) {
    for (const assetId of targetsOf(p)) {
      for (const dueDate of projectDueDays(p, states.get(stateKey(p.id, assetId)) ?? NO_STATE, addDays(today, p.leadDays), BACKLOG_LIMIT, false))
        due.push({ plan: p, assetId, dueDate, kind: 'calendar', ordinal: 0 });
    }
  }
  due.push(...(await meterDue(tx, orgId, plans.filter(byMeter), today)));
  return createOccurrences(tx, orgId, due, zone);
}

type Due = { plan: PlanRow; assetId: number | null; dueDate: string; kind: 'calendar' | 'meter'; meterValue?: number; ordinal: number };
const byMeter = (p: Pick<PlanRow, 'trigger' | 'meterId'>) => (p.trigger === 'meter' || p.trigger === 'both') && p.meterId !== null;
const dueKey = (d: { planId: number; assetId: number | null; dueDate: string; ordinal: number }) =>
  `${stateKey(d.planId, d.assetId)}:${d.dueDate}:${d.ordinal}`;
const OPEN_ORDER = new Set(['assigned', 'in-progress']);

/** Where a meter plan stands (one statement for all of them): see meterDue. */
interface MeterState {
  id: number;
  /** The latest occurrence that a meter asked for (or that counted for the meter): its value, when, its order's status. */
  last_value: number | null;
  last_meter_at: string | Date | null;
  last_status: string | null;
  /** The latest completion of any of the plan's orders (calendar or meter), and the meter's total then. */
  done_at: string | Date | null;
  done_total: number | null;
  /** The latest reading below the threshold. */
  below_at: string | Date | null;
  /** Today's occurrences: the highest ordinal, and whether one is an open order the meter has not counted yet. */
  today_max: number | null;
  today_open_free: boolean | null;
}

/**
 * The meter plans whose meter asks for work now, due today (decision 064).
 * Every N units: counts from the last service, whichever trigger made it: the meter's total when the plan's
 * latest order was completed, or the value of its latest meter occurrence when that one is newer (still open),
 * or else the first multiple of N above the base. Once the total is within the lead units of the next point,
 * ONE occurrence, at the last point the total has reached (a jump from 100 to 2,600 every 500 is one order at
 * 2,500; the next at 3,000).
 * A threshold: when a reading reaches it, again after a reading has gone back below it, but not while the order
 * of the previous crossing is still open: that order covers the crossings until it is completed.
 * A second one on the same day takes the next ordinal (unless an open order of today has not counted for the
 * meter yet: that one does, "whichever comes first").
 */
async function meterDue(tx: ReadTx, orgId: number, plans: PlanRow[], today: string): Promise<Due[]> {
  if (!plans.length) return [];
  const latest = await latestReadings(
    tx,
    orgId,
    plans.map((p) => p.meterId!),
  );
  const o = pmOccurrences;
  const r = meterReadings;
  const rows = rowsOf<MeterState>(
    await tx.execute(sql`select p.id, lm.meter_value as last_value, lm.created_at as last_meter_at, lm.wo_status as last_status, lc.done_at,
        (select ${r.total} from ${r} where ${r.orgId} = p.org_id and ${r.meterId} = p.meter_id and ${r.readAt} <= lc.done_at
          order by ${r.readAt} desc, ${r.id} desc limit 1) as done_total,
        (select max(${r.readAt}) from ${r} where ${r.orgId} = p.org_id and ${r.meterId} = p.meter_id and ${r.value} < p.meter_threshold) as below_at,
        (select max(${o.ordinal}) from ${o} where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.dueDate} = ${today}::date) as today_max,
        exists (select 1 from ${o} join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
          where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.dueDate} = ${today}::date and ${o.ordinal} = 0 and ${o.meterValue} is null
            and ${workOrders.status} in ('assigned', 'in-progress')) as today_open_free
      from ${pmPlans} p
      left join lateral (select ${o.meterValue} as meter_value, ${o.createdAt} as created_at, ${workOrders.status} as wo_status
        from ${o} left join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
        where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.meterValue} is not null
        order by ${o.dueDate} desc, ${o.ordinal} desc, ${o.id} desc limit 1) lm on true
      left join lateral (select max(${completedAtOf(workOrders)}) as done_at
        from ${o} join ${workOrders} on ${workOrders.orgId} = ${o.orgId} and ${workOrders.id} = ${o.workOrderId}
        where ${o.orgId} = p.org_id and ${o.planId} = p.id and ${o.status} = 'created') lc on true
      where p.org_id = ${orgId} and p.id = any(${sql.param(plans.map((p) => p.id))}::int[])`),
  );
  const state = new Map(rows.map((row) => [row.id, row]));
  const due: Due[] = [];
  const time = (v: string | Date | null) => (v === null ? null : new Date(v).getTime());
  for (const p of plans) {
    const reading = latest.get(p.meterId!);
    const s = state.get(p.id);
    if (!reading || !s) continue;
    const assetId = p.assets[0]?.id ?? null;
    const ordinal = s.today_max === null ? 0 : s.today_open_free ? 0 : Number(s.today_max) + 1;
    const doneAt = time(s.done_at);
    const lastMeterAt = time(s.last_meter_at);
    if (p.meterEvery) {
      if (reading.total === null) continue;
      const every = p.meterEvery;
      let next: number;
      if (doneAt !== null && s.done_total !== null && (lastMeterAt === null || doneAt > lastMeterAt)) next = Number(s.done_total) + every;
      else if (s.last_value !== null) next = Number(s.last_value) + every;
      else next = nextMultiple(p.meterBase ?? 0, every);
      const reached = reading.total + p.meterLeadUnits;
      if (reached < next) continue;
      // Past several points at once (a jump, readings missed): one order, at the last point reached.
      const point = next + Math.floor((reached - next) / every + 1e-9) * every;
      due.push({ plan: p, assetId, dueDate: today, kind: 'meter', meterValue: point, ordinal });
    } else if (p.meterThreshold !== null && reading.value >= p.meterThreshold) {
      // Back below after the last crossing's order and after the last service (which covered what came before).
      const crossedAgain = lastMeterAt === null || (s.below_at !== null && time(s.below_at)! > Math.max(lastMeterAt, doneAt ?? 0));
      // The previous crossing's order is still open: the technician is on it, no second order.
      const previousOpen = s.last_status !== null && OPEN_ORDER.has(s.last_status);
      if (crossedAgain && !previousOpen) due.push({ plan: p, assetId, dueDate: today, kind: 'meter', meterValue: reading.value, ordinal });
    }
  }
  return due;
}

/** Inserts the occurrences (skipping any that exist) and creates a work order for each one inserted, due in `zone`. */
async function createOccurrences(tx: Tx, orgId: number, all: Due[], zone: string): Promise<{ created: number }> {
  let created = 0;
  // A calendar and a meter occurrence of the same plan, asset and day are one ("whichever comes first").
  const seen = new Map<string, Due>();
  for (const d of all) {
    const key = dueKey({ planId: d.plan.id, ...d });
    const first = seen.get(key);
    if (!first) seen.set(key, d);
    else if (d.meterValue !== undefined) first.meterValue = d.meterValue;
  }
  const due = [...seen.values()];
  for (const chunk of chunksOf(due, 500)) {
    const inserted = await tx
      .insert(pmOccurrences)
      .values(
        chunk.map((d) => ({
          orgId,
          planId: d.plan.id,
          assetId: d.assetId,
          dueDate: d.dueDate,
          ordinal: d.ordinal,
          status: 'created' as const,
          kind: d.kind,
          meterValue: d.meterValue ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning({
        id: pmOccurrences.id,
        planId: pmOccurrences.planId,
        assetId: pmOccurrences.assetId,
        dueDate: pmOccurrences.dueDate,
        ordinal: pmOccurrences.ordinal,
      });
    // The meter asked for work on a day that already has its occurrence: that one counts for the meter too.
    const taken = new Set(inserted.map(dueKey));
    for (const d of chunk) {
      if (d.meterValue === undefined || taken.has(dueKey({ planId: d.plan.id, ...d }))) continue;
      await tx
        .update(pmOccurrences)
        .set({ meterValue: d.meterValue })
        .where(
          and(
            eq(pmOccurrences.orgId, orgId),
            eq(pmOccurrences.planId, d.plan.id),
            d.assetId === null ? sql`${pmOccurrences.assetId} is null` : eq(pmOccurrences.assetId, d.assetId),
            eq(pmOccurrences.dueDate, d.dueDate),
            eq(pmOccurrences.ordinal, d.ordinal),
            sql`${pmOccurrences.meterValue} is null`,
          ),
        );
    }
    if (!inserted.length) continue;
    const byKey = new Map(chunk.map((d) => [dueKey({ planId: d.plan.id, ...d }), d]));
    const items: NewWorkOrder[] = inserted.map((o) => {
      const { plan, kind } = byKey.get(dueKey(o))!;
      return {
        title: plan.title,
        instructions: plan.instructions,
        priority: plan.priority,
        duration: plan.duration,
        dueDate: dueInstant(o.dueDate, zone),
        assetId: o.assetId,
        assignees: assigneesFor(plan),
        parts: plan.parts.map((p) => ({ partId: p.partId, quantity: p.quantity })),
        source: `PM plan "${plan.name}" (${planDisplayId(plan.id)}), due ${o.dueDate}${kind === 'meter' ? ' (meter)' : ''}`,
      };
    });
    const ids = await createWorkOrders(tx, orgId, items);
    await tx.execute(sql`update ${pmOccurrences} set work_order_id = v.work_order_id
      from (values ${sql.join(
        inserted.map((o, j) => sql`(${o.id}::int, ${ids[j]}::int)`),
        sql`, `,
      )}) as v(id, work_order_id)
      where ${pmOccurrences.orgId} = ${orgId} and ${pmOccurrences.id} = v.id`);
    await afterWorkOrdersCreated(
      tx,
      orgId,
      inserted.map((o, j) => ({ workOrderId: ids[j], plan: byKey.get(dueKey(o))!.plan })),
    );
    created += inserted.length;
  }
  return { created };
}

/** The plan's procedure, copied into each work order it created (the procedures feature's service). */
async function afterWorkOrdersCreated(tx: Tx, orgId: number, orders: { workOrderId: number; plan: PlanRow }[]) {
  for (const { workOrderId, plan } of orders) if (plan.procedureId) await attachProcedure(tx, orgId, workOrderId, plan.procedureId, null);
  // Their assignees hear of them, the plan's team by name (decision 082).
  await notifyGeneratedWork(
    tx,
    orgId,
    orders.map(({ workOrderId, plan }) => ({
      id: workOrderId,
      title: plan.title,
      assignees: plan.assignees,
      team: plan.teamId ? { name: plan.teamName ?? '', members: plan.teamMembers } : null,
    })),
  );
}
