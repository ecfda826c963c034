import type { PersonRole } from '@kinchart/shared/people';
import type { Db } from '../src/db/database';
import { newId, nowIso } from '../src/lib/ids';

type ShareRole = Exclude<PersonRole, 'owner'>;

/**
 * An accepted share of `profileId` with `holderId`, straight into the database (the invitation
 * flow has its own tests). `endsAt` in the past makes an expired share; `revoked` a revoked one.
 */
export async function insertShare(
  db: Db,
  share: {
    profileId: string;
    ownerId: string;
    holderId: string;
    role: ShareRole;
    endsAt?: string | null;
    revoked?: boolean;
    pending?: boolean;
  },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('person_shares')
    .values({
      id,
      profile_id: share.profileId,
      owner_id: share.ownerId,
      created_by: share.ownerId,
      holder_id: share.pending ? null : share.holderId,
      role: share.role,
      label_email: null,
      token_hash: null,
      invite_expires_at: nowIso(new Date(Date.now() + 7 * 86_400_000)),
      expires_at: share.endsAt ?? null,
      ends_at: share.endsAt ?? null,
      accepted_at: share.pending ? null : now,
      revoked_at: share.revoked ? now : null,
      created_at: now,
    })
    .execute();
  return id;
}

/** An instant `days` ago. */
export const daysAgo = (days: number): string => nowIso(new Date(Date.now() - days * 86_400_000));
