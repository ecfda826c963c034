import type { Appointment, AppointmentFields } from '@kinchart/shared/appointments';
import { appointmentSpan, appointmentValuesOf, personAppointmentTitle, timeOrder } from '@kinchart/shared/appointments';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-errors';
import type { Actor, PersonAccess, PersonAccessService, VisiblePerson } from '../../common/person-access';
import { createAppointmentRepository, type AppointmentRow } from './appointment.repository';
import { isValidTimeZone, toInstant } from '../../lib/time-zone';
import { createTimeZones } from '../../common/time-zones';
import { buildCalendar } from './ics';
import { reminderMinutesOf } from './reminder-minutes';

const NOT_FOUND = 'Appointment not found';

/** A route's name in the owner's access history ("GET /api/user/appointments"). */
export type RouteName = string;

interface RowPerson {
  id: string;
  name: string | null;
}

/** SPEC §7 Appointments: the answer carries the id twice, as `id` and `appointment_id`, and whose it is. */
const toAnswer = (row: AppointmentRow, person: RowPerson): Appointment => ({
  id: row.id,
  appointment_id: row.id,
  ...appointmentValuesOf(row),
  created_at: row.created_at,
  person_id: person.id,
  person_name: person.name,
  reminder_minutes: reminderMinutesOf(row.reminder_minutes),
});

/** Calendar order: by date, then start (an all-day one first), then when it was added. */
const byDateAndTime = (a: AppointmentRow, b: AppointmentRow): number => {
  if (a.appointment_date !== b.appointment_date) return a.appointment_date < b.appointment_date ? -1 : 1;
  if (a.start_time !== b.start_time) {
    if (a.start_time === null) return -1;
    if (b.start_time === null) return 1;
    return timeOrder(a.start_time) - timeOrder(b.start_time) || (a.start_time < b.start_time ? -1 : 1);
  }
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
};

/**
 * Appointments of every person a user can see, and their calendar file (DESIGN §4, §11). Whose an
 * appointment is decides who reaches it, through the one access function: a viewer of the person
 * reads it, an editor adds, edits and deletes; anyone else gets the same 404 as for a missing id.
 * Rows carry the person's owner's id, so they follow the owner's export and account deletion.
 */
