import { describe, expect, it } from 'vitest';
import {
  addDays,
  adherenceQuerySchema,
  asNeededDoseInputSchema,
  canonicalTimeZone,
  doseIdOf,
  doseLogInputSchema,
  isTimeZone,
  isoWeekday,
  localDoseTimes,
  parseDoseId,
  scheduleInputSchema,
} from './care';

// Issue 32: the pure rules both sides use for schedules and doses.

const firstMessage = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.join('.')}: ${issue.message}` : undefined;
};

describe('time zones', () => {
  it('isTimeZone knows IANA zones and refuses anything else', () => {
    for (const zone of ['Europe/Madrid', 'America/New_York', 'UTC', 'Asia/Kathmandu']) expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ['', 'Mars/Olympus', 'Europe/Madrid/Old', 'x'.repeat(65), '+05:00', '-0500', '\u221205:00'])
      expect(isTimeZone(zone), zone).toBe(false);
  });

  it('canonicalTimeZone fixes the case of a known zone and leaves links and unknown names alone', () => {
    expect(canonicalTimeZone('europe/madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('America/New_York')).toBe('America/New_York');
    expect(canonicalTimeZone('US/Eastern')).toBe('US/Eastern');
    expect(canonicalTimeZone('Mars/Olympus')).toBe('Mars/Olympus');
  });
});

describe('dates', () => {
  it('isoWeekday counts Monday 1 to Sunday 7', () => {
    expect(isoWeekday('2027-03-08')).toBe(1);
    expect(isoWeekday('2027-03-10')).toBe(3);
    expect(isoWeekday('2027-03-14')).toBe(7);
  });

  it('addDays crosses months, leap days and years, forwards and back', () => {
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    // A daylight-saving day is still one date on (dates are UTC midnight, never local).
    expect(addDays('2027-03-14', 1)).toBe('2027-03-15');
  });
});

describe('localDoseTimes', () => {
  const every = { times: ['08:00', '20:00'], days: [1, 2, 3, 4, 5, 6, 7], start_date: '2027-03-01', end_date: null, as_needed: false };

  it('lists each time of each day, in order, both ends included', () => {
    expect(localDoseTimes(every, '2027-03-09', '2027-03-10')).toEqual([
      '2027-03-09T08:00',
      '2027-03-09T20:00',
      '2027-03-10T08:00',
      '2027-03-10T20:00',
    ]);
  });

  it('keeps to the schedule’s days and its start and end', () => {
    const weekdays = { ...every, times: ['09:00'], days: [1, 3, 5], start_date: '2027-03-08', end_date: '2027-03-12' };
    expect(localDoseTimes(weekdays, '2027-03-01', '2027-03-31')).toEqual(['2027-03-08T09:00', '2027-03-10T09:00', '2027-03-12T09:00']);
    expect(localDoseTimes(weekdays, '2027-03-13', '2027-03-31')).toEqual([]);
  });

  it('a daylight-saving day has its local times like any other day (the instants are decided later)', () => {
    expect(localDoseTimes({ ...every, times: ['02:30'] }, '2027-03-14', '2027-03-14')).toEqual(['2027-03-14T02:30']);
  });

  it('an as-needed schedule has none', () => {
    expect(localDoseTimes({ ...every, as_needed: true }, '2027-03-09', '2027-03-10')).toEqual([]);
  });
});

describe('dose ids', () => {
  it('name the medication and the local time, and read back', () => {
    const id = doseIdOf('5b63da21-93e4-44db-b01c-3ce760a647bf', '2027-03-09T08:00');
    expect(id).toBe('5b63da21-93e4-44db-b01c-3ce760a647bf.202703090800');
    expect(parseDoseId(id)).toEqual({ medicationId: '5b63da21-93e4-44db-b01c-3ce760a647bf', local: '2027-03-09T08:00' });
  });

  it('anything else names no scheduled dose', () => {
    for (const id of ['', 'abc', '.202703090800', 'med.20270309080', 'med.2027030908000', 'med.2027-03-09', 'med.20270309080a']) {
      expect(parseDoseId(id), id).toBeNull();
    }
  });
});

describe('the schedule’s input', () => {
  it('fills in the defaults and sorts times and days without repeats', () => {
    expect(scheduleInputSchema.parse({ times: ['20:00', '08:00', '08:00'], days: [7, 1, 1] })).toEqual({
      times: ['08:00', '20:00'],
      days: [1, 7],
      end_date: null,
      as_needed: false,
      dose_units: 1,
      quantity_on_hand: null,
      refill_remind_days: null,
      reminders: true,
    });
  });

  it.each([
    [{ times: ['8:00'] }, 'times.0: must be times as HH:MM (00:00 to 23:59)'],
    [{ times: [] }, 'times: must list 1 to 12 times a day (or set as_needed)'],
    [{ times: Array.from({ length: 13 }, (_, i) => `${String(i).padStart(2, '0')}:00`) }, 'times: must be at most 12 times a day'],
    [{ times: ['08:00'], days: [0] }, 'days.0: must be ISO weekdays 1 to 7'],
    [{ times: ['08:00'], days: [] }, 'days: must name at least one day'],
    [{ times: ['08:00'], start_date: '2027-03-10', end_date: '2027-03-09' }, 'end_date: must not be before start_date'],
    [{ times: ['08:00'], refill_remind_days: 1.5 }, 'refill_remind_days: must be whole days or null'],
  ])('%j is refused: %s', (input, message) => {
    expect(firstMessage(scheduleInputSchema.safeParse(input))).toBe(message);
  });

  it('as needed, no time is needed', () => {
    expect(scheduleInputSchema.parse({ as_needed: true })).toMatchObject({ as_needed: true, times: [] });
  });
});

describe('logging doses', () => {
  it('a status is taken or skipped, taken_at an instant', () => {
    expect(doseLogInputSchema.parse({ status: 'taken', taken_at: '2027-03-09T08:05:00-05:00' })).toEqual({
      status: 'taken',
      taken_at: '2027-03-09T08:05:00-05:00',
    });
    expect(firstMessage(doseLogInputSchema.safeParse({ status: 'missed' }))).toBe('status: must be "taken" or "skipped"');
    expect(firstMessage(doseLogInputSchema.safeParse({ status: 'taken', taken_at: 'soon' }))).toBe(
      'taken_at: must be a date and time (ISO 8601)',
    );
    expect(asNeededDoseInputSchema.safeParse({ medication_id: '' }).success).toBe(false);
  });

  it('adherence covers 1 to 92 days, 30 by default', () => {
    expect(adherenceQuerySchema.parse({})).toEqual({ days: 30 });
    expect(adherenceQuerySchema.parse({ days: '7' })).toEqual({ days: 7 });
    expect(firstMessage(adherenceQuerySchema.safeParse({ days: '93' }))).toBe('days: must be 1 to 92');
    expect(firstMessage(adherenceQuerySchema.safeParse({ days: '0' }))).toBe('days: must be 1 to 92');
  });
});
