import { Button, Code, CopyButton, Group, PasswordInput, Select, Stack, Switch, Text } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminLoadTexts, DialogActions, notifyError, QueryLoadState, notifySuccess, FormTextInput } from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { zodResolver } from '../../../web/lib/form-resolver';
import { SSO_ROLES, ssoSettingsInputSchema, type SsoSettingsDto, type SsoSettingsInput } from '../sso.schema';
import './sso-i18n';

const KEY = ['sso-settings'] as const;

const toForm = (s: SsoSettingsDto): SsoSettingsInput => ({
  enabled: s.enabled,
  displayName: s.displayName,
  issuer: s.issuer,
  clientId: s.clientId,
  clientSecret: '',
  defaultRole: s.defaultRole,
  createUsers: s.createUsers,
  ssoOnly: s.ssoOnly,
});

/**
 * The organisation's single sign-on settings (decision 077): the redirect URI to register at the provider, the
 * issuer, client id and secret (write-only: the page learns only that one is kept), the role of people created at
 * their first sign-in, and the two switches. Saving asks the provider first (its discovery document).
 */
export function SsoSettingsSection() {
  const { t } = useTranslation('sso');
  const { t: common } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: KEY, queryFn: () => api.get<{ settings: SsoSettingsDto }>('/auth/get-sso-settings'), retry: false });
  const settings = query.data?.settings;
  const form = useForm<SsoSettingsInput>({ resolver: zodResolver(ssoSettingsInputSchema), values: settings ? toForm(settings) : undefined });
  const errors = form.formState.errors;

  const save = form.handleSubmit(async (values) => {
    try {
      const saved = await api.put<{ message: string; settings: SsoSettingsDto }>('/auth/update-sso-settings', values);
      client.setQueryData(KEY, { settings: saved.settings });
      notifySuccess(saved.message);
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err));
    }
  });

  if (query.isPending || query.isError || !settings) return <QueryLoadState query={query} label={t('title')} texts={adminLoadTexts(t)} />;

  return (
    <form onSubmit={save} noValidate data-testid="sso-settings">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('intro')}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('redirectUri')}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="sso-redirect-uri" style={{ overflowWrap: 'anywhere' }} dir="ltr">
              {settings.redirectUri}
            </Code>
            <CopyButton value={settings.redirectUri}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="default" onClick={copy}>
                  {copied ? t('copied') : t('copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="xs" c="dimmed">
            {t('redirectUriHelp')}
          </Text>
        </Stack>
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <Switch label={t('enabled')} checked={!!field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} data-testid="sso-enabled" />
          )}
        />
        <FormTextInput form={form} name="displayName" label={t('displayName')} description={t('displayNameHelp')} withAsterisk testId="sso-display-name" />
        <FormTextInput
          form={form}
          name="issuer"
          label={t('issuer')}
          description={t('issuerHelp')}
          withAsterisk
          dir="ltr"
          placeholder="https://login.example.com"
          testId="sso-issuer"
        />
        <FormTextInput form={form} name="clientId" label={t('clientId')} withAsterisk dir="ltr" testId="sso-client-id" />
        <PasswordInput
          label={t('clientSecret')}
          description={settings.clientSecretSet ? t('clientSecretKept') : t('clientSecretHelp')}
          withAsterisk={!settings.clientSecretSet}
          autoComplete="new-password"
          {...form.register('clientSecret')}
          error={errors.clientSecret?.message}
          data-testid="sso-client-secret"
        />
        <Controller
          control={form.control}
          name="defaultRole"
          render={({ field }) => (
            <Select
              label={t('defaultRole')}
              data={SSO_ROLES.map((r) => ({ value: r, label: common(`roles.${r}`) }))}
              value={field.value}
              onChange={(v) => field.onChange(v ?? 'worker')}
              allowDeselect={false}
              data-testid="sso-default-role"
            />
          )}
        />
        {(
          [
            ['createUsers', 'sso-create-users'],
            ['ssoOnly', 'sso-only'],
          ] as const
        ).map(([name, testId]) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <Switch
                label={t(name)}
                description={t(`${name}Help`)}
                checked={!!field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                data-testid={testId}
              />
            )}
          />
        ))}
        <DialogActions submitLabel={t('save')} loading={form.formState.isSubmitting} testId="sso-save" />
      </Stack>
    </form>
  );
}
