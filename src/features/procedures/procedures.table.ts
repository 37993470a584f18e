import { boolean, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { orgRef } from '../../server/db/org-keys';
import { createdAtColumn, orgIdColumn, orgRowColumns, updatedAtColumn } from '../../server/db/columns';
import { orgRowKeys } from '../organization/organization.table';
import { workOrders } from '../work-orders/work-orders.table';
import { STEP_KINDS } from './procedures.schema';

/** The step fields a library step and a work order's copy of it share. */
const stepColumns = () => ({
  position: integer().notNull(),
  kind: text({ enum: STEP_KINDS }).notNull(),
  label: text().notNull(),
  required: boolean().notNull().default(false),
  /** Number steps: the unit and the allowed range (either end optional). */
  unit: text(),
  min: doublePrecision(),
  max: doublePrecision(),
  /** Choice steps: the options, in order. */
  options: jsonb().$type<string[]>().notNull().default([]),
  /** Number and pass/fail steps: a failed or out-of-range answer offers a follow-up work order. */
  followUpOnFailure: boolean().notNull().default(false),
  /**
   * Number steps: the name of the asset's meter the answer is recorded on (decision 030, addendum). A name, not a
   * meter: a library procedure serves many assets, each with its own meter of that name.
   */
  meterName: text(),
});

/** The procedure library (Settings -> Procedures): checklists attached to work orders. */
export const procedures = pgTable(
  'procedures',
  {
    ...orgRowColumns(),
    name: text().notNull(),
    description: text(),
    /** Bumped by every edit: an edit made from an older version is refused (decision 025). */
    version: integer().notNull().default(1),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [...orgRowKeys(t), index('procedures_org_name_idx').on(t.orgId, t.name)],
);

/** A library procedure's steps, in `position` order; an edit replaces them all. */
export const procedureSteps = pgTable(
  'procedure_steps',
  {
    ...orgRowColumns(),
    procedureId: integer().notNull(),
    ...stepColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    orgRef(t, t.procedureId, procedures).onDelete('cascade'),
    index('procedure_steps_procedure_idx').on(t.orgId, t.procedureId, t.position),
  ],
);

/**
 * The procedure attached to a work order: a copy of the library's procedure as it was then (decision 030),
 * so editing or deleting the library later does not change work already issued. One per work order.
 */
export const workOrderProcedures = pgTable(
  'work_order_procedures',
  {
    orgId: orgIdColumn(),
    workOrderId: integer().notNull(),
    /** The library procedure it was copied from (informational: it may since be edited or deleted). */
    procedureId: integer(),
    name: text().notNull(),
    description: text(),
    attachedById: integer(),
    attachedAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.workOrderId] }), orgRef(t, t.workOrderId, workOrders).onDelete('cascade')],
);

/** The copied steps of a work order's procedure and their answers (who, when, flagged, the follow-up made). */
export const workOrderProcedureSteps = pgTable(
  'work_order_procedure_steps',
  {
    ...orgRowColumns(),
    workOrderId: integer().notNull(),
    ...stepColumns(),
    /** The answer (JSON by kind); null when empty. An unticked checkbox is stored empty. */
    value: jsonb().$type<unknown>(),
    flagged: boolean().notNull().default(false),
    answeredById: integer(),
    answeredAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The follow-up work order made from this step (informational: no foreign key, it may be deleted). */
    followUpWorkOrderId: integer(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.id] }),
    foreignKey({ columns: [t.orgId, t.workOrderId], foreignColumns: [workOrderProcedures.orgId, workOrderProcedures.workOrderId] }).onDelete('cascade'),
    index('work_order_procedure_steps_order_idx').on(t.orgId, t.workOrderId, t.position),
  ],
);
