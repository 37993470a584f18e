/* Web Push in the app's service worker (decision 075): imported by the generated Workbox worker (vite.config.ts,
 * workbox.importScripts). A push's payload is { title, body, url, tag } (src/features/push/push.service.ts); a
 * click opens its url (a page of this app: /dashboard/my-work?open=<id>) in an open window of the app or a new one. */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'CMMS', {
      body: data.body || '',
      tag: data.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: data.url || '/dashboard/my-work' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/dashboard/my-work', self.location.origin);
  // Only this app's own pages.
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin === target.origin && 'focus' in client) {
          await client.focus();
          return client.navigate ? client.navigate(target.href) : undefined;
        }
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
