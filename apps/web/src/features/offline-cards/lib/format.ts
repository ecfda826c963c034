import { i18n } from '@lingui/core';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';

/** "May 4, 2026 at 9:41 AM" in the reader's language and the device's time zone, or null for a missing or broken time. */
export function formatSavedAt(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const locale = isAppLanguage(i18n.locale) ? intlLocale(i18n.locale) : 'en';
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : locale, { dateStyle: 'long', timeStyle: 'short' }).format(date);
}
