import type { Schedule, ScheduleInput } from '@kinchart/shared/care';
import { localDoseTimes } from '@kinchart/shared/care';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-errors';
import { nowIso } from '../../lib/ids';
import { toFlag } from '../../lib/flags';
import type { Actor, PersonAccess, PersonAccessService } from '../../common/person-access';
import { createTimeZones } from '../../common/time-zones';
import type { CareQueries, ScheduleRow } from './care.repository';
import { createCareRepository } from './care.repository';
import { scheduleAnswer, scheduleTimesOf } from './care-rows';
import { instantsIn, localClock, runsOutOn, unloggedStatus } from './dose-times';

export const SCHEDULE_ROUTE = '/api/user/people/:personId/medications/:medicationId/schedule';

/**
 * The date a schedule's quantity on hand runs out (issue 32, Refills), or null when it is not
 * tracked or the schedule is as needed. Counted from now in the person's zone: today's doses still
 * to come or due and not logged yet, then the schedule's days and times.
 */
export async function runsOutOf(q: CareQueries, row: ScheduleRow, zone: string, now: Date): Promise<string | null> {
  if (row.quantity_on_hand === null || row.as_needed === 1) return null;
  const schedule = scheduleTimesOf(row);
  const today = localClock(now, zone).slice(0, 10);
  const todays = localDoseTimes(schedule, today, today);
  let pending = 0;
  if (todays.length > 0) {
    const logged = new Set(await q.loggedTimesOn(row.user_id, row.medication_id, today));
    const instant = instantsIn(zone);
    pending = todays.filter((local) => !logged.has(local) && unloggedStatus(instant(local), now) !== 'missed').length;
  }
  return runsOutOn(schedule, row.quantity_on_hand, row.dose_units, today, pending);
}

/**
 * A medication's schedule (issue 32, DESIGN §13): its times and ISO weekdays, local to the person's
 * zone, with the quantity on hand. A viewer reads it, an editor sets and removes it (DESIGN §11,
 * through the one access function, which audits access through a share); a medication of another
 * person is the same 404 as a missing one.
 */
export function createScheduleService(deps: { db: Db; access: PersonAccessService; now?: () => Date }) {
  const { access } = deps;
  const clock = deps.now ?? (() => new Date());
  const repo = createCareRepository(deps.db);
  const zones = createTimeZones(deps.db);

  async function medicationOf(person: PersonAccess, medicationId: string) {
    const medication = await repo.medication(person.ownerId, person.profileId, medicationId);
    if (!medication) throw notFound('Medication not found');
    return medication;
  }

  /** The answer for a stored schedule; `zone` when the caller has the person's already. */
  async function answer(row: ScheduleRow, zone?: string): Promise<Schedule> {
    const personZone = zone ?? (await zones.ofPerson(row.profile_id));
    return scheduleAnswer(row, await runsOutOf(repo, row, personZone, clock()));
  }

  return {
    /** Every schedule of the person's medications (a medication without one is not listed). */
    async list(actor: Actor, personId: string, what = 'GET /api/user/people/:personId/schedules'): Promise<Schedule[]> {
      const person = await access.require(actor, personId, { need: 'viewer', what });
      const [rows, zone] = await Promise.all([repo.schedulesOfPerson(person.ownerId, person.profileId), zones.ofPerson(person.profileId)]);
      return Promise.all(rows.map((row) => answer(row, zone)));
    },

    async get(actor: Actor, personId: string, medicationId: string, what = `GET ${SCHEDULE_ROUTE}`): Promise<Schedule> {
      const person = await access.require(actor, personId, { need: 'viewer', what });
      await medicationOf(person, medicationId);
      const row = await repo.schedule(person.ownerId, person.profileId, medicationId);
      if (!row) throw notFound('Schedule not found');
      return answer(row);
    },

    /**
     * Sets the schedule. `start_date` left out keeps the stored one, or is today in the person's
     * zone for a new schedule; the end may not come before the start either way.
     */
    async put(
      actor: Actor,
      personId: string,
      medicationId: string,
      input: ScheduleInput,
      what = `PUT ${SCHEDULE_ROUTE}`,
    ): Promise<Schedule> {
      const person = await access.require(actor, personId, { need: 'editor', what });
      await medicationOf(person, medicationId);
      const stored = await repo.schedule(person.ownerId, person.profileId, medicationId);
      const now = clock();
      const startDate = input.start_date ?? stored?.start_date ?? localClock(now, await zones.ofPerson(person.profileId)).slice(0, 10);
      if (input.end_date !== null && input.end_date < startDate) throw badRequest('end_date: must not be before start_date');
      const row = await repo.upsertSchedule(
        {
          medication_id: medicationId,
          user_id: person.ownerId,
          profile_id: person.profileId,
          times: JSON.stringify(input.as_needed ? [] : input.times),
          days: JSON.stringify(input.days),
          start_date: startDate,
          end_date: input.end_date,
          as_needed: toFlag(input.as_needed),
          dose_units: input.dose_units,
          quantity_on_hand: input.quantity_on_hand,
          refill_remind_days: input.refill_remind_days,
          reminders: toFlag(input.reminders),
          updated_at: nowIso(now),
        },
        stored?.created_at ?? nowIso(now),
      );
      return answer(row);
    },

    async remove(actor: Actor, personId: string, medicationId: string, what = `DELETE ${SCHEDULE_ROUTE}`): Promise<void> {
      const person = await access.require(actor, personId, { need: 'editor', what });
      await medicationOf(person, medicationId);
      if (!(await repo.deleteSchedule(person.ownerId, person.profileId, medicationId))) throw notFound('Schedule not found');
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
