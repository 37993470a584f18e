import { addDays, dayInZone, dayToDate, zonedInstant } from '../../shared/dates';
import type { DayRange } from '../analytics/analytics.schema';
import type { ReportFrequency } from './insights-reports.schema';

/** The local time a report leaves: Monday (weekly) or the 1st (monthly), 07:00 in the organisation's time zone. */
export const REPORT_SEND_TIME = '07:00';

const mondayOf = (day: string) => addDays(day, -((dayToDate(day).getUTCDay() + 6) % 7));
const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;
const nextMonth = (first: string) => {
  const d = dayToDate(first);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
};
const previousMonth = (first: string) => {
  const d = dayToDate(first);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
};

/** The first send instant strictly after `after`. */
export function nextSendAt(frequency: ReportFrequency, after: Date, zone: string): Date {
  const today = dayInZone(after, zone);
  const start = frequency === 'weekly' ? mondayOf(today) : firstOfMonth(today);
  const candidate = zonedInstant(start, zone, REPORT_SEND_TIME);
  if (candidate.getTime() > after.getTime()) return candidate;
  return zonedInstant(frequency === 'weekly' ? addDays(start, 7) : nextMonth(start), zone, REPORT_SEND_TIME);
}

/** The whole period a send at `sendAt` reports: the week (Monday to Sunday) or the month before, in local days. */
export function reportPeriod(frequency: ReportFrequency, sendAt: Date, zone: string): { current: DayRange; previous: DayRange } {
  const day = dayInZone(sendAt, zone);
  if (frequency === 'weekly') {
    const monday = mondayOf(day);
    return { current: { from: addDays(monday, -7), to: addDays(monday, -1) }, previous: { from: addDays(monday, -14), to: addDays(monday, -8) } };
  }
  const first = firstOfMonth(day);
  const from = previousMonth(first);
  return { current: { from, to: addDays(first, -1) }, previous: { from: previousMonth(from), to: addDays(from, -1) } };
}
