import { useAppData } from '../lib/app-data';

/** "$1,234.50": an amount in major units (dollars) with 2 decimals in the given currency. */
export function formatMoney(amount: number | string | null | undefined, currency = 'USD', locale?: string): string {
  const n = typeof amount === 'string' ? Number(amount) : (amount ?? 0);
  try {
    return new Intl.NumberFormat(locale ?? 'en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      Number.isFinite(n) ? n : 0,
    );
  } catch {
    return `${(Number.isFinite(n) ? n : 0).toFixed(2)} ${currency}`;
  }
}

/** An amount in integer minor units (cents), as the shared line arithmetic computes it. */
export function formatMinorMoney(minor: number | null | undefined, currency = 'USD', locale?: string): string {
  return formatMoney((minor ?? 0) / 100, currency, locale);
}

/** Formatters bound to the organisation's currency (company.currency, default USD). */
export function useMoney() {
  const currency = useAppData().data?.company?.currency || 'USD';
  return {
    currency,
    format: (amount: number | string | null | undefined) => formatMoney(amount, currency),
    formatMinor: (minor: number | null | undefined) => formatMinorMoney(minor, currency),
  };
}
