/*
 * Edits that could not be sent for want of a connection (issue 30, item 22; docs/decisions/0036).
 * A save made offline waits for the connection; its values are written here at that moment (not
 * while typing), so closing the tab does not lose them. The browser's localStorage, one entry per
 * form, names the account it belongs to: only that account is offered it back, another account
 * signing in on the browser drops it. It is removed after the save goes through, when the person
 * discards it, after a week, and by every sign-out from this browser (clearSession) — the device
 * may be shared.
 */

const PREFIX = 'kinchart.draft.';
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

interface StoredDraft {
  userId: string;
  savedAt: number;
  values: unknown;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function isStoredDraft(value: unknown): value is StoredDraft {
  if (typeof value !== 'object' || value === null) return false;
  const draft = value as Record<string, unknown>;
  return typeof draft.userId === 'string' && typeof draft.savedAt === 'number' && 'values' in draft;
}

/** Keeps `values` of form `form` for `userId` until the save goes through. */
export function saveDraft(form: string, userId: string, values: unknown, now: number = Date.now()): void {
  try {
    storage()?.setItem(PREFIX + form, JSON.stringify({ userId, savedAt: now, values } satisfies StoredDraft));
  } catch {
    // Full or blocked storage: the edit still waits in the open page.
  }
}

/**
 * The values kept for `form`, when they are `userId`'s and less than a week old; anything else
 * under that name (another account's, too old, unreadable) is removed.
 */
export function readDraft(form: string, userId: string, now: number = Date.now()): unknown {
  const store = storage();
  const raw = store?.getItem(PREFIX + form);
  if (!store || raw == null) return null;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch {
    parsed = null;
  }
  if (isStoredDraft(parsed) && parsed.userId === userId && now - parsed.savedAt < MAX_AGE_MS) return parsed.values;
  clearDraft(form);
  return null;
}

export function clearDraft(form: string): void {
  try {
    storage()?.removeItem(PREFIX + form);
  } catch {
    // Blocked storage holds nothing to remove.
  }
}

/** Every kept edit leaves this browser (sign-out, account deletion). */
export function clearAllDrafts(): void {
  const store = storage();
  if (!store) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i += 1) {
      const key = store.key(i);
      if (key?.startsWith(PREFIX)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  } catch {
    // Blocked storage holds nothing to remove.
  }
}
