import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SsoSettingsSection } from './sso-settings-section';
import './sso-i18n';

/** /settings/single-sign-on: the organisation's single sign-on (admins; decision 077). */
export default function SingleSignOnPage() {
  const { t } = useTranslation('sso');
  return (
    <Stack gap="md" p="md" maw={760}>
      <Title order={2}>{t('title')}</Title>
      <SsoSettingsSection />
    </Stack>
  );
}
