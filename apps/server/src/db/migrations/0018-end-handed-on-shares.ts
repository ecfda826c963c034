import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

// docs/decisions/0032: what a share handed on ends with it. Before, revoking a manager (or the
// manager leaving, or their account going) left the shares and invitations they had made open.
// This ends those already in the database: an open share made by someone other than the person's
// owner ends when its maker holds no active manager share of the person — repeated until nothing
// changes, so what such shares handed on in turn ends too. Down changes nothing back (an ended
// share stays ended).

/** Enough rounds for the longest chain 50 open shares per person allow. */
const MAX_ROUNDS = 60;

export const endHandedOnOrphans: Migration = {
  async up(db: Kysely<unknown>) {
    const now = new Date().toISOString();
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const result = await sql`
        update person_shares set revoked_at = ${now}, token_hash = null
        where revoked_at is null
          and (ends_at is null or ends_at > ${now})
          and (accepted_at is not null or invite_expires_at > ${now})
          and (created_by is null or created_by <> owner_id)
          and not exists (
            select 1 from person_shares maker
            where maker.profile_id = person_shares.profile_id
              and maker.owner_id = person_shares.owner_id
              and maker.holder_id = person_shares.created_by
              and maker.role = 'manager'
              and maker.revoked_at is null
              and maker.accepted_at is not null
              and (maker.ends_at is null or maker.ends_at > ${now})
          )`.execute(db);
      if (Number(result.numAffectedRows ?? 0) === 0) return;
    }
  },

  async down() {
    // Nothing to undo: the shares stay ended.
  },
};
