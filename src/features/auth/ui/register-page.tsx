import { Anchor, Button, Checkbox, PasswordInput, Stack, Text } from '@mantine/core';
import { FormTextInput } from '../../../web/components/form-text-input';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import { organizationUrl } from '../../../web/lib/org-host';
import { signupSchema, type SignupInput } from '../auth.schema';
import { AuthLayout } from './auth-layout';
import { useHomeWhenSignedIn } from './use-home-when-signed-in';

/** /register: a new organisation and its admin (spec section 2), then that organisation's /login. */
export default function RegisterPage() {
  const { t } = useTranslation();
  useHomeWhenSignedIn();
  const form = useForm({
    resolver: zodResolver(signupSchema),
    defaultValues: { organization: '', email: '', password: '', subdomainName: '', numberOfWorkers: '', consent: false } as unknown as SignupInput,
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    try {
      // The organisation's first time zone is the admin's browser's (decision 064); the company settings change it.
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const res = await api.post<{ message: string; subdomain: string; loginUrl?: string }>('/signup', { ...values, timeZone });
      notifySuccess(res.message);
      window.location.assign(res.loginUrl ?? organizationUrl(res.subdomain, '/login'));
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, t('errors.generic')));
    }
  });

  return (
    <AuthLayout title={t('auth.register.title')} subtitle={t('auth.register.subtitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormTextInput form={form} name="organization" label={t('auth.fields.organization')} withAsterisk testId="register-organization" />
          <FormTextInput form={form} name="email" label={t('auth.fields.email')} type="email" autoComplete="email" withAsterisk testId="register-email" />
          <PasswordInput
            label={t('auth.fields.password')}
            autoComplete="new-password"
            withAsterisk
            {...form.register('password')}
            error={errors.password?.message}
            data-testid="register-password"
            visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          />
          <FormTextInput
            form={form}
            name="subdomainName"
            label={t('auth.fields.subdomain')}
            withAsterisk
            description={t('auth.register.subdomainHint')}
            testId="register-subdomain"
          />
          <FormTextInput
            form={form}
            name="numberOfWorkers"
            label={t('auth.fields.numberOfWorkers')}
            inputMode="numeric"
            withAsterisk
            testId="register-workers"
          />
          <Controller
            control={form.control}
            name="consent"
            render={({ field }) => (
              <Checkbox
                label={t('auth.register.consent')}
                checked={field.value === true}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                onBlur={field.onBlur}
                error={errors.consent?.message}
                data-testid="register-consent"
              />
            )}
          />
          <Button type="submit" loading={form.formState.isSubmitting} mt="xs" data-testid="register-submit">
            {t('actions.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.register.haveAccount')}{' '}
            <Anchor component={Link} to="/login" underline="always">
              {t('auth.register.login')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
