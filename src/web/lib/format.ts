import { i18n } from '../i18n';
import * as shared from '../../shared/format';

/**
 * The shared formatter (src/shared/format.ts) in the reader's current language. Read at render time:
 * a change of language re-renders the screens (react-i18next), which then format anew.
 */
const lang = () => i18n.language;

export const formatDateTime = (value: string | Date | null | undefined) => shared.formatDateTime(value, lang());
export const formatDay = (value: string | Date | null | undefined) => shared.formatDay(value, lang());
export const formatNumber = (n: number | string | null | undefined, maxDecimals?: number) => shared.formatNumber(n, lang(), maxDecimals);
export const formatMoney = (amount: number | string | null | undefined, currency?: string) => shared.formatMoney(amount, currency, lang());
export const currencySymbol = (currency?: string) => shared.currencySymbol(currency, lang());
export const formatMinutes = (minutes: number) => shared.formatMinutes(minutes, lang());
