import { PostgresAdapter } from 'kysely';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { TextStatus } from '@kinchart/shared/search';

// Issue 33, docs/decisions/0047: the SQL of the text jobs (file_text_jobs) and the text itself
// (file_text_pages). A job is claimed atomically: on PostgreSQL the row is picked with
// `for update skip locked`, so two instances (or `npm run worker`) never take the same one; SQLite
// has one writer. A claim is a lease: a job whose lease ran out (its process died) is taken again.

export type TextTransaction = Transaction<Database>;

export interface ClaimedJob {
  fileId: string;
  userId: string;
  profileId: string | null;
  attempts: number;
  fileType: string;
  /** users.document_languages as stored (JSON, or null). */
  documentLanguages: string | null;
}

/** Rows inserted per statement (SQLite allows 32,766 parameters; three per page). */
const PAGE_CHUNK = 500;

export function createTextRepository(db: Db) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  return {
    /**
     * Takes the oldest pending job (or one whose lease ran out) for `workerId` until `leaseUntil`;
     * undefined when there is none. Jobs that ran out of their lease `maxAttempts` times fail first.
     */
    async claim(
      workerId: string,
      now: string,
      leaseUntil: string,
      maxAttempts: number,
      tooManyTries: string,
    ): Promise<ClaimedJob | undefined> {
      await db
        .updateTable('file_text_jobs')
        .set({ status: 'failed', reason: tooManyTries, lease_until: null, worker_id: null, updated_at: now })
        .where('status', '=', 'processing')
        .where('lease_until', '<', now)
        .where('attempts', '>=', maxAttempts)
        .execute();
      const claimed = await db
        .updateTable('file_text_jobs')
        .set((eb) => ({
          status: 'processing',
          worker_id: workerId,
          lease_until: leaseUntil,
          attempts: eb('attempts', '+', 1),
          updated_at: now,
        }))
        .where('file_id', '=', (eb) => {
          const next = eb
            .selectFrom('file_text_jobs')
            .select('file_id')
            .where((w) => w.or([w('status', '=', 'pending'), w.and([w('status', '=', 'processing'), w('lease_until', '<', now)])]))
            .orderBy('created_at')
            .orderBy('file_id')
            .limit(1);
          return postgres ? next.forUpdate().skipLocked() : next;
        })
        .returning(['file_id', 'attempts'])
        .executeTakeFirst();
      if (!claimed) return undefined;
      const file = await db
        .selectFrom('medical_files')
        .innerJoin('users', 'users.id', 'medical_files.user_id')
        .select(['medical_files.user_id', 'medical_files.profile_id', 'medical_files.file_type', 'users.document_languages'])
        .where('medical_files.id', '=', claimed.file_id)
        .executeTakeFirst();
      // The file went between the two statements: its job went with it (cascade).
      if (!file) return undefined;
      return {
        fileId: claimed.file_id,
        userId: file.user_id,
        profileId: file.profile_id,
        attempts: Number(claimed.attempts),
        fileType: file.file_type,
        documentLanguages: file.document_languages,
      };
    },

    /** Extends the lease; false when the job is no longer this worker's (or its file is gone). */
    async renew(fileId: string, workerId: string, now: string, leaseUntil: string): Promise<boolean> {
      const res = await db
        .updateTable('file_text_jobs')
        .set({ lease_until: leaseUntil, updated_at: now })
        .where('file_id', '=', fileId)
        .where('worker_id', '=', workerId)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /**
     * In one transaction: the file's old pages go, the new ones are stored, the job is done, and
     * `after` runs (suggestions). False (nothing written) when the job is no longer this worker's.
     */
    async complete(
      fileId: string,
      workerId: string,
      pages: readonly string[],
      now: string,
      after: (trx: TextTransaction) => Promise<void>,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        let mine = trx
          .selectFrom('file_text_jobs')
          .select('file_id')
          .where('file_id', '=', fileId)
          .where('worker_id', '=', workerId)
          .where('status', '=', 'processing');
        if (postgres) mine = mine.forUpdate();
        if (!(await mine.executeTakeFirst())) return false;
        await trx.deleteFrom('file_text_pages').where('file_id', '=', fileId).execute();
        const rows = pages.map((text, i) => ({ file_id: fileId, page: i + 1, text }));
        for (let i = 0; i < rows.length; i += PAGE_CHUNK) {
          await trx
            .insertInto('file_text_pages')
            .values(rows.slice(i, i + PAGE_CHUNK))
            .execute();
        }
        await trx
          .updateTable('file_text_jobs')
          .set({ status: 'done', pages: pages.length, reason: null, lease_until: null, worker_id: null, updated_at: now })
          .where('file_id', '=', fileId)
          .execute();
        await after(trx);
        return true;
      });
    },

    /** Ends the job as `failed` or `unsupported` with its reason (its pages, if any, go). */
    async finish(fileId: string, workerId: string, status: 'failed' | 'unsupported', reason: string, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('file_text_jobs')
          .set({ status, reason, pages: null, lease_until: null, worker_id: null, updated_at: now })
          .where('file_id', '=', fileId)
          .where('worker_id', '=', workerId)
          .where('status', '=', 'processing')
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) > 0) await trx.deleteFrom('file_text_pages').where('file_id', '=', fileId).execute();
      });
    },

    /** Hands the job back (pending), its attempt not counted when `uncount` (the runner stopped). */
    async release(fileId: string, workerId: string, now: string, uncount: boolean): Promise<void> {
      await db
        .updateTable('file_text_jobs')
        .set((eb) => ({
          status: 'pending',
          lease_until: null,
          worker_id: null,
          updated_at: now,
          ...(uncount ? { attempts: eb('attempts', '-', 1) } : {}),
        }))
        .where('file_id', '=', fileId)
        .where('worker_id', '=', workerId)
        .where('status', '=', 'processing')
        .execute();
    },

    /** `npm run reindex`: every file is read again (a file without a job gets one). Answers the count. */
    async requeueAll(now: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('file_text_jobs')
          .columns(['file_id', 'user_id', 'status', 'attempts', 'created_at', 'updated_at'])
          .expression((eb) =>
            eb
              .selectFrom('medical_files')
              .select((s) => [
                'medical_files.id',
                'medical_files.user_id',
                s.val('pending').as('status'),
                s.val(0).as('attempts'),
                'medical_files.created_at',
                s.val(now).as('updated_at'),
              ])
              .where((w) =>
                w.not(
                  w.exists(
                    w
                      .selectFrom('file_text_jobs')
                      .select('file_text_jobs.file_id')
                      .whereRef('file_text_jobs.file_id', '=', 'medical_files.id'),
                  ),
                ),
              ),
          )
          .execute();
        const res = await trx
          .updateTable('file_text_jobs')
          .set({ status: 'pending', attempts: 0, reason: null, lease_until: null, worker_id: null, updated_at: now })
          .executeTakeFirst();
        return Number(res.numUpdatedRows);
      });
    },

    /** Who a file belongs to (the caller asks the access function), and where reading its text stands. */
    async fileWithStatus(fileId: string): Promise<{ user_id: string; profile_id: string | null; status: TextStatus | null } | undefined> {
      return db
        .selectFrom('medical_files')
        .leftJoin('file_text_jobs', 'file_text_jobs.file_id', 'medical_files.id')
        .select(['medical_files.user_id', 'medical_files.profile_id', 'file_text_jobs.status'])
        .where('medical_files.id', '=', fileId)
        .executeTakeFirst();
    },

    /** A file's text, page by page. */
    async pages(fileId: string): Promise<{ page: number; text: string }[]> {
      const rows = await db.selectFrom('file_text_pages').select(['page', 'text']).where('file_id', '=', fileId).orderBy('page').execute();
      return rows.map((r) => ({ page: Number(r.page), text: r.text }));
    },
  };
}
