import { t } from '@lingui/core/macro';
import { format, isValid } from 'date-fns';
import type { Appointment, AppointmentField, AppointmentInput } from '@kinchart/shared/appointments';
import { APPOINTMENT_FIELDS } from '@kinchart/shared/appointments';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { parseAppointmentTime } from './calendar-events';

/** The add and edit appointment form as the inputs hold it: one text per appointment field. */
export type AppointmentFormValues = Record<AppointmentField, string>;

export const EMPTY_APPOINTMENT_FORM = Object.fromEntries(APPOINTMENT_FIELDS.map((field) => [field, ''])) as AppointmentFormValues;

/** SPEC §7: start_time and end_time are date + 'T' + time, or null when the time is empty. */
export function toAppointmentInput(values: AppointmentFormValues): AppointmentInput {
  const at = (time: string) => (time ? `${values.appointment_date}T${time}` : null);
  return {
    appointment_date: values.appointment_date,
    start_time: at(values.start_time),
    end_time: at(values.end_time),
    provider_name: values.provider_name,
    reason_for_visit: values.reason_for_visit,
    location: values.location,
  };
}

/** A time input's value: 24-hour HH:mm, whatever the language. */
const INPUT_TIME_PATTERN = 'HH:mm';

/** A stored appointment as the edit form's inputs hold it: times as HH:mm in the user's clock. */
export function toAppointmentFormValues(appointment: Appointment): AppointmentFormValues {
  const time = (value: string | null) => {
    if (!value) return '';
    const date = parseAppointmentTime(value);
    return isValid(date) ? format(date, INPUT_TIME_PATTERN) : '';
  };
  return {
    appointment_date: appointment.appointment_date,
    start_time: time(appointment.start_time),
    end_time: time(appointment.end_time),
    provider_name: appointment.provider_name,
    reason_for_visit: appointment.reason_for_visit ?? '',
    location: appointment.location ?? '',
  };
}

/**
 * Why an appointment save or delete failed, for the dialog. The server's own message when it
 * answered; a fetch that never got an answer (offline, server down) rejects without a status.
 */
export function appointmentFailureReason(error: unknown): string {
  const fromServer = serverMessage(error);
  if (fromServer) return fromServer;
  if (error instanceof ApiError) {
    const status = error.status;
    return t`The server answered with an error (${status}). Please try again.`;
  }
  return t`Could not reach the server. Check your connection and try again.`;
}
