import type { Adherence, Dose, DoseLogInput, DoseStatus } from '@kinchart/shared/care';
import { MAX_DOSE_RANGE_DAYS, addDays, parseDoseId } from '@kinchart/shared/care';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-errors';
import { newId, nowIso } from '../../lib/ids';
import { fromFlag } from '../../lib/flags';
import { recordAudit } from '../../common/audit';
import type { Actor, PersonAccess, PersonAccessService } from '../../common/person-access';
import { createTimeZones } from '../../common/time-zones';
import type { CareQueries, DoseLogRow } from './care.repository';
import { createCareRepository } from './care.repository';
import { doseMedicationOf, loggedDoseOf, scheduleTimesOf } from './care-rows';
import { dosesOf, instantsIn, isScheduledTime, localClock, loggedDoseAnswer, unloggedStatus } from './dose-times';

// Issue 32, DESIGN §13: the dose log. A scheduled dose that nobody logged has no row; its id names
// its medication and local time (doseIdOf), so the list computes it from the schedule and a log
// call can tell a real occurrence from an invented one. Logging writes the row and the quantity
// on hand in one transaction.

const DOSES = '/api/user/people/:personId/doses';
const DOSE = `${DOSES}/:doseId`;
const DOSE_NOT_FOUND = 'Dose not found';

/** What a scheduled (or logged) dose is, for a reminder: read without an actor, no access check. */
export interface DoseInfo {
  doseId: string;
  /** The person (profile) and their owner account. */
  personId: string;
  ownerId: string;
  personName: string | null;
  medicationId: string;
  medicationName: string | null;
  /** The local wall-clock time in the person's zone, "YYYY-MM-DDTHH:MM". */
  local: string;
  /** The instant it is (or was) due. */
  scheduledAt: Date;
  /** The person's zone. */
  zone: string;
  asNeeded: boolean;
  /** Taken or skipped when logged; otherwise upcoming, due or missed at the service's clock. */
  status: DoseStatus;
  logged: boolean;
}

/** A person and their owner account: what every statement carries. */
type Whose = Pick<PersonAccess, 'ownerId' | 'profileId'>;

/** Quantities are kept to a millionth: 30 − 0.1 × 3 is 29.7, not 29.699999999999996. */
const roundQuantity = (value: number): number => Math.round(value * 1e6) / 1e6;

