import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Holds the account's row until the transaction ends: a no-op update, the same statement on both
 * dialects (PostgreSQL takes a row lock; SQLite becomes the single writer). Writers that must see
 * each other's rows — quota checks, list caps, the import's "already there" — take it first.
 */
export async function lockAccount(trx: Kysely<Database>, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', userId)
    .execute();
}
