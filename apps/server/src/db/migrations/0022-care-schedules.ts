import type { Kysely, Migration } from 'kysely';

// Issue 32, DESIGN §13: every person has an IANA time zone (null: the account's); the account has
// one too (null on accounts made before: UTC) and its reminder channels. Appointments carry their
// reminder lead times (JSON text of minutes; null: the default [1440, 120]). A medication may carry
// one schedule (times and ISO weekdays as JSON text, local to the person's zone), and each logged
// dose is a row of the dose log; a scheduled dose's id names its medication and local time, so an
// unlogged dose needs no row. Deleting a medication, a person or an account deletes them.
export const careSchedules: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
    await db.schema
      .alterTable('users')
      .addColumn('reminder_email', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('reminder_push', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('reminder_minimal', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('profiles').addColumn('time_zone', 'text').execute();
    await db.schema.alterTable('appointments').addColumn('reminder_minutes', 'text').execute();

    await db.schema
      .createTable('medication_schedules')
      .addColumn('medication_id', 'text', (c) => c.primaryKey().references('medications.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('times', 'text', (c) => c.notNull())
      .addColumn('days', 'text', (c) => c.notNull())
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text')
      .addColumn('as_needed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dose_units', 'double precision', (c) => c.notNull().defaultTo(1))
      .addColumn('quantity_on_hand', 'double precision')
      .addColumn('refill_remind_days', 'integer')
      .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('medication_schedules_profile_idx').on('medication_schedules').columns(['profile_id']).execute();
    await db.schema.createIndex('medication_schedules_user_idx').on('medication_schedules').columns(['user_id', 'profile_id']).execute();

    await db.schema
      .createTable('dose_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('medication_id', 'text', (c) => c.notNull().references('medications.id').onDelete('cascade'))
      // The dose's local time in the person's zone, "YYYY-MM-DDTHH:MM" (text compares in time order).
      .addColumn('scheduled_local', 'text', (c) => c.notNull())
      // The instant it was due, ISO 8601 UTC, fixed when it was logged.
      .addColumn('scheduled_at', 'text', (c) => c.notNull())
      .addColumn('as_needed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('taken_at', 'text')
      .addColumn('logged_at', 'text', (c) => c.notNull())
      // No foreign key: a holder's account may go while the log of what they did stays.
      .addColumn('logged_by', 'text')
      // What taking it removed from quantity_on_hand, so undoing gives back exactly that.
      .addColumn('units_taken', 'double precision')
      .execute();
    await db.schema.createIndex('dose_log_profile_idx').on('dose_log').columns(['profile_id', 'scheduled_local']).execute();
    await db.schema.createIndex('dose_log_medication_idx').on('dose_log').columns(['medication_id', 'scheduled_local']).execute();
    await db.schema.createIndex('dose_log_user_idx').on('dose_log').columns(['user_id', 'profile_id']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dose_log').execute();
    await db.schema.dropTable('medication_schedules').execute();
    await db.schema.alterTable('appointments').dropColumn('reminder_minutes').execute();
    await db.schema.alterTable('profiles').dropColumn('time_zone').execute();
    for (const column of ['reminder_minimal', 'reminder_push', 'reminder_email', 'time_zone']) {
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
  },
};
