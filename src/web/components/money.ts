import { useAppData } from '../lib/app-data';
import { currencySymbol, formatMoney } from '../lib/format';
import { currencyDigits, toMajor } from '../../shared/money';
import type { EngineOptions, TaxRounding } from '../../shared/tax';

export { formatMoney };

/** An amount in integer minor units of `currency` (JPY yen, USD cents, KWD fils), as the shared line arithmetic computes it. */
export function formatMinorMoney(minor: number | null | undefined, currency = 'USD'): string {
  return formatMoney(toMajor(minor ?? 0, currencyDigits(currency)), currency);
}

/**
 * Formatters bound to the organisation's currency (company.currency, default USD) and the reader's language,
 * and the tax engine's options for live totals (the currency's decimals, the organisation's tax rounding).
 */
export function useMoney() {
  const company = useAppData().data?.company as { currency?: string; taxRounding?: TaxRounding } | undefined;
  const currency = company?.currency || 'USD';
  const digits = currencyDigits(currency);
  const engine: EngineOptions = { digits, rounding: company?.taxRounding ?? 'round_per_line' };
  return {
    currency,
    digits,
    /** "$", "¥", "KWD": for the side of a price field */
    symbol: currencySymbol(currency),
    engine,
    format: (amount: number | string | null | undefined) => formatMoney(amount, currency),
    formatMinor: (minor: number | null | undefined) => formatMinorMoney(minor, currency),
  };
}
