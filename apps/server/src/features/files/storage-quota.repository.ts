import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

// The SQL of the storage quota (storage-quota.ts holds its rules; docs/decisions/0012-reimport-and-quota.md).

/** The account's stored bytes: the plaintext sizes of its files, on `q` or a transaction. */
export async function storageUsed(q: Kysely<Database>, userId: string): Promise<number> {
  const row = await q
    .selectFrom('medical_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('used'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  // PostgreSQL's sum over bigint is numeric, which pg hands over as a string.
  return Number(row?.used ?? 0);
}
