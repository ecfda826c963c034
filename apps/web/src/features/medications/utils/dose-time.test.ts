import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dayOutcome,
  describeSchedule,
  isOnPersonsToday,
  offsetMinutesOf,
  personsToday,
  statusAt,
  todayWindow,
  weekdayName,
} from './dose-time';

describe('dose times in the person’s zone', () => {
  it('reads the offset a dose is written with', () => {
    expect(offsetMinutesOf('2026-11-27T08:00:00+01:00')).toBe(60);
    expect(offsetMinutesOf('2026-11-27T08:00:00-05:30')).toBe(-330);
    expect(offsetMinutesOf('2026-11-27T08:00:00Z')).toBe(0);
  });

  it("keeps a dose on the person's today, not the browser's", () => {
    const now = new Date('2026-11-27T23:30:00Z');
    // Madrid: already Nov 28 at 00:30.
    expect(isOnPersonsToday({ scheduled_at: '2026-11-28T08:00:00+01:00' }, now)).toBe(true);
    expect(isOnPersonsToday({ scheduled_at: '2026-11-27T20:00:00+01:00' }, now)).toBe(false);
    // New York: still Nov 27 at 18:30.
    expect(isOnPersonsToday({ scheduled_at: '2026-11-27T20:00:00-05:00' }, now)).toBe(true);
    expect(personsToday([{ scheduled_at: '2026-11-28T08:00:00+01:00' }], now)).toBe('2026-11-28');
  });

  it('asks from yesterday to tomorrow (UTC) so every zone’s today is inside', () => {
    expect(todayWindow(new Date('2026-03-01T03:00:00Z'))).toEqual({ from: '2026-02-28', to: '2026-03-02' });
  });

  it('an unlogged dose is upcoming, then due for 60 minutes, then missed', () => {
    const dose = { scheduled_at: '2026-11-27T08:00:00+01:00' };
    expect(statusAt(dose, new Date('2026-11-27T06:59:00Z'))).toBe('upcoming');
    expect(statusAt(dose, new Date('2026-11-27T07:00:00Z'))).toBe('due');
    expect(statusAt(dose, new Date('2026-11-27T07:59:59Z'))).toBe('due');
    expect(statusAt(dose, new Date('2026-11-27T08:00:00Z'))).toBe('missed');
  });

  it("a day's outcome: any missed or skipped, else all taken, else still to come", () => {
    expect(dayOutcome([])).toBe('none');
    expect(dayOutcome([{ status: 'taken' }, { status: 'taken' }])).toBe('all-taken');
    expect(dayOutcome([{ status: 'taken' }, { status: 'upcoming' }])).toBe('to-come');
    expect(dayOutcome([{ status: 'skipped' }, { status: 'upcoming' }])).toBe('missed');
  });

  it('says a schedule in words', () => {
    const base = { as_needed: false, end_date: null, reminders: true };
    expect(describeSchedule({ ...base, times: ['08:00', '20:00'], days: [1, 2, 3, 4, 5, 6, 7] })).toBe('08:00, 20:00 · every day');
    expect(describeSchedule({ ...base, times: ['07:00'], days: [1, 2, 3, 4, 5] })).toBe('07:00 · weekdays');
    expect(describeSchedule({ ...base, times: ['09:00'], days: [5, 1, 3], end_date: '2026-12-31', reminders: false })).toBe(
      '09:00 · Mon, Wed, Fri · until Dec 31, 2026 · no reminders',
    );
    expect(describeSchedule({ ...base, as_needed: true, times: [], days: [1] })).toBe('As needed');
  });
});

describe("schedule days in the reader's language (issue 35)", () => {
  afterEach(() => i18n.activate('en'));

  it("names weekdays through Intl, Monday first, whatever the browser's zone", () => {
    expect([1, 7].map((d) => weekdayName(d, 'long', 'en'))).toEqual(['Monday', 'Sunday']);
    expect([1, 3, 5].map((d) => weekdayName(d, 'short', 'de'))).toEqual(['Mo', 'Mi', 'Fr']);
    expect(weekdayName(1, 'short', 'ja')).toBe('月');
  });

  it("lists the days of a schedule with the active language's names and separators", () => {
    i18n.loadAndActivate({ locale: 'ja', messages: {} });
    expect(describeSchedule({ as_needed: false, end_date: null, reminders: true, times: ['08:00'], days: [1, 3, 5] })).toBe(
      '08:00 · 月 水 金',
    );
  });
});
