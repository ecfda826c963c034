import type { AppointmentInput } from '@kinchart/shared/appointments';

/** The add-appointment form as the inputs hold it. */
export interface AppointmentFormValues {
  appointment_date: string;
  start_time: string;
  end_time: string;
  provider_name: string;
  reason_for_visit: string;
  location: string;
}

export const EMPTY_APPOINTMENT_FORM: AppointmentFormValues = {
  appointment_date: '',
  start_time: '',
  end_time: '',
  provider_name: '',
  reason_for_visit: '',
  location: '',
};

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
