import {
  MASKED_PIN,
  MAX_PIN_STREAK,
  MAX_PIN_TOTAL,
  PIN_DISABLED_MESSAGE,
  PIN_FORMAT_MESSAGE,
  PIN_LOCK_MINUTES,
  QR_NOT_CONFIGURED,
} from '@kinchart/shared/emergency';
import type { EmergencyCard, EmergencyEssentials, EmergencyInfo, PinStatus, QrConfig } from '@kinchart/shared/emergency';
import type { NotificationLevel, NotificationType } from '@kinchart/shared/notifications';
import type { Db } from '../../db/database';
import { HttpError, notFound, tooManyRequests } from '../../lib/http-errors';
import { randomToken } from '../../lib/ids';
import { fromFlag } from '../../lib/flags';
import { hashSecret, verifySecret } from '../../lib/passwords';
import { recordAudit } from '../../common/audit';
import { addNotification } from '../../common/notify';
import type { Actor, PersonAccess, PersonAccessService } from '../../common/person-access';
import type { EmergencyMail } from '../notifications/emergency-mail';
import type { EmergencyRepository, ShareKind } from './emergency.repository';
import { createEmergencyRepository } from './emergency.repository';
import { loadEmergencyEssentials, loadEmergencyInfo } from './emergency-info.repository';
import { clientAddressKey } from '../../lib/client-address';
import { recordAccessAlert } from './access-alerts';
import { translatorOfUser } from '../../i18n/recipients';
import type { Translator } from '../../i18n/translator';

/** A sentence that begins with a person's fallback name ("your family member's …") starts with a capital. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const NOT_FOUND_MESSAGE = 'QR code not found or inactive';
const LOCK_MS = PIN_LOCK_MINUTES * 60_000;
/** DESIGN §7: per client address, 30 PIN attempts an hour across codes. */
export const MAX_PIN_ATTEMPTS_PER_IP_HOUR = 30;
/**
 * Issue 30: per client address (an IPv6 client by its /64), 60 views of opted-in essentials an
 * hour across codes. A responder reloads a code a few times and sees a handful of people in an
 * hour; only a script that loads codes over and over reaches this (decision 0033).
 */
export const MAX_ESSENTIALS_VIEWS_PER_ADDRESS_HOUR = 60;
const HOUR_MS = 3_600_000;

type ShareRow = NonNullable<Awaited<ReturnType<EmergencyRepository['findById']>>>;
/** A code named by its public share id (and the route's kind), or by its row id. */
export type ShareRef = { kind: ShareKind; shareId: string } | { id: string };
/** Where a PIN was entered: the emergency page, the clinicians' FHIR download, a SMART Health Link passcode. */
export type AccessChannel = 'page' | 'fhir' | 'shl';
/** The public view's answer: the body, and for an opted-in code the PIN's state (DESIGN §7). */
export interface ViewResult {
  body: { requirePin: true; essentials?: EmergencyEssentials } | EmergencyInfo;
  pinStatus?: PinStatus;
}
export interface UnlockedShare {
  id: string;
  userId: string;
  profileId: string;
  kind: ShareKind;
}

/** An account's own profile has the personal kind of code; a family member the family kind. */
const kindOf = (person: PersonAccess): ShareKind => (person.isSelf ? 'self' : 'family');

/** The owner's audit entry for a change to a person's code, naming who acted when it was not the owner. */
const auditOf = (person: PersonAccess, actor: Actor) => ({
  userId: person.ownerId,
  ip: actor.ip ?? null,
  profileId: person.profileId,
  actorId: actor.userId === person.ownerId ? null : actor.userId,
});

type NotifyEvent = 'setup' | 'access' | 'essentials' | 'locked' | 'disabled';
/**
 * Whose code a notice is about, for the catalog's `{own, select, yes {your} other {{name}'s}}`
 * (issue 35): one's own, or a person's name; `via` names a SMART Health Link's recipient.
 */
interface NoticeWords {
  own: 'yes' | 'no';
  name: string;
  via?: { recipient: string } | undefined;
}
/**
 * What one event tells a person (DESIGN §7): the notification's type by kind of code, its level,
 * title and words (catalog ids, in the recipient's language); whether it is emailed at once or
 * gathered with other views per code and 15 minutes (issue 30: then `counted` words the run);
 * whether it carries the action that lifts a lock.
 */
