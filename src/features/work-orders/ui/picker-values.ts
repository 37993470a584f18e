import dayjs from 'dayjs';
import { fromWallClockText, wallClockText } from '../../../shared/dates';
import { displayTimeZone } from '../../../web/lib/format';

/**
 * The Mantine date pickers' value ('YYYY-MM-DD HH:mm:ss') from an ISO string, and back: on the organisation's
 * clock once it is known (decision 064: the list and the drawer show the same times as the calendar, the PDF and
 * the mails), on the browser's before.
 */
export function toPicker(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const zone = displayTimeZone();
  return zone ? wallClockText(new Date(iso), zone) : dayjs(iso).format('YYYY-MM-DD HH:mm:ss');
}

export function fromPicker(value: string | Date | null | undefined): string | null {
  if (!value) return null;
  const zone = displayTimeZone();
  if (!zone) return dayjs(value).toISOString();
  // A Date from a picker holds the wall clock chosen, in the browser's zone: read it back as text first.
  const text = value instanceof Date ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : value;
  return (fromWallClockText(text, zone) ?? dayjs(value).toDate()).toISOString();
}
