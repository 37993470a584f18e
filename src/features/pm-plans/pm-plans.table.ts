import { boolean, date, doublePrecision, index, integer, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { orgLinkTable, orgRef, orgRefs, orgSettingsTable } from '../../server/db/org-keys';
import { createdAtColumn, orgRowColumns, updatedAtColumn } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { assets } from '../assets/assets.table';
import { parts } from '../parts/parts.table';
import { teams } from '../teams/teams.table';
import { users } from '../users/users.table';
import { workStations } from '../work-stations/work-stations.table';
import { meters } from '../meters/meters.table';
import { procedures } from '../procedures/procedures.table';
import { WORK_ORDER_PRIORITIES } from '../work-orders/work-order-values';
import { MONTHLY_MODES, PLAN_FREQUENCIES, PLAN_SCHEDULES, PLAN_TRIGGERS, WEEKDAYS } from './pm-plans.schema';

/** A preventive maintenance plan: what work to create, for which assets (or a work station), and when (decision 032). */
export const pmPlans = pgTable(
  'pm_plans',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    workStationId: integer(),
    teamId: integer(),
    // The work order template.
    title: text().notNull(),
    instructions: text(),
    priority: text({ enum: WORK_ORDER_PRIORITIES }).notNull().default('medium'),
    duration: text(),
    procedureId: integer(),
    // The trigger.
    trigger: text({ enum: PLAN_TRIGGERS }).notNull().default('calendar'),
    frequency: text({ enum: PLAN_FREQUENCIES }).notNull(),
    interval: integer().notNull().default(1),
    weekdays: text({ enum: WEEKDAYS }).array().notNull().default([]),
    monthlyMode: text({ enum: MONTHLY_MODES }).notNull().default('day'),
    monthDay: integer(),
    monthWeek: integer(),
    monthWeekday: text({ enum: WEEKDAYS }),
    schedule: text({ enum: PLAN_SCHEDULES }).notNull().default('fixed'),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }),
    leadDays: integer().notNull().default(0),
    meterId: integer(),
    meterEvery: doublePrecision(),
    meterThreshold: doublePrecision(),
    meterLeadUnits: doublePrecision().notNull().default(0),
    /** Every N units: the meter's total when the rule was saved; the first one is due at the next multiple of N above it. */
    meterBase: doublePrecision(),
    paused: boolean().notNull().default(false),
    /**
     * The generator creates occurrences due on or after this day: the plan's creation (or resumption) day, so a
     * plan started in the past or resumed after a pause does not fill the gap with overdue work.
     */
    activeFrom: date({ mode: 'string' }).notNull(),
    createdById: integer(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    ...orgRowKeys(t),
    ...orgRefs(t, {
      workStationId: workStations,
      teamId: teams,
      // A meter used by a plan cannot be deleted (the plan is changed first).
      meterId: meters,
      // A procedure used by a plan cannot be deleted either.
      procedureId: procedures,
    }),
    index('pm_plans_org_name_idx').on(t.orgId, t.name),
    index('pm_plans_org_team_idx').on(t.orgId, t.teamId),
  ],
);

/** The assets a plan covers: one occurrence (and work order) per asset and due date. */
export const pmPlanAssets = orgLinkTable('pm_plan_assets', {
  owner: ['planId', pmPlans],
  target: ['assetId', assets, 'cascade'],
  index: 'pm_plan_assets_asset_idx',
});

/** People the plan's work orders are assigned to (besides the team's members). */
export const pmPlanAssignees = orgLinkTable('pm_plan_assignees', {
  owner: ['planId', pmPlans],
  target: ['userId', users, 'cascade'],
  index: 'pm_plan_assignees_user_idx',
});

/** Parts the plan's work orders need. */
export const pmPlanParts = orgLinkTable('pm_plan_parts', {
  owner: ['planId', pmPlans],
  target: ['partId', parts, 'cascade'],
  columns: {
    quantity: integer().notNull().default(1),
  },
});

export const OCCURRENCE_STATUSES = ['created', 'skipped'] as const;
/** What made an occurrence due: its calendar day, or its meter (due on the day the meter reached it). */
export const OCCURRENCE_KINDS = ['calendar', 'meter'] as const;

/**
 * Each occurrence of a plan, once: created (with its work order) or skipped (with a reason). The unique key
 * (org, plan, asset, due date; a work-station plan's asset is null and counts as one value) is what makes the
 * generator idempotent: it inserts with ON CONFLICT DO NOTHING in the transaction that creates the work order.
 * `workOrderId` has no foreign key: deleting a work order must not delete the occurrence (it would come again).
 */
export const pmOccurrences = pgTable(
  'pm_occurrences',
  {
    ...orgRowColumns(),
    planId: integer().notNull(),
    assetId: integer(),
    dueDate: date({ mode: 'string' }).notNull(),
    /**
     * 0 for the day's first occurrence; a meter asking again the same day (a gauge crossing its threshold a
     * second time, a counter passing another interval) takes the next number (decision 064).
     */
    ordinal: integer().notNull().default(0),
    status: text({ enum: OCCURRENCE_STATUSES }).notNull(),
    kind: text({ enum: OCCURRENCE_KINDS }).notNull().default('calendar'),
    workOrderId: integer(),
    /**
     * The meter value the occurrence satisfied: every N units, the total it was due at; a threshold, the
     * reading that crossed it. Set too on a calendar occurrence of the same day that the meter also asked for.
     */
    meterValue: doublePrecision(),
    reason: text(),
    createdById: integer(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.planId, pmPlans).onDelete('cascade'),
    unique('pm_occurrences_once_key').on(t.orgId, t.planId, t.assetId, t.dueDate, t.ordinal).nullsNotDistinct(),
    index('pm_occurrences_work_order_idx').on(t.orgId, t.workOrderId),
    index('pm_occurrences_org_due_idx').on(t.orgId, t.dueDate),
  ],
);

/** The organisation's preventive-maintenance settings (one row; absent = defaults). */
export const pmSettings = orgSettingsTable('pm_settings', {
  /** Compliance counts a work order completed up to this many days after its due day as on time. */
  graceDays: integer().notNull().default(0),
});
