import { describe, expect, it } from 'vitest';
import { EMPTY_APPOINTMENT_FORM, toAppointmentInput } from './appointment-form';

describe('the add-appointment body', () => {
  it('sends date + "T" + time for times that are filled in', () => {
    expect(
      toAppointmentInput({
        appointment_date: '2026-12-03',
        start_time: '09:30',
        end_time: '10:15',
        provider_name: 'Dr. Chen',
        reason_for_visit: 'Annual check-up',
        location: 'Riverside Clinic',
      }),
    ).toEqual({
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      end_time: '2026-12-03T10:15',
      provider_name: 'Dr. Chen',
      reason_for_visit: 'Annual check-up',
      location: 'Riverside Clinic',
    });
  });

  it('sends null for an empty start or end time', () => {
    const body = toAppointmentInput({ ...EMPTY_APPOINTMENT_FORM, appointment_date: '2026-12-03', provider_name: 'Dr. Chen' });
    expect(body.start_time).toBeNull();
    expect(body.end_time).toBeNull();
    expect(toAppointmentInput({ ...EMPTY_APPOINTMENT_FORM, appointment_date: '2026-12-03', start_time: '08:00' })).toMatchObject({
      start_time: '2026-12-03T08:00',
      end_time: null,
    });
  });
});
