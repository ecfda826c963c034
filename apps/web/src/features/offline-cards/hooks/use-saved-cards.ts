import { useQuery, type QueryClient } from '@tanstack/react-query';
import { getEmergencyCards } from '../api/get-emergency-cards';
import { keepCardsFor, readSavedCards, storeCards, type SavedCards } from '../lib/card-store';
import { forgetOfflineCards } from '../lib/forget-offline-cards';
import { registerOfflineShell } from '../lib/service-worker';

/** The cards kept on this device, read from IndexedDB (never from the network). */
export const savedCardsKey = ['offline-cards'] as const;

export function useSavedCards() {
  return useQuery({
    queryKey: savedCardsKey,
    queryFn: readSavedCards,
    // IndexedDB answers with no network at all: never wait for one.
    networkMode: 'always',
    staleTime: Infinity,
    retry: false,
  });
}

export type RefreshResult = 'saved' | 'not-kept' | 'offline' | 'failed';

let running: Promise<RefreshResult> | null = null;
let again = false;

/**
 * Brings this device's copy of `userId`'s cards up to date, when they keep them here: downloads
 * them, stores them and registers the service worker that opens them offline. A record of
 * another account is removed — a different person signed in on this browser. Calls that arrive
 * while one runs are folded into one more run.
 */
export function refreshSavedCards(queryClient: QueryClient, userId: string): Promise<RefreshResult> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    let result: RefreshResult;
    do {
      again = false;
      result = await refreshOnce(queryClient, userId);
    } while (again);
    return result;
  })().finally(() => {
    running = null;
  });
  return running;
}

async function refreshOnce(queryClient: QueryClient, userId: string): Promise<RefreshResult> {
  const saved = await readSavedCards();
  if (!saved) return 'not-kept';
  if (saved.userId !== userId) {
    await forgetOfflineCards();
    queryClient.setQueryData(savedCardsKey, null);
    return 'not-kept';
  }
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'offline';
  try {
    const cards = await getEmergencyCards();
    // Turned off or logged out meanwhile: the copy is dropped, and no service worker comes back.
    if (!(await storeCards(userId, cards))) return 'not-kept';
  } catch {
    // Offline, or the session ended: the last copy stays as it was.
    return 'failed';
  }
  queryClient.setQueryData<SavedCards | null>(savedCardsKey, await readSavedCards());
  // The app shell that opens the cards offline (registered once a page load, which checks it for updates).
  await registerOfflineShell();
  return 'saved';
}

/** The switch turned on: keep the cards here from now on, and fetch the first copy. */
export async function keepCards(queryClient: QueryClient, userId: string): Promise<{ result: RefreshResult; saved: SavedCards | null }> {
  await keepCardsFor(userId);
  queryClient.setQueryData<SavedCards | null>(savedCardsKey, await readSavedCards());
  const result = await refreshSavedCards(queryClient, userId);
  return { result, saved: queryClient.getQueryData<SavedCards | null>(savedCardsKey) ?? null };
}

/** The switch turned off (logout and account deletion call forgetOfflineCards directly). */
export async function stopKeepingCards(queryClient: QueryClient): Promise<void> {
  await forgetOfflineCards({ keepForReminders: true });
  queryClient.setQueryData(savedCardsKey, null);
}
