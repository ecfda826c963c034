import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { createBatchLoader } from '../lib/batch-loader';
import { newId, nowIso, randomToken, sha256Hex } from '../lib/ids';

export interface SessionUser {
  sessionId: string;
  id: string;
  username: string;
  email: string;
  /** The account's profile_versions counter (0 before its first profile write): keys the profile cache. */
  profileVersion: number;
  /** When this session last proved the password (common/recent-auth.ts); null: never. */
  authenticatedAt: string | null;
}

/** One of a user's live sessions as the session list shows it (docs/decisions/0024). */
export interface SessionListing {
  /** The session's key: the token's hash. Stays on the server; the list shows `publicId`. */
  sessionId: string;
  publicId: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  ip: string | null;
  /** A Web Push subscription was made in this session (signing it out on purpose removes it). */
  reminders: boolean;
}

/**
 * Ends sessions ON PURPOSE (logout, the sessions list, a password or email change, a password
 * reset): the Web Push subscriptions made in them go too, with the Taken / Snooze tokens pushed to
 * those, so a lost phone stops showing reminders and its buttons stop logging doses
 * (docs/decisions/0044, "Later changes"). A session that merely expires is deleted elsewhere
 * (findUser, deleteExpired) and keeps its subscriptions: reminders go on through the night.
 * Run inside the caller's transaction. Answers how many sessions ended.
 */
