import { useSyncExternalStore } from 'react';

/**
 * Whose chart the user is looking at: the person chosen on the dashboard's switcher (null for My
 * Profile). The one place it is kept — the dashboard writes it, and the "For" choices (upload,
 * appointment) and the prescriptions screen start from it. Kept for the tab's session
 * (sessionStorage), so a reload or a new page keeps it and another tab starts from My Profile.
 * Readers check the id against the people list: an id that is no longer there means yourself.
 */

const STORAGE_KEY = 'kinchart.selectedPerson';
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off; the choice then lasts as long as the page.
    return null;
  }
}

let current: string | null = storage()?.getItem(STORAGE_KEY) || null;

export function getSelectedPersonId(): string | null {
  return current;
}

/** Chooses whose chart to show; null goes back to My Profile. */
export function setSelectedPersonId(personId: string | null): void {
  const next = personId || null;
  if (next === current) return;
  current = next;
  try {
    if (next === null) storage()?.removeItem(STORAGE_KEY);
    else storage()?.setItem(STORAGE_KEY, next);
  } catch {
    // Full or blocked storage: the choice still holds for this page.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The person chosen on the dashboard (null for My Profile); re-renders when it changes. */
export function useSelectedPersonId(): string | null {
  return useSyncExternalStore(subscribe, getSelectedPersonId, () => null);
}
