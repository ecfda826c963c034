import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { activeLocale, formatDate, formatDateTime, formatNumber } from './format';

// Issue 35: dates and numbers as each language writes them, through Intl in the active locale.
describe('formatting follows the active language', () => {
  afterEach(() => i18n.activate('en'));

  it('reads as before in English', () => {
    expect(formatDate('1980-03-04')).toBe('Mar 4, 1980');
    expect(formatNumber(1234.5)).toBe('1,234.5');
  });

  it('writes dates and numbers the Spanish, German and Japanese way', () => {
    i18n.loadAndActivate({ locale: 'es', messages: {} });
    expect(formatDate('1980-03-04')).toBe('4 mar 1980');
    expect(formatNumber(1234.5)).toBe('1234,5');
    i18n.loadAndActivate({ locale: 'de', messages: {} });
    expect(formatDate('1980-03-04')).toBe('04.03.1980');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    i18n.loadAndActivate({ locale: 'ja', messages: {} });
    expect(formatDate('1980-03-04')).toBe('1980/03/04');
  });

  it('keeps what is not a date as written, and nothing as nothing', () => {
    i18n.loadAndActivate({ locale: 'fr', messages: {} });
    expect(formatDate('sometime in 1980')).toBe('sometime in 1980');
    expect(formatDate(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });

  it('formats the pseudo-locale as English', () => {
    i18n.loadAndActivate({ locale: 'pseudo', messages: {} });
    expect(activeLocale()).toBe('en');
    expect(formatDate('1980-03-04')).toBe('Mar 4, 1980');
  });
});
