import type { SessionUser } from '../../common/session.repository';

interface Entry {
  version: number;
  username: string;
  email: string;
  body: Buffer;
  storedAt: number;
}

/**
 * Serialized GET /api/user/getPatientProfile answers (UTF-8 bytes, ready to send), one per account
 * (docs/decisions/0007-request-path-and-upload-speed.md).
 *
 * An entry is used only while the account's profile_versions counter, username and e-mail — read
 * with the session on every request — are what they were before the entry was built. The counter
 * moves in the same transaction as any change to the data, so an answer from here is never older
 * than what the database shows, on one instance or many. Bounded by count and by bytes: the least
 * recently used entry goes first, and none is kept longer than `ttlMs`.
 */
export function createPatientProfileCache(options: { maxEntries?: number; maxBytes?: number; ttlMs?: number; now?: () => number } = {}) {
  const { maxEntries = 1000, maxBytes = 32 * 1024 * 1024, ttlMs = 5 * 60_000, now = Date.now } = options;
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const remove = (userId: string) => {
    const entry = entries.get(userId);
    if (!entry) return undefined;
    entries.delete(userId);
    bytes -= entry.body.length;
    return entry;
  };

  return {
    get(user: SessionUser): Buffer | undefined {
      const entry = remove(user.id);
      if (!entry) return undefined;
      const current =
        entry.version === user.profileVersion &&
        entry.username === user.username &&
        entry.email === user.email &&
        now() - entry.storedAt < ttlMs;
      if (!current) return undefined;
      // Map order is recency order: put it back at the end.
      entries.set(user.id, entry);
      bytes += entry.body.length;
      return entry.body;
    },

    /** `user` as read before `body` was built: a later change leaves the entry behind. */
    set(user: SessionUser, body: Buffer): void {
      remove(user.id);
      if (body.length > maxBytes) return;
      while (entries.size >= maxEntries || bytes + body.length > maxBytes) remove(entries.keys().next().value as string);
      entries.set(user.id, { version: user.profileVersion, username: user.username, email: user.email, body, storedAt: now() });
      bytes += body.length;
    },

    get size(): number {
      return entries.size;
    },

    get bytes(): number {
      return bytes;
    },
  };
}
