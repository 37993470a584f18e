import { z } from './zod-setup';

/**
 * The years a date field accepts (decision 023). JavaScript takes years -271821 to 275760 and PostgreSQL
 * refuses most of them (or stores year 1 as something else), so the schema stops them with a field message
 * before they reach the database. 1900..9999: four-digit years, the shape of ISO 8601 and `<input type="date">`;
 * nothing a maintenance record needs lies before 1900, and before it time zones had odd local-mean-time offsets.
 */
export const DATE_YEARS = { min: 1900, max: 9999 } as const;

const EARLIEST = Date.UTC(DATE_YEARS.min, 0, 1);
const LATEST = Date.UTC(DATE_YEARS.max + 1, 0, 1) - 1;

/** Inside the accepted years, read in UTC: exactly the dates whose ISO 8601 string has a four-digit year. */
export const isDateInRange = (d: Date) => d.getTime() >= EARLIEST && d.getTime() <= LATEST;

/** 'Due date must be a valid date' -> 'Due date must be a date between 1900 and 9999'. */
export const dateRangeMessage = (invalid: string) =>
  `${/^(.+?) must be a valid date$/.exec(invalid)?.[1] ?? 'Date'} must be a date between ${DATE_YEARS.min} and ${DATE_YEARS.max}`;

/** Every date field's schema, so tests can find the date fields of any body (fuzz.test.ts). */
export const dateFields = z.registry<{ kind: 'date' | 'calendar-date' }>();

const isBlank = (v: unknown) => v === '' || v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const toDate = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? new Date(v) : v);

/** A Date within the accepted years; anything else that is not a Date gives `invalid`. */
const dateInRange = (required: string, invalid: string) =>
  z.date({ error: (issue) => (issue.input === undefined ? required : invalid) }).refine(isDateInRange, dateRangeMessage(invalid));

/** A required date sent as an ISO 8601 string (or a Date in the browser): missing or blank gives `required`. */
export const dateField = (required: string, invalid = 'Must be a valid date') =>
  // Converted here rather than with z.coerce: coercion turns a missing value into an Invalid Date, hiding `required`.
  z.preprocess((v) => (isBlank(v) ? undefined : toDate(v)), dateInRange(required, invalid)).register(dateFields, { kind: 'date' });

/** An optional date: blank, null or missing is undefined ("not given"). */
export const optionalDateField = (invalid: string) =>
  z.preprocess((v) => (isBlank(v) ? undefined : toDate(v)), dateInRange(invalid, invalid).optional()).register(dateFields, { kind: 'date' });

/** An optional date that an explicit null clears: null stays null, blank or missing is undefined. */
export const clearableDateField = (invalid: string) =>
  z
    .preprocess((v) => (v === null ? null : isBlank(v) ? undefined : toDate(v)), dateInRange(invalid, invalid).nullable().optional())
    .register(dateFields, {
      kind: 'date',
    });

