import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { fileAssociatedData } from '../storage/envelope';
import { totpAssociatedData } from '../storage/sealed-secret';

// The only SQL of the operations commands that runs on both dialects: every data key wrapped by
// the master key: medical_files.wrapped_key (DESIGN §6) and totp_factors.wrapped_key (the key of a
// TOTP secret, storage/sealed-secret.ts). A new table holding wrapped keys joins the list here, so
// `rotate-key` cannot forget it.

export interface WrappedKeyRow {
  table: 'medical_files' | 'totp_factors';
  id: string;
  /** Associated data the key was wrapped with (storage/envelope.ts fileAssociatedData, storage/sealed-secret.ts totpAssociatedData). */
  aad: Buffer;
  wrappedKey: string;
}

export function createWrappedKeyRepository(trx: Transaction<Database>) {
  return {
    async all(): Promise<WrappedKeyRow[]> {
      const files = await trx.selectFrom('medical_files').select(['id', 'user_id', 'wrapped_key']).orderBy('id').execute();
      const totp = await trx.selectFrom('totp_factors').select(['id', 'user_id', 'wrapped_key']).orderBy('id').execute();
      return [
        ...files.map((f) => ({
          table: 'medical_files' as const,
          id: f.id,
          aad: fileAssociatedData(f.id, f.user_id),
          wrappedKey: f.wrapped_key,
        })),
        ...totp.map((f) => ({ table: 'totp_factors' as const, id: f.id, aad: totpAssociatedData(f.user_id), wrappedKey: f.wrapped_key })),
      ];
    },

    async replace(row: WrappedKeyRow, wrappedKey: string): Promise<void> {
      // Only the key changes: updated_at is the user's record of their own edits.
      const res =
        row.table === 'medical_files'
          ? await trx
              .updateTable('medical_files')
              .set({ wrapped_key: wrappedKey })
              .where('id', '=', row.id)
              .where('wrapped_key', '=', row.wrappedKey)
              .executeTakeFirst()
          : await trx
              .updateTable('totp_factors')
              .set({ wrapped_key: wrappedKey })
              .where('id', '=', row.id)
              .where('wrapped_key', '=', row.wrappedKey)
              .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new Error(`A wrapped key changed during the rotation (${row.table} ${row.id})`);
    },
  };
}

export type WrappedKeyRepository = ReturnType<typeof createWrappedKeyRepository>;

/** Runs `work` on the wrapped keys in one transaction: every key moves or none does. */
export function inWrappedKeyTransaction<T>(db: Kysely<Database>, work: (repo: WrappedKeyRepository) => Promise<T>): Promise<T> {
  return db.transaction().execute((trx) => work(createWrappedKeyRepository(trx)));
}

/** SMART Health Links, whose keys are derived from the master key (features/shl/shl-keys.ts) rather than stored. */
export async function countDerivedKeyLinks(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('shl_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
