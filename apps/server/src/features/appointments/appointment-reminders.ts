import type { Db } from '../../db/database';
import { addNotification } from '../../common/notify';
import { createAppointmentRepository } from './appointment.repository';

const DAY_MS = 86_400_000;

/**
 * Creates a reminder (type info) for every appointment starting within the next 24 hours. The
 * notification's dedupe key makes the job idempotent: running it twice, or on several instances
 * at once, creates one reminder per appointment (the unique index decides).
 */
export async function runAppointmentReminders(db: Db, now: Date = new Date()): Promise<number> {
  const repo = createAppointmentRepository(db);
  const dates = [0, 1, 2].map((d) => new Date(now.getTime() + d * DAY_MS).toISOString().slice(0, 10));
  let created = 0;
  for (const a of await repo.dueOn(dates)) {
    const start = Date.parse(
      a.start_time ? (/(Z|[+-]\d{2}:\d{2})$/.test(a.start_time) ? a.start_time : `${a.start_time}Z`) : `${a.appointment_date}T00:00:00Z`,
    );
    if (start <= now.getTime() || start - now.getTime() > DAY_MS) continue;
    const time = a.start_time ? ` at ${a.start_time.slice(11, 16)}` : '';
    // The person's owner is told (DESIGN §11), naming the family member when it is not their own.
    const whose = a.person_is_self === 0 ? `${a.person_name?.trim() || 'your family member'}'s` : 'your';
    const added = await addNotification(db, {
      userId: a.user_id,
      type: 'info',
      level: 'info',
      title: 'Appointment tomorrow',
      message: `Reminder: ${whose} appointment with ${a.provider_name} is on ${a.appointment_date}${time}.`,
      dedupeKey: `appointment-reminder:${a.id}`,
    });
    if (added) created += 1;
  }
  return created;
}

/** Runs the job now and then every few minutes; returns a stop function for shutdown. */
export function scheduleAppointmentReminders(db: Db, onError: (error: unknown) => void, everyMs = 5 * 60_000): () => void {
  const tick = () => void runAppointmentReminders(db).catch(onError);
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
