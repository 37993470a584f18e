import { notifications } from '@mantine/notifications';

/** Green toast at the top right, e.g. notifySuccess('Work order added successfully'). */
export function notifySuccess(message: string, title?: string) {
  notifications.show({ message, title, color: 'green', autoClose: 4000, withBorder: true });
}

/**
 * Red toast at the top right, e.g. notifyError('Failed to fetch work orders'). The same failure reported twice
 * while its toast is up (a retried fetch, two screens reading one list) shows once: the message is its id.
 */
export function notifyError(message: string, title?: string) {
  notifications.show({ id: `error:${title ?? ''}:${message}`, message, title, color: 'red', autoClose: 6000, withBorder: true });
}
