import type { Dose, Schedule } from '@kinchart/shared/care';

// Schedules and doses shaped exactly like the server's answers (packages/shared/src/care.ts), for unit tests.

export function makeSchedule(medicationId: string, overrides: Partial<Schedule> = {}): Schedule {
  return {
    medication_id: medicationId,
    person_id: 'self-1',
    times: ['08:00', '20:00'],
    days: [1, 2, 3, 4, 5, 6, 7],
    start_date: '2026-11-01',
    end_date: null,
    as_needed: false,
    dose_units: 1,
    quantity_on_hand: null,
    refill_remind_days: null,
    reminders: true,
    runs_out_on: null,
    updated_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A scheduled dose of `medicationId` at a local time written with its offset ("2026-11-27T08:00:00+01:00"). */
export function makeDose(medicationId: string, scheduledAt: string, overrides: Partial<Dose> = {}): Dose {
  const local = scheduledAt.slice(0, 16).replace(/[-:T]/g, '');
  return {
    dose_id: `${medicationId}.${local}`,
    medication_id: medicationId,
    medication_name: `Medication ${medicationId}`,
    dosage: '10 mg',
    scheduled_at: scheduledAt,
    status: 'upcoming',
    as_needed: false,
    taken_at: null,
    logged_at: null,
    logged_by: null,
    ...overrides,
  };
}
