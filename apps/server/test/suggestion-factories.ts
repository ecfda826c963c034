import type { FileSuggestion } from '@kinchart/shared/search';
import type { Db } from '../src/db/database';
import { nowIso } from '../src/lib/ids';

/** Puts a suggestion on a file straight into the database, as the text runner's afterRead would. */
export async function insertSuggestion(db: Db, fileId: string, values: Partial<FileSuggestion> = {}): Promise<void> {
  await db
    .insertInto('file_suggestions')
    .values({
      file_id: fileId,
      record_date: '2026-03-12',
      provider_name: 'Dr. Ana Ruiz',
      visit_reason: 'Annual check-up',
      created_at: nowIso(),
      ...values,
    })
    .execute();
}
