import type { Kysely, Migration } from 'kysely';

// Issue 30 #25, docs/decisions/0037: a pet's species, breed, microchip number and vet (a name and a
// phone). Nullable text on profiles, like the other profile fields, so the migration reads the same
// on SQLite and PostgreSQL and every existing row keeps its values (the new ones are empty).
const COLUMNS = ['species', 'breed', 'microchip_number', 'vet_name', 'vet_phone'] as const;

export const petFields: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of COLUMNS) await db.schema.alterTable('profiles').addColumn(column, 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const column of COLUMNS) await db.schema.alterTable('profiles').dropColumn(column).execute();
  },
};
