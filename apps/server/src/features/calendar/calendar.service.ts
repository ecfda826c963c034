import { appointmentSpan, appointmentTitle } from '@kinchart/shared/appointments';
import type { Appointment } from '@kinchart/shared/appointments';
import { addDays, doseIdOf, localDoseTimes } from '@kinchart/shared/care';
import type { Db } from '../../db/database';
import type { Actor, PersonAccessService, VisiblePerson } from '../../common/person-access';
import { createTimeZones } from '../../common/time-zones';
import { fromFlag } from '../../lib/flags';
import { badRequest, notFound } from '../../lib/http-errors';
import { newId, nowIso, randomToken, sha256Hex } from '../../lib/ids';
import { toInstant, withOffset } from '../../lib/time-zone';
import type { AppointmentService } from '../appointments/appointment.service';
import { buildCalendar, type IcsEvent } from '../appointments/ics';
import { createCalendarFeedsRepository } from './calendar-feeds.repository';
import { MAX_CALENDAR_FEEDS } from './calendar-transfer';
import { translatorOfUser } from '../../i18n/recipients';
import type { Translator } from '../../i18n/translator';

/** SPEC §3's title for one's own; the person's name before it for anyone else's ("Mia: Dr Lee - Check-up", DESIGN §11). */
const personTitle = (tr: Translator, title: string, name: string | null, own: boolean): string =>
  own ? title : tr.t('calendar.person_title', { person: name?.trim() || tr.t('calendar.family_member'), title });

// Private calendar feeds (issue 32, docs/decisions/0045): a secret address that answers, without a
// session, the appointments (and, when asked, the medication times) of one person or of everyone
// the feed's account can see — read through the one access function on every request, so a share
// that ends empties the feed at once. Only the token's SHA-256 is stored.

const NOT_FOUND = 'Calendar feed not found';
const MAX_FEEDS = MAX_CALENDAR_FEEDS;
/** Medication times are written for this window around today, in the person's zone (days). */
const MEDICATION_DAYS_BEFORE = 7;
const MEDICATION_DAYS_AFTER = 60;
/** How long a medication event lasts in the calendar (minutes). */
const MEDICATION_EVENT_MINUTES = 15;
/** RFC 7986 REFRESH-INTERVAL: readers fetch the feed again every hour. */
const REFRESH = 'PT1H';
/** A token is 32 random bytes, base64url (lib/ids.ts randomToken). */
const TOKEN = /^[\w-]{43}$/;

export interface FeedInput {
  person_id: string | null;
  include_medications: boolean;
  minimal: boolean;
}

const listJson = (text: string): unknown[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
};

