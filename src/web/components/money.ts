import { useAppData } from '../lib/app-data';
import { formatMoney } from '../lib/format';

export { formatMoney };

/** An amount in integer minor units (cents), as the shared line arithmetic computes it. */
export function formatMinorMoney(minor: number | null | undefined, currency = 'USD'): string {
  return formatMoney((minor ?? 0) / 100, currency);
}

/** Formatters bound to the organisation's currency (company.currency, default USD) and the reader's language. */
export function useMoney() {
  const currency = useAppData().data?.company?.currency || 'USD';
  return {
    currency,
    format: (amount: number | string | null | undefined) => formatMoney(amount, currency),
    formatMinor: (minor: number | null | undefined) => formatMinorMoney(minor, currency),
  };
}
