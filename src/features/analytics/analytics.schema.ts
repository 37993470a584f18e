import { z } from '../../shared/zod-setup';
import { addDays, calendarDateField, dateToDay, dayRangeChecks, dayToDate } from '../../shared/dates';
import { optionalIdField } from '../../shared/validation';

/** The range presets of the analytics screen; `custom` takes from and to (decision 038). */
export const RANGE_PRESETS = ['7d', '30d', 'quarter', 'year', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Days in each preset, ending today (UTC) inclusive. */
export const PRESET_DAYS: Record<Exclude<RangePreset, 'custom'>, number> = { '7d': 7, '30d': 30, quarter: 91, year: 365 };

const optionalDay = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), calendarDateField(`${label} must be a valid date`, `${label} must be a valid date`).optional());

/** Every analytics route's query (all in the screen's URL): a range preset (or custom from/to) and the filters. */
export const analyticsQuerySchema = dayRangeChecks(
  z
    .strictObject({
      range: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(RANGE_PRESETS, { error: 'Range must be one of 7d, 30d, quarter, year, custom' }).default('30d')),
      from: optionalDay('From'),
      to: optionalDay('To'),
      assetId: optionalIdField('Asset is invalid'),
      assetCategoryId: optionalIdField('Asset category is invalid'),
      workStationId: optionalIdField('Work station is invalid'),
      teamId: optionalIdField('Team is invalid'),
      assigneeId: optionalIdField('Assignee is invalid'),
    })
    .refine((v) => v.range !== 'custom' || (v.from && v.to), { message: 'A custom range needs From and To', path: ['from'] }),
);
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;
export type AnalyticsFilters = Pick<AnalyticsQuery, 'assetId' | 'assetCategoryId' | 'workStationId' | 'teamId' | 'assigneeId'>;
export const FILTER_KEYS = ['assetId', 'assetCategoryId', 'workStationId', 'teamId', 'assigneeId'] as const;

/** Whole UTC days, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

/** Days in a range, both ends counted. */
export const daysIn = (r: DayRange) => Math.round((dayToDate(r.to).getTime() - dayToDate(r.from).getTime()) / 86_400_000) + 1;

/** The range a query asks for: a preset ends today (UTC), a custom one is its from and to; and the period before it of the same length. */
export function resolveRange(q: Pick<AnalyticsQuery, 'range' | 'from' | 'to'>, today: Date): { current: DayRange; previous: DayRange } {
  let current: DayRange;
  if (q.range === 'custom' && q.from && q.to) current = { from: q.from.slice(0, 10), to: q.to.slice(0, 10) };
  else {
    const to = dateToDay(today);
    current = { from: addDays(to, -(PRESET_DAYS[q.range === 'custom' ? '30d' : q.range] - 1)), to };
  }
  const n = daysIn(current);
  return { current, previous: { from: addDays(current.from, -n), to: addDays(current.from, -1) } };
}

/** A figure with its value in the period before, for the KPI cards' change. */
export interface Kpi {
  current: number | null;
  previous: number | null;
}

export const AGE_BUCKETS = ['0-7', '8-30', '31-90', '>90'] as const;

export interface BacklogFigures {
  range: DayRange;
  openNow: number;
  overdueNow: number;
  ageBuckets: { bucket: (typeof AGE_BUCKETS)[number]; count: number }[];
  /** Open work orders at the end of each day of the range. */
  overTime: { day: string; open: number }[];
  /** Open at the end of the range and of the period before. */
  openAtEnd: Kpi;
}

export interface ThroughputFigures {
  range: DayRange;
  /** Per ISO week (Monday, UTC) that meets the range; counts only days inside the range. */
  weeks: { week: string; created: number; completed: number }[];
  created: Kpi;
  completed: Kpi;
}

export interface RepairTimeStats {
  count: number;
  /** Hours. */
  meanHours: number | null;
  medianHours: number | null;
}
export interface MttrFigures {
  range: DayRange;
  overall: RepairTimeStats;
  previous: RepairTimeStats;
  byAssetCategory: ({ assetCategoryId: number | null; name: string | null } & RepairTimeStats)[];
  byTeam: ({ teamId: number; name: string } & RepairTimeStats)[];
}

