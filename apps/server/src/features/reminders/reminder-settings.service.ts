import type { ReminderSettings } from '@kinchart/shared/care';
import { HOLDER_REMINDER_DEFAULTS, OWNER_REMINDER_DEFAULTS } from '@kinchart/shared/care';
import type { AccessNeed, Actor, PersonAccessService } from '../../common/person-access';
import { nowIso } from '../../lib/ids';
import type { ReminderRepository } from './reminders.repository';

// Issue 32: each user's choice, per person, of the reminders they receive about that person. It is
// about what the reader receives, so a viewer may read and set their own; no access is 404. No row:
// the defaults (the owner true/false/true, a holder all false).

export type ReminderSettingsService = ReturnType<typeof createReminderSettingsService>;

type SettingsRow = { dose_reminders: number; missed_dose_alerts: number; appointment_reminders: number };

/** The settings a row says, or the defaults for an owner or a holder when there is none. */
export function settingsOf(row: SettingsRow | undefined, isOwner: boolean): ReminderSettings {
  if (!row) return { ...(isOwner ? OWNER_REMINDER_DEFAULTS : HOLDER_REMINDER_DEFAULTS) };
  return {
    dose_reminders: row.dose_reminders === 1,
    missed_dose_alerts: row.missed_dose_alerts === 1,
    appointment_reminders: row.appointment_reminders === 1,
  };
}

export function createReminderSettingsService(deps: { repo: ReminderRepository; access: PersonAccessService }) {
  const { repo, access } = deps;

  async function read(actor: Actor, profileId: string, need: AccessNeed): Promise<ReminderSettings> {
    const person = await access.require(actor, profileId, need);
    return settingsOf(await repo.settings(actor.userId, profileId), person.role === 'owner');
  }

  return {
    read,

    /** Changes the fields given; those left out keep their value (or their default). */
    async save(actor: Actor, profileId: string, input: Partial<ReminderSettings>, need: AccessNeed): Promise<ReminderSettings> {
      const next = { ...(await read(actor, profileId, need)), ...input };
      await repo.saveSettings({
        user_id: actor.userId,
        profile_id: profileId,
        dose_reminders: next.dose_reminders ? 1 : 0,
        missed_dose_alerts: next.missed_dose_alerts ? 1 : 0,
        appointment_reminders: next.appointment_reminders ? 1 : 0,
        updated_at: nowIso(),
      });
      return next;
    },
  };
}
