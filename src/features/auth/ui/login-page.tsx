import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { notifyError } from '../../../web/components/notify';
import { useAuth } from '../../../web/app/auth-context';
import { isOrganizationHost } from '../../../web/lib/org-host';
import { SubdomainDialog } from '../../../web/app/layouts/subdomain-dialog';
import { setLanguage } from '../../../web/i18n';
import { useThemePreference } from '../../../web/app/theme-preference';
import { AuthLayout } from './auth-layout';
import { LoginScreen } from './login-screen';
import { useHomeWhenSignedIn } from './use-home-when-signed-in';
import { homeFor } from './home';

/**
 * /login inside the full app (after signing out, or on the bare domain): on an organisation's host the same
 * lean screen as a direct visit (login-standalone.tsx), wired to the app's auth, router, i18n and theme;
 * elsewhere a way to find the organisation.
 */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const status = useHomeWhenSignedIn();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const { preference, setPreference } = useThemePreference();
  const [findOrg, setFindOrg] = useState(false);

  if (!isOrganizationHost()) {
    return (
      <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.noOrganization')}>
        <Stack>
          <Button onClick={() => setFindOrg(true)} data-testid="find-organization">
            {t('landing.enterSubdomain')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.login.noAccount')}{' '}
            <Anchor component={Link} to="/register">
              {t('auth.login.register')}
            </Anchor>
          </Text>
        </Stack>
        <SubdomainDialog opened={findOrg} onClose={() => setFindOrg(false)} />
      </AuthLayout>
    );
  }

  return (
    <LoginScreen
      t={(key) => t(key)}
      language={i18n.language}
      onLanguage={setLanguage}
      themePreference={preference}
      onThemePreference={setPreference}
      status={status}
      onSignedIn={(token) => {
        signIn(token);
        navigate(homeFor(), { replace: true });
      }}
      onError={(message) => notifyError(message)}
      withSso
      navigate={(path) => navigate(path)}
    />
  );
}
