import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '../i18n';
import { whenModalsReady } from './overlay-hosts';

export interface ConfirmOptions {
  title?: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button (deletes). Default true. */
  danger?: boolean;
}

/** Asks for confirmation in a modal; resolves true on confirm, false on cancel or close. */
export function confirmAction(opts: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: boolean) => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    void whenModalsReady().then(() =>
      modals.openConfirmModal({
        title: opts.title ?? i18n.t('common:confirm.title'),
        centered: true,
        closeButtonProps: { 'aria-label': i18n.t('common:actions.close') },
        children: <Text size="sm">{opts.message}</Text>,
        labels: { confirm: opts.confirmLabel ?? i18n.t('common:confirm.yes'), cancel: opts.cancelLabel ?? i18n.t('common:confirm.cancel') },
        confirmProps: { color: opts.danger === false ? undefined : 'red', 'data-testid': 'confirm-yes' },
        cancelProps: { 'data-testid': 'confirm-cancel' },
        onConfirm: () => done(true),
        onCancel: () => done(false),
        onClose: () => done(false),
      }),
    );
  });
}

/** The delete confirmation every drawer uses: "Are you sure you want to delete this …?". */
export function confirmDelete(message?: string, title?: string): Promise<boolean> {
  return confirmAction({
    title: title ?? i18n.t('common:confirm.deleteTitle'),
    message: message ?? i18n.t('common:confirm.deleteMessage'),
    confirmLabel: i18n.t('common:actions.delete'),
  });
}
