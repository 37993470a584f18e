import dayjs from 'dayjs';

/** The Mantine date pickers' value ('YYYY-MM-DD HH:mm:ss', local) from an ISO string, and back. */
export const toPicker = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : null);
export const fromPicker = (value: string | Date | null | undefined) => (value ? dayjs(value).toISOString() : null);
