import { useState } from 'react';
import { Alert, Button, Container, Paper, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { FormTextInput } from '../components/form-text-input';
import { IconCircleCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../lib/form-resolver';
import { useTranslation } from 'react-i18next';
import { demoRequestSchema, type DemoRequestInput } from '../../features/auth/auth.schema';
import { api, applyApiErrors, errorMessage } from '../lib/api';
import { notifyError } from '../components/notify';

/** "Request for Demo": the submission is stored (POST /api/demo-requests). */
export function DemoRequestPage() {
  const { t } = useTranslation();
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<DemoRequestInput>({
    resolver: zodResolver(demoRequestSchema),
    defaultValues: { name: '', email: '', company: '', phone: '', message: '' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await api.post<{ message: string }>('/demo-requests', values);
      setDone(res.message);
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, t('errors.generic')));
    }
  });
  return (
    <Container size="sm" py={60}>
      <Title order={1}>{t('landing.requestDemo')}</Title>
      <Text c="dimmed" mt="xs" mb="lg">
        {t('landing.demo.intro')}
      </Text>
      {done ? (
        <Alert color="green" icon={<IconCircleCheck />} data-testid="demo-done">
          {done}
        </Alert>
      ) : (
        <Paper withBorder p="lg" radius="md">
          <form onSubmit={submit} noValidate>
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <FormTextInput form={form} name="name" label={t('landing.demo.name')} withAsterisk />
                <FormTextInput form={form} name="email" label={t('landing.demo.email')} withAsterisk />
                <FormTextInput form={form} name="company" label={t('landing.demo.company')} withAsterisk />
                <FormTextInput form={form} name="phone" label={t('landing.demo.phone')} />
              </SimpleGrid>
              <Textarea label={t('landing.demo.message')} autosize minRows={3} {...form.register('message')} error={errors.message?.message} />
              <Button type="submit" loading={form.formState.isSubmitting} data-testid="demo-submit">
                {t('actions.submit')}
              </Button>
            </Stack>
          </form>
        </Paper>
      )}
    </Container>
  );
}
