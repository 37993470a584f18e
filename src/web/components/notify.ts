import { notifications } from '@mantine/notifications';
import { translateMessage } from '../i18n/messages/translate-message';

// A toast's text may be an English message of the API or of the contract: shown in the reader's language (decision 065).
const tr = (text: string | undefined) => (text === undefined ? undefined : translateMessage(text));

/** Green toast at the top right, e.g. notifySuccess('Work order added successfully'). */
export function notifySuccess(message: string, title?: string) {
  notifications.show({ message: tr(message), title: tr(title), color: 'green', autoClose: 4000, withBorder: true });
}

/**
 * Red toast at the top right, e.g. notifyError('Failed to fetch work orders'). The same failure reported twice
 * while its toast is up (a retried fetch, two screens reading one list) shows once: the message is its id.
 */
export function notifyError(message: string, title?: string) {
  notifications.show({ id: `error:${title ?? ''}:${message}`, message: tr(message), title: tr(title), color: 'red', autoClose: 6000, withBorder: true });
}
