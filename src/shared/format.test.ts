import { describe, expect, it } from 'vitest';
import { currencyDigits, formatDateTime, formatDay, formatMoney, formatNumber } from './format';

describe('the one formatter', () => {
  it("writes money with the currency's own decimals", () => {
    expect(formatMoney(1234.5, 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney(1234.5, 'JPY', 'en')).toBe('¥1,235');
    expect(formatMoney(1.2345, 'KWD', 'en')).toBe('KWD\u00a01.235');
    expect([currencyDigits('USD'), currencyDigits('JPY'), currencyDigits('KWD'), currencyDigits('XYZ1')]).toEqual([2, 0, 3, 2]);
    // A three-letter code Intl does not know still prints.
    expect(formatMoney(5, 'QQ', 'en')).toBe('5 QQ');
  });

  it("follows the reader's language", () => {
    expect(formatMoney(1234.5, 'USD', 'ar')).not.toBe(formatMoney(1234.5, 'USD', 'en'));
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(2.3456, 'en')).toBe('2.346');
  });

  it("keeps the spec's English patterns for dates", () => {
    const at = new Date(2026, 10, 26, 18, 5);
    expect(formatDateTime(at, 'en')).toBe('11/26/2026 06:05 PM');
    expect(formatDateTime(at.toISOString(), 'en')).toBe('11/26/2026 06:05 PM');
    // A stored day is its UTC calendar day, whatever the reader's time zone.
    expect(formatDay('2026-03-09T00:00:00.000Z', 'en')).toBe('09/03/2026');
    expect(formatDay('2026-03-09', 'en')).toBe('09/03/2026');
    expect([formatDateTime(null, 'en'), formatDay('not a date', 'en')]).toEqual(['', '']);
  });

  it('writes Arabic dates with Arabic day periods', () => {
    const morning = formatDateTime(new Date(2026, 10, 26, 6, 5), 'ar');
    const evening = formatDateTime(new Date(2026, 10, 26, 18, 5), 'ar');
    expect(morning).toContain('ص');
    expect(evening).toContain('م');
    expect(morning).not.toContain('AM');
  });
});
