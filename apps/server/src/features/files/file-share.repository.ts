import type { Db } from '../../db/database';
import { nowIso } from '../../lib/ids';

// SQL for file_share_links: time-limited links to a few of a user's files. Tokens are stored only as
// their SHA-256 hash, like session tokens (DESIGN §5).

export interface ShareLinkRow {
  id: string;
  user_id: string;
  file_ids: string;
  expires_at: string;
  revoked_at: string | null;
}

export function createShareLinkRepository(db: Db) {
  return {
    async insert(link: { id: string; userId: string; tokenHash: string; fileIds: string[]; expiresAt: string; createdAt: string }) {
      await db
        .insertInto('file_share_links')
        .values({
          id: link.id,
          user_id: link.userId,
          token_hash: link.tokenHash,
          file_ids: JSON.stringify(link.fileIds),
          expires_at: link.expiresAt,
          revoked_at: null,
          created_at: link.createdAt,
        })
        .execute();
    },

    async findByTokenHash(tokenHash: string): Promise<ShareLinkRow | undefined> {
      return db
        .selectFrom('file_share_links')
        .select(['id', 'user_id', 'file_ids', 'expires_at', 'revoked_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async revoke(userId: string, id: string): Promise<boolean> {
      const found = await db
        .selectFrom('file_share_links')
        .select('revoked_at')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!found) return false;
      if (!found.revoked_at) {
        await db.updateTable('file_share_links').set({ revoked_at: nowIso() }).where('user_id', '=', userId).where('id', '=', id).execute();
      }
      return true;
    },
  };
}
