import type { Db } from '../db/database';
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
      return db
        .selectFrom('sessions')
        .select([
          'id as sessionId',
          'public_id as publicId',
          'created_at as createdAt',
          'last_seen_at as lastSeenAt',
          'user_agent as userAgent',
          'ip',
        ])
        .where('user_id', '=', userId)
        .where('expires_at', '>', nowIso(now))
        .where('last_seen_at', '>', nowIso(new Date(now.getTime() - options.idleMs)))
        .orderBy('created_at', 'desc')
        .orderBy('public_id')
        .execute();
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
      await db.deleteFrom('sessions').where('id', '=', row.id).execute();
      return row.id;
    },

    /** Whether a session is still live, without touching it (open event streams, DESIGN §7). */
    async isLive(sessionId: string): Promise<boolean> {
      const row = await db.selectFrom('sessions').select(['last_seen_at', 'expires_at']).where('id', '=', sessionId).executeTakeFirst();
      const now = Date.now();
      return !!row && Date.parse(row.expires_at) > now && Date.parse(row.last_seen_at) + options.idleMs > now;
    },

    async delete(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    /** Ends every session of the user but `keepSessionId`; answers how many ended. */
    async deleteOthers(userId: string, keepSessionId: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keepSessionId).executeTakeFirst();
      return Number(result.numDeletedRows);
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
