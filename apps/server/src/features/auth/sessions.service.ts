import type { SessionInfo } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { recordAudit } from '../../common/audit';
import type { SessionRepository } from '../../common/session.repository';
import { notFound } from '../../lib/http-errors';

/** The session a request came from: whose it is and its key (the token's hash). */
export interface CurrentSession {
  userId: string;
  sessionId: string;
  ip: string;
}

/**
 * DESIGN §5 (ASVS 5.0 7.5.2): the signed-in user sees their live sessions and ends any of them.
 * Sessions are listed and ended by their public id; the token's hash never leaves the server
 * (docs/decisions/0024).
 */
export function createSessionsService(deps: { db: Db; sessions: SessionRepository }) {
  return {
    /** The current session first, then the newest. */
    async list(current: CurrentSession): Promise<SessionInfo[]> {
      const rows = await deps.sessions.listLive(current.userId);
      const listed = rows.map((row) => ({
        id: row.publicId,
        current: row.sessionId === current.sessionId,
        created_at: row.createdAt,
        last_seen_at: row.lastSeenAt,
        user_agent: row.userAgent,
        ip: row.ip,
        reminders: row.reminders,
      }));
      return [...listed.filter((s) => s.current), ...listed.filter((s) => !s.current)];
    },

    /** Ends one of the user's sessions; another user's or an unknown id is a 404 (DESIGN §4). */
    async end(current: CurrentSession, publicId: string): Promise<{ current: boolean }> {
      const ended = await deps.sessions.deleteByPublicId(current.userId, publicId);
      if (!ended) throw notFound('Session not found');
      const wasCurrent = ended === current.sessionId;
      await recordAudit(deps.db, {
        userId: current.userId,
        action: 'logout',
        ip: current.ip,
        detail: { reason: wasCurrent ? 'session_list_current' : 'session_list' },
      });
      return { current: wasCurrent };
    },

    /** Ends every session of the user but this one; answers how many ended. */
    async endOthers(current: CurrentSession): Promise<number> {
      const ended = await deps.sessions.deleteOthers(current.userId, current.sessionId);
      if (ended > 0)
        await recordAudit(deps.db, {
          userId: current.userId,
          action: 'logout',
          ip: current.ip,
          detail: { reason: 'session_list_others', ended },
        });
      return ended;
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
