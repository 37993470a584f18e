import { useEffect, useState } from 'react';
import { api, errorMessage } from '../../../web/lib/api';

interface SsoOptions {
  enabled: boolean;
  displayName: string | null;
  ssoOnly: boolean;
}

/**
 * "Sign in with <provider>" on the login screen (decision 077), when the organisation turned single sign-on on. The
 * button asks the API for the provider's address (and a sealed state cookie), then the browser goes there; the
 * provider sends it back to /sso/callback. Renders nothing until the organisation's options arrive (the static
 * login HTML has no button either).
 */
export function SsoSignIn({ t, onError }: { t: (key: string) => string; onError(message: string): void }) {
  const [options, setOptions] = useState<SsoOptions | null>(null);
  const [going, setGoing] = useState(false);
  useEffect(() => {
    let live = true;
    api
      .get<SsoOptions>('/auth/sso-options')
      .then((o) => live && setOptions(o))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!options?.enabled || !options.displayName) return null;

  const start = async () => {
    setGoing(true);
    try {
      const { authorizationUrl } = await api.post<{ authorizationUrl: string }>('/auth/start-sso');
      window.location.assign(authorizationUrl);
    } catch (err) {
      onError(errorMessage(err, t('errors.generic')));
      setGoing(false);
    }
  };
  return (
    <div className="login-sso">
      <p className="login-or">
        <span>{t('auth.sso.or')}</span>
      </p>
      <button
        type="button"
        className="login-button login-button-secondary"
        disabled={going}
        data-loading={going || undefined}
        onClick={() => void start()}
        data-testid="login-sso"
      >
        {going && <span className="login-loader login-loader-small" aria-hidden="true" />}
        <span className="login-button-label">{t('auth.sso.signInWith').replace('{{name}}', options.displayName)}</span>
      </button>
      {options.ssoOnly && <p className="login-small login-hint">{t('auth.sso.passwordForAdmins')}</p>}
    </div>
  );
}
