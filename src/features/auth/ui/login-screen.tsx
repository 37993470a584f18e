import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { IconDeviceDesktop, IconEye, IconEyeOff, IconLanguage, IconMoon, IconSun, IconTool } from '@tabler/icons-react';
import { api, errorMessage } from '../../../web/lib/api';
import { LANGUAGES, type Language } from '../../../web/i18n/language';
import { translateMessage } from '../../../web/i18n/messages/translate-message';
import type { ThemePreference } from '../../../web/theme/color-scheme-preference';
import { loginSchema, type LoginInput } from '../login.schema';
import { useRotatingMessage } from './use-rotating-message';

/** GET /api/auth/sso-options: the organisation's single sign-on, as the login page shows it (decision 077). */
export interface SsoOptions {
  enabled: boolean;
  displayName: string | null;
  ssoOnly: boolean;
}
// The button's chunk loads only for an organisation with single sign-on on.
const SsoSignIn = lazy(() => import('./sso-sign-in').then((m) => ({ default: m.SsoSignIn })));

/** The organisation's single sign-on options, asked once when `ask` (null until they arrive, or on a failure). */
function useSsoOptions(ask: boolean | undefined) {
  const [options, setOptions] = useState<SsoOptions | null>(null);
  useEffect(() => {
    if (ask) api.get<SsoOptions>('/auth/sso-options').then(setOptions, () => undefined);
  }, [ask]);
  return options;
}
import './login-screen.css';

// The second factor's step (decision 076) is loaded only for the people who have one: the screen stays small.
const SecondFactorStep = lazy(() => import('./second-factor-step'));

/**
 * The sign-in screen in plain React (no Mantine, router, form or query library): it is the first page most
 * users load, so it stays small. Styled with Mantine's CSS variables (and their default values as fallbacks)
 * so it looks like the rest of the product. The host (the lean boot or the full app) supplies texts, theme,
 * language, the sign-in state and what happens after a successful sign-in.
 */
export interface LoginScreenProps {
  t: (key: string) => string;
  language: string;
  onLanguage(lang: Language): void;
  themePreference: ThemePreference;
  onThemePreference(p: ThemePreference): void;
  /** 'loading' while the load-time refresh runs (the form is shown meanwhile); 'signedIn' while the host goes home. */
  status: 'loading' | 'signedIn' | 'signedOut';
  onSignedIn(accessToken: string): void | Promise<void>;
  /** A toast with the server's message. */
  onError(message: string): void;
  /** Client-side navigation for links, when the host has a router. */
  navigate?(path: string): void;
  /** What the user typed into the page's static form before this screen took it over (decision 050). */
  initialValues?: LoginInput;
  /** Asks the organisation whether it signs in with single sign-on, and offers its button (decision 077). */
  withSso?: boolean;
}

type Errors = Partial<Record<keyof LoginInput, string>>;

function validate(values: LoginInput): { data?: LoginInput; errors: Errors } {
  const parsed = loginSchema.safeParse(values);
  if (parsed.success) return { data: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof LoginInput;
    errors[field] ??= translateMessage(issue.message);
  }
  return { errors };
}

