import { useEffect, useRef, useState } from 'react';
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../web/lib/api';
import { useAuth } from '../../../web/app/auth-context';
import { homeFor } from './home';
import { keepSignatureProof, takePendingSignature } from '../../../web/components/sign-off-reauth';

/**
 * /sso/callback: where the identity provider sends the browser back (decision 077). The page hands the provider's
 * answer (the query string) to POST /api/auth/finish-sso, which checks it against this browser's sealed state cookie,
 * verifies the ID token and answers a session as the password login does; then home. The code leaves the address
 * bar at once. When a sign-off step sent the browser (a signer's fresh sign-in), the answer goes to
 * finish-sso-reauth instead and the proof back to the step's page.
 */
export default function SsoCallbackPage() {
  const { t } = useTranslation();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    // once, also under StrictMode's second effect run: a provider's code is good for one exchange
    if (sent.current) return;
    sent.current = true;
    const search = window.location.search;
    window.history.replaceState(null, '', '/sso/callback');
    // A signer's fresh sign-in (a sign-off step sent the browser): the answer is a proof for that step, not a session.
    const pending = takePendingSignature();
    if (pending) {
      api
        .post<{ proof: string }>('/auth/finish-sso-reauth', { search })
        .then(({ proof }) => {
          keepSignatureProof({ ...pending, proof });
          navigate(pending.returnTo, { replace: true });
        })
        .catch((err) => setError(errorMessage(err, t('errors.generic'))));
      return;
    }
    api
      .post<{ accessToken: string }>('/auth/finish-sso', { search })
      .then(({ accessToken }) => {
        signIn(accessToken);
        navigate(homeFor(), { replace: true });
      })
      .catch((err) => setError(errorMessage(err, t('errors.generic'))));
  }, [navigate, signIn, t]);

  return (
    <Center h="100vh" p="md">
      {error ? (
        <Stack align="center" gap="sm" maw={420}>
          <Text c="red" ta="center" role="alert" data-testid="sso-error">
            {error}
          </Text>
          <Anchor component={Link} to="/login">
            {t('auth.sso.backToLogin')}
          </Anchor>
        </Stack>
      ) : (
        <Stack align="center" gap="sm">
          <Loader aria-label={t('auth.sso.finishing')} />
          <Text>{t('auth.sso.finishing')}</Text>
        </Stack>
      )}
    </Center>
  );
}
