import { describe, expect, it } from 'vitest';
import type { Appointment } from '@kinchart/shared/appointments';
import { displayAppointmentTime, toCalendarEvent } from './calendar-events';

const base: Appointment = {
  appointment_id: 'a1',
  id: 'a1',
  appointment_date: '2026-12-03',
  start_time: '2026-12-03T09:30:00',
  end_time: '2026-12-03T10:15:00',
  provider_name: 'Dr. Chen',
  reason_for_visit: 'Annual check-up',
  location: 'Riverside Clinic',
  created_at: '2026-11-01T12:00:00.000Z',
  person_id: 'person-self',
  person_name: 'Pat Example',
  reminder_minutes: [1440, 120],
};

/** A local wall-clock time, as the calendar shows it. */
const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => new Date(y, m - 1, d, h, min, s);

describe('appointments as calendar events', () => {
  it('the title is the provider name plus the reason, or the provider alone', () => {
    expect(toCalendarEvent(base).title).toBe('Dr. Chen - Annual check-up');
    expect(toCalendarEvent({ ...base, reason_for_visit: null }).title).toBe('Dr. Chen');
  });

  it('spans the stored start and end times as local wall-clock times', () => {
    const event = toCalendarEvent(base);
    expect(event.start).toEqual(local(2026, 12, 3, 9, 30));
    expect(event.end).toEqual(local(2026, 12, 3, 10, 15));
    expect(event.id).toBe('a1');
    expect(event.appointment).toBe(base);
  });

  it('a missing start begins at 00:00:00 and a missing end finishes at 23:59:59 of the date', () => {
    const noStart = toCalendarEvent({ ...base, start_time: null });
    expect(noStart.start).toEqual(local(2026, 12, 3, 0, 0, 0));
    expect(noStart.end).toEqual(local(2026, 12, 3, 10, 15));

    const noEnd = toCalendarEvent({ ...base, end_time: null });
    expect(noEnd.start).toEqual(local(2026, 12, 3, 9, 30));
    expect(noEnd.end).toEqual(local(2026, 12, 3, 23, 59, 59));

    const neither = toCalendarEvent({ ...base, start_time: null, end_time: null });
    expect(neither.start).toEqual(local(2026, 12, 3, 0, 0, 0));
    expect(neither.end).toEqual(local(2026, 12, 3, 23, 59, 59));
  });

  it('keeps the moment of times stored with a zone', () => {
    const event = toCalendarEvent({ ...base, start_time: '2026-12-03T09:30:00.000Z', end_time: '2026-12-03T10:00:00.000Z' });
    expect(event.start.toISOString()).toBe('2026-12-03T09:30:00.000Z');
    expect(event.end.toISOString()).toBe('2026-12-03T10:00:00.000Z');
  });

  it('never ends before it starts, whatever was stored', () => {
    const event = toCalendarEvent({ ...base, start_time: '2026-12-03T11:00:00', end_time: '2026-12-03T10:00:00' });
    expect(event.end).toEqual(event.start);
  });

  it('shows times on a 12-hour clock with AM/PM', () => {
    expect(displayAppointmentTime('2026-12-03T09:30:00')).toBe('9:30 AM');
    expect(displayAppointmentTime('2026-12-03T21:05:00')).toBe('9:05 PM');
    expect(displayAppointmentTime(null)).toBeNull();
  });
});
