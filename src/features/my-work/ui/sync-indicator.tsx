import { Badge } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconLoader2, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSyncState } from './my-work-sync';
import './labels';

/** Big enough for a thumb (WCAG 2.5.5 asks 44 px; we take 48). */
export const TOUCH = 48;

/** The sync indicator: offline / syncing / N waiting / all saved. */
export function SyncIndicator() {
  const { t } = useTranslation('myWork');
  const { online, syncing, waiting, failed } = useSyncState();
  const [icon, color, label] = !online
    ? [<IconCloudOff key="i" size={16} />, 'gray', waiting ? t('offlineWaiting', { count: waiting }) : t('sync.offline')]
    : syncing
      ? [<IconLoader2 key="i" size={16} />, 'blue', t('sync.syncing')]
      : waiting
        ? [
            <IconRefresh key="i" size={16} />,
            'orange',
            failed ? `${t('sync.waiting', { count: waiting })} · ${t('sync.retry')}` : t('sync.waiting', { count: waiting }),
          ]
        : [<IconCloudCheck key="i" size={16} />, 'green', t('sync.allSaved')];
  return (
    <Badge size="lg" variant="light" color={color} leftSection={icon} data-testid="sync-indicator" data-waiting={waiting} data-online={online} role="status">
      {label}
    </Badge>
  );
}