export function createAppointmentService(deps: { db: Db; access: PersonAccessService }) {
  const { access } = deps;
  const repo = createAppointmentRepository(deps.db);
  const zones = createTimeZones(deps.db);

  /** The person an input names (`person_id`), or the user's own profile; an editor's right. */
  const personFor = (actor: Actor, route: RouteName, personId: string | undefined): Promise<PersonAccess> =>
    personId === undefined ? access.own(actor.userId) : access.require(actor, personId, { need: 'editor', what: route });

  /** The rows of every person the user can see, each with whose it is; shared reads are audited. */
  async function visibleRows(
    actor: Actor,
    route: RouteName,
  ): Promise<{ row: AppointmentRow; person: VisiblePerson | undefined; own: boolean }[]> {
    const people = await access.visible(actor.userId);
    const byId = new Map(people.map((p) => [p.profileId, p]));
    const self = people.find((p) => p.role === 'owner' && p.isSelf);
    const shared = people.filter((p) => p.shareId !== null);
    const own = await repo.list(actor.userId);
    // A shared person's rows are theirs only while their owner is the person's owner.
    const theirs = (await repo.listOfPeople(shared.map((p) => p.profileId))).filter(
      (row) => row.profile_id !== null && byId.get(row.profile_id)?.ownerId === row.user_id,
    );
    const touched = new Set(theirs.map((row) => row.profile_id));
    await access.auditAll(
      actor,
      shared.filter((p) => touched.has(p.profileId)),
      route,
    );
    // No shared rows: the database's own order stands, exactly as before sharing.
    const rows = theirs.length === 0 ? own : [...own, ...theirs].sort(byDateAndTime);
    return rows.map((row) => {
      const person = row.profile_id === null ? self : byId.get(row.profile_id);
      return { row, person, own: person === undefined || (person.role === 'owner' && person.isSelf) };
    });
  }

  return {
    /**
     * The appointments of people whose access the caller has already decided (a calendar feed,
     * docs/decisions/0045), each with its calendar UID; an own profile's unfiled rows count as its.
     */
    async ofPeople(
      people: readonly Pick<PersonAccess, 'profileId' | 'ownerId' | 'isSelf'>[],
    ): Promise<{ appointment: Appointment; uid: string }[]> {
      const out: { appointment: Appointment; uid: string }[] = [];
      for (const p of people) {
        const rows = await repo.listOfPerson(p.ownerId, p.profileId, p.isSelf);
        for (const row of rows) out.push({ appointment: toAnswer(row, { id: p.profileId, name: row.person_name }), uid: row.uid });
      }
      return out;
    },

    /**
     * GET /api/user/appointments: every visible person's appointments; `person` keeps one person's
     * (404 when the user cannot see that person).
     */
    async list(actor: Actor, route: RouteName, person?: string): Promise<Appointment[]> {
      if (person !== undefined) {
        const found = await access.require(actor, person, { need: 'viewer', what: route });
        const rows = await repo.listOfPerson(found.ownerId, found.profileId, found.isSelf);
        const filed = { id: found.profileId, name: await repo.personName(found.profileId) };
        return rows.map((row) => toAnswer(row, filed));
      }
      return (await visibleRows(actor, route)).map(({ row, person }) =>
        toAnswer(row, { id: row.profile_id ?? person?.profileId ?? '', name: person?.name ?? row.person_name }),
      );
    },

    /** POST: for `person_id` (an editor's right) or, without one, the user's own profile (SPEC's call unchanged). */
    async create(actor: Actor, route: RouteName, input: AppointmentFields): Promise<Appointment> {
      const person = await personFor(actor, route, input.person_id);
      const row = await repo.create(person.ownerId, person.profileId, appointmentValuesOf(input), input.reminder_minutes ?? null);
      return toAnswer(row, { id: person.profileId, name: row.person_name });
    },

    /** PUT: an editor's right on the appointment's person — and on the new person when `person_id` moves it. */
    async update(actor: Actor, route: RouteName, id: string, input: AppointmentFields): Promise<Appointment> {
      const found = await repo.findById(id);
      if (!found) throw notFound(NOT_FOUND);
      const current = await access.row(actor, found, { need: 'editor', what: route }, NOT_FOUND);
      const moveTo =
        input.person_id !== undefined && input.person_id !== current.profileId ? await personFor(actor, route, input.person_id) : undefined;
      const row = await repo.update(current.ownerId, id, appointmentValuesOf(input), moveTo, input.reminder_minutes);
      if (!row) throw notFound(NOT_FOUND);
      const person = moveTo ?? current;
      return toAnswer(row, {
        id: person.profileId,
        name: row.profile_id === null ? await repo.personName(person.profileId) : row.person_name,
      });
    },

    /** DELETE: an editor's right on the appointment's person (a viewer gets 403). */
    async remove(actor: Actor, route: RouteName, id: string): Promise<void> {
      const found = await repo.findById(id);
      if (!found) throw notFound(NOT_FOUND);
      const current = await access.row(actor, found, { need: 'editor', what: route }, NOT_FOUND);
      if (!(await repo.delete(current.ownerId, id))) throw notFound(NOT_FOUND);
    },

    /**
     * Every visible person's appointments as an iCalendar file, written in UTC. Wall-clock times
     * are local times of their person's zone (issue 32, DESIGN §13: the person's own, else the
     * account's); only for a person with neither is `timeZone` (the web app sends the browser's)
     * used, then UTC. Your own keep SPEC §3's title; anyone else's carry their name before it.
     */
    async calendar(actor: Actor, route: RouteName, timeZone = 'UTC'): Promise<string> {
      if (!isValidTimeZone(timeZone)) throw badRequest('tz must be an IANA time zone such as Europe/London');
      const rows = await visibleRows(actor, route);
      const chosen = await zones.chosenOfPeople(rows.flatMap(({ person }) => (person ? [person.profileId] : [])));
      return buildCalendar(
        rows.map(({ row: a, person, own }) => {
          const span = appointmentSpan(a);
          const zone = (person && chosen.get(person.profileId)) ?? timeZone;
          return {
            uid: a.uid,
            start: toInstant(span.start, zone),
            end: toInstant(span.end, zone),
            summary: personAppointmentTitle(a, { name: person?.name ?? a.person_name, own }),
            location: a.location,
            description: a.reason_for_visit,
            allDay: !a.start_time && !a.end_time ? a.appointment_date : undefined,
          };
        }),
      );
    },
  };
}

export type AppointmentService = ReturnType<typeof createAppointmentService>;
