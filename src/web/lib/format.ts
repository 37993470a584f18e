import { i18n } from '../i18n';
import * as shared from '../../shared/format';

/**
 * The shared formatter (src/shared/format.ts) in the reader's current language. Read at render time:
 * a change of language re-renders the screens (react-i18next), which then format anew.
 */
const lang = () => i18n.language;

let zone: string | undefined;
/**
 * The organisation's time zone (company setting, decision 064), set when the application data arrives: every
 * moment a screen shows (lists, drawers, history) is on the organisation's clock, whatever the browser's zone,
 * as the calendar, the PDFs and the mails. Unset (a public page, before the data), the reader's own zone.
 */
export const setDisplayTimeZone = (timeZone: string | null | undefined) => {
  zone = timeZone || undefined;
};
/** The zone moments are shown in: the organisation's once known, else undefined (the browser's). */
export const displayTimeZone = () => zone;

export const formatDateTime = (value: string | Date | null | undefined) => shared.formatDateTime(value, lang(), zone);
export const formatDay = (value: string | Date | null | undefined) => shared.formatDay(value, lang());
export const formatNumber = (n: number | string | null | undefined, maxDecimals?: number) => shared.formatNumber(n, lang(), maxDecimals);
/**
 * An amount with its currency, isolated (U+2068 … U+2069) in a right-to-left language: "US$ 1,165.45" keeps its
 * order inside an Arabic sentence or cell instead of becoming "$US 1,165.45" (decision 065).
 */
export const formatMoney = (amount: number | string | null | undefined, currency?: string) => {
  const text = shared.formatMoney(amount, currency, lang());
  return lang() === 'ar' && text ? `\u2068${text}\u2069` : text;
};
export const currencySymbol = (currency?: string) => shared.currencySymbol(currency, lang());
export const formatMinutes = (minutes: number) => shared.formatMinutes(minutes, lang());
