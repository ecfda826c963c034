import { z } from 'zod';
import type {
  AccessEvent,
  Invitation,
  Person,
  PersonDetail,
  Share,
  ShareCreated,
  ShareRole,
  createShareSchema,
  updateShareSchema,
} from '@kinchart/shared/people';
import {
  ACCESS_HISTORY_COALESCE_MINUTES,
  INVITATION_TTL_DAYS,
  ROLE_LABELS,
  invitePath,
  roleAllows,
  shareEndsAt,
} from '@kinchart/shared/people';
import type { Db } from '../../db/database';
import { badRequest, forbidden, notFound } from '../../lib/http-errors';
import { newId, nowIso, randomToken, sha256Hex } from '../../lib/ids';
import type { AuditAction, AuditEvent } from '../../common/audit';
import { recordAudits } from '../../common/audit';
import type { Mailer } from '../../common/mailer';
import { addNotification } from '../../common/notify';
import type { Actor, PersonAccess, PersonAccessService } from '../../common/person-access';
import type { ProfileService } from '../profiles/profile.service';
import type { AccessEventRow, EndedShare, ShareRow } from './share.repository';
import { createShareRepository } from './share.repository';
import { translatorOfEmail, translatorOfUser } from '../../i18n/recipients';
import { translator, type Translator } from '../../i18n/translator';

// DESIGN §11 People and sharing: the people a user can see, one person's chart, and the shares of
// a person — invitations (single-use 256-bit links stored hashed, valid 7 days), acceptance,
// revocation and leaving — plus the owner's access history. Who may do what is decided by the one
// access function (common/person-access.ts); this service adds the rules of the shares themselves.

type CreateShare = z.output<typeof createShareSchema>;
type UpdateShare = z.output<typeof updateShareSchema>;

/** Pending and active shares one person may have at once. */
export const MAX_OPEN_SHARES = 50;
/** Entries the access history answers. */
export const ACCESS_HISTORY_LIMIT = 200;
/** Recorded events the access history reads to make its entries (repeated reads become one). */
export const ACCESS_HISTORY_SCAN = 5000;
const COALESCE_MS = ACCESS_HISTORY_COALESCE_MINUTES * 60_000;

export const INVITATION_GONE = 'This invitation has expired or is no longer available';
const SHARE_NOT_FOUND = 'Share not found';
/** randomToken(): 32 bytes as base64url. Anything else is refused before it is hashed. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

/** The route a shared read or write names in the audit trail (a pattern: no ids, no names). */
const WHAT = {
  person: 'GET /api/user/people/:personId',
  createShare: 'POST /api/user/people/:personId/shares',
  listShares: 'GET /api/user/people/:personId/shares',
  revokeShare: 'DELETE /api/user/people/:personId/shares/:shareId',
  changeRole: 'PUT /api/user/people/:personId/shares/:shareId',
  history: 'GET /api/user/people/:personId/access-history',
} as const;

const toShare = (row: ShareRow): Share => ({
  share_id: row.id,
  role: row.role,
  status: row.accepted_at ? 'active' : 'pending',
  holder_username: row.holder_username,
  email: row.label_email,
  expires_at: row.expires_at,
  invite_expires_at: row.invite_expires_at,
  created_at: row.created_at,
  accepted_at: row.accepted_at,
});

