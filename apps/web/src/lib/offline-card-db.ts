import { createStore, type UseStore } from 'idb-keyval';

/**
 * The IndexedDB store of the emergency cards kept on this device, and the key of its one record.
 * The offline-cards feature reads and writes it (features/offline-cards/lib/card-store.ts); the login
 * page only looks whether it holds cards (features/auth/components/saved-cards-link.tsx), which is
 * why it sits below features.
 */
export const CARDS_RECORD = 'cards';

let store: UseStore | undefined;
export const cardDb = (): UseStore => (store ??= createStore('kinchart-offline', 'emergency-cards'));

export const hasIndexedDb = (): boolean => typeof indexedDB !== 'undefined';
