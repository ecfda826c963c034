import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';

// The only SQL of the operations commands that runs on both dialects: every data key wrapped by
// the master key. Today that is medical_files.wrapped_key alone (DESIGN §6); a new table holding
// wrapped keys joins the list here, so `rotate-key` cannot forget it.

export interface WrappedKeyRow {
  table: 'medical_files';
  id: string;
  /** Associated data the key was wrapped with (storage/envelope.ts fileAssociatedData). */
  fileId: string;
  ownerId: string;
  wrappedKey: string;
}

export function createWrappedKeyRepository(trx: Transaction<Database>) {
  return {
    async all(): Promise<WrappedKeyRow[]> {
      const files = await trx.selectFrom('medical_files').select(['id', 'user_id', 'wrapped_key']).orderBy('id').execute();
      return files.map((f) => ({ table: 'medical_files' as const, id: f.id, fileId: f.id, ownerId: f.user_id, wrappedKey: f.wrapped_key }));
    },

    async replace(row: WrappedKeyRow, wrappedKey: string): Promise<void> {
      // Only the key changes: updated_at is the user's record of their own edits.
      const res = await trx.updateTable(row.table).set({ wrapped_key: wrappedKey }).where('id', '=', row.id).where('wrapped_key', '=', row.wrappedKey).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new Error(`A wrapped key changed during the rotation (${row.table} ${row.id})`);
    },
  };
}

/** SMART Health Links, whose keys are derived from the master key (features/shl/shl-keys.ts) rather than stored. */
export async function countDerivedKeyLinks(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('shl_links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
