const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Spec: dates shown as MM/dd/yyyy hh:mm aa, in the browser's time zone ('' for none). The same text as dayjs's
 * 'MM/DD/YYYY hh:mm A', without loading dayjs with the first page (it comes with the date pickers).
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'Invalid Date';
  const h = d.getHours();
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${String(d.getFullYear()).padStart(4, '0')} ${pad(h % 12 || 12)}:${pad(d.getMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
}
