/*
 * Preventive-maintenance plans' services, one file per operation (issue 40); this module keeps the exported names and
 * registers the activity entity. Columns and shared checks: pm-plan-read; due days, states and compliance:
 * pm-plan-compliance; read/list: pm-plan-list; add/update/delete/pause/skip: pm-plan-write; occurrences, preview,
 * settings, the projection: pm-plan-occurrences; the generator: pm-plan-generate; export/import names: pm-plan-export.
 */
import { sql } from 'drizzle-orm';
import { pmPlans } from '../../server/db/schema';
import { registerActivityEntity } from '../activity/activity.service';
export { PM_DUE_TIME, dueInstant, type PlanRow } from './pm-plan-read.service';
export { projectDueDays, pmCompliance } from './pm-plan-compliance.service';
export { defaultComplianceRange, getPlan, listPlans } from './pm-plan-list.service';
export { addPlan, updatePlan, deletePlan, setPaused, skipNext } from './pm-plan-write.service';
export { listOccurrences, previewPlan, getPmSettings, updatePmSettings, listPlannedOccurrences } from './pm-plan-occurrences.service';
export { dryRun, generateDueWork } from './pm-plan-generate.service';
export { planOfWorkOrders, exportPlansPage, namePlans, type PlanExportNames } from './pm-plan-export.service';

// Plans are managers' records: a worker's history, notes and bell never show them (decision 032).
registerActivityEntity('pm-plan', pmPlans, 'Plan', () => sql`false`);
