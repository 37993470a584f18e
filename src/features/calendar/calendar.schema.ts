import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { idField } from '../../shared/validation';
import { dateField } from '../../shared/dates';

/** The longest range one request may ask for: a month view's six weeks fit, a year does not. */
export const CALENDAR_MAX_DAYS = 62;
/** At most this many entries of each kind in one answer (`truncated` says when there were more). */
export const CALENDAR_ENTRY_LIMIT = 1000;

/** A move (a calendar drag) goes at most this many years past today (decision 064). */
export const RESCHEDULE_YEARS_AHEAD = 5;

export const RESCHEDULE_MESSAGES = {
  completed: 'A completed order cannot be moved: its work is done',
  cancelled: 'A cancelled order cannot be moved',
  beforeCreated: (created: string) => `Due date cannot be before ${created}, the day the order was created`,
  tooFar: `Due date must be at most ${RESCHEDULE_YEARS_AHEAD} years ahead`,
} as const;

/**
 * Where an order may be moved (decision 064): not before the day it was created, not more than
 * RESCHEDULE_YEARS_AHEAD years after today (days 'YYYY-MM-DD', the organisation's). The message, or null.
 */
export function rescheduleDayProblem(day: string, createdDay: string, today: string): string | null {
  if (day < createdDay) return RESCHEDULE_MESSAGES.beforeCreated(createdDay);
  const latest = `${Number(today.slice(0, 4)) + RESCHEDULE_YEARS_AHEAD}${today.slice(4)}`;
  return day > latest ? RESCHEDULE_MESSAGES.tooFar : null;
}

export const CALENDAR_MESSAGES = {
  order: 'The end of the range must be after its start',
  tooLong: `The range must be at most ${CALENDAR_MAX_DAYS} days`,
} as const;

const optionalId = (message: string) => z.preprocess(blankToUndefined, idField(message).optional());

/**
 * GET list-calendar-entries: `from` (inclusive) and `to` (exclusive), the calendar's visible days
 * ('YYYY-MM-DD', the organisation's days: decision 064) or ISO 8601 instants (the days they fall on there); optional filters by asset, location (and everything under it), team (an assignee in the team) and assignee.
 */
export const calendarQuerySchema = z
  .object({
    from: dateField('From is required', 'From must be a valid date'),
    to: dateField('To is required', 'To must be a valid date'),
    assetId: optionalId('Asset is invalid'),
    /** The assets in a location and everything under it (decision 072). */
    locationId: optionalId('Location is invalid'),
    teamId: optionalId('Team is invalid'),
    assigneeId: optionalId('Assignee is invalid'),
  })
  .superRefine((q, ctx) => {
    if (!(q.from instanceof Date) || !(q.to instanceof Date)) return;
    if (q.to.getTime() <= q.from.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: CALENDAR_MESSAGES.order });
    else if (q.to.getTime() - q.from.getTime() > CALENDAR_MAX_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: CALENDAR_MESSAGES.tooLong });
  });
export type CalendarQueryInput = z.input<typeof calendarQuerySchema>;
export type CalendarQuery = z.output<typeof calendarQuerySchema>;

export const CALENDAR_KINDS = ['work-order', 'maintenance-order', 'planned'] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];

/** One thing on the calendar: a work order, a maintenance order, or a plan's occurrence not yet created. */
export const calendarEntrySchema = z.object({
  kind: z.enum(CALENDAR_KINDS),
  /** The record's id (work order, maintenance order); for a planned occurrence, its plan's id. */
  id: z.number(),
  /** Unique in the answer: kind, id (and the day, for planned occurrences). */
  key: z.string(),
  /** WO-0001, PM-0001, or the plan's name for a planned occurrence. */
  displayId: z.string(),
  title: z.string(),
  /** ISO 8601: the due date, or the start (schedule) date when there is none. */
  date: z.string(),
  /** The organisation's day it falls on ('YYYY-MM-DD', in its time zone: decision 064): the calendar shows it there. */
  day: z.string(),
  /** A day rather than a moment (maintenance orders keep days). */
  allDay: z.boolean(),
  status: z.string(),
  priority: z.string().nullable(),
  asset: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Open and due before now (a day's due date: before today). */
  overdue: z.boolean(),
  /** The edit version to send back with a reschedule (decision 025): work orders `updatedAt`, maintenance orders `version`. */
  updatedAt: z.string().nullable(),
  version: z.number().nullable(),
  /** Planned occurrences: the day the generator creates the work order (due day minus the plan's lead time). */
  createOn: z.string().nullable(),
});
export type CalendarEntry = z.infer<typeof calendarEntrySchema>;

export const calendarAnswerSchema = z.object({
  entries: z.array(calendarEntrySchema),
  /** More than CALENDAR_ENTRY_LIMIT of a kind fell in the range: narrow it or filter. */
  truncated: z.boolean(),
  /** The organisation's time zone, whose days `day` names. */
  timeZone: z.string(),
});
export type CalendarAnswer = z.infer<typeof calendarAnswerSchema>;
