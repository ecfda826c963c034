import { useOfflineCardsSync } from '../hooks/use-offline-cards-sync';

/** Mounted by the signed-in layout: keeps the device's emergency cards fresh (renders nothing). */
export function OfflineCardsSync({ userId }: { userId: string }) {
  useOfflineCardsSync(userId);
  return null;
}
