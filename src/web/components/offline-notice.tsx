import { useEffect, useState } from 'react';
import { Alert } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NETWORK_EVENT } from '../lib/api';

/**
 * A small banner while the device is offline: the browser says so (navigator.onLine, the offline event) or a
 * request just failed for want of a network. Gone at the next answer or the online event.
 */
export function OfflineNotice() {
  const { t } = useTranslation();
  const [offline, setOffline] = useState(() => typeof navigator !== 'undefined' && navigator.onLine === false);
  useEffect(() => {
    const off = () => setOffline(true);
    const on = () => setOffline(false);
    const network = (e: Event) => setOffline(!(e as CustomEvent<boolean>).detail);
    window.addEventListener('offline', off);
    window.addEventListener('online', on);
    window.addEventListener(NETWORK_EVENT, network);
    return () => {
      window.removeEventListener('offline', off);
      window.removeEventListener('online', on);
      window.removeEventListener(NETWORK_EVENT, network);
    };
  }, []);
  if (!offline) return null;
  return (
    <Alert role="status" color="orange" variant="light" radius={0} py={6} icon={<IconWifiOff size={16} />} data-testid="offline-notice">
      {t('a11y.offline')}
    </Alert>
  );
}
