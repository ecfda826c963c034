import type { Transaction } from 'kysely';
import { newId, nowIso } from '../lib/ids';
import type { Db } from './database';
import type { Database } from './schema';

/**
 * Runs `work` in a transaction that first takes the lock of `key` (a row of `limit_locks`, made on
 * first use): on PostgreSQL the upsert holds that row's lock until commit, on SQLite the
 * transaction holds the database's write lock from its first statement. Each statement after it
 * sees every attempt committed before, so a count-then-record inside `work` cannot be overtaken by
 * a parallel request, on this instance or another (DESIGN §5, §7, §10). Only one lock is ever
 * taken per transaction, so reservations cannot deadlock one another.
 */
export function underLimitLock<T>(db: Db, key: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const touchedAt = nowIso();
    await trx
      .insertInto('limit_locks')
      .values({ key, touched_at: touchedAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ touched_at: touchedAt }))
      .execute();
    return work(trx);
  });
}

/** Tables with one row per attempt from a client address. */
type AddressAttemptTable = 'pin_attempts' | 'signup_attempts';

/**
 * Reserves one attempt for `ip` when fewer than `max` were made in the `windowMs` before `now`;
 * false when refused. The address's older rows go at the same time, so the table only ever holds
 * the current window.
 */
export async function reserveAddressAttempt(
  db: Db,
  table: AddressAttemptTable,
  ip: string,
  limit: { now: Date; max: number; windowMs: number },
): Promise<boolean> {
  const since = nowIso(new Date(limit.now.getTime() - limit.windowMs));
  return underLimitLock(db, `${table}:${ip}`, async (trx) => {
    await trx.deleteFrom(table).where('ip', '=', ip).where('created_at', '<=', since).execute();
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ip', '=', ip)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= limit.max) return false;
    await trx.insertInto(table).values({ id: newId(), ip, created_at: nowIso(limit.now) }).execute();
    return true;
  });
}
