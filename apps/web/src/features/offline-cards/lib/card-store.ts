import { get, set, update } from 'idb-keyval';
import { z } from 'zod';
import { emergencyCardSchema, type EmergencyCard } from '@kinchart/shared/emergency';
import { CARDS_RECORD as RECORD, cardDb as cardStore, hasIndexedDb } from '../../../lib/offline-card-db';

/*
 * The emergency cards kept on this device (DESIGN §7), in IndexedDB: one record, written only
 * while its owner is signed in here, removed at logout and account deletion. It names the account
 * it belongs to, so another person signing in on the same browser never gets it. The record is
 * the device's setting too: no record, the switch is off.
 */

/** What this device holds. `savedAt` is null until the first copy arrives (turned on offline). */
export const savedCardsSchema = z.object({
  version: z.literal(1),
  userId: z.string(),
  savedAt: z.string().nullable(),
  cards: z.array(emergencyCardSchema),
});
export type SavedCards = z.infer<typeof savedCardsSchema>;

/** The record on this device, or null (nothing kept, no IndexedDB, or a record this build cannot read). */
export async function readSavedCards(): Promise<SavedCards | null> {
  if (!hasIndexedDb()) return null;
  const parsed = savedCardsSchema.safeParse(await get(RECORD, cardStore()));
  return parsed.success ? parsed.data : null;
}

/** Turns keeping on for `userId`: a record without cards, unless this user's record is already there. */
export async function keepCardsFor(userId: string): Promise<void> {
  await update<unknown>(
    RECORD,
    (old) => {
      const parsed = savedCardsSchema.safeParse(old);
      return parsed.success && parsed.data.userId === userId
        ? parsed.data
        : ({ version: 1, userId, savedAt: null, cards: [] } satisfies SavedCards);
    },
    cardStore(),
  );
}

/**
 * Stores a fresh copy of `userId`'s cards — only while keeping is still on for that user: a copy
 * that arrives after logout, or after the switch was turned off, is dropped (read and write are one
 * IndexedDB transaction). Answers whether it was stored.
 */
export async function storeCards(userId: string, cards: EmergencyCard[], savedAt: Date = new Date()): Promise<boolean> {
  let stored = false;
  await update<unknown>(
    RECORD,
    (old) => {
      const parsed = savedCardsSchema.safeParse(old);
      if (!parsed.success || parsed.data.userId !== userId) return old;
      stored = true;
      return { version: 1, userId, savedAt: savedAt.toISOString(), cards } satisfies SavedCards;
    },
    cardStore(),
  );
  return stored;
}

/** For tests: writes a record as a previous session would have left it. */
export async function writeSavedCards(record: SavedCards): Promise<void> {
  await set(RECORD, record, cardStore());
}
