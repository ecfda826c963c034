import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

// One dialect-neutral migration set (DESIGN §2, §4). Types used here mean the same on SQLite and
// PostgreSQL: text, integer, double precision. Every owned row carries user_id and cascades from users.

const flag = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(0);

export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_failures_email_idx').on('login_failures').columns(['email', 'created_at']).execute();
    await db.schema.createIndex('login_failures_ip_idx').on('login_failures').columns(['ip', 'created_at']).execute();

    let profiles = db.schema
      .createTable('profiles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('is_self', 'integer', flag)
      .addColumn('relationship', 'text')
      .addColumn('is_pet', 'integer', flag);
    for (const col of ['name', 'date_of_birth', 'phone_number', 'address', 'email', 'blood_type']) {
      profiles = profiles.addColumn(col, 'text');
    }
    profiles = profiles
      .addColumn('height', 'double precision')
      .addColumn('weight', 'double precision')
      .addColumn('primary_language', 'text')
      .addColumn('religious_restrictions', 'text');
    for (const col of ['organ_donor', 'advance_directives', 'living_will', 'has_vision_impairment', 'has_hearing_impairment']) {
      profiles = profiles.addColumn(col, 'integer', flag);
    }
    const pairs: [string, string][] = [
      ['has_allergies', 'allergy_details'],
      ['has_chronic_conditions', 'chronic_condition_details'],
      ['has_bleeding_disorders', 'bleeding_disorder_details'],
      ['has_previous_surgeries', 'surgery_details'],
      ['has_mobility_issues', 'mobility_details'],
      ['had_anesthesia_reactions', 'anesthesia_reaction_details'],
    ];
    for (const [f, d] of pairs) profiles = profiles.addColumn(f, 'integer', flag).addColumn(d, 'text');
    await profiles
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('profiles_user_idx').on('profiles').columns(['user_id', 'is_self']).execute();

    const perProfile = (table: string) =>
      db.schema
        .createTable(table)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'));

    await perProfile('emergency_contacts')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('relationship', 'text')
      .addColumn('phone_number', 'text')
      .addColumn('email', 'text')
      .addColumn('is_primary', 'integer', flag)
      .addColumn('has_medical_power', 'integer', flag)
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await perProfile('healthcare_providers')
      .addColumn('provider_name', 'text', (c) => c.notNull())
      .addColumn('specialty', 'text')
      .addColumn('facility', 'text')
      .addColumn('phone_number', 'text')
      .addColumn('email', 'text')
      .addColumn('address', 'text')
      .addColumn('is_primary', 'integer', flag)
      .addColumn('notes', 'text')
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await perProfile('medications')
      .addColumn('medication_name', 'text')
      .addColumn('dosage', 'text')
      .addColumn('frequency', 'text')
      .addColumn('purpose', 'text')
      .addColumn('start_date', 'text')
      .addColumn('end_date', 'text')
      .addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    for (const t of ['emergency_contacts', 'healthcare_providers', 'medications']) {
      await db.schema.createIndex(`${t}_profile_idx`).on(t).columns(['profile_id', 'user_id']).execute();
    }

    await perProfile('emergency_shares')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('share_id', 'text', (c) => c.notNull().unique())
      .addColumn('pin_hash', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_disabled', 'integer', flag)
      .addColumn('failed_streak', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'text')
      .addColumn('last_access_notified_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('emergency_shares_profile_unique', ['profile_id'])
      .execute();

    await db.schema
      .createTable('pin_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pin_attempts_ip_idx').on('pin_attempts').columns(['ip', 'created_at']).execute();

    await db.schema
      .createTable('medical_files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('profile_id', 'text', (c) => c.references('profiles.id').onDelete('set null'))
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('original_name', 'text', (c) => c.notNull())
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull().unique())
      .addColumn('wrapped_key', 'text', (c) => c.notNull())
      .addColumn('record_date', 'text')
      .addColumn('provider_name', 'text')
      .addColumn('visit_location', 'text')
      .addColumn('visit_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('medical_files_user_idx').on('medical_files').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('file_share_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('file_ids', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('appointments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('uid', 'text', (c) => c.notNull().unique())
      .addColumn('appointment_date', 'text', (c) => c.notNull())
      .addColumn('start_time', 'text')
      .addColumn('end_time', 'text')
      .addColumn('provider_name', 'text', (c) => c.notNull())
      .addColumn('reason_for_visit', 'text')
      .addColumn('location', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('appointments_user_idx').on('appointments').columns(['user_id', 'appointment_date']).execute();

    await db.schema
      .createTable('notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('data', 'text')
      .addColumn('is_read', 'integer', flag)
      .addColumn('is_hidden', 'integer', flag)
      .addColumn('dedupe_key', 'text', (c) => c.unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('audit_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('detail', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_events_user_idx').on('audit_events').columns(['user_id', 'created_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    for (const t of [
      'audit_events',
      'notifications',
      'appointments',
      'file_share_links',
      'medical_files',
      'pin_attempts',
      'emergency_shares',
      'medications',
      'healthcare_providers',
      'emergency_contacts',
      'profiles',
      'login_failures',
      'sessions',
      'users',
    ]) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
};
