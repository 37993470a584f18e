import { useState } from 'react';
import { Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../components/notify';
import { preferencesStorageAllowed, setPreferencesStorageAllowed } from '../../lib/local-store';

/** What the application keeps in the browser, and the user's say over the part that is optional. */
export function CookieSettingsDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [preferences, setPreferences] = useState(preferencesStorageAllowed);
  const save = () => {
    setPreferencesStorageAllowed(preferences);
    notifySuccess(t('shell.cookieSettingsSaved'));
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('shell.cookieSettings')} centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('shell.cookieIntro')}
        </Text>
        <Switch checked disabled label={t('shell.cookieNecessary')} description={t('shell.cookieNecessaryText')} />
        <Switch
          checked={preferences}
          onChange={(e) => setPreferences(e.currentTarget.checked)}
          label={t('shell.cookiePreferences')}
          description={t('shell.cookiePreferencesText')}
          data-testid="cookie-preferences"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button onClick={save} data-testid="cookie-settings-save">
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
