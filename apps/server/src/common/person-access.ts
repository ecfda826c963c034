import type { PersonRole } from '@kinchart/shared/people';
import { roleAllows } from '@kinchart/shared/people';
import type { Db } from '../db/database';
import { forbidden, notFound } from '../lib/http-errors';
import { nowIso } from '../lib/ids';
import { recordAudit, recordAudits } from './audit';
import { createPersonAccessRepository, selfProfileId } from './person-access.repository';

// Where an account's own profile is found (on `db` or a transaction): repositories of other features
// and tests ask it here.
export { selfProfileId };

// DESIGN §4, §11: the one function that decides what a signed-in user may do with a person's
// data — from the owner's rows and the active shares. Every route that touches a person's data
// asks it. No access at all answers 404, exactly like a missing id; a role too weak answers 403.
// Every use of a share is written to the owner's audit trail with the person's id, which is what
// the person's access history lists.

export interface PersonAccess {
  /** The person (profile) id. */
  profileId: string;
  /** The account that owns the person: its rows carry this user_id. */
  ownerId: string;
  role: PersonRole;
  /** The person is their owner's own profile (not a family member). */
  isSelf: boolean;
  /** Access comes through a share (so it is audited for the owner). */
  shareId: string | null;
}

/** A visible person with what the people list shows. */
export interface VisiblePerson extends PersonAccess {
  name: string | null;
  relationship: string | null;
  isPet: boolean;
  /** The owner's username for a shared person; null for the user's own. */
  sharedBy: string | null;
}

/** Who asks, for the audit trail. */
export interface Actor {
  userId: string;
  ip?: string | null;
}

/** What the caller wants to do; `what` (e.g. "GET /api/user/files/:id") is recorded for shared access. */
export interface AccessNeed {
  need: PersonRole;
  what: string;
  /** false when the caller writes its own, more telling event instead (the share routes do). */
  audit?: boolean;
}

const NEED_MESSAGES: Record<PersonRole, string> = {
  viewer: 'Person not found',
  editor: 'Your access to this person is view only',
  manager: 'Only the owner or a manager of this person can do this',
  owner: 'Only the owner of this person can do this',
};

export type PersonAccessService = ReturnType<typeof createPersonAccess>;