export function createDoseService(deps: { db: Db; access: PersonAccessService; now?: () => Date }) {
  const { access } = deps;
  const clock = deps.now ?? (() => new Date());
  const repo = createCareRepository(deps.db);
  const zones = createTimeZones(deps.db);

  /** The dose as the API answers it, read back after a write (with the logger's username). */
  async function answerOf(person: PersonAccess, doseId: string, zone: string): Promise<Dose> {
    const row = await repo.loggedDose(person.ownerId, person.profileId, doseId);
    if (!row) throw notFound(DOSE_NOT_FOUND);
    const medication = await repo.medication(person.ownerId, person.profileId, row.medication_id);
    return loggedDoseAnswer(loggedDoseOf(row), medication && { name: medication.medication_name, dosage: medication.dosage }, zone);
  }

  /** Whose change it was, for the owner's audit trail: the actor when not the owner (DESIGN §11). */
  async function auditChange(trx: Db, actor: Actor, person: PersonAccess, what: string, doseId: string, from: string, to: string) {
    await recordAudit(trx, {
      userId: person.ownerId,
      actorId: actor.userId === person.ownerId ? null : actor.userId,
      profileId: person.profileId,
      action: 'dose_log_change',
      ip: actor.ip ?? null,
      detail: { what, dose: doseId, from, to },
    });
  }

  /**
   * Gives back what a taken dose removed from the quantity on hand, when the schedule still
   * tracks one (a schedule removed since, or no longer tracking, has nothing to give back to).
   */
  async function giveBack(q: CareQueries, ownerId: string, profileId: string, row: DoseLogRow, now: Date) {
    if (row.units_taken === null) return;
    const schedule = await q.schedule(ownerId, profileId, row.medication_id);
    if (!schedule || schedule.quantity_on_hand === null) return;
    await q.setQuantity(ownerId, row.medication_id, roundQuantity(schedule.quantity_on_hand + row.units_taken), nowIso(now));
  }

  /** Takes one dose from the quantity on hand when it is tracked (never below 0): what was taken, or null. */
  async function take(q: CareQueries, ownerId: string, profileId: string, medicationId: string, now: Date): Promise<number | null> {
    const schedule = await q.schedule(ownerId, profileId, medicationId);
    if (!schedule || schedule.quantity_on_hand === null) return null;
    const units = Math.min(schedule.dose_units, schedule.quantity_on_hand);
    await q.setQuantity(ownerId, medicationId, roundQuantity(schedule.quantity_on_hand - units), nowIso(now));
    return units;
  }

  /** The medication and local time of a dose nobody has logged yet, when it is a real occurrence; else 404. */
  async function occurrence(q: CareQueries, person: Whose, doseId: string) {
    const parsed = parseDoseId(doseId);
    if (!parsed) throw notFound(DOSE_NOT_FOUND);
    const [medication, schedule] = await Promise.all([
      q.medication(person.ownerId, person.profileId, parsed.medicationId),
      q.schedule(person.ownerId, person.profileId, parsed.medicationId),
    ]);
    // A medication no longer current has no due doses (issue 32), so none to log either.
    if (!medication || !fromFlag(medication.is_current) || !schedule) throw notFound(DOSE_NOT_FOUND);
    if (!isScheduledTime(scheduleTimesOf(schedule), parsed.local)) throw notFound(DOSE_NOT_FOUND);
    return parsed;
  }

  function checkedRange(from: string, to: string): void {
    if (to < from) throw badRequest('to: must not be before from');
    if (addDays(from, MAX_DOSE_RANGE_DAYS - 1) < to) throw badRequest(`to: must be at most ${MAX_DOSE_RANGE_DAYS} days after from`);
  }

  /** The person's doses on the local dates `from`–`to` (the caller has checked access). */
  async function dosesOfPerson(person: Whose, from: string, to: string, zone: string, now: Date): Promise<Dose[]> {
    const [medications, log] = await Promise.all([
      repo.medicationsWithSchedules(person.ownerId, person.profileId),
      repo.logOfPerson(person.ownerId, person.profileId, from, to),
    ]);
    return dosesOf(medications.map(doseMedicationOf), log.map(loggedDoseOf), { from, to }, zone, now);
  }

  return {
    /**
     * GET …/doses?from&to: every dose of the person on those local dates (at most 92 days), each
     * scheduled time of each medication with a schedule merged with the log, in time order.
     */
    async list(actor: Actor, personId: string, range: { from: string; to: string }, what = `GET ${DOSES}`): Promise<Dose[]> {
      const person = await access.require(actor, personId, { need: 'viewer', what });
      checkedRange(range.from, range.to);
      const zone = await zones.ofPerson(person.profileId);
      return dosesOfPerson(person, range.from, range.to, zone, clock());
    },

    /**
     * PUT …/doses/{doseId}: logs a dose taken or skipped. Idempotent; changing one's mind later
     * updates the row (audited). Taking lowers the quantity on hand by the dose's units when it is
     * tracked; skipping a dose that was taken gives back exactly what taking removed.
     */
    async log(actor: Actor, personId: string, doseId: string, input: DoseLogInput, what = `PUT ${DOSE}`): Promise<Dose> {
      const person = await access.require(actor, personId, { need: 'editor', what });
      const zone = await zones.ofPerson(person.profileId);
      const now = clock();
      const takenAt = input.taken_at === undefined ? undefined : new Date(input.taken_at).toISOString();
      await repo.transaction(person.ownerId, async (q, trx) => {
        const { ownerId, profileId } = person;
        const existing = await q.loggedDose(ownerId, profileId, doseId);
        if (existing) {
          const status = input.status;
          const taken = status === 'taken' ? (takenAt ?? (existing.status === 'taken' ? existing.taken_at : null) ?? nowIso(now)) : null;
          if (existing.status === status && existing.taken_at === taken) return;
          let units = existing.units_taken;
          if (existing.status !== status) {
            if (status === 'taken') units = await take(q, ownerId, profileId, existing.medication_id, now);
            else {
              await giveBack(q, ownerId, profileId, existing, now);
              units = null;
            }
            await auditChange(trx, actor, person, what, doseId, existing.status, status);
          }
          const changed = existing.status !== status;
          await q.updateLog(ownerId, doseId, {
            status,
            taken_at: taken,
            logged_at: changed ? nowIso(now) : existing.logged_at,
            logged_by: changed ? actor.userId : existing.logged_by,
            units_taken: units,
          });
          return;
        }
        const { medicationId, local } = await occurrence(q, person, doseId);
        const units = input.status === 'taken' ? await take(q, ownerId, profileId, medicationId, now) : null;
        await q.insertLog({
          id: doseId,
          user_id: ownerId,
          profile_id: profileId,
          medication_id: medicationId,
          scheduled_local: local,
          scheduled_at: instantsIn(zone)(local).toISOString(),
          as_needed: 0,
          status: input.status,
          taken_at: input.status === 'taken' ? (takenAt ?? nowIso(now)) : null,
          logged_at: nowIso(now),
          logged_by: actor.userId,
          units_taken: units,
        });
      });
      return answerOf(person, doseId, zone);
    },

    /** DELETE …/doses/{doseId}: undoes a logged dose (audited), giving back what taking it removed. */
    async undo(actor: Actor, personId: string, doseId: string, what = `DELETE ${DOSE}`): Promise<void> {
      const person = await access.require(actor, personId, { need: 'editor', what });
      const now = clock();
      await repo.transaction(person.ownerId, async (q, trx) => {
        const existing = await q.loggedDose(person.ownerId, person.profileId, doseId);
        if (!existing) throw notFound(DOSE_NOT_FOUND);
        await giveBack(q, person.ownerId, person.profileId, existing, now);
        await q.deleteLog(person.ownerId, doseId);
        await auditChange(trx, actor, person, what, doseId, existing.status, 'undone');
      });
    },

    /**
     * POST …/doses: an as-needed dose taken (any medication of the person may log one), at
     * `taken_at` or now. It lowers the quantity on hand like a scheduled dose.
     */
    async logAsNeeded(
      actor: Actor,
      personId: string,
      input: { medication_id: string; taken_at?: string | undefined },
      what = `POST ${DOSES}`,
    ): Promise<Dose> {
      const person = await access.require(actor, personId, { need: 'editor', what });
      const medication = await repo.medication(person.ownerId, person.profileId, input.medication_id);
      if (!medication) throw notFound('Medication not found');
      const zone = await zones.ofPerson(person.profileId);
      const now = clock();
      const takenAt = input.taken_at === undefined ? now : new Date(input.taken_at);
      const doseId = newId();
      await repo.transaction(person.ownerId, async (q) => {
        const units = await take(q, person.ownerId, person.profileId, medication.id, now);
        await q.insertLog({
          id: doseId,
          user_id: person.ownerId,
          profile_id: person.profileId,
          medication_id: medication.id,
          scheduled_local: localClock(takenAt, zone),
          scheduled_at: takenAt.toISOString(),
          as_needed: 1,
          status: 'taken',
          taken_at: takenAt.toISOString(),
          logged_at: nowIso(now),
          logged_by: actor.userId,
          units_taken: units,
        });
      });
      return answerOf(person, doseId, zone);
    },

    /**
     * GET …/adherence?days: per medication with a (not as-needed) schedule, over the last `days`
     * local dates up to now. `scheduled` counts the doses that are settled — logged (taken or
     * skipped, scheduled doses only) or missed; a dose still upcoming or due and not logged is not
     * counted yet. `percent` is taken of scheduled, rounded; null when none is settled.
     */
    async adherence(actor: Actor, personId: string, days: number, what = `GET /api/user/people/:personId/adherence`): Promise<Adherence> {
      const person = await access.require(actor, personId, { need: 'viewer', what });
      const zone = await zones.ofPerson(person.profileId);
      const now = clock();
      const to = localClock(now, zone).slice(0, 10);
      const from = addDays(to, -(days - 1));
      const [medications, log] = await Promise.all([
        repo.medicationsWithSchedules(person.ownerId, person.profileId),
        repo.logOfPerson(person.ownerId, person.profileId, from, to),
      ]);
      const scheduled = medications.filter((m) => m.schedule !== null && m.schedule.as_needed === 0);
      const doses = dosesOf(medications.map(doseMedicationOf), log.map(loggedDoseOf), { from, to }, zone, now);
      const adherence = scheduled
        .map((m) => {
          const counts = { taken: 0, skipped: 0, missed: 0 };
          for (const dose of doses) {
            if (dose.medication_id !== m.id || dose.as_needed) continue;
            if (dose.status === 'taken' || dose.status === 'skipped' || dose.status === 'missed') counts[dose.status] += 1;
          }
          const total = counts.taken + counts.skipped + counts.missed;
          return {
            medication_id: m.id,
            medication_name: m.medication_name,
            scheduled: total,
            ...counts,
            percent: total === 0 ? null : Math.round((100 * counts.taken) / total),
          };
        })
        .sort((a, b) => (a.medication_name ?? '').localeCompare(b.medication_name ?? '') || (a.medication_id < b.medication_id ? -1 : 1));
      return { days, adherence };
    },

    /**
     * What a dose id names, for a reminder (no actor, no access check: the caller decides who may
     * see it): its person, medication, time and status at the service's clock. Null when the id
     * names no logged dose and no real occurrence of a current medication's schedule.
     */
    async describe(doseId: string): Promise<DoseInfo | null> {
      const logged = await repo.loggedDoseById(doseId);
      const medicationId = logged?.medication_id ?? parseDoseId(doseId)?.medicationId;
      if (!medicationId) return null;
      const medication = await repo.medicationById(medicationId);
      if (!medication) return null;
      const zone = await zones.ofPerson(medication.profile_id);
      const base = {
        doseId,
        personId: medication.profile_id,
        ownerId: medication.user_id,
        personName: medication.person_name,
        medicationId,
        medicationName: medication.medication_name,
        zone,
      };
      if (logged) {
        return {
          ...base,
          local: logged.scheduled_local,
          scheduledAt: new Date(logged.scheduled_at),
          asNeeded: fromFlag(logged.as_needed),
          status: logged.status,
          logged: true,
        };
      }
      const parsed = await occurrence(repo, { ownerId: medication.user_id, profileId: medication.profile_id }, doseId).catch(() => null);
      if (!parsed) return null;
      const scheduledAt = instantsIn(zone)(parsed.local);
      return { ...base, local: parsed.local, scheduledAt, asNeeded: false, status: unloggedStatus(scheduledAt, clock()), logged: false };
    },

    /** Every dose of one person on the local dates `from`–`to`, without an actor (a reminder's or a feed's read). */
    async dosesOfPerson(personId: string, from: string, to: string): Promise<Dose[]> {
      checkedRange(from, to);
      const zone = await zones.ofPerson(personId);
      const owner = await repo.ownerOf(personId);
      if (!owner) return [];
      return dosesOfPerson({ ownerId: owner, profileId: personId }, from, to, zone, clock());
    },
  };
}

export type DoseService = ReturnType<typeof createDoseService>;