type Notice = {
  type: Record<ShareKind, NotificationType>;
  level: NotificationLevel;
  title: string;
  message: (tr: Translator, w: NoticeWords) => string;
} & (
  | { mail: 'gathered'; counted: (tr: Translator, w: NoticeWords, views: number, since: string) => string }
  | { mail?: 'at once'; liftsLock?: boolean }
);
const ACCESS_TYPE = { self: 'qr_access', family: 'family_emergency_access' } as const;
const ACCESS_TITLE = 'notice.emergency.access.title';
const countedViews = (tr: Translator, { own, name }: NoticeWords, views: number, since: string) =>
  tr.t('notice.emergency.counted', { own, name, views, since });

const NOTICES = {
  setup: {
    type: { self: 'qr_setup', family: 'family_qr_setup' },
    level: 'info',
    title: 'notice.emergency.setup.title',
    message: (tr, { own, name }) => tr.t('notice.emergency.setup', { own, name }),
  },
  access: {
    type: ACCESS_TYPE,
    level: 'info',
    title: ACCESS_TITLE,
    message: (tr, { own, name, via }) =>
      via ? tr.t('notice.emergency.access_shl', { own, name, recipient: via.recipient }) : tr.t('notice.emergency.access', { own, name }),
    mail: 'gathered',
    counted: countedViews,
  },
  // A view of the essentials without the PIN is a view like any other.
  essentials: {
    type: ACCESS_TYPE,
    level: 'info',
    title: ACCESS_TITLE,
    message: (tr, { own, name }) => tr.t('notice.emergency.essentials', { own, name }),
    mail: 'gathered',
    counted: countedViews,
  },
  locked: {
    type: ACCESS_TYPE,
    level: 'warning',
    title: 'notice.emergency.locked.title',
    message: (tr, { own, name }) => tr.t('notice.emergency.locked', { own, name, streak: MAX_PIN_STREAK, minutes: PIN_LOCK_MINUTES }),
    mail: 'at once',
    liftsLock: true,
  },
  disabled: {
    type: ACCESS_TYPE,
    level: 'error',
    title: 'notice.emergency.disabled.title',
    message: (tr, { own, name }) => tr.t('notice.emergency.disabled', { own, name, total: MAX_PIN_TOTAL }),
    mail: 'at once',
    liftsLock: true,
  },
} satisfies Record<NotifyEvent, Notice>;

/**
 * One service for both kinds of code (STYLE habit 4): the personal code (`/api/user/wearable-qr`)
 * and each member's (`/api/user/family/members/{id}/qr`). DESIGN §7 is the design. The routes
 * resolve the person with the one access function (DESIGN §11: the owner, or a manager of a shared
 * person) and hand it over; every row here carries the person's owner's id.
 */