export function createPersonAccess(db: Db) {
  const repo = createPersonAccessRepository(db);

  /** The people shared with `userId` through an active share, each once (the first accepted share wins). */
  async function sharedWith(userId: string): Promise<VisiblePerson[]> {
    const shared = await repo.sharesHeld(userId, nowIso());
    const people: VisiblePerson[] = [];
    const seen = new Set<string>();
    for (const s of shared) {
      // Two shares of one person (say, re-invited) count once: the first accepted.
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      people.push({
        profileId: s.id,
        ownerId: s.owner_id,
        role: s.role,
        isSelf: s.is_self === 1,
        shareId: s.share_id,
        name: s.name,
        relationship: s.is_self === 1 ? null : s.relationship,
        isPet: s.is_pet === 1,
        sharedBy: s.username,
      });
    }
    return people;
  }

  async function lookup(userId: string, profileId: string): Promise<PersonAccess | undefined> {
    const profile = await repo.profileOwner(profileId);
    if (!profile) return undefined;
    const isSelf = profile.is_self === 1;
    if (profile.user_id === userId) return { profileId, ownerId: userId, role: 'owner', isSelf, shareId: null };
    const share = await repo.activeShare(userId, profileId, nowIso());
    if (!share) return undefined;
    return { profileId, ownerId: profile.user_id, role: share.role, isSelf, shareId: share.id };
  }

  /** Writes one shared-access event to the owner's trail; the owner's own actions are not listed. */
  async function audit(actor: Actor, access: PersonAccess, what: string): Promise<void> {
    if (access.shareId === null) return;
    await recordAudit(db, {
      userId: access.ownerId,
      actorId: actor.userId,
      profileId: access.profileId,
      action: what.startsWith('GET ') || what.startsWith('HEAD ') ? 'shared_read' : 'shared_write',
      ip: actor.ip ?? null,
      detail: { what, share: access.shareId },
    });
  }

  /** `userId`'s own profile, as an owner's access; 404 when the account has none. */
  async function own(userId: string): Promise<PersonAccess> {
    const profileId = await repo.selfProfileId(userId);
    if (!profileId) throw notFound('Profile not found');
    return { profileId, ownerId: userId, role: 'owner', isSelf: true, shareId: null };
  }

  return {
    lookup,
    audit,

    /**
     * `actor`'s access to `profileId` when it allows `need`: 404 when there is none (or the id is
     * not a person), 403 when the role is too weak. Access through a share is audited.
     */
    async require(actor: Actor, profileId: string, { need, what, audit: audited = true }: AccessNeed): Promise<PersonAccess> {
      const access = await lookup(actor.userId, profileId);
      if (!access) throw notFound(NEED_MESSAGES.viewer);
      if (!roleAllows(access.role, need)) throw forbidden(NEED_MESSAGES[need]);
      if (audited) await audit(actor, access, what);
      return access;
    },

    /** Every person `userId` can see: their own profiles (own first), then the people shared with them. */
    async visible(userId: string): Promise<VisiblePerson[]> {
      const own = await repo.ownProfiles(userId);
      const people: VisiblePerson[] = own.map((p) => ({
        profileId: p.id,
        ownerId: userId,
        role: 'owner',
        isSelf: p.is_self === 1,
        shareId: null,
        name: p.name,
        relationship: p.is_self === 1 ? null : p.relationship,
        isPet: p.is_pet === 1,
        sharedBy: null,
      }));
      const seen = new Set(people.map((p) => p.profileId));
      return [...people, ...(await sharedWith(userId)).filter((p) => !seen.has(p.profileId))];
    },

    /** The people shared with `userId` (one query): what a list of "everyone's" rows adds to the user's own. */
    sharedWith,

    /** Writes one shared-read event per person in one statement: a list that read several shared people. */
    async auditAll(actor: Actor, people: readonly PersonAccess[], what: string): Promise<void> {
      const events = people.filter((p) => p.shareId !== null);
      if (events.length === 0) return;
      const action = what.startsWith('GET ') || what.startsWith('HEAD ') ? 'shared_read' : 'shared_write';
      await recordAudits(
        db,
        events.map((p) => ({
          userId: p.ownerId,
          actorId: actor.userId,
          profileId: p.profileId,
          action,
          ip: actor.ip ?? null,
          detail: { what, share: p.shareId },
        })),
      );
    },

    own,

    /**
     * The person a `/api/user/family/members/{id}…` route names: any person `actor` can reach, with
     * `missing` as the 404 — except the actor's own profile, which is not a family member on those
     * routes (SPEC §7: 404). Another account's own profile shared with the actor is reached here.
     */
    async member(
      actor: Actor,
      memberId: string,
      { need, what, audit: audited = true }: AccessNeed,
      missing = 'Family member not found',
    ): Promise<PersonAccess> {
      const access = await lookup(actor.userId, memberId);
      if (!access || (access.role === 'owner' && access.isSelf)) throw notFound(missing);
      if (!roleAllows(access.role, need)) throw forbidden(NEED_MESSAGES[need]);
      if (audited) await audit(actor, access, what);
      return access;
    },

    /**
     * The person a stored row (a file, an appointment) belongs to, when `actor` may `need` it; else
     * the row's own 404 (`missing`, as for a missing id) or 403. A row without a person belongs to
     * its owner's own profile; a row whose owner is not its person's owner is reached by nobody.
     */
    async row(
      actor: Actor,
      row: { user_id: string; profile_id: string | null },
      { need, what, audit: audited = true }: AccessNeed,
      missing: string,
    ): Promise<PersonAccess> {
      let access: PersonAccess | undefined;
      if (row.profile_id === null) {
        access = row.user_id === actor.userId ? await own(actor.userId).catch(() => undefined) : undefined;
      } else {
        access = await lookup(actor.userId, row.profile_id);
        if (access && access.ownerId !== row.user_id) access = undefined;
      }
      if (!access) throw notFound(missing);
      if (!roleAllows(access.role, need)) throw forbidden(NEED_MESSAGES[need]);
      if (audited) await audit(actor, access, what);
      return access;
    },

    /** The accounts holding an active manager share of `profileId` (DESIGN §7: they hear of emergency access). */
    async managers(profileId: string): Promise<string[]> {
      const rows = await repo.managerHolders(profileId, nowIso());
      return [...new Set(rows.flatMap((r) => (r.holder_id ? [r.holder_id] : [])))];
    },
  };
}
