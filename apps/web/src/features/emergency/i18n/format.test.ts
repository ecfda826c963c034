import { describe, expect, it } from 'vitest';
import { formatAgeFromBirthDate, formatAgeYears } from './format';

describe('ages on the emergency page', () => {
  it('counts a baby in months from the date of birth, and everyone else in years', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(formatAgeFromBirthDate('en', '2026-03-10', now)).toBe('8 months');
    expect(formatAgeFromBirthDate('en', '1958-07-19', now)).toBe('68 years');
    expect(formatAgeFromBirthDate('es', '1958-07-19', now)).toBe('68 años');
    expect(formatAgeFromBirthDate('en', '2030-01-01', now)).toBeNull();
  });

  it('words the essentials’ whole years, and a baby’s 0 as under a year, in the viewer’s language', () => {
    expect(formatAgeYears('en', 44)).toBe('44 years');
    expect(formatAgeYears('en', 0)).toBe('< 1 year');
    expect(formatAgeYears('de', 0)).toBe('< 1 Jahr');
    expect(formatAgeYears('en', null)).toBeNull();
  });
});
