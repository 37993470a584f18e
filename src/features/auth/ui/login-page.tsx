import { Anchor, Button, Center, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { api, errorMessage } from '../../../web/lib/api';
import { notifyError } from '../../../web/components/notify';
import { useAuth } from '../../../web/app/auth-context';
import { isOrganizationHost } from '../../../web/lib/org-host';
import { SubdomainDialog } from '../../../web/app/layouts/subdomain-dialog';
import { loginSchema, type LoginInput } from '../auth.schema';
import { AuthLayout } from './auth-layout';
import { HOME, useHomeWhenSignedIn } from './use-home-when-signed-in';

/** /login on an organisation's host: e-mail and password, then /dashboard/work-orders. */
export default function LoginPage() {
  const { t } = useTranslation();
  const status = useHomeWhenSignedIn();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [findOrg, setFindOrg] = useState(false);
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await api.post<{ accessToken: string }>('/login', values);
      signIn(res.accessToken);
      navigate(HOME, { replace: true });
    } catch (err) {
      notifyError(errorMessage(err, t('errors.generic')));
    }
  });

  if (status === 'loading') {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }

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
    <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('auth.fields.email')} type="email" autoComplete="email" withAsterisk {...form.register('email')} error={errors.email?.message} data-testid="login-email" />
          <PasswordInput
            label={t('auth.fields.password')}
            autoComplete="current-password"
            withAsterisk
            {...form.register('password')}
            error={errors.password?.message}
            data-testid="login-password"
            visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          />
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="login-submit">
            {t('actions.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.login.noAccount')}{' '}
            <Anchor component={Link} to="/register" data-testid="link-register">
              {t('auth.login.register')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
