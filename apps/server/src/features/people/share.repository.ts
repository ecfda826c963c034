import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { ShareRole } from '@kinchart/shared/people';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { lockAccount } from '../../db/account-lock.repository';

// SQL for person_shares (DESIGN §11) and a person's access history. Every statement that reads or
// changes a share names its person and that person's owner; an invitation is found only by the
// SHA-256 of its token, which is cleared once used.
//
// A share is *open* while it can still give access: not revoked, not past its end, and either
// accepted (active) or still inside its invitation's 7 days (pending).

export interface ShareRow {
  id: string;
  role: ShareRole;
  holder_id: string | null;
  holder_username: string | null;
  label_email: string | null;
  expires_at: string | null;
  ends_at: string | null;
  invite_expires_at: string;
  created_at: string;
  accepted_at: string | null;
}

export interface NewShare {
  id: string;
  profileId: string;
  ownerId: string;
  createdBy: string;
  role: ShareRole;
  labelEmail: string | null;
  tokenHash: string;
  inviteExpiresAt: string;
  expiresAt: string | null;
  endsAt: string | null;
  createdAt: string;
}

/** What an invitation page shows, and what accepting it needs. */
export interface InvitationRow {
  id: string;
  profile_id: string;
  owner_id: string;
  role: ShareRole;
  expires_at: string | null;
  owner_username: string;
  person_name: string | null;
  is_pet: number;
  is_self: number;
}

export interface AccessEventRow {
  id: string;
  action: string;
  detail: string | null;
  created_at: string;
  actor_id: string | null;
  actor: string | null;
}

/** A share that ended, as its audit event needs it. */
export interface EndedShare {
  id: string;
  role: ShareRole;
  accepted_at: string | null;
}

/** A share ended at once, and what it had handed on (ended with it, docs/decisions/0032). */
export interface EndResult {
  share: EndedShare & { holder_id: string | null };
  handedOn: EndedShare[];
}

/** A share's role changed in place, and what ended because its holder is no longer a manager. */
export interface RoleChange {
  share: ShareRow;
  from: ShareRole;
  handedOn: EndedShare[];
}

/** The open shares of one person that one account held and ended (their account is going). */
export interface EndedHeld extends EndResult {
  ownerId: string;
  profileId: string;
}

type Shares = ExpressionBuilder<Database, 'person_shares'>;

/** Not revoked and not past its end. */
const notEnded = (now: string) => (eb: Shares) =>
  eb.and([
    eb('person_shares.revoked_at', 'is', null),
    eb.or([eb('person_shares.ends_at', 'is', null), eb('person_shares.ends_at', '>', now)]),
  ]);

/** Active, or a pending invitation that can still be accepted. */
const open = (now: string) => (eb: Shares) =>
  eb.and([notEnded(now)(eb), eb.or([eb('person_shares.accepted_at', 'is not', null), eb('person_shares.invite_expires_at', '>', now)])]);

/** A pending invitation that can still be accepted. */
const acceptable = (now: string) => (eb: Shares) =>
  eb.and([notEnded(now)(eb), eb('person_shares.accepted_at', 'is', null), eb('person_shares.invite_expires_at', '>', now)]);

type Trx = Kysely<Database>;

/**
 * docs/decisions/0032: ends, in `trx`, the open shares and invitations that `makers` made for the
 * person, then those that their holders made, and so on. A share handed on lasts only while the
 * one who handed it on still manages the person. `spare` keeps the first round's shares that may
 * stay (the maker is still a manager, through a newer share whose end they fit), and `except` is
 * a share that must not end (the one just accepted).
 */