export interface MtbfFigures {
  range: DayRange;
  /** The ten assets with the shortest mean time between failures. */
  worst: { assetId: number; name: string; failures: number; intervals: number; mtbfHours: number }[];
}

export const REASON_CATEGORIES = ['availability', 'performance', 'quality', 'productivity'] as const;
export interface DowntimeFigures {
  range: DayRange;
  byCategory: { category: (typeof REASON_CATEGORIES)[number]; blocking: boolean; hours: number }[];
  byAsset: { assetId: number | null; name: string | null; availability: number; performance: number; quality: number; productivity: number; availabilityLoss: number }[];
  byWorkStation: { workStationId: number | null; name: string | null; availability: number; performance: number; quality: number; productivity: number }[];
  availabilityHours: Kpi;
}

export interface PlannedShareFigures {
  range: DayRange;
  plannedOrders: number;
  reactiveOrders: number;
  maintenanceOrders: number;
  plannedHours: number;
  reactiveHours: number;
  /** Planned share of work (orders, 0..1) now and in the period before. */
  plannedOrderShare: Kpi;
  plannedHourShare: Kpi;
}

export interface ComplianceFigures {
  range: DayRange;
  /** 'plans' once the organisation has a PM plan; before, its maintenance orders' due and completion dates. */
  source: 'plans' | 'maintenance-orders';
  due: number;
  onTime: number;
  late: number;
  missed: number;
  rate: Kpi;
}

export interface CostFigures {
  range: DayRange;
  currency: string;
  /** Minor units of the organisation currency. */
  laborCost: number;
  partsCost: number;
  /** Labour hours by people without an hourly rate (cost unknown). */
  unratedHours: number;
  byAsset: { assetId: number | null; name: string | null; labor: number; parts: number; total: number }[];
  byWorkStation: { workStationId: number | null; name: string | null; labor: number; parts: number; total: number }[];
  byMonth: { month: string; labor: number; parts: number; total: number }[];
  total: Kpi;
}

export interface MyWorkFigures {
  range: DayRange;
  openCount: number;
  open: { id: number; title: string; status: string; priority: string; dueDate: string | null; overdue: boolean }[];
  /** This ISO week (Monday, UTC, to now), by time tracking reason. */
  hoursThisWeek: { reasonId: number; name: string; category: string; hours: number }[];
  completed: number;
  completedOnTime: number;
  /** Completed with a due date. */
  completedWithDue: number;
}

/** Money of one linked work order or one quotation, minor units of the organisation currency. */
const quotedActualShape = {
  /** The quotation's total as the tax engine stored it (src/shared/tax.ts), tax included. */
  quoted: z.number(),
  /** The same before tax: what the actual cost is compared with (cost carries no tax). */
  quotedUntaxed: z.number(),
  labor: z.number(),
  parts: z.number(),
  /** labor + parts. */
  actual: z.number(),
  /** actual - quotedUntaxed: over (positive) or under (negative) the quoted amount before tax. */
  difference: z.number(),
  /** Labour hours by people without an hourly rate (not in `labor`). */
  unratedHours: z.number(),
};
export type QuotedActual = { [K in keyof typeof quotedActualShape]: number };

/** GET get-quoted-vs-actual's answer (its response schema). */
export const quotedVsActualSchema = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  currency: z.string(),
  /** Work orders linked to a quotation and created in the range (filters applied), by quotation then id. */
  workOrders: z.array(
    z.object({ workOrderId: z.number(), number: z.string(), title: z.string(), status: z.string(), quotationId: z.number(), quotationNumber: z.string(), ...quotedActualShape }),
  ),
  /** Per quotation: its amounts once, against the actual of its linked work orders above. */
  quotations: z.array(z.object({ quotationId: z.number(), number: z.string(), customer: z.string().nullable(), status: z.string(), workOrders: z.number(), ...quotedActualShape })),
  total: z.object({ quoted: z.number(), quotedUntaxed: z.number(), actual: z.number(), difference: z.number() }),
});
export type QuotedVsActualFigures = z.output<typeof quotedVsActualSchema>;
