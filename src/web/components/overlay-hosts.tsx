import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { notificationsStore, useNotifications, type NotificationsProps } from '@mantine/notifications';

// The toasts' container and the modals' provider (with Mantine's Modal, focus trap and scroll lock) load on
// first use, not with the first page (issue 9: the shell with a list page at most 220 KB of gzipped JavaScript).
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));
const ModalsProvider = lazy(() => import('@mantine/modals').then((m) => ({ default: m.ModalsProvider })));

/**
 * Mantine's <Notifications>, mounted once the first toast is shown (notifications.show() only writes the store;
 * the container shows what the store holds when it mounts).
 */
export function NotificationsHost(props: NotificationsProps) {
  const { notifications } = useNotifications();
  const [needed, setNeeded] = useState(false);
  const { position, limit } = props;
  useEffect(() => {
    // what the container sets when it mounts, so toasts shown before it are queued the same way
    notificationsStore.updateState((s) => ({ ...s, defaultPosition: position ?? s.defaultPosition, limit: limit ?? s.limit }));
  }, [position, limit]);
  if (!needed && notifications.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}

let modalsWanted = false;
let modalsMounted = false;
let waiting: (() => void)[] = [];
const wantListeners = new Set<() => void>();

/** Resolves once Mantine's ModalsProvider is mounted and listens to `modals.*` (loading it on the first call). */
export function whenModalsReady(): Promise<void> {
  if (modalsMounted) return Promise.resolve();
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!modalsWanted) {
      modalsWanted = true;
      wantListeners.forEach((l) => l());
    }
  });
}

/** Rendered after the provider: its effects run once the provider's listeners are attached. */
function ModalsReady() {
  useEffect(() => {
    modalsMounted = true;
    const ready = waiting;
    waiting = [];
    ready.forEach((resolve) => resolve());
    return () => {
      modalsMounted = false;
    };
  }, []);
  return null;
}

const subscribeWanted = (listener: () => void) => {
  wantListeners.add(listener);
  return () => wantListeners.delete(listener);
};

/** Mantine's ModalsProvider (confirmations), mounted from the first `whenModalsReady()` on. */
export function ModalsHost() {
  const wanted = useSyncExternalStore(
    subscribeWanted,
    () => modalsWanted,
    () => false,
  );
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProvider>{null}</ModalsProvider>
      <ModalsReady />
    </Suspense>
  );
}
