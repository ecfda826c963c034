import { describe, expect, it } from 'vitest';
import { APPOINTMENT_FIELDS, appointmentInputSchema, appointmentSchema, appointmentValuesOf } from './appointments';
import { exportAppointmentSchema } from './export';

describe('the appointment’s fields, from one list', () => {
  it('APPOINTMENT_FIELDS are what an appointment is (SPEC §3), without whose it is or its bookkeeping', () => {
    expect(APPOINTMENT_FIELDS).toEqual(['appointment_date', 'start_time', 'end_time', 'provider_name', 'reason_for_visit', 'location']);
  });

  it('the form’s input, the answer and the export entry each carry every one of them', () => {
    const keys = (shape: object) => Object.keys(shape);
    // Beside SPEC §3's fields: whose it is, its bookkeeping, and its reminder lead times (issue 32).
    expect(keys(appointmentInputSchema.shape).sort()).toEqual([...APPOINTMENT_FIELDS, 'person_id', 'reminder_minutes'].sort());
    expect(keys(appointmentSchema.shape).sort()).toEqual(
      [...APPOINTMENT_FIELDS, 'id', 'appointment_id', 'created_at', 'person_id', 'person_name', 'reminder_minutes'].sort(),
    );
    expect(keys(exportAppointmentSchema.shape).sort()).toEqual(
      [...APPOINTMENT_FIELDS, 'id', 'profile_id', 'uid', 'created_at', 'reminder_minutes'].sort(),
    );
  });

  it('appointmentValuesOf keeps the appointment’s fields and nothing else', () => {
    const row = {
      id: 'a1',
      user_id: 'u1',
      appointment_date: '2026-05-01',
      start_time: '2026-05-01T14:30:00',
      end_time: null,
      provider_name: 'Dr. Lee',
      reason_for_visit: 'Check-up',
      location: null,
      created_at: '2026-04-01T00:00:00.000Z',
    };
    expect(appointmentValuesOf(row)).toEqual({
      appointment_date: '2026-05-01',
      start_time: '2026-05-01T14:30:00',
      end_time: null,
      provider_name: 'Dr. Lee',
      reason_for_visit: 'Check-up',
      location: null,
    });
  });
});
