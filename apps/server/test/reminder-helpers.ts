import pino from 'pino';
import type { TestApp } from './helpers';
import type { PushSender } from '../src/features/reminders/push-sender';
import { createReminderScheduler } from '../src/features/reminders/scheduler';
import { newId, nowIso } from '../src/lib/ids';

/** A reminder scheduler on the test app's database, driven by the test through `tick(now)` (no timer). */
export function testScheduler(t: TestApp, options: { push?: PushSender } = {}) {
  return createReminderScheduler({
    db: t.database.db,
    mailer: undefined,
    push: options.push,
    publicUrl: t.config.publicUrl,
    log: pino({ level: 'silent' }),
  });
}

/** A current medication of `profileId` with a schedule, straight into the database (the schedule routes have their own tests). */
export async function insertScheduledMedication(
  t: TestApp,
  m: {
    ownerId: string;
    profileId: string;
    name: string;
    times: string[];
    days?: number[];
    startDate?: string;
    quantity?: number | null;
    doseUnits?: number;
    refillRemindDays?: number | null;
    reminders?: boolean;
    isCurrent?: boolean;
  },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await t.database.db
    .insertInto('medications')
    .values({
      id,
      user_id: m.ownerId,
      profile_id: m.profileId,
      medication_name: m.name,
      dosage: '5 mg',
      frequency: null,
      purpose: null,
      start_date: null,
      end_date: null,
      is_current: m.isCurrent === false ? 0 : 1,
      created_at: now,
      updated_at: now,
      codings: null,
    })
    .execute();
  await t.database.db
    .insertInto('medication_schedules')
    .values({
      medication_id: id,
      user_id: m.ownerId,
      profile_id: m.profileId,
      times: JSON.stringify(m.times),
      days: JSON.stringify(m.days ?? [1, 2, 3, 4, 5, 6, 7]),
      start_date: m.startDate ?? '2026-01-01',
      end_date: null,
      as_needed: 0,
      dose_units: m.doseUnits ?? 1,
      quantity_on_hand: m.quantity ?? null,
      refill_remind_days: m.refillRemindDays ?? null,
      reminders: m.reminders === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** Sets a person's own time zone. */
export async function setPersonZone(t: TestApp, profileId: string, zone: string): Promise<void> {
  await t.database.db.updateTable('profiles').set({ time_zone: zone }).where('id', '=', profileId).execute();
}
