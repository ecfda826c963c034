import type { FileSuggestion, SuggestionField } from '@kinchart/shared/search';
import type { Db } from '../../db/database';
import { nowIso } from '../../lib/ids';

// Issue 33, docs/decisions/0049: the suggestion a file's text gives its record, kept until the user
// applies or dismisses it. Every query names the file by id; the service has checked the reader's
// access to the file's person with the one access function first (DESIGN §11), or runs inside the
// transaction that stores the file's text (the extraction runner's afterRead).

/** What a file's record holds now, to leave out of a suggestion what it already says. */
export interface SuggestionTarget {
  record_date: string | null;
  created_at: string;
  provider_name: string | null;
  visit_reason: string | null;
}

export function createFileSuggestionRepository(db: Db) {
  return {
    /** The names of the person's providers (their owner's rows of that person). */
    async providerNames(trx: Db, ownerId: string, profileId: string): Promise<{ provider_name: string }[]> {
      return trx
        .selectFrom('healthcare_providers')
        .select('provider_name')
        .where('user_id', '=', ownerId)
        .where('profile_id', '=', profileId)
        .orderBy('position')
        .execute();
    },

    async target(trx: Db, fileId: string): Promise<SuggestionTarget | undefined> {
      return trx
        .selectFrom('medical_files')
        .select(['record_date', 'created_at', 'provider_name', 'visit_reason'])
        .where('id', '=', fileId)
        .executeTakeFirst();
    },

    /** Replaces the file's suggestion with this one. */
    async put(trx: Db, fileId: string, suggestion: FileSuggestion): Promise<void> {
      await trx
        .insertInto('file_suggestions')
        .values({ file_id: fileId, ...suggestion, created_at: nowIso() })
        .onConflict((oc) => oc.column('file_id').doUpdateSet({ ...suggestion, created_at: nowIso() }))
        .execute();
    },

    /** Removes the file's suggestion; true when there was one. */
    async remove(trx: Db, fileId: string): Promise<boolean> {
      const res = await trx.deleteFrom('file_suggestions').where('file_id', '=', fileId).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /**
     * Writes the chosen fields of the file's suggestion into its record (those the suggestion
     * has) and removes the suggestion, in one transaction; false when there is no suggestion.
     */
    async apply(ownerId: string, fileId: string, fields: readonly SuggestionField[] | undefined): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('file_suggestions')
          .select(['record_date', 'provider_name', 'visit_reason'])
          .where('file_id', '=', fileId)
          .executeTakeFirst();
        if (!found) return false;
        const set: Partial<FileSuggestion> = {};
        for (const field of fields ?? (['record_date', 'provider_name', 'visit_reason'] as const)) {
          if (found[field] !== null) set[field] = found[field];
        }
        if (Object.keys(set).length > 0) {
          await trx
            .updateTable('medical_files')
            .set({ ...set, updated_at: nowIso() })
            .where('user_id', '=', ownerId)
            .where('id', '=', fileId)
            .execute();
        }
        await trx.deleteFrom('file_suggestions').where('file_id', '=', fileId).execute();
        return true;
      });
    },
  };
}