export async function endSessionsOnPurpose(trx: Kysely<Database>, sessionIds: readonly string[]): Promise<number> {
  if (sessionIds.length === 0) return 0;
  const ids = [...sessionIds];
  const made = trx.selectFrom('push_subscriptions').select('id').where('session_id', 'in', ids);
  await trx.deleteFrom('push_action_tokens').where('subscription_id', 'in', made).execute();
  await trx.deleteFrom('push_subscriptions').where('session_id', 'in', ids).execute();
  const result = await trx.deleteFrom('sessions').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// Sessions are stored by SHA-256 of the token: a copy of the table cannot be replayed (DESIGN §5).
export function createSessionRepository(db: Db, options: { idleMs: number; maxMs: number }) {
  const touchMs = Math.min(60_000, options.idleMs / 30);
  // Every authenticated request runs this lookup. Lookups made in one turn of the event loop share
  // one query (lib/batch-loader.ts): under load one SQLite read transaction, or one PostgreSQL round
  // trip, answers every request that arrived together (docs/decisions/0007).
  const lookup = createBatchLoader(async (ids: string[]) => {
    const rows = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('profile_versions', 'profile_versions.user_id', 'users.id')
      .select([
        'sessions.id as sessionId',
        'sessions.last_seen_at',
        'sessions.expires_at',
        'sessions.authenticated_at',
        'users.id',
        'users.username',
        'users.email',
        'profile_versions.version as profileVersion',
      ])
      .where('sessions.id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.sessionId, row]));
  });

  return {
    async create(userId: string, meta: { ip: string | null; userAgent: string | null }): Promise<string> {
      const token = randomToken();
      const now = new Date();
      await db
        .insertInto('sessions')
        .values({
          id: sha256Hex(token),
          public_id: newId(),
          user_id: userId,
          created_at: nowIso(now),
          authenticated_at: nowIso(now),
          last_seen_at: nowIso(now),
          expires_at: nowIso(new Date(now.getTime() + options.maxMs)),
          ip: meta.ip,
          user_agent: meta.userAgent?.slice(0, 300) ?? null,
        })
        .execute();
      return token;
    },

    /** The signed-in user for a token, or null when unknown, idle too long or past its lifetime. */
    async findUser(token: string): Promise<SessionUser | null> {
      const id = sha256Hex(token);
      const row = await lookup(id);
      if (!row) return null;
      const now = Date.now();
      const lastSeen = Date.parse(row.last_seen_at);
      if (Date.parse(row.expires_at) <= now || lastSeen + options.idleMs <= now) {
        await db.deleteFrom('sessions').where('id', '=', id).execute();
        return null;
      }
      // Sliding idle window, written at most once per touchMs to keep reads cheap. The stored time
      // trails the last use by less than touchMs, so a session can end that much early: at most a
      // minute of the default 30, and 2 s of a 1-minute limit.
      if (now - lastSeen > touchMs) {
        await db.updateTable('sessions').set({ last_seen_at: nowIso() }).where('id', '=', id).execute();
      }
      return {
        sessionId: row.sessionId,
        id: row.id,
        username: row.username,
        email: row.email,
        profileVersion: row.profileVersion ?? 0,
        authenticatedAt: row.authenticated_at,
      };
    },

    /** The session proved the password (or, later, a passkey) just now. */
    async markAuthenticated(sessionId: string, at: Date = new Date()): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ authenticated_at: nowIso(at) })
        .where('id', '=', sessionId)
        .execute();
    },

    /** The user's live sessions, newest first; idle or expired ones are left out (they are over). */
    async listLive(userId: string): Promise<SessionListing[]> {
      const now = new Date();
      const rows = await db
        .selectFrom('sessions')
        .select((eb) => [
          'id as sessionId',
          'public_id as publicId',
          'created_at as createdAt',
          'last_seen_at as lastSeenAt',
          'user_agent as userAgent',
          'ip',
          eb.exists(eb.selectFrom('push_subscriptions as p').select('p.id').whereRef('p.session_id', '=', 'sessions.id')).as('reminders'),
        ])
        .where('user_id', '=', userId)
        .where('expires_at', '>', nowIso(now))
        .where('last_seen_at', '>', nowIso(new Date(now.getTime() - options.idleMs)))
        .orderBy('created_at', 'desc')
        .orderBy('public_id')
        .execute();
      // exists() is a boolean on PostgreSQL and 0/1 on SQLite.
      return rows.map((row) => ({ ...row, reminders: Boolean(Number(row.reminders)) }));
    },

    /** Ends the user's session listed as `publicId`; answers its key, or null when the user has none such. */
    async deleteByPublicId(userId: string, publicId: string): Promise<string | null> {
      const row = await db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('public_id', '=', publicId)
        .executeTakeFirst();
      if (!row) return null;
      await db.transaction().execute((trx) => endSessionsOnPurpose(trx, [row.id]));
      return row.id;
    },

    /** Whether a session is still live, without touching it (open event streams, DESIGN §7). */
    async isLive(sessionId: string): Promise<boolean> {
      const row = await db.selectFrom('sessions').select(['last_seen_at', 'expires_at']).where('id', '=', sessionId).executeTakeFirst();
      const now = Date.now();
      return !!row && Date.parse(row.expires_at) > now && Date.parse(row.last_seen_at) + options.idleMs > now;
    },

    /** Ends the session on purpose (a logout): the push subscriptions made in it go too. */
    async delete(sessionId: string): Promise<void> {
      await db.transaction().execute((trx) => endSessionsOnPurpose(trx, [sessionId]));
    },

    /**
     * A new sign-in in a browser that still held a live session: the old session ends. When it was
     * the same account's, this browser's push subscriptions move to the new session (the same
     * device, not a cut-off); another account's session is ended on purpose, subscriptions and all.
     */
    async replace(previous: { sessionId: string; userId: string }, next: { token: string; userId: string }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (previous.userId === next.userId) {
          await trx
            .updateTable('push_subscriptions')
            .set({ session_id: sha256Hex(next.token) })
            .where('session_id', '=', previous.sessionId)
            .execute();
        }
        await endSessionsOnPurpose(trx, [previous.sessionId]);
      });
    },

    /** Ends every session of the user but `keepSessionId` on purpose; answers how many ended. */
    async deleteOthers(userId: string, keepSessionId: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const others = await trx
          .selectFrom('sessions')
          .select('id')
          .where('user_id', '=', userId)
          .where('id', '!=', keepSessionId)
          .execute();
        return endSessionsOnPurpose(
          trx,
          others.map((o) => o.id),
        );
      });
    },

    async deleteExpired(): Promise<void> {
      const now = new Date();
      await db
        .deleteFrom('sessions')
        .where((eb) =>
          eb.or([eb('expires_at', '<=', nowIso(now)), eb('last_seen_at', '<=', nowIso(new Date(now.getTime() - options.idleMs)))]),
        )
        .execute();
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