export function LoginScreen(props: LoginScreenProps) {
  const { t, status, onSignedIn, onError } = props;
  const [values, setValues] = useState<LoginInput>(() => props.initialValues ?? { email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const id = useId();
  const fieldRefs = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };
  const [secondStep, setSecondStep] = useState<{ mode: 'verify' | 'enrol'; challenge: string } | null>(null);
  const sso = useSsoOptions(props.withSso);

  // The form paints at once, also while the load-time refresh runs (it waits for no network call, issue 29); a
  // refresh that finds a session then goes home. Only a signed-in host shows the loader, on its way home.
  if (status === 'signedIn') {
    return (
      <div className="login-root login-center">
        <span className="login-loader" role="status" aria-label={t('select.loading')} />
      </div>
    );
  }

  // Like react-hook-form's defaults: validate on submit, then again on every change.
  const change = (field: keyof LoginInput) => (e: { target: { value: string } }) => {
    const next = { ...values, [field]: e.target.value };
    setValues(next);
    if (submitted) setErrors(validate(next).errors);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const { data, errors: found } = validate(values);
    setErrors(found);
    if (!data) {
      const first = (['email', 'password'] as const).find((f) => found[f]);
      if (first) fieldRefs[first].current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const res = await api.post<{ accessToken: string } | { twoFactor: 'verify' | 'enrol'; challenge: string }>('/login', data);
      if ('challenge' in res) {
        setSecondStep({ mode: res.twoFactor, challenge: res.challenge });
        setSubmitting(false);
        return;
      }
      await onSignedIn(res.accessToken);
    } catch (err) {
      onError(errorMessage(err, t('errors.generic')));
      setSubmitting(false);
    }
  };

  const field = (name: keyof LoginInput, label: string, input: ReactNode) => (
    <div className="login-field">
      <label className="login-label" htmlFor={`${id}-${name}`}>
        {label}
        <span className="login-required" aria-hidden="true">
          {' '}
          *
        </span>
      </label>
      {input}
      {errors[name] && (
        <p className="login-error" id={`${id}-${name}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );
  const inputProps = (name: keyof LoginInput) => ({
    id: `${id}-${name}`,
    name,
    ref: fieldRefs[name],
    value: values[name],
    onChange: change(name),
    required: true,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    'data-testid': `login-${name}`,
  });

  if (secondStep) {
    return (
      <AuthFrame {...props}>
        <Suspense fallback={<span className="login-loader" role="status" aria-label={t('select.loading')} />}>
          <SecondFactorStep
            t={t}
            mode={secondStep.mode}
            challenge={secondStep.challenge}
            onSignedIn={onSignedIn}
            onError={onError}
            onStartOver={() => setSecondStep(null)}
          />
        </Suspense>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame {...props}>
      <h2 className="login-title">{t('auth.login.title')}</h2>
      <p className="login-subtitle">{t('auth.login.subtitle')}</p>
      <form onSubmit={submit} noValidate className="login-stack">
        {field('email', t('auth.fields.email'), <input className="login-input" type="email" autoComplete="email" {...inputProps('email')} />)}
        {field(
          'password',
          t('auth.fields.password'),
          <div className="login-password">
            <input className="login-input" type={showPassword ? 'text' : 'password'} autoComplete="current-password" {...inputProps('password')} />
            <button
              type="button"
              className="login-eye"
              aria-label={t('auth.showPassword')}
              aria-pressed={showPassword}
              onClick={() => setShowPassword((s) => !s)}
            >
              {showPassword ? <IconEyeOff size={18} aria-hidden="true" /> : <IconEye size={18} aria-hidden="true" />}
            </button>
          </div>,
        )}
        <button type="submit" className="login-button" disabled={submitting} data-loading={submitting || undefined} data-testid="login-submit">
          {submitting && <span className="login-loader login-loader-small" aria-hidden="true" />}
          <span className="login-button-label">{t('actions.submit')}</span>
        </button>
        <p className="login-small">
          {t('auth.login.noAccount')}{' '}
          <AppLink href="/register" navigate={props.navigate} className="login-link" data-testid="link-register">
            {t('auth.login.register')}
          </AppLink>
        </p>
      </form>
      {sso?.enabled && (
        <Suspense fallback={null}>
          <SsoSignIn t={t} options={sso} onError={onError} />
        </Suspense>
      )}
    </AuthFrame>
  );
}

/** A link that uses the host's router when there is one, else a plain page load. */
function AppLink({
  href,
  navigate,
  children,
  ...rest
}: {
  href: string;
  navigate?: (path: string) => void;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!navigate || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={click} {...rest}>
      {children}
    </a>
  );
}

/** The auth screen frame: brand, theme and language at the top, the card, the rotating marketing panel. */
function AuthFrame({ t, language, onLanguage, themePreference, onThemePreference, navigate, children }: LoginScreenProps & { children: ReactNode }) {
  const { index, key, visible } = useRotatingMessage();
  return (
    <div className="login-root login-page">
      <main className="login-main">
        <header className="login-header">
          <AppLink href="/" navigate={navigate} className="login-brand">
            <span className="login-brand-icon" aria-hidden="true">
              <IconTool size={18} />
            </span>
            {t('landing.brand')}
          </AppLink>
          <div className="login-tools">
            <ThemeChoice t={t} value={themePreference} onChange={onThemePreference} />
            <LanguageChoice t={t} language={language} onLanguage={onLanguage} />
          </div>
        </header>
        <div className="login-body">
          <section className="login-card">{children}</section>
        </div>
      </main>
      <aside className="login-marketing">
        <div className="login-message" style={{ opacity: visible ? 1 : 0 }} data-testid="marketing-message">
          <h2>{t(`auth.marketing.${key}.title`)}</h2>
          <p>{t(`auth.marketing.${key}.text`)}</p>
        </div>
        <div className="login-dots" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <span key={i} className="login-dot" data-active={i === index || undefined} />
          ))}
        </div>
      </aside>
    </div>
  );
}

/** Light, dark and system at once (like the shell's segmented control), with the same test ids. */
function ThemeChoice({ t, value, onChange }: { t: (key: string) => string; value: ThemePreference; onChange(p: ThemePreference): void }) {
  const options: [ThemePreference, string, ReactNode][] = [
    ['light', t('shell.themeLight'), <IconSun key="l" size={16} aria-hidden="true" />],
    ['dark', t('shell.themeDark'), <IconMoon key="d" size={16} aria-hidden="true" />],
    ['auto', t('shell.themeSystem'), <IconDeviceDesktop key="a" size={16} aria-hidden="true" />],
  ];
  return (
    <div className="login-segmented" role="radiogroup" aria-label={t('shell.theme')}>
      {options.map(([v, label, icon]) => (
        <button
          key={v}
          type="button"
          role="radio"
          aria-checked={value === v}
          aria-label={label}
          title={label}
          className="login-segment"
          data-testid={`theme-${v}`}
          onClick={() => onChange(v)}
        >
          {icon}
        </button>
      ))}
    </div>
  );
}

/** The language button and its menu. */
function LanguageChoice({ t, language, onLanguage }: { t: (key: string) => string; language: string; onLanguage(l: Language): void }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', escape);
    box.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return (
    <div className="login-menu" ref={box}>
      <button
        type="button"
        className="login-icon-button"
        aria-label={t('shell.language')}
        title={t('shell.language')}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="language-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <IconLanguage size={18} aria-hidden="true" />
      </button>
      {open && (
        <div className="login-menu-dropdown" role="menu" aria-label={t('shell.language')}>
          {LANGUAGES.map((l) => (
            <button
              key={l.value}
              type="button"
              role="menuitem"
              className="login-menu-item"
              data-active={language === l.value || undefined}
              onClick={() => {
                setOpen(false);
                onLanguage(l.value);
              }}
            >
              {l.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
