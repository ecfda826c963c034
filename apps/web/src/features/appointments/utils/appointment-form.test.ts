import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { EMPTY_APPOINTMENT_FORM, appointmentFailureReason, toAppointmentFormValues, toAppointmentInput } from './appointment-form';

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

describe('the edit-appointment form', () => {
  it('starts from the stored appointment, with times as the inputs hold them and empty text for missing values', () => {
    expect(
      toAppointmentFormValues({
        appointment_id: 'a1',
        id: 'a1',
        appointment_date: '2026-12-03',
        start_time: '2026-12-03T09:30:00',
        end_time: null,
        provider_name: 'Dr. Chen',
        reason_for_visit: null,
        location: 'Riverside Clinic',
        created_at: '2026-11-01T12:00:00.000Z',
        person_id: 'person-self',
        person_name: 'Pat Example',
        reminder_minutes: [1440, 120],
      }),
    ).toEqual({
      appointment_date: '2026-12-03',
      start_time: '09:30',
      end_time: '',
      provider_name: 'Dr. Chen',
      reason_for_visit: '',
      location: 'Riverside Clinic',
    });
  });

  it('explains a failure: the server’s message, else its status, else that the server could not be reached', () => {
    expect(appointmentFailureReason(new ApiError(404, 'Appointment not found', { message: 'Appointment not found' }))).toBe(
      'Appointment not found',
    );
    expect(appointmentFailureReason(new ApiError(502, 'Request failed', undefined))).toMatch(/502/);
    expect(appointmentFailureReason(new TypeError('Failed to fetch'))).toMatch(/Could not reach the server/);
  });
});
