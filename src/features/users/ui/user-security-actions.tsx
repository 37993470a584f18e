import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../web/lib/api';
import { confirmAction, notifyError, notifySuccess } from '../../../web/components';
import type { UserDto } from '../users.schema';

/** The people drawer's admin actions (decision 076): reset a person's two-factor enrolment, end all their sessions. */
export function UserSecurityActions({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const run = async (message: string, label: string, path: string) => {
    if (!(await confirmAction({ message, confirmLabel: label }))) return;
    try {
      const res = await api.post<{ message: string }>(path);
      notifySuccess(res.message);
    } catch (err) {
      notifyError(errorMessage(err, t('errors.generic')));
    }
  };
  return (
    <>
      <Button
        variant="light"
        color="orange"
        onClick={() => void run(t('security.resetTwoFactorConfirm'), t('security.resetTwoFactor'), `/user/reset-two-factor/${user.id}`)}
        data-testid="user-reset-two-factor"
      >
        {t('security.resetTwoFactor')}
      </Button>
      <Button
        variant="light"
        color="orange"
        onClick={() => void run(t('security.endSessionsConfirm'), t('security.endSessions'), `/user/delete-sessions/${user.id}`)}
        data-testid="user-end-sessions"
      >
        {t('security.endSessions')}
      </Button>
    </>
  );
}
