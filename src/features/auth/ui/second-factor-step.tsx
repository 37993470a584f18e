import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, saveBlob } from '../../../web/lib/api';

/**
 * The sign-in's second step (decision 076), loaded only when /login answers a challenge: the authenticator code
 * (or a recovery code), or, for a person the organisation requires it of and who has none yet, the enrolment
 * (QR code, first code, recovery codes shown once). Plain React on the login screen's styles, like the screen.
 */
export interface SecondFactorStepProps {
  t: (key: string) => string;
  mode: 'verify' | 'enrol';
  challenge: string;
  onSignedIn(accessToken: string): void | Promise<void>;
  onError(message: string): void;
  onStartOver(): void;
}

interface Enrolment {
  secret: string;
  otpauthUrl: string;
  qrCode: string;
}

export default function SecondFactorStep(props: SecondFactorStepProps) {
  const { t, mode, challenge, onSignedIn, onError } = props;
  const id = useId();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<{ accessToken: string; recoveryCodes: string[] } | null>(null);

  const report = (err: unknown) => onError(errorMessage(err, t('errors.generic')));
  const reportError = useRef(report);
  reportError.current = report;
  useEffect(() => {
    if (mode !== 'enrol') return;
    api.post<Enrolment>('/auth/start-two-factor-enrolment', { challenge }).then(setEnrolment, (err: unknown) => reportError.current(err));
  }, [mode, challenge]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    setBusy(true);
    try {
      if (mode === 'enrol') {
        setCodes(await api.post<{ accessToken: string; recoveryCodes: string[] }>('/auth/confirm-two-factor-enrolment', { challenge, code }));
        setBusy(false);
        return;
      }
      const res = await api.post<{ accessToken: string }>('/auth/verify-two-factor', recovery ? { challenge, recoveryCode: code } : { challenge, code });
      await onSignedIn(res.accessToken);
    } catch (err) {
      onError(errorMessage(err, t('errors.generic')));
      setBusy(false);
    }
  };

  if (codes) {
    return (
      <div className="login-stack">
        <h2 className="login-title">{t('security.recoveryTitle')}</h2>
        <p className="login-subtitle">{t('security.recoveryHint')}</p>
        <RecoveryCodes t={t} codes={codes.recoveryCodes} />
        <button type="button" className="login-button" onClick={() => void onSignedIn(codes.accessToken)} data-testid="two-factor-continue">
          <span className="login-button-label">{t('security.continue')}</span>
        </button>
      </div>
    );
  }

  const label = recovery ? t('security.recoveryCode') : t('security.code');
  return (
    <form onSubmit={submit} noValidate className="login-stack">
      <h2 className="login-title">{mode === 'enrol' ? t('security.enrolTitle') : t('security.codeTitle')}</h2>
      <p className="login-subtitle">
        {mode === 'enrol' ? t('security.enrolRequired') : recovery ? t('security.recoverySubtitle') : t('security.codeSubtitle')}
      </p>
      {mode === 'enrol' && enrolment && (
        <div className="login-stack">
          <p className="login-small">{t('security.scan')}</p>
          <img src={enrolment.qrCode} alt="QR" width={180} height={180} style={{ alignSelf: 'center' }} />
          <p className="login-small">
            {t('security.manualKey')}: <code data-testid="two-factor-secret">{enrolment.secret}</code>
          </p>
        </div>
      )}
      <div className="login-field">
        <label className="login-label" htmlFor={`${id}-code`}>
          {label}
        </label>
        <input
          id={`${id}-code`}
          className="login-input"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          required
          data-testid="two-factor-code"
        />
      </div>
      <button type="submit" className="login-button" disabled={busy} data-loading={busy || undefined} data-testid="two-factor-submit">
        {busy && <span className="login-loader login-loader-small" aria-hidden="true" />}
        <span className="login-button-label">{mode === 'enrol' ? t('security.confirm') : t('security.verify')}</span>
      </button>
      <p className="login-small">
        {mode === 'verify' && (
          <>
            <button
              type="button"
              className="login-link login-link-button"
              onClick={() => {
                setRecovery((r) => !r);
                setCode('');
              }}
              data-testid="two-factor-use-recovery"
            >
              {recovery ? t('security.useCode') : t('security.useRecovery')}
            </button>
            {' · '}
          </>
        )}
        <button type="button" className="login-link login-link-button" onClick={props.onStartOver}>
          {t('security.startOver')}
        </button>
      </p>
    </form>
  );
}

/** The ten recovery codes, with copy and download (a text file). */
export function RecoveryCodes({ t, codes }: { t: SecondFactorStepProps['t']; codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    setCopied(true);
  };
  const download = () => saveBlob(new Blob([`${text}\n`], { type: 'text/plain' }), 'recovery-codes.txt');
  return (
    <div className="login-stack">
      <pre className="login-codes" data-testid="recovery-codes" dir="ltr">
        {text}
      </pre>
      <p className="login-small">
        <button type="button" className="login-link login-link-button" onClick={() => void copy()}>
          {copied ? t('security.copied') : t('security.copy')}
        </button>
        {' · '}
        <button type="button" className="login-link login-link-button" onClick={download}>
          {t('security.download')}
        </button>
      </p>
    </div>
  );
}
