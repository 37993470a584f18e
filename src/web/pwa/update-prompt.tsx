import { useState, useSyncExternalStore } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyUpdate, subscribeUpdate, updateReady } from './update-state';

/** "A new version is ready, reload": shown when a new service worker waits (decision 041). */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const ready = useSyncExternalStore(subscribeUpdate, updateReady, () => false);
  const [reloading, setReloading] = useState(false);
  if (!ready) return null;
  return (
    <Paper
      role="status"
      shadow="md"
      withBorder
      p="sm"
      data-testid="update-prompt"
      style={{ position: 'fixed', insetInline: 12, bottom: 12, zIndex: 400, maxWidth: 420, marginInline: 'auto' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{t('pwa.updateReady')}</Text>
        <Button
          size="md"
          loading={reloading}
          onClick={() => {
            setReloading(true);
            void applyUpdate();
          }}
          data-testid="update-reload"
        >
          {t('pwa.reload')}
        </Button>
      </Group>
    </Paper>
  );
}
