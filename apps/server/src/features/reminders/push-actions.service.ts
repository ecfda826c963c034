import type { PushAction } from '@kinchart/shared/care';
import { SNOOZE_MINUTES, parseDoseId } from '@kinchart/shared/care';
import type { Actor, PersonAccessService } from '../../common/person-access';
import { notFound } from '../../lib/http-errors';
import { newId, nowIso, sha256Hex } from '../../lib/ids';
import type { ReminderRepository } from './reminders.repository';
import type { ReminderScheduler } from './scheduler';

// Issue 32: a dose reminder's push notification carries a single-use token (256 bits, stored as its
// SHA-256, 12 hours, tied to one dose and one user) for its buttons: Taken logs the dose as that user
// (through the dose service, which checks their access again); Snooze 10 min reminds that user once
// more. The route is public — the service worker posts without a session — so the token is the
// credential, and any token that is unknown, used, or expired is the same 404.

export type PushActionService = ReturnType<typeof createPushActionService>;

/** Logs a scheduled dose as taken, as `actor` (the dose service of features/care). */
export type LogTaken = (actor: Actor, personId: string, doseId: string) => Promise<unknown>;

const GONE = 'This reminder has expired or was already answered';

export function createPushActionService(deps: {
  repo: ReminderRepository;
  access: PersonAccessService;
  scheduler: ReminderScheduler;
  logTaken: LogTaken;
  now: () => Date;
}) {
  return {
    async act(token: string, action: PushAction): Promise<{ message: string }> {
      const used = await deps.repo.useActionToken(sha256Hex(token), nowIso(deps.now()));
      if (!used) throw notFound(GONE);
      const actor: Actor = { userId: used.user_id, ip: null };
      if (action === 'taken') {
        await deps.logTaken(actor, used.profile_id, used.dose_id);
        return { message: 'Dose logged as taken' };
      }
      // Snooze: only while the user still sees the person.
      const access = await deps.access.lookup(used.user_id, used.profile_id);
      const dose = parseDoseId(used.dose_id);
      if (!access || !dose) throw notFound(GONE);
      await deps.scheduler.snooze({
        id: newId(),
        userId: used.user_id,
        profileId: used.profile_id,
        doseId: used.dose_id,
        medicationId: dose.medicationId,
        minutes: SNOOZE_MINUTES,
      });
      return { message: `Reminding you again in ${SNOOZE_MINUTES} minutes` };
    },
  };
}
