import type { Db } from '../../db/database';
import type { LabResultsTable } from '../../db/schema';
import { lockAccount } from '../../db/account-lock.repository';
import { newId, nowIso } from '../../lib/ids';

// Issue 34 (docs/decisions/0052): the SQL of lab values found in a file's text — the file, where
// reading its text stands, its stored pages — and the lab results an accept adds for the file's person.

/** A file as the lab routes need it: whose it is, where reading its text stands, how many pages were stored. */
export interface LabFile {
  user_id: string;
  profile_id: string | null;
  status: string | null;
  pages: number;
}

/** A lab result the person already has, as "already present" compares it. */
export interface ExistingLabResult {
  name: string;
  loinc_code: string | null;
  codings: string;
  value: number | null;
  value_text: string | null;
  unit: string | null;
  date: string | null;
}

/** The columns of one lab result an accept writes. */
export type LabResultInsert = Pick<
  LabResultsTable,
  | 'name'
  | 'loinc_code'
  | 'value'
  | 'value_text'
  | 'unit'
  | 'reference_low'
  | 'reference_high'
  | 'reference_range'
  | 'interpretation'
  | 'date'
> & { source_page: number };

export function createLabsRepository(db: Db) {
  return {
    async file(fileId: string): Promise<LabFile | undefined> {
      const row = await db
        .selectFrom('medical_files')
        .leftJoin('file_text_jobs', 'file_text_jobs.file_id', 'medical_files.id')
        .select((eb) => [
          'medical_files.user_id',
          'medical_files.profile_id',
          'file_text_jobs.status',
          eb
            .selectFrom('file_text_pages')
            .select((s) => s.fn.countAll().as('n'))
            .whereRef('file_text_pages.file_id', '=', 'medical_files.id')
            .as('pages'),
        ])
        .where('medical_files.id', '=', fileId)
        .executeTakeFirst();
      if (!row) return undefined;
      return { user_id: row.user_id, profile_id: row.profile_id, status: row.status, pages: Number(row.pages ?? 0) };
    },

    /** A file's stored text, page by page. */
    async pages(fileId: string): Promise<{ page: number; text: string }[]> {
      const rows = await db.selectFrom('file_text_pages').select(['page', 'text']).where('file_id', '=', fileId).orderBy('page').execute();
      return rows.map((r) => ({ page: Number(r.page), text: r.text }));
    },

    /**
     * In one transaction under the account's lock: reads the person's lab results, lets `choose` pick which of the
     * rows to add (the rest are already there; null refuses the whole accept), and adds them linked to the file.
     */
    async accept<T>(
      ownerId: string,
      profileId: string,
      fileId: string,
      choose: (existing: ExistingLabResult[]) => { insert: LabResultInsert[]; answer: T } | null,
    ): Promise<T | null> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, ownerId);
        const existing = await trx
          .selectFrom('lab_results')
          .select(['name', 'loinc_code', 'codings', 'value', 'value_text', 'unit', 'date'])
          .where('user_id', '=', ownerId)
          .where('profile_id', '=', profileId)
          .execute();
        const chosen = choose(existing.map((r) => ({ ...r, value: r.value === null ? null : Number(r.value) })));
        if (!chosen) return null;
        const now = nowIso();
        for (const row of chosen.insert) {
          await trx
            .insertInto('lab_results')
            .values({
              ...row,
              id: newId(),
              user_id: ownerId,
              profile_id: profileId,
              category: 'laboratory',
              notes: null,
              codings: '[]',
              source_file_id: fileId,
              created_at: now,
              updated_at: now,
            })
            .execute();
        }
        return chosen.answer;
      });
    },
  };
}
