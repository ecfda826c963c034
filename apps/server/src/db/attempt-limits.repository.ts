import type { Transaction } from 'kysely';
import { clientAddressKey } from '../lib/client-address';
import { newId, nowIso } from '../lib/ids';
import type { Db } from './database';
import type { Database } from './schema';

/**
 * Runs `work` in a transaction that first takes the lock of each key (a row of `limit_locks`, made
 * on first use): on PostgreSQL the upsert holds that row's lock until commit, on SQLite the
 * transaction holds the database's write lock from its first statement. Each statement after it
 * sees every attempt committed before, so a count-then-record inside `work` cannot be overtaken by
 * a parallel request, on this instance or another (DESIGN §5, §7, §10). Several keys (an address
 * and an account) are always locked in one order, sorted, so reservations cannot deadlock one another.
 */
export function underLimitLock<T>(db: Db, keys: string | readonly string[], work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const ordered = typeof keys === 'string' ? [keys] : [...new Set(keys)].sort();
  return db.transaction().execute(async (trx) => {
    const touchedAt = nowIso();
    for (const key of ordered) {
      await trx
        .insertInto('limit_locks')
        .values({ key, touched_at: touchedAt })
        .onConflict((oc) => oc.column('key').doUpdateSet({ touched_at: touchedAt }))
        .execute();
    }
    return work(trx);
  });
}

/** Tables with one row per attempt from a client address. */
type AddressAttemptTable = 'pin_attempts' | 'signup_attempts';

/**
 * Reserves one attempt for `ip` (counted by clientAddressKey) when fewer than `max` were made in
 * the `windowMs` before `now`; false when refused. The address's older rows go at the same time, so the table only ever holds
 * the current window.
 */
export async function reserveAddressAttempt(
  db: Db,
  table: AddressAttemptTable,
  ip: string,
  limit: { now: Date; max: number; windowMs: number },
): Promise<boolean> {
  const since = nowIso(new Date(limit.now.getTime() - limit.windowMs));
  const address = clientAddressKey(ip);
  return underLimitLock(db, `${table}:${address}`, async (trx) => {
    await trx.deleteFrom(table).where('ip', '=', address).where('created_at', '<=', since).execute();
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ip', '=', address)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= limit.max) return false;
    await trx
      .insertInto(table)
      .values({ id: newId(), ip: address, created_at: nowIso(limit.now) })
      .execute();
    return true;
  });
}
