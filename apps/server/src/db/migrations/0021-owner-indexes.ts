import type { Kysely, Migration } from 'kysely';

// Issue 31, docs/decisions/0041: the tables of a person's lists were indexed by person
// (profile_id, …) only, so a statement over the whole account — the export's "every row of this
// user", and the cascade when an account is deleted — read every account's rows: at 10,000
// families a full scan of 200,000 lab results per export. An index led by user_id answers those
// from the account's own rows.
const TABLES = [
  'emergency_contacts',
  'healthcare_providers',
  'medications',
  'immunizations',
  'lab_results',
  'conditions',
  'procedures',
] as const;

export const ownerIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of TABLES) await db.schema.createIndex(`${table}_user_idx`).on(table).columns(['user_id', 'profile_id']).execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of TABLES) await db.schema.dropIndex(`${table}_user_idx`).execute();
  },
};
