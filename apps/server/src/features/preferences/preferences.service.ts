import type { Preferences, PreferencesInput } from '@kinchart/shared/care';
import type { DocumentLanguage } from '@kinchart/shared/search';
import { DEFAULT_DOCUMENT_LANGUAGES, DOCUMENT_LANGUAGES } from '@kinchart/shared/search';
import { DEFAULT_LANGUAGE, isLanguage } from '@kinchart/shared/i18n';
import type { Db } from '../../db/database';
import { effectiveZone } from '../../common/time-zones';
import { fromFlag } from '../../lib/flags';
import { notFound } from '../../lib/http-errors';
import { createPreferencesRepository, type PreferenceColumns } from './preferences.repository';

// Issue 32, docs/decisions/0045: the account's time zone (the zone of every person who has none of
// their own) and its reminder channels. An account without a zone (made before zones, or by single
// sign-on) reads as UTC and says so with `time_zone_set: false`, so the web app can set the
// browser's once. Issue 33: the languages its scans are read in (OCR), English until chosen,
// `document_languages_set` false until then. Issue 35: the account's language and units.

/** The stored list, kept to the languages Kinchart reads; English when never chosen (or unreadable). */
function documentLanguages(stored: string | null): DocumentLanguage[] {
  if (stored === null) return [...DEFAULT_DOCUMENT_LANGUAGES];
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [...DEFAULT_DOCUMENT_LANGUAGES];
  }
  const codes: readonly string[] = DOCUMENT_LANGUAGES.map((l) => l.code);
  const known = [...new Set(Array.isArray(parsed) ? parsed : [])].filter((code): code is DocumentLanguage =>
    codes.includes(code as string),
  );
  return known.length > 0 ? known : [...DEFAULT_DOCUMENT_LANGUAGES];
}

const toAnswer = (row: PreferenceColumns): Preferences => ({
  time_zone: effectiveZone(null, row.time_zone),
  time_zone_set: row.time_zone !== null && effectiveZone(null, row.time_zone) === row.time_zone,
  reminder_email: fromFlag(row.reminder_email),
  reminder_push: fromFlag(row.reminder_push),
  reminder_minimal: fromFlag(row.reminder_minimal),
  document_languages: documentLanguages(row.document_languages),
  document_languages_set: row.document_languages !== null,
  language: isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE,
  language_set: isLanguage(row.language),
  units: row.units === 'metric' ? 'metric' : 'imperial',
});

export function createPreferencesService(deps: { db: Db }) {
  const repo = createPreferencesRepository(deps.db);

  async function get(userId: string): Promise<Preferences> {
    const row = await repo.find(userId);
    if (!row) throw notFound('Account not found');
    return toAnswer(row);
  }

  return {
    get,

    async update(userId: string, input: PreferencesInput): Promise<Preferences> {
      await repo.update(userId, input);
      return get(userId);
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;
