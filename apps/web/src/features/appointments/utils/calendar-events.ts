import { i18n } from '@lingui/core';
import { format, isValid, parseISO } from 'date-fns';
import { appointmentSpan, appointmentTitle, type Appointment } from '@kinchart/shared/appointments';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';

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

/** The active language as Intl reads it ('en' for English and the pseudo-locale). */
export function activeLocale(): string {
  return isAppLanguage(i18n.locale) ? intlLocale(i18n.locale) : 'en';
}

/**
 * English keeps SPEC §9's own formats (date-fns patterns: "9:30 AM", "Thursday, December 3,
 * 2026"); every other language gets its own order, names and clock through Intl.
 */
export function isEnglish(locale: string = activeLocale()): boolean {
  return locale === 'en' || locale.startsWith('en-');
}

/** A time of day for people: "9:30 AM" in English, "09:30" in German, "9:30" in Japanese. */
export function formatTime(date: Date, locale: string = activeLocale()): string {
  if (isEnglish(locale)) return format(date, TIME_FORMAT);
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(date);
}

/** A span of time: "9:30 AM – 10:00 AM". */
export function formatTimeRange(start: Date, end: Date, locale: string = activeLocale()): string {
  return `${formatTime(start, locale)} – ${formatTime(end, locale)}`;
}

/** SPEC's English long date: "Thursday, December 3, 2026". */
const LONG_DATE_PATTERN = 'EEEE, MMMM d, yyyy';

/** A date with its weekday written out: "Thursday, December 3, 2026", "jeudi 3 décembre 2026". */
export function formatLongDate(date: Date, locale: string = activeLocale()): string {
  if (isEnglish(locale)) return format(date, LONG_DATE_PATTERN);
  return new Intl.DateTimeFormat(locale, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(date);
}

/** One part of a date in the reader's language (a calendar leaf's month, day, weekday). */
export function formatDatePart(date: Date, options: Intl.DateTimeFormatOptions, locale: string = activeLocale()): string {
  return new Intl.DateTimeFormat(locale, options).format(date);
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
  return isValid(date) ? formatLongDate(date) : value;
}