export function createEmergencyService(deps: { db: Db; publicUrl: string; mail?: EmergencyMail | undefined; access: PersonAccessService }) {
  const repo = createEmergencyRepository(deps.db);

  const qrData = (kind: ShareKind, shareId: string) =>
    `${deps.publicUrl}${kind === 'self' ? '/emergency' : '/family/emergency'}/${shareId}`;

  async function personProfile(person: PersonAccess) {
    const profile = await repo.findProfile(person.ownerId, person.profileId);
    if (!profile) throw notFound('Family member not found');
    return profile;
  }

  async function personShare(person: PersonAccess) {
    const share = await repo.findByProfile(person.ownerId, person.profileId);
    // SPEC §4: a toggle or PIN change before set-up answers 404.
    if (!share) throw notFound('QR code has not been set up');
    return share;
  }

  async function toConfig(share: ShareRow | undefined): Promise<QrConfig> {
    if (!share) return QR_NOT_CONFIGURED;
    return {
      exists: true,
      is_active: fromFlag(share.is_active),
      access_pin: MASKED_PIN,
      qr_data: qrData(share.kind, share.share_id),
      share_id: share.share_id,
      is_disabled: fromFlag(share.is_disabled),
      essentials_without_pin: fromFlag(share.essentials_without_pin),
      pin_status: await ownerPinStatus(share, new Date()),
    };
  }

  /** The owner's view of the PIN (DESIGN §7): disabled, locked for some address right now, or ok. */
  async function ownerPinStatus(share: ShareRow, now: Date): Promise<PinStatus> {
    if (fromFlag(share.is_disabled)) return 'disabled';
    return (await repo.anyAddressLocked(share.id, now)) ? 'locked' : 'ok';
  }

  /** The PIN as one client address meets it: disabled for all, or locked for that address. */
  async function addressPinStatus(share: ShareRow, address: string, now: Date): Promise<PinStatus> {
    if (fromFlag(share.is_disabled)) return 'disabled';
    const until = await repo.addressLockedUntil(share.id, address);
    return until && Date.parse(until) > now.getTime() ? 'locked' : 'ok';
  }

  /**
   * Tells `userId` about a person's code: the owner (`userId` owns the person) or a manager of a
   * shared person (`manager`), whose wording names the person and whose notices are always of the
   * family kind — the code is not their own. What each event says is its row in `NOTICES`.
   */
  async function notifyOwner(
    userId: string,
    ownKind: ShareKind,
    personName: string | null,
    event: NotifyEvent,
    via?: { recipient: string },
    profileId?: string,
    manager = false,
    shareRowId?: string,
  ) {
    const kind: ShareKind = manager ? 'family' : ownKind;
    const notice: Notice = NOTICES[event];
    // In the recipient's language (issue 35): the owner's and each manager's own.
    const tr = await translatorOfUser(deps.db, userId);
    const fallback = tr.t(manager ? 'notice.emergency.shared_person' : 'notice.emergency.family_member');
    const words: NoticeWords = { own: kind === 'self' ? 'yes' : 'no', name: personName?.trim() || fallback, via };
    const note = {
      userId,
      type: notice.type[kind],
      level: notice.level,
      title: tr.t(notice.title),
      message: sentence(notice.message(tr, words)),
    };
    // Only views, locks and deactivations are emailed; the check on the event narrows it for the mail's type.
    const mail = notice.mail && event !== 'setup' ? { kind, personName, event } : undefined;
    if (notice.mail === 'gathered') {
      // Issue 30: one notification per code and 15 minutes, counting the views; the first at once.
      if (!shareRowId || !mail) return;
      const { counted } = notice;
      return recordAccessAlert(
        { db: deps.db, mail: deps.mail },
        { ...note, shareRowId, counted: (views, since) => sentence(counted(tr, words, views, since)), mail },
      );
    }
    // DESIGN §7: locks and deactivations are emailed at once (fire-and-forget, no medical data).
    if (mail) deps.mail?.send({ userId, ...mail });
    // DESIGN §7: a lock or disable notice carries the one action that lifts it — which person's
    // code, by member id (null for the owner's own), never the share id. A manager lifts it on the
    // person's member route, so theirs always names the person.
    if (!notice.liftsLock) return addNotification(deps.db, note);
    return addNotification(deps.db, { ...note, action: { kind: 'unlock_pin', member_id: kind === 'family' ? (profileId ?? null) : null } });
  }

  /**
   * DESIGN §7: news of a view, a lock or a deactivation goes to the person's owner and to every
   * manager of the person (active manager shares, DESIGN §11).
   */
  async function notifyPeople(
    share: ShareRow,
    personName: string | null,
    event: Exclude<NotifyEvent, 'setup'>,
    via?: { recipient: string },
  ) {
    await notifyOwner(share.user_id, share.kind, personName, event, via, share.profile_id, false, share.id);
    for (const managerId of await deps.access.managers(share.profile_id)) {
      if (managerId !== share.user_id) await notifyOwner(managerId, share.kind, personName, event, via, share.profile_id, true, share.id);
    }
  }

  return {
    async getConfig(person: PersonAccess): Promise<QrConfig> {
      const profile = await personProfile(person);
      return await toConfig(await repo.findByProfile(person.ownerId, profile.id));
    },

    /** Set-up: a new code with a fresh share id, or a repeated set-up that resets the PIN. */
    async setup(person: PersonAccess, actor: Actor, pin: string, essentialsWithoutPin?: boolean): Promise<QrConfig> {
      const kind = kindOf(person);
      const userId = person.ownerId;
      const profile = await personProfile(person);
      const pinHash = await hashSecret(pin);
      const existing = await repo.findByProfile(userId, profile.id);
      // Issue 30: the set-up form asks whether the essentials may show without the PIN; the answer
      // is written with the code. Without it a repeated set-up keeps the code's choice.
      if (existing) await repo.setPin(existing.id, pinHash, true, essentialsWithoutPin);
      else
        await repo.create({
          userId,
          profileId: profile.id,
          kind,
          shareId: randomToken(),
          pinHash,
          essentialsWithoutPin: essentialsWithoutPin ?? false,
        });
      await notifyOwner(userId, kind, profile.name, 'setup');
      await recordAudit(deps.db, {
        ...auditOf(person, actor),
        action: 'qr_setup',
        detail: essentialsWithoutPin === undefined ? { kind } : { kind, essentials_without_pin: essentialsWithoutPin },
      });
      return await toConfig(await repo.findByProfile(userId, profile.id));
    },

    async toggle(person: PersonAccess, actor: Actor, desired: boolean | undefined): Promise<QrConfig> {
      const share = await personShare(person);
      const next = desired ?? !fromFlag(share.is_active);
      await repo.setActive(share.id, next);
      await recordAudit(deps.db, { ...auditOf(person, actor), action: 'qr_toggle', detail: { kind: share.kind, is_active: next } });
      return await toConfig(await repo.findByProfile(person.ownerId, person.profileId));
    },

    async changePin(person: PersonAccess, actor: Actor, pin: string): Promise<QrConfig> {
      const share = await personShare(person);
      await repo.setPin(share.id, await hashSecret(pin), false);
      await recordAudit(deps.db, { ...auditOf(person, actor), action: 'qr_pin_change', detail: { kind: share.kind } });
      return await toConfig(await repo.findByProfile(person.ownerId, person.profileId));
    },

    /**
     * The essentials a person's card and lock-screen image print (DESIGN §7): those of an opted-in
     * code only — null when the owner has not chosen to show them without the PIN. `ownerId` and
     * `profileId` are already checked by the caller.
     */
    async essentialsFor(ownerId: string, profileId: string): Promise<EmergencyEssentials | null> {
      const share = await repo.findByProfile(ownerId, profileId);
      if (!share) throw notFound('QR code has not been set up');
      if (!fromFlag(share.essentials_without_pin)) return null;
      return (await loadEmergencyEssentials(deps.db, ownerId, profileId, new Date())) ?? null;
    },

    /**
     * The owner's emergency cards, to keep on their own device (DESIGN §7): for each of their
     * people, what the emergency page shows with the right PIN (the same loader, the same column
     * allowlist), and the QR code's link while the code is active. Only the signed-in user's own
     * people: every query below is filtered by their id.
     */
    async cardsForOwner(userId: string): Promise<EmergencyCard[]> {
      const [people, shares] = await Promise.all([repo.listOwnedProfiles(userId), repo.listByUser(userId)]);
      const shareOf = new Map(shares.map((share) => [share.profile_id, share]));
      const cards = await Promise.all(
        people.map(async (person): Promise<EmergencyCard | null> => {
          const info = await loadEmergencyInfo(deps.db, userId, person.id);
          // A member deleted while this was read has no card.
          if (!info) return null;
          const share = shareOf.get(person.id);
          const active = share !== undefined && fromFlag(share.is_active);
          return {
            profile_id: person.id,
            is_self: fromFlag(person.is_self),
            info,
            qr_data: active ? qrData(share.kind, share.share_id) : null,
          };
        }),
      );
      return cards.filter((card): card is EmergencyCard => card !== null);
    },

    /** DESIGN §7: the owner's (or a manager's) choice to show the essentials without the PIN; audited. */
    async setEssentialsWithoutPin(person: PersonAccess, actor: Actor, on: boolean): Promise<QrConfig> {
      const share = await personShare(person);
      await repo.setEssentialsWithoutPin(share.id, on);
      await recordAudit(deps.db, {
        ...auditOf(person, actor),
        action: 'qr_settings',
        detail: { kind: share.kind, essentials_without_pin: on },
      });
      return await toConfig(await repo.findByProfile(person.ownerId, person.profileId));
    },

    /** DESIGN §7: the owner (or a manager) lifts a lock or re-enables a disabled PIN with one action; audited. */
    async unlockPin(person: PersonAccess, actor: Actor): Promise<QrConfig> {
      const share = await personShare(person);
      const was = await ownerPinStatus(share, new Date());
      await repo.clearPinLimits(share.id);
      await recordAudit(deps.db, { ...auditOf(person, actor), action: 'qr_pin_unlock', detail: { kind: share.kind, was } });
      return await toConfig(await repo.findByProfile(person.ownerId, person.profileId));
    },

    /**
     * The public view. Unknown, inactive and wrong-kind codes all answer the same 404, and so does a
     * disabled code unless its owner opted in to the essentials (DESIGN §7). Without a PIN:
     * `{ requirePin: true }`, plus the essentials when opted in — which keep answering while the
     * PIN is locked or disabled, since guessing limits apply to the PIN only.
     */
    async view(kind: ShareKind, shareId: string, pin: string | undefined, ip: string): Promise<ViewResult> {
      const share = await repo.findByShareId(kind, shareId);
      if (!share) throw notFound(NOT_FOUND_MESSAGE);
      const essentialsOn = fromFlag(share.essentials_without_pin);
      const disabled = fromFlag(share.is_disabled);
      if (!fromFlag(share.is_active) && !(disabled && essentialsOn)) throw notFound(NOT_FOUND_MESSAGE);
      const now = new Date();

      const address = clientAddressKey(ip);

      if (pin === undefined || pin === '') {
        if (!essentialsOn) return { body: { requirePin: true } };
        // Issue 30: one address sees essentials a bounded number of times an hour, across codes.
        const capped = await repo.reserveEssentialsView(address, now, MAX_ESSENTIALS_VIEWS_PER_ADDRESS_HOUR, HOUR_MS);
        if (capped !== true) {
          const minutes = Math.ceil(capped.retryAfterSeconds / 60);
          throw tooManyRequests(
            `Too many views from this network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            capped.retryAfterSeconds,
          );
        }
        const essentials = await loadEmergencyEssentials(deps.db, share.user_id, share.profile_id, now);
        if (!essentials) throw notFound(NOT_FOUND_MESSAGE);
        // DESIGN §7: every successful view notifies the owner and the managers and is audited — essentials too.
        await notifyPeople(share, essentials.name, 'essentials');
        await recordAudit(deps.db, { userId: share.user_id, action: 'emergency_view', ip, detail: { kind, essentials: true } });
        return { body: { requirePin: true, essentials }, pinStatus: await addressPinStatus(share, address, now) };
      }

      if (disabled) throw new HttpError(423, PIN_DISABLED_MESSAGE);
      await checkPin(share, pin, ip, 'page', now);
      const info = await loadEmergencyInfo(deps.db, share.user_id, share.profile_id);
      if (!info) throw notFound(NOT_FOUND_MESSAGE);
      // DESIGN §7: every successful view notifies the owner and the person's managers; the page asks
      // once per PIN entered.
      await notifyPeople(share, info.name, 'access');
      await recordAudit(deps.db, { userId: share.user_id, action: 'emergency_view', ip, detail: { kind } });
      return { body: info };
    },

    /**
     * Opens a code with its PIN for another channel (the clinicians' FHIR download, a SMART Health
     * Link passcode): the same attempt counters, lock and deactivation as the emergency page, so a
     * guess anywhere counts everywhere. Answers who the code belongs to; throws 404 / 401 / 429.
     */
    async unlock(ref: ShareRef, pin: string, ip: string, channel: Exclude<AccessChannel, 'page'>): Promise<UnlockedShare> {
      const share = await activeShare(ref);
      await checkPin(share, pin, ip, channel, new Date());
      return unlocked(share);
    },

    /**
     * Tells the owner their code was opened through `channel`, every time (DESIGN §7); a SMART
     * Health Link access names the recipient the requester gave.
     */
    async notifyAccess(share: UnlockedShare, channel: Exclude<AccessChannel, 'page'>, recipient?: string): Promise<void> {
      const row = await repo.findById(share.id);
      if (!row) return;
      const name = (await repo.findProfile(share.userId, share.profileId))?.name ?? null;
      await notifyPeople(row, name, 'access', channel === 'shl' ? { recipient: recipient ?? 'Someone' } : undefined);
    },
  };

  function unlocked(share: ShareRow): UnlockedShare {
    return { id: share.id, userId: share.user_id, profileId: share.profile_id, kind: share.kind };
  }

  async function activeShare(ref: ShareRef): Promise<ShareRow> {
    const share = 'id' in ref ? await repo.findById(ref.id) : await repo.findByShareId(ref.kind, ref.shareId);
    if (!share || !fromFlag(share.is_active)) throw notFound(NOT_FOUND_MESSAGE);
    return share;
  }

  /**
   * DESIGN §7, the one PIN check every channel goes through: the per-address hourly cap, then one
   * attempt reserved atomically on the address's own run of wrong PINs for this code (an IPv6
   * client by its /64) and one on the code's count of wrong PINs in all, both released when the
   * PIN is right. A wrong PIN is audited; 5 in a row from one address lock that address out for
   * 15 minutes (warning the owner) — nobody else — and 10 in all turn the PIN off (telling the
   * owner). Answers 401 with the attempts left.
   */
  async function checkPin(share: ShareRow, pin: string, ip: string, channel: AccessChannel, now: Date): Promise<void> {
    if (!(await repo.reserveIpAttempt(ip, now, MAX_PIN_ATTEMPTS_PER_IP_HOUR))) {
      throw tooManyRequests('Too many PIN attempts from this network. Please try again later.', 3600);
    }

    const address = clientAddressKey(ip);
    const streak = await repo.reserveAddressAttempt(share.id, address, now, MAX_PIN_STREAK);
    if (!streak) throw await refusal(share, channel, address);
    const reserved = await repo.reserveAttempt(share.id, MAX_PIN_TOTAL);
    if (!reserved) {
      await repo.releaseAddressAttempt(share.id, address, false);
      throw await refusal(share, channel, address);
    }

    const wellFormed = /^\d{4}$/.test(pin);
    if (wellFormed && (await verifySecret(share.pin_hash, pin))) {
      await repo.releaseAttempt(share.id);
      await repo.releaseAddressAttempt(share.id, address, true);
      return;
    }

    const { kind } = share;
    await recordAudit(deps.db, {
      userId: share.user_id,
      action: 'emergency_pin_failed',
      ip,
      detail: channel === 'page' ? { kind } : { kind, via: channel },
    });
    const name = (await repo.findProfile(share.user_id, share.profile_id))?.name ?? null;
    if (reserved.failed_total >= MAX_PIN_TOTAL) {
      if (await repo.disable(share.id)) await notifyPeople(share, name, 'disabled');
    } else if (streak.failed_streak >= MAX_PIN_STREAK) {
      if (await repo.lockAddress(share.id, address, new Date(now.getTime() + LOCK_MS))) await notifyPeople(share, name, 'locked');
    }
    // A SMART Health Link's remainingAttempts counts down to the disabling (STU1: "number of attempts
    // remaining before the SMART Health Link is disabled"); the 15-minute lock is a pause, not an
    // end. The page and the download count down to whichever comes first for this address.
    const toDisabled = MAX_PIN_TOTAL - reserved.failed_total;
    const remainingAttempts = Math.max(0, channel === 'shl' ? toDisabled : Math.min(MAX_PIN_STREAK - streak.failed_streak, toDisabled));
    const message = channel === 'shl' ? 'Invalid passcode' : wellFormed ? 'Invalid PIN' : PIN_FORMAT_MESSAGE;
    throw new HttpError(401, message, { remainingAttempts });
  }

  /** Why an attempt could not be reserved: the PIN is off (404, or 423 for an opted-in code) or this address waits (429 with Retry-After). */
  async function refusal(reserved: ShareRow, channel: AccessChannel, address: string): Promise<HttpError> {
    const share = await repo.findById(reserved.id);
    // An opted-in code still answers its essentials, so its page learns why the PIN is refused. A
    // SMART Health Link has no essentials: disabled is 404 (STU1: "no longer active").
    const disabledAnswer = () =>
      share && channel !== 'shl' && fromFlag(share.essentials_without_pin)
        ? new HttpError(423, PIN_DISABLED_MESSAGE)
        : notFound(NOT_FOUND_MESSAGE);
    if (!share) return notFound(NOT_FOUND_MESSAGE);
    if (fromFlag(share.is_disabled)) return disabledAnswer();
    if (!fromFlag(share.is_active)) return notFound(NOT_FOUND_MESSAGE);
    if (share.failed_total >= MAX_PIN_TOTAL) {
      if (await repo.disable(share.id))
        await notifyPeople(share, (await repo.findProfile(share.user_id, share.profile_id))?.name ?? null, 'disabled');
      return disabledAnswer();
    }
    const lockedUntil = await repo.addressLockedUntil(share.id, address);
    const until = lockedUntil ? Date.parse(lockedUntil) : Date.now() + LOCK_MS;
    const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    return tooManyRequests(`Too many incorrect PINs. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
  }
}

export type EmergencyService = ReturnType<typeof createEmergencyService>;
