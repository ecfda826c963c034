import { format, isValid, parseISO } from 'date-fns';
import { appointmentSpan, appointmentTitle, type Appointment } from '@kinchart/shared/appointments';

/** Whose appointment an event is, as the calendar shows it: their name and colour (DESIGN §11). */
export interface EventPerson {
  name: string;
  background: string;
  border: string;
}

/** One appointment as react-big-calendar draws it. */
export interface AppointmentEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  appointment: Appointment;
  /** Null when the user has only themself: no name or colour worth showing. */
  person: EventPerson | null;
}

/**
 * A stored time as a Date: wall-clock times ('2026-12-03T09:30:00') are the user's local time,
 * full instants ('…Z', '…+02:00') keep their moment.
 */
export function parseAppointmentTime(value: string): Date {
  return parseISO(value);
}

/**
 * SPEC §3: the title is the provider name plus the reason; a missing start is 00:00:00 and a
 * missing end 23:59:59 of the appointment date (appointmentSpan, shared with the .ics export).
 */
export function toCalendarEvent(appointment: Appointment, person: EventPerson | null = null): AppointmentEvent {
  const span = appointmentSpan(appointment);
  const dayStart = parseAppointmentTime(`${appointment.appointment_date}T00:00:00`);
  let start = parseAppointmentTime(span.start);
  let end = parseAppointmentTime(span.end);
  if (!isValid(start)) start = dayStart;
  // The server refuses an end before the start; an odd stored pair still must not break the view.
  if (!isValid(end) || end < start) end = start;
  return { id: appointment.appointment_id, title: appointmentTitle(appointment), start, end, appointment, person };
}

/** 12-hour clock with AM/PM (SPEC §9), e.g. "9:30 AM". */
export const TIME_FORMAT = 'h:mm a';

export function formatTime(date: Date): string {
  return format(date, TIME_FORMAT);
}

/** A stored time for people, or null when there is none. */
export function displayAppointmentTime(value: string | null): string | null {
  if (!value) return null;
  const date = parseAppointmentTime(value);
  return isValid(date) ? formatTime(date) : value;
}

/** An appointment date (YYYY-MM-DD) for people: "Thursday, December 3, 2026". */
export function displayAppointmentDate(value: string): string {
  const date = parseAppointmentTime(`${value}T00:00:00`);
  return isValid(date) ? format(date, 'EEEE, MMMM d, yyyy') : value;
}
