import { isIPv4, isIPv6 } from 'node:net';
import type { Transaction } from 'kysely';
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

/**
 * The client address as attempt limits count it (DESIGN §5): an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 — one home or phone network
 * is handed a whole /64, so counting each address would give a guesser 2^64 of them.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.split('%')[0]?.toLowerCase() ?? '';
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const mapped = address.startsWith('::ffff:') ? address.slice(7) : '';
  if (isIPv4(mapped)) return mapped;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of a valid IPv6 address, without leading zeros ("::" expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): string[] {
  const halves = address.split('::');
  const groupsOf = (part: string | undefined): string[] => {
    if (!part) return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  };
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  return groups.map((group) => (parseInt(group, 16) || 0).toString(16));
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
    await trx.insertInto(table).values({ id: newId(), ip: address, created_at: nowIso(limit.now) }).execute();
    return true;
  });
}