function parseDetail(detail: string | null): Record<string, unknown> {
  if (!detail) return {};
  try {
    const value: unknown = JSON.parse(detail);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const roleLabel = (role: unknown): string =>
  role === 'viewer' || role === 'editor' || role === 'manager' ? ROLE_LABELS[role] : 'Unknown role';

/** Words for the shares' own events in the access history; the role is the share's. */
const SHARE_EVENT_WORDS: Partial<Record<AuditAction, (detail: Record<string, unknown>) => string>> = {
  person_share_create: (d) => `Created an invitation (${roleLabel(d.role)})`,
  person_share_accept: (d) => `Accepted an invitation (${roleLabel(d.role)})`,
  person_share_revoke: (d) => {
    const passed = d.handed_on === true ? 'a passed-on' : 'an';
    return d.pending === true
      ? `Cancelled ${passed} invitation (${roleLabel(d.role)})`
      : `Ended ${d.handed_on === true ? 'a passed-on' : 'a'} share (${roleLabel(d.role)})`;
  },
  person_share_leave: (d) => `Left the share (${roleLabel(d.role)})`,
  person_share_role: (d) => `Changed ${d.pending === true ? 'an invitation' : 'a role'} (${roleLabel(d.from)} to ${roleLabel(d.to)})`,
};

/** "What" of one access history entry: words for the shares' events, the route for shared reads and writes. */
function whatOf(row: AccessEventRow): string {
  const detail = parseDetail(row.detail);
  const words = Object.hasOwn(SHARE_EVENT_WORDS, row.action) ? SHARE_EVENT_WORDS[row.action as AuditAction] : undefined;
  if (words) return words(detail);
  return typeof detail.what === 'string' ? detail.what : row.action;
}

/** "Mia", or words for a person without a name (the owner reads them). */
function personWords(person: { person_name: string | null; is_pet: number; is_self: number }, tr: Translator): string {
  if (person.person_name) return person.person_name;
  if (person.is_self === 1) return tr.t('notice.share.own_chart');
  return tr.t(person.is_pet === 1 ? 'notice.share.pet' : 'notice.share.family_member');
}

/** A role in words a person reads (ROLE_LABELS in English), in the reader's language. */
function roleWord(role: string, tr: Translator): string {
  return role === 'owner' || role === 'manager' || role === 'editor' || role === 'viewer' ? tr.t(`role.${role}`) : tr.t('role.unknown');
}

/** The first word of a name, without control characters, at most 40 characters; null when none is left. */
function firstName(name: string | null | undefined): string | null {
  const printable = [...(name ?? '')].filter((ch) => ch >= ' ' && ch !== '\u007f').join('');
  const first = printable.trim().split(' ')[0]?.slice(0, 40) ?? '';
  return first === '' ? null : first;
}

/**
 * The invitation email (STYLE: privacy boundary as a list): the link on this server, the role, the
 * inviter's and the person's first names and the share's end — no health data, no surname, no
 * address but the one it goes to (docs/decisions/0032).
 */
const invitationEmailSchema = z.strictObject({ subject: z.string().max(160), text: z.string().max(2000) });

/** Subject and plain text of an invitation email (exported for tests of the wording). */
export function composeInvitationMail(
  input: {
    inviter: string | null;
    person: { name: string | null; isPet: boolean; isSelf: boolean };
    role: ShareRole;
    expiresAt: string | null;
    link: string;
  },
  tr: Translator = translator('en'),
) {
  const inviter = firstName(input.inviter) ?? tr.t('email.invitation.someone');
  const name = firstName(input.person.name);
  // Whose chart: the person's first name; one's own chart is the inviter's; else a pet's or a family member's.
  let whose: { whose: 'named' | 'pet' | 'member'; name: string };
  if (name) whose = { whose: 'named', name };
  else if (input.person.isSelf) whose = { whose: 'named', name: inviter };
  else whose = { whose: input.person.isPet ? 'pet' : 'member', name: '' };
  const end =
    input.expiresAt === null
      ? ''
      : input.expiresAt.length === 10
        ? tr.t('email.invitation.lasts_through', { date: input.expiresAt })
        : tr.t('email.invitation.ends_at', { time: input.expiresAt });
  return invitationEmailSchema.parse({
    subject: tr.t('email.invitation.subject', { inviter, ...whose }),
    text:
      tr.t('email.invitation.text', { inviter, ...whose, role: roleWord(input.role, tr), days: INVITATION_TTL_DAYS, link: input.link }) +
      end +
      tr.t('email.invitation.footer'),
  });
}

export function createPeopleService(deps: {
  db: Db;
  access: PersonAccessService;
  profiles: ProfileService;
  publicUrl: string;
  mailer?: Mailer | undefined;
}) {
  const { db, access, profiles } = deps;
  const shares = createShareRepository(db);

  type PersonKey = Pick<PersonAccess, 'ownerId' | 'profileId'>;
  /** A share event on the owner's trail, naming the person and who acted (their access history lists it). */
  const shareEvent = (actor: Actor, person: PersonKey, action: AuditAction, detail: Record<string, string | boolean>): AuditEvent => ({
    userId: person.ownerId,
    actorId: actor.userId,
    profileId: person.profileId,
    action,
    ip: actor.ip ?? null,
    detail,
  });
  /** The events of the shares that ended with another (what its holder had handed on). */
  const handedOnEvents = (actor: Actor, person: PersonKey, ended: readonly EndedShare[]): AuditEvent[] =>
    ended.map((s) =>
      shareEvent(actor, person, 'person_share_revoke', { share: s.id, role: s.role, pending: s.accepted_at === null, handed_on: true }),
    );
  const auditShares = (events: AuditEvent[]) => recordAudits(db, events);

  /** The invitation a token opens, or the one 404 for every token that opens nothing. */
  async function invitation(token: string, now: string) {
    const tokenHash = TOKEN_PATTERN.test(token) ? sha256Hex(token) : undefined;
    const found = tokenHash ? await shares.findInvitation(tokenHash, now) : undefined;
    if (!tokenHash || !found) throw notFound(INVITATION_GONE);
    return { tokenHash, found };
  }

  return {
    /** GET /api/user/people: own people first, then those shared with the user. */
    async list(userId: string): Promise<Person[]> {
      const people = await access.visible(userId);
      return people.map((p) => ({
        id: p.profileId,
        name: p.name,
        relationship: p.relationship,
        is_pet: p.isPet,
        is_self: p.isSelf,
        role: p.role,
        shared_by: p.sharedBy,
        share_id: p.shareId,
      }));
    },

    /** GET /api/user/people/{personId}: the family member answer for any person the user can see. */
    async get(actor: Actor, personId: string): Promise<PersonDetail> {
      const person = await access.require(actor, personId, { need: 'viewer', what: WHAT.person });
      const [member, sharedBy] = await Promise.all([
        profiles.person(person.ownerId, person.profileId),
        person.shareId === null ? null : shares.username(person.ownerId),
      ]);
      if (!member) throw notFound('Person not found');
      return {
        ...member,
        relationship: person.isSelf ? null : member.relationship,
        is_self: person.isSelf,
        role: person.role,
        shared_by: sharedBy ?? null,
      };
    },

    /**
     * POST /api/user/people/{personId}/shares: a new invitation. The owner or a manager may share
     * under any role; a manager's own share bounds what they hand on — an invitation cannot outlast
     * the manager's access, or a manager could give themselves (or anyone) access the owner ended.
     */
    async createShare(actor: Actor, personId: string, input: CreateShare): Promise<ShareCreated> {
      const person = await access.require(actor, personId, { need: 'manager', what: WHAT.createShare, audit: false });
      const now = new Date();
      const endsAt = input.expires_at === null ? null : shareEndsAt(input.expires_at);
      if (person.shareId !== null) {
        const own = await shares.findOpen(person.ownerId, person.profileId, person.shareId, nowIso(now));
        const limit = own?.ends_at ?? null;
        if (own && limit !== null && (endsAt === null || endsAt > limit)) {
          // Said as the owner gave it: a date lasts through that day, an instant ends at it.
          const until = own.expires_at !== null && own.expires_at.length === 10 ? `lasts through ${own.expires_at}` : `ends at ${limit}`;
          throw badRequest(`Your own access ${until}: choose an end date no later than that`);
        }
      }
      const token = randomToken();
      const share = {
        id: newId(),
        profileId: person.profileId,
        ownerId: person.ownerId,
        createdBy: actor.userId,
        role: input.role,
        labelEmail: input.email,
        tokenHash: sha256Hex(token),
        inviteExpiresAt: nowIso(new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS)),
        expiresAt: input.expires_at,
        endsAt,
        createdAt: nowIso(now),
      };
      const inserted = await shares.insertCapped(share, MAX_OPEN_SHARES, nowIso(now));
      if (inserted === 'capped') {
        throw badRequest(`A person can have at most ${MAX_OPEN_SHARES} shares and pending invitations. Revoke one to invite someone else.`);
      }
      // The manager's own access ended while they asked: as for anyone who cannot see the person.
      if (inserted === 'maker-gone') throw notFound('Person not found');
      const inviteUrl = `${deps.publicUrl}${invitePath(token)}`;
      const to = input.email;
      const emailed = Boolean(deps.mailer && to);
      if (deps.mailer && to) {
        deps.mailer.send(
          async () => {
            const [inviter, named] = await Promise.all([
              shares.username(actor.userId),
              shares.personName(person.ownerId, person.profileId),
            ]);
            // Issue 35: in the language of the account that uses the address, else the inviter's.
            const tr = (await translatorOfEmail(db, to)) ?? (await translatorOfUser(db, actor.userId));
            const mail = composeInvitationMail(
              {
                inviter: inviter ?? null,
                person: { name: named?.name ?? null, isPet: named?.is_pet === 1, isSelf: person.isSelf },
                role: share.role,
                expiresAt: share.expiresAt,
                link: inviteUrl,
              },
              tr,
            );
            return { to, ...mail };
          },
          { message: 'invitation email failed' },
        );
      }
      await auditShares([shareEvent(actor, person, 'person_share_create', { share: share.id, role: share.role, emailed })]);
      return { share_id: share.id, invite_url: inviteUrl, role: share.role, expires_at: share.expiresAt, emailed };
    },

    /** GET /api/user/people/{personId}/shares: pending and active, oldest first. */
    async listShares(actor: Actor, personId: string): Promise<Share[]> {
      const person = await access.require(actor, personId, { need: 'manager', what: WHAT.listShares });
      return (await shares.listOpen(person.ownerId, person.profileId, nowIso())).map(toShare);
    },

    /**
     * DELETE /api/user/people/{personId}/shares/{shareId}: the owner or a manager ends any share
     * (or cancels an invitation) at once; a holder may always end their own ("leave"). Anyone else
     * who can see the person is refused as for any write beyond their role (403) — the same answer
     * whether or not the share exists; someone who cannot see the person gets the 404.
     */
    async removeShare(actor: Actor, personId: string, shareId: string): Promise<{ left: boolean }> {
      const seen = await access.lookup(actor.userId, personId);
      if (!seen) throw notFound('Person not found');
      const now = nowIso();
      const share = await shares.findOpen(seen.ownerId, seen.profileId, shareId, now);
      const leaving = share !== undefined && share.holder_id === actor.userId;
      const person = leaving ? seen : await access.require(actor, personId, { need: 'manager', what: WHAT.revokeShare, audit: false });
      // What the share handed on ends with it, in the same transaction (docs/decisions/0032).
      const ended = share ? await shares.end(person.ownerId, person.profileId, share.id, now) : undefined;
      if (!share || !ended) throw notFound(SHARE_NOT_FOUND);
      await auditShares([
        shareEvent(actor, person, leaving ? 'person_share_leave' : 'person_share_revoke', {
          share: share.id,
          role: share.role,
          pending: share.accepted_at === null,
        }),
        ...handedOnEvents(actor, person, ended.handedOn),
      ]);
      return { left: leaving };
    },

    /**
     * PUT /api/user/people/{personId}/shares/{shareId}: a share's (or a pending invitation's) role,
     * changed in place by the owner or a manager — never above the changer's own role. A manager
     * made viewer or editor no longer hands anything on: what they handed on ends with it.
     */
    async changeRole(actor: Actor, personId: string, shareId: string, input: UpdateShare): Promise<Share> {
      const person = await access.require(actor, personId, { need: 'manager', what: WHAT.changeRole, audit: false });
      if (!roleAllows(person.role, input.role)) throw forbidden('You cannot give a role above your own');
      const changed = await shares.changeRole(person.ownerId, person.profileId, shareId, input.role, nowIso());
      if (!changed) throw notFound(SHARE_NOT_FOUND);
      if (changed.from !== input.role || changed.handedOn.length > 0) {
        await auditShares([
          shareEvent(actor, person, 'person_share_role', {
            share: shareId,
            from: changed.from,
            to: input.role,
            pending: changed.share.accepted_at === null,
          }),
          ...handedOnEvents(actor, person, changed.handedOn),
        ]);
      }
      return toShare(changed.share);
    },

    /**
     * Before an account is deleted (an account deletion hook): the shares it holds end as if it
     * left them, and what it handed on with them — its own rows go with the account, the shares it
     * made for others would outlive it (docs/decisions/0032).
     */
    async beforeAccountDeletion(userId: string): Promise<void> {
      const ended = await shares.endHeldBy(userId, nowIso());
      const actor = { userId };
      await auditShares(
        ended.flatMap((e) => {
          const person = { ownerId: e.ownerId, profileId: e.profileId };
          return [
            shareEvent(actor, person, 'person_share_leave', { share: e.share.id, role: e.share.role, pending: false }),
            ...handedOnEvents(actor, person, e.handedOn),
          ];
        }),
      );
    },

    /**
     * Under SIGNUP_MODE=invite an open invitation admits one sign-up (docs/decisions/0025): true
     * when `token` is one and had not admitted one yet.
     */
    signupInvitations: {
      claim: async (token: string): Promise<boolean> => TOKEN_PATTERN.test(token) && shares.claimForSignup(sha256Hex(token), nowIso()),
      release: async (token: string): Promise<void> => {
        if (TOKEN_PATTERN.test(token)) await shares.releaseSignupClaim(sha256Hex(token));
      },
    },

    /** GET /api/invitations/{token} (public): who shares whom, before the visitor signs in. */
    async previewInvitation(token: string): Promise<Invitation> {
      const { found } = await invitation(token, nowIso());
      return {
        shared_by: found.owner_username,
        person_name: found.person_name,
        is_pet: found.is_pet === 1,
        role: found.role,
        expires_at: found.expires_at,
      };
    },

    /**
     * POST /api/user/invitations/{token}/accept. Single use (one conditional UPDATE); accepting an
     * invitation to a person one already holds a share of replaces that share (the newest
     * invitation is the access the inviter meant). The owner hears of it.
     */
    async acceptInvitation(actor: Actor, token: string): Promise<{ personId: string; role: ShareRole }> {
      const now = nowIso();
      const { tokenHash, found } = await invitation(token, now);
      if (found.owner_id === actor.userId) throw badRequest('You already own this person');
      const accepted = await shares.accept(found.id, tokenHash, actor.userId, found.owner_id, now);
      if (accepted === undefined) throw notFound(INVITATION_GONE);
      const person = { ownerId: found.owner_id, profileId: found.profile_id };
      await auditShares([
        shareEvent(actor, person, 'person_share_accept', { share: found.id, role: found.role, replaced: accepted.replaced > 0 }),
        ...handedOnEvents(actor, person, accepted.handedOn),
      ]);
      // In the owner's language (issue 35).
      const tr = await translatorOfUser(db, found.owner_id);
      const holder = (await shares.username(actor.userId)) ?? tr.t('notice.share.someone');
      const name = personWords(found, tr);
      await addNotification(db, {
        userId: found.owner_id,
        type: 'share_accepted',
        level: 'info',
        title: tr.t('notice.share_accepted.title', { holder, person: name }),
        message: tr.t('notice.share_accepted', { holder, role: roleWord(found.role, tr), person: name }),
      });
      return { personId: found.profile_id, role: found.role };
    },

    /**
     * GET /api/user/people/{personId}/access-history: owner only, newest first. Every event stays
     * in the audit trail; the history makes one entry of one account's reads within 10 minutes of
     * the first of them (docs/decisions/0032). Changes and share events are always their own.
     */
    async accessHistory(actor: Actor, personId: string): Promise<AccessEvent[]> {
      const person = await access.require(actor, personId, { need: 'owner', what: WHAT.history });
      const rows = await shares.accessEvents(person.ownerId, person.profileId, ACCESS_HISTORY_SCAN);
      return coalesce(rows).slice(0, ACCESS_HISTORY_LIMIT);
    },
  };
}
export type PeopleService = ReturnType<typeof createPeopleService>;

/**
 * The access history's entries from the recorded events (newest first): walking them oldest
 * first, a read by an account joins that account's current run of reads while it is within
 * ACCESS_HISTORY_COALESCE_MINUTES of the run's first read; anything else is an entry of its own.
 * An entry sits where its latest event is.
 */
function coalesce(newestFirst: readonly AccessEventRow[]): AccessEvent[] {
  const entries: { entry: AccessEvent; order: number }[] = [];
  const runs = new Map<string, { entry: AccessEvent; order: number; start: number }>();
  let order = 0;
  for (let i = newestFirst.length - 1; i >= 0; i -= 1) {
    const row = newestFirst[i]!;
    order += 1;
    const what = whatOf(row);
    const at = Date.parse(row.created_at);
    const run = row.action === 'shared_read' && row.actor_id !== null ? runs.get(row.actor_id) : undefined;
    if (run && at - run.start < COALESCE_MS) {
      const { entry } = run;
      entry.id = row.id;
      entry.what = what;
      entry.created_at = row.created_at;
      entry.count += 1;
      entry.what_all = [what, ...entry.what_all.filter((w) => w !== what)];
      run.order = order;
      continue;
    }
    const entry: AccessEvent = {
      id: row.id,
      actor: row.actor ?? 'Deleted account',
      action: row.action,
      what,
      created_at: row.created_at,
      count: 1,
      first_at: row.created_at,
      what_all: [what],
    };
    const item = { entry, order, start: at };
    entries.push(item);
    if (row.action === 'shared_read' && row.actor_id !== null) runs.set(row.actor_id, item);
  }
  return entries.sort((a, b) => b.order - a.order).map((e) => e.entry);
}
