import { describe, expect, it } from 'vitest';
import { currencyDigits, currencySymbol, formatDateTime, formatDay, formatMoney, formatNumber } from './format';
import { fitsCurrency, toMajor, toMinor } from './money';

describe('the one formatter', () => {
  it("writes money with the currency's own decimals", () => {
    expect(formatMoney(1234.5, 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney(1234.5, 'JPY', 'en')).toBe('¥1,235');
    expect(formatMoney(1.2345, 'KWD', 'en')).toBe('KWD\u00a01.235');
    expect([currencyDigits('USD'), currencyDigits('JPY'), currencyDigits('KWD'), currencyDigits('XYZ1')]).toEqual([2, 0, 3, 2]);
    // A three-letter code Intl does not know still prints.
    expect(formatMoney(5, 'QQ', 'en')).toBe('5 QQ');
  });

  it('takes the decimals from ISO 4217, as money is stored, where Intl (CLDR) differs (decision 035)', () => {
    expect([currencyDigits('IQD'), currencyDigits('HUF'), currencyDigits('CLF'), currencyDigits('jpy')]).toEqual([3, 2, 4, 0]);
    expect(formatMoney(1.5, 'IQD', 'en')).toBe('IQD 1.500');
    expect(formatMoney(1.5, 'HUF', 'en')).toBe('HUF 1.50');
    expect([currencySymbol('USD', 'en'), currencySymbol('JPY', 'en'), currencySymbol('KWD', 'en'), currencySymbol('QQ', 'en')]).toEqual([
      '$',
      '¥',
      'KWD',
      'QQ',
    ]);
  });

  it('converts between major and minor units of each currency and says when an amount has too many decimals', () => {
    expect([toMinor(1999, 0), toMinor(12.34, 2), toMinor(1.235, 3), toMinor('0.0001', 4)]).toEqual([1999, 1234, 1235, 1]);
    expect([toMajor(1999, 0), toMajor(1234, 2), toMajor(1235, 3)]).toEqual([1999, 12.34, 1.235]);
    expect([
      fitsCurrency(1999, 0),
      fitsCurrency(1999.5, 0),
      fitsCurrency(12.34, 2),
      fitsCurrency(12.345, 2),
      fitsCurrency(1.235, 3),
      fitsCurrency(1.2345, 3),
    ]).toEqual([true, false, true, false, true, false]);
    // binary noise of a sum (0.30000000000000004) is not a decimal too many
    expect([fitsCurrency(0.1 + 0.2, 2), fitsCurrency(999_999_999.99, 2), fitsCurrency(Number.NaN, 2)]).toEqual([true, true, false]);
  });

  it("follows the reader's language", () => {
    expect(formatMoney(1234.5, 'USD', 'ar')).not.toBe(formatMoney(1234.5, 'USD', 'en'));
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(2.3456, 'en')).toBe('2.346');
  });

  it('writes days and moments one unambiguous way per language: the month by name (decision 066)', () => {
    const at = new Date(2026, 10, 26, 18, 5);
    expect(formatDateTime(at, 'en')).toBe('26 Nov 2026, 06:05 PM');
    expect(formatDateTime(at.toISOString(), 'en')).toBe('26 Nov 2026, 06:05 PM');
    // A stored day is its UTC calendar day, whatever the reader's time zone; a moment starts with the same day.
    expect(formatDay('2026-03-09T00:00:00.000Z', 'en')).toBe('09 Mar 2026');
    expect(formatDay('2026-03-09', 'en')).toBe('09 Mar 2026');
    expect(formatDay('2026-11-26', 'en')).toBe(formatDateTime(at, 'en').split(',')[0]);
    expect(formatDay('2026-11-26', 'ar')).toContain('نوفمبر');
    expect(formatDateTime(at, 'ar').startsWith(formatDay('2026-11-26', 'ar'))).toBe(true);
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
