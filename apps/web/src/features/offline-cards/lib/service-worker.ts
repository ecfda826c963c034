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

/** Removes the service worker and the app shell it cached. */
export async function unregisterOfflineShell(): Promise<void> {
  if (!supported()) return;
  registered = false;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((r) => r.unregister()));
    if (typeof caches !== 'undefined') {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith('workbox-')).map((name) => caches.delete(name)));
    }
  } catch {
    // Nothing else to do: the next visit finds the same state and tries again.
  }
}