const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar date kept as 'YYYY-MM-DD': that string, an ISO date-time (its date part) or a browser Date (its local day). */
export const calendarDateField = (required: string, invalid: string) =>
  z
    .preprocess(
      (v) => {
        if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'invalid' : `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
        return typeof v === 'string' ? v.trim() || undefined : v === null ? undefined : v;
      },
      z
        .string({ error: (i) => (i.input === undefined ? required : invalid) })
        .superRefine((s, ctx) => {
          const day = s.slice(0, 10);
          const d = new Date(`${day}T00:00:00Z`);
          // One message per field: a malformed string is invalid, a real day outside the years is out of range.
          if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day) {
            ctx.addIssue({ code: 'custom', message: invalid });
          } else if (!isDateInRange(d)) {
            ctx.addIssue({ code: 'custom', message: dateRangeMessage(invalid) });
          }
        })
        .transform((s) => s.slice(0, 10)),
    )
    .register(dateFields, { kind: 'calendar-date' });

/** True for a time zone this runtime knows ('Europe/Paris', 'UTC', 'Asia/Riyadh'). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name, as the browser reports it (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
export const timeZoneField = z
  .string({ error: 'Time zone must be a time zone name' })
  .trim()
  .max(64, 'Time zone must be a time zone name')
  .refine(isTimeZone, 'Time zone must be a time zone name');

const wallClocks = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock time of `t` in `zone`, written as if it were UTC (milliseconds dropped). */
function wallClock(t: number, zone: string): number {
  let f = wallClocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/**
 * The instant on `day` ('YYYY-MM-DD') at the time of day `base` has in `zone` (midnight there without a base):
 * a drag in the calendar moves the day and keeps the hour the reader sees. Across a daylight-saving change the
 * hour stays the same on the wall clock, not the same number of hours later.
 */
export function moveToDay(base: Date | null, day: string, zone = 'UTC'): Date {
  const [y, m, d] = day.split('-').map(Number);
  const ms = base ? base.getTime() - Math.floor(base.getTime() / 1000) * 1000 : 0;
  const clock = base ? new Date(wallClock(base.getTime(), zone)) : new Date(Date.UTC(y, m - 1, d));
  const wanted = Date.UTC(y, m - 1, d, clock.getUTCHours(), clock.getUTCMinutes(), clock.getUTCSeconds());
  return new Date(fromWallClock(wanted, zone) + ms);
}

/** The instant whose wall clock in `zone` reads `wanted` (a wall-clock time written as if it were UTC). */
function fromWallClock(wanted: number, zone: string): number {
  // The zone's offset at a first guess, then at the instant it gives (right on either side of a change).
  const offsetAt = (t: number) => wallClock(t, zone) - Math.floor(t / 1000) * 1000;
  const guess = wanted - offsetAt(wanted);
  return wanted - offsetAt(guess);
}

/**
 * The calendar day ('YYYY-MM-DD') that instant `t` falls on in `zone` (an organisation's day: decision 064).
 * 01:30 in Riyadh on the 7th is 22:30 UTC on the 6th: its day there is the 7th.
 */
export function dayInZone(t: Date, zone = 'UTC'): string {
  return new Date(wallClock(t.getTime(), zone)).toISOString().slice(0, 10);
}

/**
 * The wall clock of instant `t` in `zone` as 'YYYY-MM-DD HH:mm:ss' (the date-time pickers' value): a work order
 * due at 22:30 UTC on the 6th is '2030-01-07 01:30:00' in Riyadh.
 */
export function wallClockText(t: Date, zone = 'UTC'): string {
  return new Date(wallClock(t.getTime(), zone)).toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant a wall clock 'YYYY-MM-DD HH:mm[:ss]' shows in `zone` (wallClockText's reverse); null when it is not one. */
export function fromWallClockText(text: string, zone = 'UTC'): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0));
  return new Date(fromWallClock(Date.UTC(y, mo - 1, d, h, mi, se), zone));
}

/**
 * The instant of `day` ('YYYY-MM-DD') at `time` ('HH:MM', midnight by default) on the wall clock of `zone`:
 * a plan's work due on the 7th at 09:00 in Riyadh is 06:00 UTC on the 7th.
 */
export function zonedInstant(day: string, zone = 'UTC', time = '00:00'): Date {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  return new Date(fromWallClock(Date.UTC(y, m - 1, d, hh, mm), zone));
}

/**
 * A day typed in a date box, day first ('dmy': DD/MM/YYYY, the lists' dates) or month first ('mdy': MM/DD/YYYY,
 * the spec's date-time order), to 'YYYY-MM-DD'; null when it is not a day of the calendar (31/02 is refused,
 * not moved to March).
 */
export function parseTypedDay(text: string, order: 'dmy' | 'mdy'): string | null {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [day, month] = order === 'dmy' ? [m[1], m[2]] : [m[2], m[1]];
  const iso = `${m[3]}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';
const EASTERN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
let monthNames: Map<string, number> | undefined;
/** Month names of both languages (English short and long, Arabic), lower case, to their number. */
function months() {
  if (!monthNames) {
    monthNames = new Map();
    for (const [locale, styles] of [
      ['en-US', ['short', 'long']],
      ['ar', ['long']],
    ] as const) {
      for (const style of styles) {
        const f = new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' });
        for (let m = 0; m < 12; m++)
          monthNames.set(
            f
              .format(new Date(Date.UTC(2001, m, 15)))
              .toLowerCase()
              .replace(/\.$/, ''),
            m + 1,
          );
      }
    }
    monthNames.set('sept', 9);
  }
  return monthNames;
}

/**
 * A day typed in a date box (decision 066), to 'YYYY-MM-DD', or null when it is not a day of the calendar (31/02 is
 * refused, not moved to March): the shown format ("26 Nov 2026", "26 نوفمبر 2026"), numbers day first
 * ("26/11/2026", "26.11.2026"), or ISO ("2026-11-26"); Arabic-Indic digits too.
 */
export function parseDayText(text: string): string | null {
  const t = text
    .trim()
    .replace(/[٠-٩]/g, (d) => String(ARABIC_DIGITS.indexOf(d)))
    .replace(/[۰-۹]/g, (d) => String(EASTERN_DIGITS.indexOf(d)))
    .replace(/[\u200e\u200f\u061c]/g, '');
  let y: string, m: number, d: string;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  const named = /^(\d{1,2})[\s/.-]+([^\d\s/.,،-]+)\.?[\s/.,،-]+(\d{4})$/.exec(t);
  if (iso) [y, m, d] = [iso[1], Number(iso[2]), iso[3]];
  else if (numeric) [y, m, d] = [numeric[3], Number(numeric[2]), numeric[1]];
  else if (named) {
    const month = months().get(named[2].toLowerCase());
    if (!month) return null;
    [y, m, d] = [named[3], month, named[1]];
  } else return null;
  const day = `${y}-${String(m).padStart(2, '0')}-${d.padStart(2, '0')}`;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? null : day;
}

const FIVE_YEARS_MS = 5 * 366 * 86_400_000;
/** A query's day range [from, to] (either may be missing): to on or after from, at most five years long (pm-plans, analytics). */
export const dayRangeChecks = <T extends { from?: string; to?: string }>(schema: z.ZodType<T>) =>
  schema
    .refine((v) => !v.from || !v.to || v.to >= v.from, { message: 'To must be on or after From', path: ['to'] })
    .refine((v) => !v.from || !v.to || Date.parse(v.to) - Date.parse(v.from) <= FIVE_YEARS_MS, {
      message: 'The range must be at most five years',
      path: ['to'],
    });

const DAY_MS = 86_400_000;
/** 'YYYY-MM-DD' as its UTC midnight, and back; a day n days later (UTC calendar days: pm-plans, analytics). */
export const dayToDate = (day: string) => new Date(`${day}T00:00:00Z`);
export const dateToDay = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => dateToDay(new Date(dayToDate(day).getTime() + n * DAY_MS));

/**
 * The reader's days around `now` in `zone` (decision 066): the start of today, of tomorrow, and the end of the
 * week window (today and the six days after it, the spec's 7-day due-soon window), as instants.
 */
export function dueWindows(now: Date, zone = 'UTC') {
  const today = dayInZone(now, zone);
  return {
    today,
    todayStart: moveToDay(null, today, zone),
    tomorrowStart: moveToDay(null, addDays(today, 1), zone),
    weekEnd: moveToDay(null, addDays(today, 7), zone),
  };
}
