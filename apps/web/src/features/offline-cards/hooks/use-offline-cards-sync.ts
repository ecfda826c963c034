import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { refreshSavedCards } from './use-saved-cards';

/** How long after a change the cards are fetched again: edits come in bursts (a form, a list). */
const SETTLE_MS = 1500;

/**
 * While `userId` is signed in, keeps the device's emergency cards fresh — if they keep them
 * here: at once (app start, sign-in), when the connection comes back, and shortly after any
 * change the app saves (every successful mutation: profile, medications, contacts, QR codes…).
 */
export function useOfflineCardsSync(userId: string | null | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => void refreshSavedCards(queryClient, userId);
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, SETTLE_MS);
    };
    refresh();
    const unsubscribe = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') later();
    });
    window.addEventListener('online', refresh);
    return () => {
      clearTimeout(timer);
      unsubscribe();
      window.removeEventListener('online', refresh);
    };
  }, [queryClient, userId]);
}