async function endHandedOn(
  trx: Trx,
  person: { ownerId: string; profileId: string },
  makers: readonly string[],
  now: string,
  options: { spare?: (eb: Shares) => Expression<SqlBool>; except?: string } = {},
): Promise<EndedShare[]> {
  const ended: EndedShare[] = [];
  const seen = new Set(makers);
  let frontier = makers.filter((id) => id !== person.ownerId);
  let first = true;
  while (frontier.length > 0) {
    let query = trx
      .updateTable('person_shares')
      .set({ revoked_at: now, token_hash: null })
      .where('owner_id', '=', person.ownerId)
      .where('profile_id', '=', person.profileId)
      .where('created_by', 'in', frontier)
      .where(open(now));
    if (options.except !== undefined) query = query.where('id', '!=', options.except);
    const spare = first ? options.spare : undefined;
    if (spare) query = query.where((eb) => eb.not(spare(eb)));
    const rows = await query.returning(['id', 'role', 'holder_id', 'accepted_at']).execute();
    first = false;
    for (const row of rows) ended.push({ id: row.id, role: row.role, accepted_at: row.accepted_at });
    frontier = [];
    for (const row of rows) {
      if (row.holder_id !== null && !seen.has(row.holder_id)) {
        seen.add(row.holder_id);
        frontier.push(row.holder_id);
      }
    }
  }
  return ended;
}

/** Ends one open share (or invitation) and what it handed on, in `trx`. */
async function endOne(
  trx: Trx,
  person: { ownerId: string; profileId: string },
  shareId: string,
  now: string,
): Promise<EndResult | undefined> {
  const share = await trx
    .updateTable('person_shares')
    .set({ revoked_at: now, token_hash: null })
    .where('owner_id', '=', person.ownerId)
    .where('profile_id', '=', person.profileId)
    .where('id', '=', shareId)
    .where(open(now))
    .returning(['id', 'role', 'holder_id', 'accepted_at'])
    .executeTakeFirst();
  if (!share) return undefined;
  const handedOn = share.holder_id === null ? [] : await endHandedOn(trx, person, [share.holder_id], now);
  return { share, handedOn };
}

