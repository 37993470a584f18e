import { useEffect, useState } from 'react';
import { Alert, Button, Center, Loader, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, applyApiErrors } from '../../../web/lib/api';
import { notifyError } from '../../../web/components/notify';
import { completeRegistrationFormSchema, type CompleteRegistrationForm } from '../auth.schema';
import { AuthLayout } from './auth-layout';

export const NO_TOKEN = 'No token found.';
export const INVALID_TOKEN = 'Invalid or expired invite link.';
export const COMPLETED = 'Registration complete! Redirecting to login...';
export const FAILED = 'Oops something went wrong. Please try again.';
export const REDIRECT_MS = 2000;

/** /complete-registration?token= (and /invite): an invited person sets their name, phone and password. */
export default function CompleteRegistrationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const verify = useQuery({
    queryKey: ['invite-token', token],
    queryFn: ({ signal }) => api.get<{ valid: boolean; email: string }>('/auth/verify-token', { query: { token }, signal }),
    enabled: token !== '',
    retry: false,
  });
  const form = useForm<CompleteRegistrationForm>({
    resolver: zodResolver(completeRegistrationFormSchema),
    defaultValues: { token, firstName: '', lastName: '', phoneNumber: '', password: '', confirmPassword: '' },
  });
  const errors = form.formState.errors;

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const submit = form.handleSubmit(async ({ confirmPassword: _confirm, ...values }) => {
    setFailure(null);
    try {
      await api.post('/auth/complete-registration', { ...values, token });
      setDone(true);
    } catch (err) {
      applyApiErrors(err, form.setError, { known: ['firstName', 'lastName', 'phoneNumber', 'password'] });
      setFailure(FAILED);
      notifyError(FAILED);
    }
  });

  let body: React.ReactNode;
  if (!token) {
    body = (
      <Alert color="red" icon={<IconAlertCircle />} data-testid="invite-message">
        {NO_TOKEN}
      </Alert>
    );
  } else if (verify.isLoading) {
    body = (
      <Center py="xl">
        <Loader />
      </Center>
    );
  } else if (verify.isError) {
    body = (
      <Alert color="red" icon={<IconAlertCircle />} data-testid="invite-message">
        {INVALID_TOKEN}
      </Alert>
    );
  } else if (done) {
    body = (
      <Alert color="green" icon={<IconCircleCheck />} data-testid="invite-message">
        {COMPLETED}
      </Alert>
    );
  } else {
    // every field is required; the two passwords are new ones (for the browser's password manager)
    const field = (name: 'firstName' | 'lastName' | 'phoneNumber' | 'password' | 'confirmPassword', label: string, testId: string) => {
      const Input = name === 'password' || name === 'confirmPassword' ? PasswordInput : TextInput;
      return (
        <Input
          label={label}
          withAsterisk
          autoComplete={Input === PasswordInput ? 'new-password' : undefined}
          {...form.register(name)}
          error={errors[name]?.message}
          data-testid={testId}
        />
      );
    };
    body = (
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {failure && (
            <Alert color="red" icon={<IconAlertCircle />} data-testid="invite-failure">
              {failure}
            </Alert>
          )}
          <TextInput label={t('auth.fields.email')} value={verify.data?.email ?? ''} readOnly disabled />
          <SimpleGrid cols={2}>
            {field('firstName', t('users.fields.firstName'), 'invite-firstName')}
            {field('lastName', t('users.fields.lastName'), 'invite-lastName')}
          </SimpleGrid>
          {field('phoneNumber', t('users.fields.phoneNumber'), 'invite-phone')}
          {field('password', t('auth.fields.password'), 'invite-password')}
          {field('confirmPassword', t('auth.fields.confirmPassword'), 'invite-confirm')}
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="invite-submit">
            {t('actions.submit')}
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <AuthLayout title={t('auth.invite.title')} subtitle={t('auth.invite.subtitle')}>
      {body}
    </AuthLayout>
  );
}
