import { notifications } from '@mantine/notifications';

/** Green toast at the top right, e.g. notifySuccess('Work order added successfully'). */
export function notifySuccess(message: string, title?: string) {
  notifications.show({ message, title, color: 'green', autoClose: 4000, withBorder: true });
}

/** Red toast at the top right, e.g. notifyError('Failed to fetch work orders'). */
export function notifyError(message: string, title?: string) {
  notifications.show({ message, title, color: 'red', autoClose: 6000, withBorder: true });
}
