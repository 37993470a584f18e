import { useState } from 'react';
import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { DialogActions, useBusyAction } from '../../../web/components';

/**
 * "New recovery codes" in the Security tab (decision 083): the password again, then the ten new codes go to
 * `onCodes` (shown once by the tab's RecoveryCodesBlock); the old ones stop working.
 */
export function RegenerateRecoveryCodes({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const { busy, run, error, setError } = useBusyAction();
  const close = () => {
    setOpen(false);
    setPassword('');
    setError(null);
  };
  const submit = () =>
    run(async () => {
      const res = await api.post<{ recoveryCodes: string[] }>('/two-factor/regenerate-recovery-codes', { password });
      close();
      onCodes(res.recoveryCodes);
    }, t('errors.generic'));
  if (!open)
    return (
      <Button variant="default" onClick={() => setOpen(true)} data-testid="recovery-codes-regenerate">
        {t('security.regenerate')}
      </Button>
    );
  return (
    <Stack
      gap="xs"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Text size="sm">{t('security.regenerateHint')}</Text>
      <PasswordInput
        label={t('security.password')}
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={error}
        autoComplete="current-password"
        data-autofocus
        data-testid="recovery-codes-password"
      />
      <DialogActions onCancel={close} submitLabel={t('security.regenerateConfirm')} loading={busy} testId="recovery-codes-regenerate-confirm" />
    </Stack>
  );
}
