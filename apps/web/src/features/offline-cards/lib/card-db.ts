import { createStore, type UseStore } from 'idb-keyval';

/** The IndexedDB store of the kept emergency cards, and the key of its one record (card-store.ts). */
export const CARDS_RECORD = 'cards';

let store: UseStore | undefined;
export const cardDb = (): UseStore => (store ??= createStore('kinchart-offline', 'emergency-cards'));

export const hasIndexedDb = (): boolean => typeof indexedDB !== 'undefined';
