import type { Db } from '../../db/database';
import { fromFlag } from '../../lib/flags';
import { newId, randomToken, sha256Hex } from '../../lib/ids';
import { createCalendarFeedsRepository } from './calendar-feeds.repository';

// What the import (decision 0004) reads and writes of calendar feeds (docs/decisions/0045), on its
// own connection or open transaction. The caller has decided whose feeds they are and for whom.

/** At most this many feeds an account (the create refuses more; an import makes no more than there is room for). */
export const MAX_CALENDAR_FEEDS = 20;

/** A calendar feed's settings: what makes two of an account's feeds the same (person, options). */
export interface FeedSettings {
  person_id: string | null;
  include_medications: boolean;
  minimal: boolean;
}

/** A feed an import restores. */
export interface RestoredFeed extends FeedSettings {
  id: string;
  tokenHash: string;
}

/**
 * A restored feed: the settings, a new id, and a fresh random 256-bit token nobody is ever shown,
 * stored hashed like a created feed's — the feed answers no one until its account renews its address.
 */
export function restoredFeed(settings: FeedSettings): RestoredFeed {
  return { ...settings, id: newId(), tokenHash: sha256Hex(randomToken()) };
}

export function calendarTransfer(db: Db) {
  const repo = createCalendarFeedsRepository(db);
  return {
    /** The account's feeds' settings. */
    async settings(userId: string): Promise<FeedSettings[]> {
      return (await repo.list(userId)).map((f) => ({
        person_id: f.person_id,
        include_medications: fromFlag(f.include_medications),
        minimal: fromFlag(f.minimal),
      }));
    },

    /** Writes restored feeds, each listed `restored` until renewed. */
    async insert(userId: string, feeds: readonly RestoredFeed[], at: string): Promise<void> {
      for (const f of feeds) {
        await repo.insert({
          id: f.id,
          userId,
          personId: f.person_id,
          includeMedications: f.include_medications,
          minimal: f.minimal,
          tokenHash: f.tokenHash,
          createdAt: at,
          restored: true,
        });
      }
    },
  };
}