export function createShareRepository(db: Db) {
  const shareColumns = [
    'person_shares.id',
    'person_shares.role',
    'person_shares.holder_id',
    'users.username as holder_username',
    'person_shares.label_email',
    'person_shares.expires_at',
    'person_shares.ends_at',
    'person_shares.invite_expires_at',
    'person_shares.created_at',
    'person_shares.accepted_at',
  ] as const;

  const openShares = (ownerId: string, profileId: string, now: string) =>
    db
      .selectFrom('person_shares')
      .leftJoin('users', 'users.id', 'person_shares.holder_id')
      .select(shareColumns)
      .where('person_shares.owner_id', '=', ownerId)
      .where('person_shares.profile_id', '=', profileId)
      .where(open(now));

  return {
    /**
     * Inserts the share unless the person already has `cap` open shares (counted under the owner's
     * lock, so parallel creations cannot pass the cap). Answers false when the cap is reached.
     */
    async insertCapped(share: NewShare, cap: number, now: string): Promise<'created' | 'capped' | 'maker-gone'> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, share.ownerId);
        if (share.createdBy !== share.ownerId) {
          // The maker's own share, read again under the lock every ending takes: a manager being
          // revoked right now cannot leave an invitation behind (docs/decisions/0032).
          const maker = await trx
            .selectFrom('person_shares')
            .select('ends_at')
            .where('owner_id', '=', share.ownerId)
            .where('profile_id', '=', share.profileId)
            .where('holder_id', '=', share.createdBy)
            .where('role', '=', 'manager')
            .where('accepted_at', 'is not', null)
            .where(notEnded(now))
            .executeTakeFirst();
          if (!maker || (maker.ends_at !== null && (share.endsAt === null || share.endsAt > maker.ends_at))) return 'maker-gone';
        }
        const row = await trx
          .selectFrom('person_shares')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_id', '=', share.ownerId)
          .where('profile_id', '=', share.profileId)
          .where(open(now))
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= cap) return 'capped';
        await trx
          .insertInto('person_shares')
          .values({
            id: share.id,
            profile_id: share.profileId,
            owner_id: share.ownerId,
            created_by: share.createdBy,
            holder_id: null,
            role: share.role,
            label_email: share.labelEmail,
            token_hash: share.tokenHash,
            invite_expires_at: share.inviteExpiresAt,
            expires_at: share.expiresAt,
            ends_at: share.endsAt,
            accepted_at: null,
            revoked_at: null,
            created_at: share.createdAt,
          })
          .execute();
        return 'created';
      });
    },

    /** The person's pending and active shares, oldest first. */
    listOpen: (ownerId: string, profileId: string, now: string): Promise<ShareRow[]> =>
      openShares(ownerId, profileId, now).orderBy('person_shares.created_at').orderBy('person_shares.id').execute(),

    /** One of the person's pending or active shares. */
    findOpen: (ownerId: string, profileId: string, shareId: string, now: string): Promise<ShareRow | undefined> =>
      openShares(ownerId, profileId, now).where('person_shares.id', '=', shareId).executeTakeFirst(),

    /**
     * Ends a share (or cancels an invitation) at once — its token can never be used again — and,
     * in the same transaction, everything its holder handed on for the person (docs/decisions/0032).
     */
    end: (ownerId: string, profileId: string, shareId: string, now: string): Promise<EndResult | undefined> =>
      db.transaction().execute(async (trx) => {
        await lockAccount(trx, ownerId);
        return endOne(trx, { ownerId, profileId }, shareId, now);
      }),

    /**
     * A share's (or invitation's) role, changed in place. A holder who is no longer a manager ends
     * what they handed on, in the same transaction. Undefined when the share is not open.
     */
    changeRole: (ownerId: string, profileId: string, shareId: string, role: ShareRole, now: string): Promise<RoleChange | undefined> =>
      db.transaction().execute(async (trx) => {
        await lockAccount(trx, ownerId);
        const before = await trx
          .selectFrom('person_shares')
          .select(['role', 'holder_id'])
          .where('owner_id', '=', ownerId)
          .where('profile_id', '=', profileId)
          .where('id', '=', shareId)
          .where(open(now))
          .executeTakeFirst();
        if (!before) return undefined;
        await trx.updateTable('person_shares').set({ role }).where('owner_id', '=', ownerId).where('id', '=', shareId).execute();
        const handedOn =
          before.role === 'manager' && role !== 'manager' && before.holder_id !== null
            ? await endHandedOn(trx, { ownerId, profileId }, [before.holder_id], now)
            : [];
        const share = await trx
          .selectFrom('person_shares')
          .leftJoin('users', 'users.id', 'person_shares.holder_id')
          .select(shareColumns)
          .where('person_shares.id', '=', shareId)
          .executeTakeFirstOrThrow();
        return { share, from: before.role, handedOn };
      }),

    /**
     * The account `holderId` is going: each open share it holds ends now, with what it handed on
     * (its own rows go with the account; those it made for others would outlive it). One
     * transaction, the owners locked in one order.
     */
    endHeldBy: (holderId: string, now: string): Promise<EndedHeld[]> =>
      db.transaction().execute(async (trx) => {
        const held = await trx
          .selectFrom('person_shares')
          .select(['id', 'owner_id', 'profile_id'])
          .where('holder_id', '=', holderId)
          .where(open(now))
          .orderBy('owner_id')
          .orderBy('id')
          .execute();
        const results: EndedHeld[] = [];
        let locked: string | undefined;
        for (const share of held) {
          if (share.owner_id !== locked) {
            await lockAccount(trx, share.owner_id);
            locked = share.owner_id;
          }
          const ended = await endOne(trx, { ownerId: share.owner_id, profileId: share.profile_id }, share.id, now);
          if (ended) results.push({ ownerId: share.owner_id, profileId: share.profile_id, ...ended });
        }
        return results;
      }),

    /** The invitation whose token hashes to `tokenHash`, while it can still be accepted. */
    findInvitation: (tokenHash: string, now: string): Promise<InvitationRow | undefined> =>
      db
        .selectFrom('person_shares')
        .innerJoin('profiles', 'profiles.id', 'person_shares.profile_id')
        .innerJoin('users', 'users.id', 'person_shares.owner_id')
        .select([
          'person_shares.id',
          'person_shares.profile_id',
          'person_shares.owner_id',
          'person_shares.role',
          'person_shares.expires_at',
          'users.username as owner_username',
          'profiles.name as person_name',
          'profiles.is_pet',
          'profiles.is_self',
        ])
        .where('person_shares.token_hash', '=', tokenHash)
        .where(acceptable(now))
        .executeTakeFirst(),

    /**
     * SIGNUP_MODE=invite (docs/decisions/0025): one conditional UPDATE marks the invitation as having
     * admitted a sign-up, so of two parallel sign-ups with one link exactly one gets through. The
     * invitation itself stays open, for the new account to accept.
     */
    async claimForSignup(tokenHash: string, now: string): Promise<boolean> {
      const res = await db
        .updateTable('person_shares')
        .set({ signup_claimed_at: now })
        .where('token_hash', '=', tokenHash)
        .where('signup_claimed_at', 'is', null)
        .where(acceptable(now))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** The sign-up the invitation was claimed for did not happen: it may admit one again. */
    async releaseSignupClaim(tokenHash: string): Promise<void> {
      await db.updateTable('person_shares').set({ signup_claimed_at: null }).where('token_hash', '=', tokenHash).execute();
    },

    /**
     * Single use: one conditional UPDATE claims the invitation for `holderId` (and clears its token),
     * so of two parallel accepts exactly one changes the row. The holder's other open shares of the
     * same person end in the same transaction: the newest invitation accepted is the access they
     * have. What those handed on ends too, unless the new share is a manager's whose end it fits
     * (docs/decisions/0032). Answers how many earlier shares it replaced and what ended with them,
     * or undefined when the invitation was not claimed.
     */
    async accept(
      shareId: string,
      tokenHash: string,
      holderId: string,
      ownerId: string,
      now: string,
    ): Promise<{ replaced: number; handedOn: EndedShare[] } | undefined> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, ownerId);
        const claimed = await trx
          .updateTable('person_shares')
          .set({ holder_id: holderId, accepted_at: now, token_hash: null })
          .where('id', '=', shareId)
          .where('owner_id', '=', ownerId)
          .where('token_hash', '=', tokenHash)
          .where(acceptable(now))
          .returning(['profile_id', 'owner_id', 'role', 'ends_at'])
          .executeTakeFirst();
        if (!claimed) return undefined;
        const replaced = await trx
          .updateTable('person_shares')
          .set({ revoked_at: now, token_hash: null })
          .where('owner_id', '=', claimed.owner_id)
          .where('profile_id', '=', claimed.profile_id)
          .where('holder_id', '=', holderId)
          .where('id', '!=', shareId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        const count = Number(replaced.numUpdatedRows);
        if (count === 0) return { replaced: 0, handedOn: [] };
        const newEnd = claimed.ends_at;
        // Still a manager: what they handed on stays where it ends no later than their new share.
        if (claimed.role === 'manager' && newEnd === null) return { replaced: count, handedOn: [] };
        const spare =
          claimed.role === 'manager' && newEnd !== null
            ? (eb: Shares) => eb.and([eb('person_shares.ends_at', 'is not', null), eb('person_shares.ends_at', '<=', newEnd)])
            : undefined;
        const handedOn = await endHandedOn(trx, { ownerId: claimed.owner_id, profileId: claimed.profile_id }, [holderId], now, {
          spare,
          except: shareId,
        });
        return { replaced: count, handedOn };
      });
    },

    /** A person's name and kind, for the invitation email. */
    personName: (ownerId: string, profileId: string): Promise<{ name: string | null; is_pet: number } | undefined> =>
      db.selectFrom('profiles').select(['name', 'is_pet']).where('user_id', '=', ownerId).where('id', '=', profileId).executeTakeFirst(),

    /** A user's username (the owner's, for a shared person's `shared_by`). */
    async username(userId: string): Promise<string | undefined> {
      const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
      return row?.username;
    },

    /**
     * The person's access history (DESIGN §11): every event on the owner's trail that names the
     * person and someone who acted, newest first, with the actor's current username (null once
     * that account is gone).
     */
    accessEvents: (ownerId: string, profileId: string, limit: number): Promise<AccessEventRow[]> =>
      db
        .selectFrom('audit_events')
        .leftJoin('users', 'users.id', 'audit_events.actor_id')
        .select([
          'audit_events.id',
          'audit_events.action',
          'audit_events.detail',
          'audit_events.created_at',
          'audit_events.actor_id',
          'users.username as actor',
        ])
        .where('audit_events.user_id', '=', ownerId)
        .where('audit_events.profile_id', '=', profileId)
        .where('audit_events.actor_id', 'is not', null)
        .orderBy('audit_events.created_at', 'desc')
        .orderBy('audit_events.id', 'desc')
        .limit(limit)
        .execute(),
  };
}
