import { useEffect, useState } from 'react';
import { Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../../web/i18n';
import { api, errorMessage } from '../../../web/lib/api';
import { notifyError } from '../../../web/components/notify';

registerTranslations('myWork', {
  en: {
    push: {
      label: 'Notifications on this device',
      hint: 'New work assigned to you appears as a notification, even when the app is closed.',
      denied: 'Notifications are blocked for this site in the browser settings.',
      unsupported: 'This browser cannot show notifications from the app.',
      off: 'Notifications are not available on this server.',
    },
  },
  ar: {
    push: {
      label: 'الإشعارات على هذا الجهاز',
      hint: 'يظهر العمل الجديد المسند إليك كإشعار، حتى عندما يكون التطبيق مغلقًا.',
      denied: 'الإشعارات محظورة لهذا الموقع في إعدادات المتصفح.',
      unsupported: 'لا يستطيع هذا المتصفح عرض إشعارات التطبيق.',
      off: 'الإشعارات غير متاحة على هذا الخادم.',
    },
  },
});

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The VAPID public key (base64url) as the bytes pushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * "Notifications on this device" (decision 075): on, it asks the browser's permission, subscribes this device's
 * service worker with the server's VAPID public key and sends the subscription to /api/push/add-subscription;
 * off, it unsubscribes here and there. The service worker (public/push-sw.js) shows the pushes.
 */
export function PushSwitch() {
  const { t } = useTranslation('myWork');
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(supported() ? null : 'unsupported');

  useEffect(() => {
    if (!supported()) return;
    let live = true;
    void navigator.serviceWorker.getRegistration().then(async (registration) => {
      const subscription = await registration?.pushManager.getSubscription();
      if (live) setOn(!!subscription && Notification.permission === 'granted');
    });
    return () => {
      live = false;
    };
  }, []);

  const enable = async () => {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return setProblem('denied');
    const { publicKey } = await api.get<{ publicKey: string | null }>('/api/push/get-public-key');
    if (!publicKey) return setProblem('off');
    const registration = await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    await api.post('/api/push/add-subscription', { ...subscription.toJSON(), userAgent: navigator.userAgent.slice(0, 500) });
    setProblem(null);
    setOn(true);
  };
  const disable = async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      await api.post('/api/push/delete-subscription', { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    setOn(false);
  };
  const toggle = async (next: boolean) => {
    setBusy(true);
    try {
      await (next ? enable() : disable());
    } catch (err) {
      notifyError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Switch
        size="md"
        label={t('push.label')}
        description={t('push.hint')}
        checked={on}
        disabled={busy || problem === 'unsupported'}
        onChange={(e) => void toggle(e.currentTarget.checked)}
        data-testid="push-switch"
      />
      {problem && (
        <Text size="sm" c="dimmed" mt={4} data-testid="push-problem">
          {t(`push.${problem}`)}
        </Text>
      )}
    </div>
  );
}
