import { del } from 'idb-keyval';
import { CARDS_RECORD, cardDb, hasIndexedDb } from '../../../lib/offline-card-db';
import { unregisterOfflineShell } from './service-worker';

/**
 * Logout, account deletion and turning the switch off: the cards and the setting leave this
 * device, and so does the service worker that was there for them — except, when only the switch
 * is turned off (`keepForReminders`), a worker that still shows this device's reminders. Kept free
 * of zod and React so the logout button can load it on demand without weighing on the first pages.
 */
export async function forgetOfflineCards(options: { keepForReminders?: boolean } = {}): Promise<void> {
  try {
    if (hasIndexedDb()) await del(CARDS_RECORD, cardDb());
  } finally {
    await unregisterOfflineShell(options);
  }
}
