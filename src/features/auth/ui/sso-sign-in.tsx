import { useState } from 'react';
import { api, errorMessage } from '../../../web/lib/api';
import type { SsoOptions } from './login-screen';

/**
 * "Sign in with <provider>" on the login screen (decision 077), when the organisation turned single sign-on on. The
 * button asks the API for the provider's address (and a sealed state cookie), then the browser goes there; the
 * provider sends it back to /sso/callback. A chunk of its own, loaded only for an organisation that has it (the
 * sign-in page's weight budget, e2e/weight.e2e.ts).
 */
export function SsoSignIn({ t, options, onError }: { t: (key: string) => string; options: SsoOptions; onError(message: string): void }) {
  const [going, setGoing] = useState(false);

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
        <span className="login-button-label">{t('auth.sso.signInWith').replace('{{name}}', options.displayName ?? '')}</span>
      </button>
      {options.ssoOnly && <p className="login-small login-hint">{t('auth.sso.passwordForAdmins')}</p>}
    </div>
  );
}
