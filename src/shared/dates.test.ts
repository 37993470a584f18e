import { describe, expect, it } from 'vitest';
import { calendarDateField, clearableDateField, dateField, dayInZone, optionalDateField, zonedInstant } from './dates';

/** Dates JavaScript parses and PostgreSQL refuses (or silently changes), and the edges of the accepted years. */
const OUTSIDE = ['10000-01-01', '+010000-01-01', '+275760-09-13', '-005000-01-01', '0000-01-01', '0001-01-01', '1899-12-31'];
const INSIDE = ['1900-01-01', '2026-03-01', '2026-03-01T10:00:00.000Z', '9999-12-31', '9999-12-31T23:59:59.999Z'];

const issueOf = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? undefined : r.error!.issues.map((i) => i.message);
};

describe('date fields accept the years 1900 to 9999 only', () => {
  const schemas = {
    dateField: dateField('Due date is required', 'Due date must be a valid date'),
    optionalDateField: optionalDateField('Due date must be a valid date'),
    clearableDateField: clearableDateField('Due date must be a valid date'),
    calendarDateField: calendarDateField('Due date is required', 'Due date must be a valid date'),
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: refuses dates outside the range with one field message`, () => {
      for (const v of OUTSIDE) {
        const messages = issueOf(schema, v);
        expect(messages, `${name} ${v}`).toBeDefined();
        expect(messages!.length, `${name} ${v}`).toBe(1);
        expect(messages![0], `${name} ${v}`).toMatch(/^Due date must be (a date between 1900 and 9999|a valid date)$/);
      }
      expect(issueOf(schema, '1899-12-31')).toEqual(['Due date must be a date between 1900 and 9999']);
      expect(issueOf(schema, '+275760-09-13')).toBeDefined();
    });
    it(`${name}: accepts the whole range`, () => {
      for (const v of INSIDE) expect(issueOf(schema, v), `${name} ${v}`).toBeUndefined();
    });
  }
  it('Date objects from the browser are checked too', () => {
    expect(issueOf(schemas.dateField, new Date(8.64e15))).toEqual(['Due date must be a date between 1900 and 9999']);
    expect(issueOf(schemas.dateField, new Date('x'))).toEqual(['Due date must be a valid date']);
    expect(issueOf(schemas.dateField, 253402300800000)).toEqual(['Due date must be a date between 1900 and 9999']);
  });
  it('keeps the required, blank and null meanings', () => {
    expect(issueOf(schemas.dateField, null)).toEqual(['Due date is required']);
    expect(issueOf(schemas.dateField, '  ')).toEqual(['Due date is required']);
    expect(schemas.optionalDateField.parse(null)).toBeUndefined();
    expect(schemas.clearableDateField.parse(null)).toBeNull();
    expect(schemas.clearableDateField.parse('')).toBeUndefined();
    expect(schemas.calendarDateField.parse('2026-03-01T23:00:00Z')).toBe('2026-03-01');
  });
});

// Issue 39, decision 064: the organisation's days.
describe('days in a time zone', () => {
  it('names the day an instant falls on there, and the instant of a wall-clock time of a day there', () => {
    // 01:30 on the 7th in Riyadh (UTC+3) is 22:30 UTC on the 6th.
    expect(dayInZone(new Date('2026-12-06T22:30:00Z'), 'Asia/Riyadh')).toBe('2026-12-07');
    expect(dayInZone(new Date('2026-12-06T22:30:00Z'), 'UTC')).toBe('2026-12-06');
    expect(dayInZone(new Date('2026-12-07T04:59:00Z'), 'America/New_York')).toBe('2026-12-06');
    expect(zonedInstant('2026-12-07', 'Asia/Riyadh', '09:00').toISOString()).toBe('2026-12-07T06:00:00.000Z');
    expect(zonedInstant('2026-12-07', 'Asia/Riyadh').toISOString()).toBe('2026-12-06T21:00:00.000Z');
    // Either side of a daylight-saving change: 09:00 on the wall clock both days.
    expect(zonedInstant('2026-03-28', 'Europe/Paris', '09:00').toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(zonedInstant('2026-03-29', 'Europe/Paris', '09:00').toISOString()).toBe('2026-03-29T07:00:00.000Z');
  });
});
