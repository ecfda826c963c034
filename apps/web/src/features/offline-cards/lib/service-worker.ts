/*
 * The service worker (apps/web/pwa.config.ts) serves the app shell when the network is gone, so
 * the kept emergency cards open offline. It is registered only on a device whose owner keeps
 * their cards there, and unregistered when they stop: other devices and visitors get the plain
 * web app. Only the production build has one (dev and tests have no /sw.js).
 */

const SCRIPT = '/sw.js';
let registered = false;

function supported(): boolean {
  return import.meta.env.PROD && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/** Registers the service worker, once a page load; failures only cost offline use. */
export async function registerOfflineShell(): Promise<void> {
  if (!supported() || registered) return;
  try {
    await navigator.serviceWorker.register(SCRIPT, { scope: '/' });
    registered = true;
  } catch {
    // Private modes and some browsers refuse service workers; the app works on without.
  }
}

/**
 * Removes the service worker and the app shell it cached. With `keepForReminders`, a worker that
 * holds this device's push subscription stays, shell and all: the same worker shows the reminders
 * of issue 32, and removing it would end them without a word (turning the cards off is not a logout).
 */
export async function unregisterOfflineShell({ keepForReminders = false }: { keepForReminders?: boolean } = {}): Promise<void> {
  if (!supported()) return;
  registered = false;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    const pushing = await Promise.all(
      registrations.map(async (r) => keepForReminders && 'pushManager' in r && (await r.pushManager.getSubscription()) !== null),
    );
    if (pushing.some(Boolean)) return;
    await Promise.all(registrations.map((r) => r.unregister()));
    if (typeof caches !== 'undefined') {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith('workbox-')).map((name) => caches.delete(name)));
    }
  } catch {
    // Nothing else to do: the next visit finds the same state and tries again.
  }
}
