/*
 * Kinchart's Web Push handling (issue 32), loaded into the service worker that workbox generates
 * (apps/web/pwa.config.ts, `importScripts`). A push shows a notification — for a dose, with the
 * buttons Taken and Snooze 10 min, which post the single-use token the push carried to
 * /api/push-actions without opening the app (their words, in the recipient's language, come with
 * the push; when the server does not take the answer, a notice says so); a plain click opens the
 * dashboard. Nothing here
 * caches or stores anything.
 */
/** What a button that could not reach the server says (the push brings it in the recipient's language). */
const FAILED = 'This could not be saved. Open Kinchart to log the dose.';

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const token = typeof data.token === 'string' ? data.token : null;
  const url = typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//') ? data.url : '/dashboard';
  // The buttons' words come in the recipient's language with the push; English when a push has none.
  const titles = data.action_titles && typeof data.action_titles === 'object' ? data.action_titles : {};
  const titleOf = (key, english) => (typeof titles[key] === 'string' && titles[key] ? titles[key] : english);
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: '/pwa-192x192.png',
    badge: '/pwa-192x192.png',
    data: { token, url, failed: typeof data.action_failed === 'string' && data.action_failed ? data.action_failed : FAILED },
    actions: token
      ? [
          { action: 'taken', title: titleOf('taken', 'Taken') },
          { action: 'snooze', title: titleOf('snooze', 'Snooze 10 min') },
        ]
      : [],
  };
  // One notification per dose: a later reminder of the same dose (a snooze) replaces it.
  if (typeof data.tag === 'string') {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(typeof data.title === 'string' ? data.title : 'Kinchart', options));
});

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  const { token, url, failed } = notification.data || {};
  notification.close();
  if ((event.action === 'taken' || event.action === 'snooze') && token) {
    // Not recorded (offline, or the reminder expired or was answered elsewhere): say so, rather than
    // leave the user believing the dose was logged; a click on that notice opens the app.
    const notRecorded = () =>
      self.registration.showNotification(notification.title, {
        body: typeof failed === 'string' && failed ? failed : FAILED,
        icon: '/pwa-192x192.png',
        badge: '/pwa-192x192.png',
        tag: notification.tag || undefined,
        data: { token: null, url: url || '/dashboard' },
      });
    event.waitUntil(
      fetch('/api/push-actions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, action: event.action }),
        credentials: 'omit',
      })
        .then((response) => (response.ok ? undefined : notRecorded()))
        .catch(() => notRecorded()),
    );
    return;
  }
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if ('focus' in client) return client.navigate(url || '/dashboard').then((c) => (c || client).focus());
      }
      return self.clients.openWindow(url || '/dashboard');
    }),
  );
});
