import { z } from '../../shared/zod-setup';
import { calendarDateField } from '../../shared/dates';
import { idField } from '../../shared/validation';

/** The range presets of the analytics screen; `custom` takes from and to (decision 038). */
export const RANGE_PRESETS = ['7d', '30d', 'quarter', 'year', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Days in each preset, ending today (UTC) inclusive. */
export const PRESET_DAYS: Record<Exclude<RangePreset, 'custom'>, number> = { '7d': 7, '30d': 30, quarter: 91, year: 365 };

const zeroToUndefined = (v: unknown) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v);
const optionalId = (message: string) => z.preprocess(zeroToUndefined, idField(message).optional());
const optionalDay = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), calendarDateField(`${label} must be a valid date`, `${label} must be a valid date`).optional());
const FIVE_YEARS_MS = 5 * 366 * 86_400_000;

/** Every analytics route's query (all in the screen's URL): a range preset (or custom from/to) and the filters. */
export const analyticsQuerySchema = z
  .strictObject({
    range: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(RANGE_PRESETS, { error: 'Range must be one of 7d, 30d, quarter, year, custom' }).default('30d')),
    from: optionalDay('From'),
    to: optionalDay('To'),
    assetId: optionalId('Asset is invalid'),
    assetCategoryId: optionalId('Asset category is invalid'),
    workStationId: optionalId('Work station is invalid'),
    teamId: optionalId('Team is invalid'),
    assigneeId: optionalId('Assignee is invalid'),
  })
  .refine((v) => v.range !== 'custom' || (v.from && v.to), { message: 'A custom range needs From and To', path: ['from'] })
  .refine((v) => !v.from || !v.to || v.to >= v.from, { message: 'To must be on or after From', path: ['to'] })
  .refine((v) => !v.from || !v.to || Date.parse(v.to) - Date.parse(v.from) <= FIVE_YEARS_MS, { message: 'The range must be at most five years', path: ['to'] });
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;
export type AnalyticsFilters = Pick<AnalyticsQuery, 'assetId' | 'assetCategoryId' | 'workStationId' | 'teamId' | 'assigneeId'>;

/** Whole UTC days, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Days in a range, both ends counted. */
export const daysIn = (r: DayRange) => Math.round((msOf(r.to) - msOf(r.from)) / DAY_MS) + 1;

/** The range a query asks for: a preset ends today (UTC), a custom one is its from and to; and the period before it of the same length. */
export function resolveRange(q: Pick<AnalyticsQuery, 'range' | 'from' | 'to'>, today: Date): { current: DayRange; previous: DayRange } {
  let current: DayRange;
  if (q.range === 'custom' && q.from && q.to) current = { from: q.from.slice(0, 10), to: q.to.slice(0, 10) };
  else {
    const to = dayOf(today.getTime());
    current = { from: dayOf(msOf(to) - (PRESET_DAYS[q.range === 'custom' ? '30d' : q.range] - 1) * DAY_MS), to };
  }
  const n = daysIn(current);
  return { current, previous: { from: dayOf(msOf(current.from) - n * DAY_MS), to: dayOf(msOf(current.from) - DAY_MS) } };
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
