import { useEffect, useState } from 'react';
import { Alert, Button, Modal, PasswordInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api, ApiError, errorMessage } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { isSignOffValue, SIGN_MEANINGS, type SignMeaning, type WorkOrderProcedureDto } from '../../features/procedures/procedures.schema';
import { registerTranslations } from '../i18n';
import { useRevealOwnTab } from './record-drawer';
import { notePendingSignature, takePendingSignature, takeSignatureProof } from './sign-off-reauth';

/** How the signed-in person signs (GET /api/auth/get-reauth-method): their password, or a fresh single sign-on. */
type ReauthMethod = { method: 'password' | 'sso'; displayName: string | null };

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
      ssoHelp: 'Your signature records your name, the time and what it means. Sign in again with {{name}} to sign.',
      ssoConfirm: 'Sign in again with {{name}} and sign',
      signing: 'Signing with your new sign-in…',
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
      ssoHelp: 'يسجّل توقيعك اسمك والوقت ومعناه. سجّل الدخول مجددًا عبر {{name}} للتوقيع.',
      ssoConfirm: 'سجّل الدخول مجددًا عبر {{name}} ووقّع',
      signing: 'جارٍ التوقيع بتسجيل دخولك الجديد…',
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
 * A sign-off step (decision 078): the signature (meaning, name, time) when signed; else "Sign", which asks what the
 * signature means and re-authenticates the signer, online only (offline it says so): their password, or, for a person
 * who signs in with single sign-on, a fresh sign-in with the identity provider (the browser goes there and comes back
 * through /sso/callback with a proof for this step, which signs it: `sign-off-reauth.ts`).
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
  const [method, setMethod] = useState<ReauthMethod | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Back from the identity provider: signing with the proof it gave.
  const [returning, setReturning] = useState(false);
  // In a work order's drawer the step sits in the Procedure tab: coming back, that tab is shown, not the Overview.
  const revealOwnTab = useRevealOwnTab();
  const submit = async (auth: { password: string } | { reauthProof: string }, chosen: SignMeaning) => {
    setBusy(true);
    setError(null);
    try {
      const res = await api.post<{ step: { value: unknown }; procedure: WorkOrderProcedureDto | null }>(`/work-orders/sign-procedure-step/${workOrderId}`, {
        stepId: step.id,
        meaning: chosen,
        ...auth,
      });
      setSigned(res.step.value);
      setOpen(false);
      setPassword('');
      onSigned?.(res.procedure);
    } catch (err) {
      setError(
        err instanceof ApiError ? (err.issues.find((i) => i.path === 'password' || i.path === 'reauthProof')?.message ?? err.message) : errorMessage(err),
      );
    } finally {
      setBusy(false);
    }
  };
  // Back from the identity provider with a proof for this step: sign with it (once; the proof is taken).
  useEffect(() => {
    const handed = takeSignatureProof(workOrderId, step.id);
    if (!handed) return;
    revealOwnTab?.();
    setMeaning(handed.meaning);
    setOpen(true);
    setReturning(true);
    void submit({ reauthProof: handed.proof }, handed.meaning).finally(() => setReturning(false));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per step shown
  }, [workOrderId, step.id]);
  // How this person signs: asked when the dialog first opens.
  useEffect(() => {
    if (!open || method) return;
    api
      .get<ReauthMethod>('/auth/get-reauth-method')
      .then(setMethod)
      .catch(() => setMethod({ method: 'password', displayName: null }));
  }, [open, method]);
  const signWithProvider = async () => {
    setBusy(true);
    setError(null);
    try {
      const { pathname, search, hash } = window.location;
      notePendingSignature({ workOrderId, stepId: step.id, meaning, returnTo: `${pathname}${search}${hash}` });
      const { authorizationUrl } = await api.post<{ authorizationUrl: string }>('/auth/start-sso-reauth', { workOrderId, stepId: step.id });
      window.location.assign(authorizationUrl);
    } catch (err) {
      takePendingSignature();
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  const sso = method?.method === 'sso';
  const provider = method?.displayName ?? '';
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
          <Text size="sm">{sso ? t('signOff.ssoHelp', { name: provider }) : t('signOff.help')}</Text>
          {returning && (
            <Text size="sm" data-testid="sign-off-returning">
              {t('signOff.signing')}
            </Text>
          )}
          <SegmentedControl
            value={meaning}
            onChange={(v) => setMeaning(v as SignMeaning)}
            data={SIGN_MEANINGS.map((m) => ({ value: m, label: t(`signOff.meaning.${m}`) }))}
            data-testid="sign-off-meaning"
          />
          {sso ? (
            <>
              {error && (
                <Text c="red" size="sm" role="alert" data-testid="sign-off-error">
                  {error}
                </Text>
              )}
              <Button onClick={() => void signWithProvider()} loading={busy} data-testid="sign-off-sso">
                {t('signOff.ssoConfirm', { name: provider })}
              </Button>
            </>
          ) : (
            <>
              <PasswordInput
                label={t('signOff.password')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={error}
                autoComplete="current-password"
                data-testid="sign-off-password"
              />
              <Button onClick={() => void submit({ password }, meaning)} loading={busy} disabled={!password || !method} data-testid="sign-off-confirm">
                {t('signOff.confirm')}
              </Button>
            </>
          )}
        </Stack>
      </Modal>
    </Stack>
  );
}
