import { useEffect, useState } from 'react';
import { Alert, Button, Modal, PasswordInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api, ApiError, errorMessage } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { isSignOffValue, SIGN_MEANINGS, type SignMeaning, type WorkOrderProcedureDto } from '../../features/procedures/procedures.schema';
import { registerTranslations } from '../i18n';

registerTranslations('signOff', {
  en: {
    signOff: {
      sign: 'Sign off',
      title: 'Sign off this step',
      help: 'Your signature records your name, the time and what it means. Enter your password to sign.',
      password: 'Your password',
      confirm: 'Sign',
      signed: '{{meaning}} by {{name}}, {{when}}',
      offline: 'Signing needs a connection: sign when you are back online.',
      meaning: { performed: 'Performed', verified: 'Verified', approved: 'Approved' },
    },
  },
  ar: {
    signOff: {
      sign: 'اعتماد بالتوقيع',
      title: 'اعتماد هذه الخطوة',
      help: 'يسجّل توقيعك اسمك والوقت ومعناه. أدخل كلمة المرور للتوقيع.',
      password: 'كلمة المرور',
      confirm: 'وقّع',
      signed: '{{meaning}}: {{name}}، {{when}}',
      offline: 'التوقيع يحتاج إلى اتصال: وقّع عند عودة الاتصال.',
      meaning: { performed: 'نفّذه', verified: 'تحقّق منه', approved: 'اعتمده' },
    },
  },
});

/** Whether the browser is online now, and when that changes. */
function useOnline() {
  const [online, setOnline] = useState(typeof navigator === 'undefined' ? true : navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/**
 * A sign-off step (decision 078): the signature (meaning, name, time) when signed; else "Sign", which asks for the
 * signer's password and what the signature means, and signs online only (offline it says so). Single sign-on users:
 * the sign-on work replaces the password with a fresh sign-in (the hook is the server's reauthenticateSigner).
 */
export function SignOffStep({
  workOrderId,
  step,
  testId,
  onSigned,
}: {
  workOrderId: number;
  step: { id: number; value: unknown; answeredAt: string | null };
  testId: string;
  onSigned?(procedure: WorkOrderProcedureDto | null): void;
}) {
  const { t } = useTranslation('signOff');
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const [signed, setSigned] = useState<unknown>(step.value);
  useEffect(() => setSigned(step.value), [step.value]);
  const [password, setPassword] = useState('');
  const [meaning, setMeaning] = useState<SignMeaning>('performed');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sign = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await api.post<{ step: { value: unknown }; procedure: WorkOrderProcedureDto | null }>(`/work-orders/sign-procedure-step/${workOrderId}`, {
        stepId: step.id,
        password,
        meaning,
      });
      setSigned(res.step.value);
      setOpen(false);
      setPassword('');
      onSigned?.(res.procedure);
    } catch (err) {
      setError(err instanceof ApiError ? (err.issues.find((i) => i.path === 'password')?.message ?? err.message) : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  if (isSignOffValue(signed)) {
    return (
      <Text size="sm" data-testid={`${testId}-signature`}>
        {t('signOff.signed', { meaning: t(`signOff.meaning.${signed.meaning}`), name: signed.name, when: formatDateTime(signed.signedAt) })}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {!online && (
        <Alert color="yellow" data-testid={`${testId}-offline`}>
          {t('signOff.offline')}
        </Alert>
      )}
      <Button
        variant="light"
        size="md"
        leftSection={<IconSignature size={18} />}
        disabled={!online}
        onClick={() => setOpen(true)}
        data-testid={`${testId}-sign-off`}
      >
        {t('signOff.sign')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('signOff.title')}>
        <Stack>
          <Text size="sm">{t('signOff.help')}</Text>
          <SegmentedControl
            value={meaning}
            onChange={(v) => setMeaning(v as SignMeaning)}
            data={SIGN_MEANINGS.map((m) => ({ value: m, label: t(`signOff.meaning.${m}`) }))}
            data-testid="sign-off-meaning"
          />
          <PasswordInput
            label={t('signOff.password')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={error}
            autoComplete="current-password"
            data-testid="sign-off-password"
          />
          <Button onClick={() => void sign()} loading={busy} disabled={!password} data-testid="sign-off-confirm">
            {t('signOff.confirm')}
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