export function createCalendarService(deps: { db: Db; access: PersonAccessService; appointments: AppointmentService; publicUrl: string }) {
  const { access, appointments } = deps;
  const repo = createCalendarFeedsRepository(deps.db);
  const zones = createTimeZones(deps.db);

  const urlsOf = (token: string) => {
    // PUBLIC_URL comes without a trailing slash (config.ts).
    const url = `${deps.publicUrl}/api/calendar/${token}.ics`;
    return { url, webcal_url: url.replace(/^https?:\/\//i, 'webcal://') };
  };

  function appointmentEvent(a: Appointment, uid: string, person: VisiblePerson, zone: string, minimal: boolean, tr: Translator): IcsEvent {
    const span = appointmentSpan(a);
    const own = person.role === 'owner' && person.isSelf;
    return {
      uid,
      start: toInstant(span.start, zone),
      end: toInstant(span.end, zone),
      summary: minimal ? tr.t('calendar.appointment') : personTitle(tr, appointmentTitle(a), person.name, own),
      location: minimal ? null : a.location,
      description: minimal ? null : a.reason_for_visit,
      allDay: !a.start_time && !a.end_time ? a.appointment_date : undefined,
      alarms: a.reminder_minutes,
    };
  }

  async function medicationEvents(
    people: VisiblePerson[],
    zoneOf: Map<string, string>,
    now: Date,
    minimal: boolean,
    tr: Translator,
  ): Promise<IcsEvent[]> {
    const byId = new Map(people.map((p) => [p.profileId, p]));
    const events: IcsEvent[] = [];
    for (const s of await repo.schedulesOf([...byId.keys()])) {
      const person = byId.get(s.profile_id);
      // A schedule is its person's only while its rows are the person's owner's.
      if (!person || person.ownerId !== s.user_id || fromFlag(s.as_needed)) continue;
      const zone = zoneOf.get(s.profile_id) ?? 'UTC';
      const today = withOffset(now, zone).slice(0, 10);
      const times = localDoseTimes(
        {
          times: listJson(s.times).filter((t): t is string => typeof t === 'string'),
          days: listJson(s.days).filter((d): d is number => typeof d === 'number'),
          start_date: s.start_date,
          end_date: s.end_date,
          as_needed: false,
        },
        addDays(today, -MEDICATION_DAYS_BEFORE),
        addDays(today, MEDICATION_DAYS_AFTER),
      );
      const own = person.role === 'owner' && person.isSelf;
      const name = s.medication_name?.trim() || tr.t('calendar.medication');
      for (const local of times) {
        const start = toInstant(`${local}:00`, zone);
        events.push({
          uid: doseIdOf(s.medication_id, local),
          start,
          end: new Date(start.getTime() + MEDICATION_EVENT_MINUTES * 60_000),
          summary: minimal ? tr.t('calendar.medication') : personTitle(tr, name, person.name, own),
          location: null,
          description: minimal ? null : s.dosage,
        });
      }
    }
    return events;
  }

  return {
    /** POST /api/user/calendar-feeds: a new feed; its secret address is in this answer only. */
    async create(actor: Actor, input: FeedInput): Promise<{ id: string; url: string; webcal_url: string }> {
      // A person the user cannot see is 404, as everywhere; making a feed reads nothing yet (each read is audited).
      if (input.person_id !== null) await access.require(actor, input.person_id, { need: 'viewer', what: '', audit: false });
      const token = randomToken();
      const id = newId();
      const feed = {
        id,
        userId: actor.userId,
        personId: input.person_id,
        includeMedications: input.include_medications,
        minimal: input.minimal,
        tokenHash: sha256Hex(token),
        createdAt: nowIso(),
      };
      if (!(await repo.insertWithin(feed, MAX_FEEDS))) throw badRequest(`You can have at most ${MAX_FEEDS} calendar feeds`);
      return { id, ...urlsOf(token) };
    },

    /**
     * GET /api/user/calendar-feeds: the account's feeds, never their secret. A feed's person is
     * named only while the account can see them (the one access function): once a share ends, the
     * person's name — and any new one the owner gives them — is no longer the account's to read.
     */
    async list(userId: string) {
      const rows = await repo.list(userId);
      const names = new Map((await access.visible(userId)).map((p) => [p.profileId, p.name]));
      return rows.map((r) => ({
        id: r.id,
        person_id: r.person_id,
        person_name: r.person_id === null ? null : (names.get(r.person_id) ?? null),
        include_medications: fromFlag(r.include_medications),
        minimal: fromFlag(r.minimal),
        created_at: r.created_at,
        last_read_at: r.last_read_at,
        // Restored by an import with a token nobody knows: it needs a new address (renew) to be subscribed to.
        restored: fromFlag(r.restored),
      }));
    },

    /**
     * POST /api/user/calendar-feeds/{id}/renew: a new secret address for one of the account's feeds,
     * answered like a new feed's (once); the old address stops answering at once. This is how a
     * feed restored by an import gets an address, and how a leaked address is replaced while the
     * feed's settings stay.
     */
    async renew(userId: string, id: string): Promise<{ id: string; url: string; webcal_url: string }> {
      const token = randomToken();
      if (!(await repo.renew(userId, id, sha256Hex(token)))) throw notFound(NOT_FOUND);
      return { id, ...urlsOf(token) };
    },

    /** DELETE /api/user/calendar-feeds/{id}: the address stops answering at once. */
    async revoke(userId: string, id: string): Promise<void> {
      if (!(await repo.delete(userId, id))) throw notFound(NOT_FOUND);
    },

    /**
     * The calendar a feed's token opens (null when no feed has it): the people the feed's account
     * can see now, their appointments with an alarm per reminder lead time, and when asked their
     * medication times. Reading shared people is written to their owners' access history.
     */
    async read(token: string, meta: { ip: string | null; what: string }, now: Date = new Date()): Promise<string | null> {
      if (!TOKEN.test(token)) return null;
      const feed = await repo.byTokenHash(sha256Hex(token));
      if (!feed) return null;
      const visible = await access.visible(feed.user_id);
      const people = feed.person_id === null ? visible : visible.filter((p) => p.profileId === feed.person_id);
      const minimal = fromFlag(feed.minimal);
      // Issue 35: the titles in the feed's owner's language.
      const tr = await translatorOfUser(deps.db, feed.user_id);
      const zoneOf = await zones.ofPeople(people.map((p) => p.profileId));
      const byId = new Map(people.map((p) => [p.profileId, p]));
      const events: IcsEvent[] = [];
      for (const { appointment, uid } of await appointments.ofPeople(people)) {
        const person = byId.get(appointment.person_id);
        if (person) events.push(appointmentEvent(appointment, uid, person, zoneOf.get(person.profileId) ?? 'UTC', minimal, tr));
      }
      if (fromFlag(feed.include_medications)) events.push(...(await medicationEvents(people, zoneOf, now, minimal, tr)));
      events.sort((a, b) => (a.allDay ?? a.start.toISOString()).localeCompare(b.allDay ?? b.start.toISOString()));

      await access.auditAll({ userId: feed.user_id, ip: meta.ip }, people, meta.what);
      await repo.touch(feed.id, nowIso(now), nowIso(new Date(now.getTime() - 60_000)));

      const one = feed.person_id === null ? undefined : people[0];
      const name =
        one && !minimal ? tr.t('calendar.feed_name', { person: one.name?.trim() || tr.t('calendar.family_member') }) : 'Kinchart';
      return buildCalendar(events, now, { name, refresh: REFRESH });
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
