import type { Db } from '../../db/database';
import { toFlag } from '../../lib/flags';
import { nowIso } from '../../lib/ids';

// The SQL of an account's preferences (issue 32): its time zone and reminder channels, columns of
// `users` (migration 0022), and the languages its documents are read in (issue 33, migration 0025). Every statement is scoped by the account's id.

export interface PreferenceColumns {
  time_zone: string | null;
  reminder_email: number;
  reminder_push: number;
  reminder_minimal: number;
  /** Issue 33: JSON list of document language codes; null: never chosen. */
  document_languages: string | null;
  /** Issue 35: a language tag; null: never chosen. */
  language: string | null;
  /** 'imperial' | 'metric'; null: imperial. */
  units: string | null;
}

interface PreferenceChanges {
  time_zone?: string | null;
  reminder_email?: boolean;
  reminder_push?: boolean;
  reminder_minimal?: boolean;
  document_languages?: readonly string[];
  language?: string;
  units?: string;
}

export function createPreferencesRepository(db: Db) {
  return {
    find(userId: string): Promise<PreferenceColumns | undefined> {
      return db
        .selectFrom('users')
        .select(['time_zone', 'reminder_email', 'reminder_push', 'reminder_minimal', 'document_languages', 'language', 'units'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /** Writes the fields given; those left out keep their value. */
    async update(userId: string, changes: PreferenceChanges): Promise<void> {
      const set: Partial<PreferenceColumns> = {};
      if (changes.time_zone !== undefined) set.time_zone = changes.time_zone;
      if (changes.reminder_email !== undefined) set.reminder_email = toFlag(changes.reminder_email);
      if (changes.reminder_push !== undefined) set.reminder_push = toFlag(changes.reminder_push);
      if (changes.reminder_minimal !== undefined) set.reminder_minimal = toFlag(changes.reminder_minimal);
      if (changes.document_languages !== undefined) set.document_languages = JSON.stringify(changes.document_languages);
      if (changes.language !== undefined) set.language = changes.language;
      if (changes.units !== undefined) set.units = changes.units;
      if (Object.keys(set).length === 0) return;
      await db
        .updateTable('users')
        .set({ ...set, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
    },
  };
}
