import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

// DESIGN §4, §11: every record file and appointment belongs to one person (a profile), and a
// person can be shared with other accounts. Existing rows move to their owner's own profile.
//
// - appointments gain profile_id; medical_files already had a nullable one that no path set.
//   Both are filled with the account's own profile (created at sign-up with is_self = 1).
//   Deleting a family member moves that person's files and appointments to the owner's own
//   profile first (nothing is lost), so "set null" on the key is only a safety net.
// - person_shares: one row per invitation. token_hash is the invitation's SHA-256 (256-bit token,
//   single use: cleared when accepted); holder_id is set on acceptance; ends_at is the instant
//   the share stops (null = no end), expires_at the date or instant the owner typed.
// - audit_events gain profile_id and actor_id, so the owner can read a person's access history.
export const peopleAndShares: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('appointments')
      .addColumn('profile_id', 'text', (c) => c.references('profiles.id').onDelete('set null'))
      .execute();

    const ownProfile = (table: string) =>
      sql.raw(
        `update ${table} set profile_id = (select p.id from profiles p where p.user_id = ${table}.user_id and p.is_self = 1 ` +
          `order by p.created_at limit 1) where profile_id is null`,
      );
    await ownProfile('appointments').execute(db);
    await ownProfile('medical_files').execute(db);

    await db.schema.createIndex('appointments_profile_idx').on('appointments').columns(['profile_id', 'appointment_date']).execute();
    await db.schema.createIndex('medical_files_profile_idx').on('medical_files').columns(['profile_id', 'created_at']).execute();

    await db.schema
      .createTable('person_shares')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('holder_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('label_email', 'text')
      .addColumn('token_hash', 'text', (c) => c.unique())
      .addColumn('invite_expires_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('ends_at', 'text')
      .addColumn('accepted_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('person_shares_holder_idx').on('person_shares').columns(['holder_id', 'profile_id']).execute();
    await db.schema.createIndex('person_shares_profile_idx').on('person_shares').columns(['profile_id', 'created_at']).execute();

    await db.schema.alterTable('audit_events').addColumn('profile_id', 'text').execute();
    await db.schema.alterTable('audit_events').addColumn('actor_id', 'text').execute();
    await db.schema.createIndex('audit_events_profile_idx').on('audit_events').columns(['profile_id', 'created_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_events_profile_idx').execute();
    await db.schema.alterTable('audit_events').dropColumn('actor_id').execute();
    await db.schema.alterTable('audit_events').dropColumn('profile_id').execute();
    await db.schema.dropTable('person_shares').execute();
    await db.schema.dropIndex('medical_files_profile_idx').execute();
    await db.schema.dropIndex('appointments_profile_idx').execute();
    await db.schema.alterTable('appointments').dropColumn('profile_id').execute();
  },
};
