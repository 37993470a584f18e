import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { addDays, calendarDateField, dayInZone, dayRangeChecks, dayToDate } from '../../shared/dates';
import { optionalIdField } from '../../shared/validation';

/** The range presets of the analytics screen; `custom` takes from and to (decision 038). */
export const RANGE_PRESETS = ['7d', '30d', 'quarter', 'year', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Days in each preset, ending today (UTC) inclusive. */
export const PRESET_DAYS: Record<Exclude<RangePreset, 'custom'>, number> = { '7d': 7, '30d': 30, quarter: 91, year: 365 };

const optionalDay = (label: string) =>
  z.preprocess(blankToUndefined, calendarDateField(`${label} must be a valid date`, `${label} must be a valid date`).optional());

/** The screen's filters (FILTER_KEYS), also a scheduled insights report's. */
export const analyticsFilterFields = {
  assetId: optionalIdField('Asset is invalid'),
  assetCategoryId: optionalIdField('Asset category is invalid'),
  /** The assets in a location and everything under it (decision 072). */
  locationId: optionalIdField('Location is invalid'),
  workStationId: optionalIdField('Work station is invalid'),
  teamId: optionalIdField('Team is invalid'),
  assigneeId: optionalIdField('Assignee is invalid'),
};

/** Every analytics route's query (all in the screen's URL): a range preset (or custom from/to) and the filters. */
export const analyticsQuerySchema = dayRangeChecks(
  z
    .strictObject({
      range: z.preprocess(blankToUndefined, z.enum(RANGE_PRESETS, { error: 'Range must be one of 7d, 30d, quarter, year, custom' }).default('30d')),
      from: optionalDay('From'),
      to: optionalDay('To'),
      ...analyticsFilterFields,
    })
    .refine((v) => v.range !== 'custom' || (v.from && v.to), { message: 'A custom range needs From and To', path: ['from'] }),
);
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;
export type AnalyticsFilters = Pick<AnalyticsQuery, 'assetId' | 'assetCategoryId' | 'locationId' | 'workStationId' | 'teamId' | 'assigneeId'>;
export const FILTER_KEYS = ['assetId', 'assetCategoryId', 'locationId', 'workStationId', 'teamId', 'assigneeId'] as const;

/** Whole UTC days, both ends included. */
export const dayRangeSchema = z.object({ from: z.string(), to: z.string() });
export type DayRange = z.infer<typeof dayRangeSchema>;

/** Days in a range, both ends counted. */
export const daysIn = (r: DayRange) => Math.round((dayToDate(r.to).getTime() - dayToDate(r.from).getTime()) / 86_400_000) + 1;

/** The range a query asks for: a preset ends today (UTC), a custom one is its from and to; and the period before it of the same length. */
export function resolveRange(q: Pick<AnalyticsQuery, 'range' | 'from' | 'to'>, today: Date, zone = 'UTC'): { current: DayRange; previous: DayRange } {
  let current: DayRange;
  if (q.range === 'custom' && q.from && q.to) current = { from: q.from.slice(0, 10), to: q.to.slice(0, 10) };
  else {
    const to = dayInZone(today, zone);
    current = { from: addDays(to, -(PRESET_DAYS[q.range === 'custom' ? '30d' : q.range] - 1)), to };
  }
  const n = daysIn(current);
  return { current, previous: { from: addDays(current.from, -n), to: addDays(current.from, -1) } };
}

/** A figure with its value in the period before, for the KPI cards' change. */
export const kpiSchema = z.object({ current: z.number().nullable(), previous: z.number().nullable() });
export type Kpi = z.infer<typeof kpiSchema>;

// The figures' answers (response schemas of the get-… routes; the services' return types are these).

export const AGE_BUCKETS = ['0-7', '8-30', '31-90', '>90'] as const;

export const backlogFiguresSchema = z.object({
  range: dayRangeSchema,
  openNow: z.number(),
  overdueNow: z.number(),
  ageBuckets: z.array(z.object({ bucket: z.enum(AGE_BUCKETS), count: z.number() })),
  /** Open work orders at the end of each day of the range. */
  overTime: z.array(z.object({ day: z.string(), open: z.number() })),
  /** Open at the end of the range and of the period before. */
  openAtEnd: kpiSchema,
});
export type BacklogFigures = z.infer<typeof backlogFiguresSchema>;

export const throughputFiguresSchema = z.object({
  range: dayRangeSchema,
  /** Per ISO week (Monday, UTC) that meets the range; counts only days inside the range. */
  weeks: z.array(z.object({ week: z.string(), created: z.number(), completed: z.number() })),
  created: kpiSchema,
  completed: kpiSchema,
});
export type ThroughputFigures = z.infer<typeof throughputFiguresSchema>;

export const repairTimeStatsSchema = z.object({
  count: z.number(),
  /** Hours. */
  meanHours: z.number().nullable(),
  medianHours: z.number().nullable(),
});
export type RepairTimeStats = z.infer<typeof repairTimeStatsSchema>;

export const mttrFiguresSchema = z.object({
  range: dayRangeSchema,
  overall: repairTimeStatsSchema,
  previous: repairTimeStatsSchema,
  byAssetCategory: z.array(repairTimeStatsSchema.extend({ assetCategoryId: z.number().nullable(), name: z.string().nullable() })),
  byTeam: z.array(repairTimeStatsSchema.extend({ teamId: z.number(), name: z.string() })),
});
export type MttrFigures = z.infer<typeof mttrFiguresSchema>;

export const mtbfFiguresSchema = z.object({
  range: dayRangeSchema,
  /** The ten assets with the shortest mean time between failures. */
  worst: z.array(z.object({ assetId: z.number(), name: z.string(), failures: z.number(), intervals: z.number(), mtbfHours: z.number() })),
});
export type MtbfFigures = z.infer<typeof mtbfFiguresSchema>;

/** GET get-repair-times's answer. */
export const repairTimesSchema = z.object({ mttr: mttrFiguresSchema, mtbf: mtbfFiguresSchema });

export const REASON_CATEGORIES = ['availability', 'performance', 'quality', 'productivity'] as const;
/** The hours lost to each reason category, one field a category (REASON_CATEGORIES). */
const hoursByCategory = { availability: z.number(), performance: z.number(), quality: z.number(), productivity: z.number() };
export const downtimeFiguresSchema = z.object({
  range: dayRangeSchema,
  byCategory: z.array(z.object({ category: z.enum(REASON_CATEGORIES), blocking: z.boolean(), hours: z.number() })),
  byAsset: z.array(
    z.object({
      assetId: z.number().nullable(),
      name: z.string().nullable(),
      ...hoursByCategory,
      /** Hours the asset was down in the range, from its state intervals (decision 079). */
      downHours: z.number(),
      /** Down time / the range's time, from the state intervals (decision 079). */
      availabilityLoss: z.number(),
    }),
  ),
  byWorkStation: z.array(
    z.object({
      workStationId: z.number().nullable(),
      name: z.string().nullable(),
      ...hoursByCategory,
    }),
  ),
  /** Hours the assets in scope were down (state intervals, decision 079); null with a person, team or work-station filter. */
  availabilityHours: kpiSchema,
});
export type DowntimeFigures = z.infer<typeof downtimeFiguresSchema>;

export const plannedShareFiguresSchema = z.object({
  range: dayRangeSchema,
  plannedOrders: z.number(),
  reactiveOrders: z.number(),
  maintenanceOrders: z.number(),
  plannedHours: z.number(),
  reactiveHours: z.number(),
  /** Planned share of work (orders, 0..1) now and in the period before. */
  plannedOrderShare: kpiSchema,
  plannedHourShare: kpiSchema,
});
export type PlannedShareFigures = z.infer<typeof plannedShareFiguresSchema>;

export const complianceFiguresSchema = z.object({
  range: dayRangeSchema,
  /** 'plans' once the organisation has a PM plan; before, its maintenance orders' due and completion dates. */
  source: z.enum(['plans', 'maintenance-orders']),
  due: z.number(),
  onTime: z.number(),
  late: z.number(),
  missed: z.number(),
  rate: kpiSchema,
});
export type ComplianceFigures = z.infer<typeof complianceFiguresSchema>;

const costSplitShape = { labor: z.number(), parts: z.number(), total: z.number() };
export const costFiguresSchema = z.object({
  range: dayRangeSchema,
  currency: z.string(),
  /** Minor units of the organisation currency. */
  laborCost: z.number(),
  partsCost: z.number(),
  /** Labour hours by people without an hourly rate (cost unknown). */
  unratedHours: z.number(),
  byAsset: z.array(z.object({ assetId: z.number().nullable(), name: z.string().nullable(), ...costSplitShape })),
  byWorkStation: z.array(z.object({ workStationId: z.number().nullable(), name: z.string().nullable(), ...costSplitShape })),
  byMonth: z.array(z.object({ month: z.string(), ...costSplitShape })),
  total: kpiSchema,
});
export type CostFigures = z.infer<typeof costFiguresSchema>;

export const myWorkFiguresSchema = z.object({
  range: dayRangeSchema,
  openCount: z.number(),
  open: z.array(
    z.object({ id: z.number(), title: z.string(), status: z.string(), priority: z.string(), dueDate: z.string().nullable(), overdue: z.boolean() }),
  ),
  /** This ISO week (Monday, UTC, to now), by time tracking reason. */
  hoursThisWeek: z.array(z.object({ reasonId: z.number(), name: z.string(), category: z.string(), hours: z.number() })),
  completed: z.number(),
  completedOnTime: z.number(),
  /** Completed with a due date. */
  completedWithDue: z.number(),
});
export type MyWorkFigures = z.infer<typeof myWorkFiguresSchema>;

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

/**
 * Quoted vs actual lists at most this many quotations and this many work orders: those with the largest absolute
 * difference (decision 038, fourth addendum). A year of a big organisation links 20,000 orders (10 MB of JSON).
 */
export const QUOTED_ROWS_CAP = 50;

/** GET get-quoted-vs-actual's answer (its response schema). */
export const quotedVsActualSchema = z.object({
  range: dayRangeSchema,
  currency: z.string(),
  /**
   * Work orders linked to a quotation and created in the range (filters applied): the QUOTED_ROWS_CAP with the
   * largest absolute difference (against their quotation's amount), ties by id.
   */
  workOrders: z.array(
    z.object({
      workOrderId: z.number(),
      number: z.string(),
      title: z.string(),
      status: z.string(),
      quotationId: z.number(),
      quotationNumber: z.string(),
      ...quotedActualShape,
    }),
  ),
  /** All such work orders (workOrders holds at most QUOTED_ROWS_CAP of them). */
  workOrderCount: z.number(),
  /**
   * Per quotation of those orders: its amounts once, against the actual of all its linked orders; the
   * QUOTED_ROWS_CAP with the largest absolute difference, ties by quotation id.
   */
  quotations: z.array(
    z.object({
      quotationId: z.number(),
      number: z.string(),
      customer: z.string().nullable(),
      status: z.string(),
      workOrders: z.number(),
      ...quotedActualShape,
    }),
  ),
  /** All such quotations. */
  quotationCount: z.number(),
  /** Over all the orders and quotations, not only those listed. */
  total: z.object({ quoted: z.number(), quotedUntaxed: z.number(), actual: z.number(), difference: z.number() }),
});
export type QuotedVsActualFigures = z.output<typeof quotedVsActualSchema>;
