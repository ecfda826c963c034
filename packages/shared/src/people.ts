import { z } from 'zod';
import { isoDateSchema } from './common';
import { familyMemberSchema } from './profile';

// DESIGN §11 People and sharing: a person is a profile (the account holder's own or a family
// member, pets included); an owner shares a person with another account under one role.

/** What a signed-in user may do with a person, weakest first. */
export const PERSON_ROLES = ['viewer', 'editor', 'manager', 'owner'] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];
/** The roles a share can give (only the owner is the owner). */
export const SHARE_ROLES = ['viewer', 'editor', 'manager'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

/** `role` allows at least `need`. */
export const roleAllows = (role: PersonRole, need: PersonRole): boolean => PERSON_ROLES.indexOf(role) >= PERSON_ROLES.indexOf(need);

export const ROLE_LABELS: Record<PersonRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  editor: 'Editor',
  viewer: 'Viewer',
};

/** Reads by one account of one person within this many minutes of the first are one access history entry. */
export const ACCESS_HISTORY_COALESCE_MINUTES = 10;

/** An invitation link stays valid this long (DESIGN §11). */
export const INVITATION_TTL_DAYS = 7;

/** One entry of GET /api/user/people. */
export const personSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  relationship: z.string().nullable(),
  is_pet: z.boolean(),
  is_self: z.boolean(),
  role: z.enum(PERSON_ROLES),
  /** The owning account's username for a shared person; null for your own people. */
  shared_by: z.string().nullable(),
  /**
   * The share through which a shared person is seen (null for your own people): the id a holder
   * passes to DELETE /api/user/people/{personId}/shares/{shareId} to leave it.
   */
  share_id: z.string().nullable().optional(),
});
export type Person = z.infer<typeof personSchema>;
export const peopleSchema = z.array(personSchema);

/** GET /api/user/people/{personId}: the family member answer, plus who the person is to you. */
export const personDetailSchema = familyMemberSchema.extend({
  is_self: z.boolean(),
  role: z.enum(PERSON_ROLES),
  shared_by: z.string().nullable(),
});
export type PersonDetail = z.infer<typeof personDetailSchema>;

/** A query's `?person=` filter. */
export const personFilterSchema = z.object({ person: z.string().trim().min(1).max(100).optional() });

const instantSchema = z.iso.datetime({ offset: true });

/**
 * A share's optional end: a date (the share lasts through that day, UTC) or an instant; it must
 * lie in the future.
 */
export const shareEndSchema = z
  .union([z.string(), z.null()], { error: 'End date must be a date (YYYY-MM-DD)' })
  .optional()
  .transform((v, ctx) => {
    const value = typeof v === 'string' ? v.trim() : '';
    if (value === '') return null;
    const endsAt = shareEndsAt(value);
    if (endsAt === null) {
      ctx.addIssue({ code: 'custom', message: 'End date must be a date (YYYY-MM-DD)' });
      return z.NEVER;
    }
    if (Date.parse(endsAt) <= Date.now()) {
      ctx.addIssue({ code: 'custom', message: 'End date must be in the future' });
      return z.NEVER;
    }
    return value;
  });

/** The instant a share given `expiresAt` ends, or null when `expiresAt` is not a date or instant. */
export function shareEndsAt(expiresAt: string): string | null {
  if (isoDateSchema.safeParse(expiresAt).success) {
    const end = new Date(`${expiresAt}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    return end.toISOString();
  }
  if (instantSchema.safeParse(expiresAt).success) return new Date(expiresAt).toISOString();
  return null;
}

/** POST /api/user/people/{personId}/shares. */
export const createShareSchema = z.object({
  role: z.enum(SHARE_ROLES, { error: 'Role must be viewer, editor or manager' }),
  expires_at: shareEndSchema,
  email: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : null))
    .pipe(z.union([z.email({ message: 'Please enter a valid email address' }).max(254), z.null()])),
});
export type CreateShareInput = z.input<typeof createShareSchema>;

export const shareCreatedSchema = z.object({
  share_id: z.string(),
  invite_url: z.string(),
  role: z.enum(SHARE_ROLES),
  expires_at: z.string().nullable(),
  /** The link went by email to the address given (only with SMTP_URL set and an email given). */
  emailed: z.boolean(),
});
export type ShareCreated = z.infer<typeof shareCreatedSchema>;

/** PUT /api/user/people/{personId}/shares/{shareId}: a share's (or a pending invitation's) new role. */
export const updateShareSchema = z.object({
  role: z.enum(SHARE_ROLES, { error: 'Role must be viewer, editor or manager' }),
});

/** One entry of GET /api/user/people/{personId}/shares. */
export const shareSchema = z.object({
  share_id: z.string(),
  role: z.enum(SHARE_ROLES),
  status: z.enum(['pending', 'active']),
  /** The account that holds the share; null while the invitation is pending. */
  holder_username: z.string().nullable(),
  email: z.string().nullable(),
  expires_at: z.string().nullable(),
  invite_expires_at: z.string(),
  created_at: z.string(),
  accepted_at: z.string().nullable(),
});
export type Share = z.infer<typeof shareSchema>;
export const sharesSchema = z.array(shareSchema);

/** GET /api/invitations/{token}: what the invitation page explains before sign-in. */
export const invitationSchema = z.object({
  shared_by: z.string(),
  person_name: z.string().nullable(),
  is_pet: z.boolean(),
  role: z.enum(SHARE_ROLES),
  expires_at: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** POST /api/user/invitations/{token}/accept. */
export const invitationAcceptedSchema = z.object({ personId: z.string(), role: z.enum(SHARE_ROLES) });

/** The invitation page's path for a token. */
export const invitePath = (token: string): string => `/invite/${token}`;

/** One entry of GET /api/user/people/{personId}/access-history. */
export const accessEventSchema = z.object({
  id: z.string(),
  /**
   * Who acted: that account's username, "Deleted account" once it is gone. The owner's own reads
   * and writes are not listed; share events (invited, accepted, revoked, left) are, whoever acted.
   */
  actor: z.string(),
  action: z.string(),
  /** What was touched, e.g. "GET /api/user/files" (for several reads, the latest one's). */
  what: z.string(),
  /** The latest of the events this entry stands for. */
  created_at: z.string(),
  /**
   * How many events the entry stands for: repeated reads by one account within
   * ACCESS_HISTORY_COALESCE_MINUTES of the first are one entry (docs/decisions/0032).
   */
  count: z.number().int().min(1),
  /** The first of them (created_at when there is one). */
  first_at: z.string(),
  /** Every distinct `what` among them, latest first (just `what` when there is one). */
  what_all: z.array(z.string()),
});
export type AccessEvent = z.infer<typeof accessEventSchema>;
export const accessHistorySchema = z.array(accessEventSchema);
