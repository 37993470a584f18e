import * as rruleModule from 'rrule';
import type { Options } from 'rrule';
import type { PlanFrequency, PlanSchedule, Weekday } from './pm-plans.schema';
import { dateToDay, dayToDate } from '../../shared/dates';

// rrule ships CommonJS for Node and ESM for bundlers: under Node's ESM loader its names sit on `default`.
const { RRule } = (
  (rruleModule as { RRule?: unknown }).RRule ? rruleModule : (rruleModule as unknown as { default: typeof rruleModule }).default
) as typeof rruleModule;

/** The calendar part of a plan, as stored and as the form sends it. Days are 'YYYY-MM-DD' (UTC calendar days). */
export interface CalendarRule {
  frequency: PlanFrequency;
  interval: number;
  weekdays: readonly Weekday[];
  monthlyMode: 'day' | 'weekday';
  monthDay?: number | null;
  monthWeek?: number | null;
  monthWeekday?: Weekday | null;
  schedule: PlanSchedule;
  startDate: string;
  endDate?: string | null;
}

// 'YYYY-MM-DD' as the UTC midnight rrule works in (it treats dates as floating, time zone free).
export { addDays, dateToDay, dayToDate } from '../../shared/dates';

const FREQ = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY, yearly: RRule.YEARLY } as const;

/**
 * "Day D of the month" where some months are shorter: D or, failing that, the month's last day. rrule's
 * set of {D, last day} with position 1 is exactly that (a month without day D skips it otherwise).
 */
const dayOfMonth = (d: number): Partial<Options> => (d > 28 ? { bymonthday: [d, -1], bysetpos: 1 } : { bymonthday: d });

/** rrule's options for the fixed calendar of `rule`, starting at `start`. */
function fixedOptions(rule: CalendarRule, start: string): Partial<Options> {
  const dtstart = dayToDate(start);
  const options: Partial<Options> = { freq: FREQ[rule.frequency], interval: rule.interval, dtstart, until: rule.endDate ? dayToDate(rule.endDate) : null };
  if (rule.frequency === 'weekly' && rule.weekdays.length) options.byweekday = rule.weekdays.map((w) => RRule[w]);
  if (rule.frequency === 'monthly') {
    if (rule.monthlyMode === 'weekday' && rule.monthWeek && rule.monthWeekday) options.byweekday = [RRule[rule.monthWeekday].nth(rule.monthWeek)];
    else Object.assign(options, dayOfMonth(rule.monthDay ?? dtstart.getUTCDate()));
  }
  return options;
}

/** Floating: the next due day counts `interval` units from `from` (the last completion), whatever the weekday. */
function floatingOptions(rule: CalendarRule, from: string): Partial<Options> {
  const dtstart = dayToDate(from);
  const options: Partial<Options> = { freq: FREQ[rule.frequency], interval: rule.interval, dtstart, until: rule.endDate ? dayToDate(rule.endDate) : null };
  if (rule.frequency === 'monthly') Object.assign(options, dayOfMonth(dtstart.getUTCDate()));
  return options;
}

/**
 * Fixed schedule: the due days after `after` (exclusive; from the start date when null) up to `until`
 * (inclusive), at most `limit`.
 */
export function fixedDueDays(rule: CalendarRule, after: string | null, until: string | null, limit: number): string[] {
  if (limit <= 0) return [];
  const r = new RRule(fixedOptions(rule, rule.startDate));
  const out: string[] = [];
  const afterDate = after ? dayToDate(after) : null;
  const untilDate = until ? dayToDate(until) : null;
  // rrule iterates from dtstart; `after` skips the ones already behind us.
  const from = afterDate && afterDate >= dayToDate(rule.startDate) ? r.after(afterDate, false) : r.after(dayToDate(rule.startDate), true);
  if (!from) return out;
  if (untilDate && from > untilDate) return out;
  out.push(dateToDay(from));
  if (out.length >= limit) return out;
  // Inclusive at both ends (until is a due day it may reach); `from` itself is already in.
  const rest = r.between(from, untilDate ?? new Date(Date.UTC(9999, 11, 31)), true, (d, i) => i < limit);
  for (const d of rest) if (d.getTime() !== from.getTime()) out.push(dateToDay(d));
  return out.slice(0, limit);
}

/** Floating schedule: the one due day that follows a completion (or a skip) on `from`, or null past the end date. */
export function floatingNextDay(rule: CalendarRule, from: string): string | null {
  const r = new RRule(floatingOptions(rule, from));
  const next = r.after(dayToDate(from), false);
  return next ? dateToDay(next) : null;
}

/**
 * The preview: the first `count` due days of the plan as entered. A floating plan is shown as if each
 * occurrence were completed on its due day.
 */
export function previewDueDays(rule: CalendarRule, count = 12): string[] {
  if (rule.schedule === 'fixed') return fixedDueDays(rule, null, null, count);
  const [first] = fixedDueDays(rule, null, null, 1);
  if (!first) return [];
  const days = [first];
  while (days.length < count) {
    const next = floatingNextDay(rule, days[days.length - 1]);
    if (!next) break;
    days.push(next);
  }
  return days;
}
