import type { Preferences, PreferencesInput } from '@kinchart/shared/care';
import type { Db } from '../../db/database';
import { effectiveZone } from '../../common/time-zones';
import { fromFlag } from '../../lib/flags';
import { notFound } from '../../lib/http-errors';
import { createPreferencesRepository, type PreferenceColumns } from './preferences.repository';

// Issue 32, docs/decisions/0045: the account's time zone (the zone of every person who has none of
// their own) and its reminder channels. An account without a zone (made before zones, or by single
// sign-on) reads as UTC and says so with `time_zone_set: false`, so the web app can set the
// browser's once.

const toAnswer = (row: PreferenceColumns): Preferences => ({
  time_zone: effectiveZone(null, row.time_zone),
  time_zone_set: row.time_zone !== null && effectiveZone(null, row.time_zone) === row.time_zone,
  reminder_email: fromFlag(row.reminder_email),
  reminder_push: fromFlag(row.reminder_push),
  reminder_minimal: fromFlag(row.reminder_minimal),
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
