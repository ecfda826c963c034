import type { Kysely, Migration } from 'kysely';

// Issue 30 (DESIGN §7, docs/decisions/0033): guessing and viewing limits that name the client.
//
// `emergency_pin_locks`: wrong PINs in a row per code and client address (an IPv6 client by its
// /64), and that address's 15-minute lock — so a bystander's guesses lock out only the bystander.
// The code-wide count (10 in all, then the PIN is disabled) stays on emergency_shares.
//
// `emergency_access_alerts`: per code and per person told (the owner, each manager), the current
// notification of views (one per 15 minutes, updated with a count) and the email throttle (the
// first at once, then one email per 15 minutes with the views not yet emailed).
//
// `essentials_views`: one row per PIN-less view of the essentials, per client address, like
// pin_attempts, for the hourly cap.
export const emergencyGuards: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('emergency_pin_locks')
      .addColumn('emergency_share_id', 'text', (c) => c.notNull().references('emergency_shares.id').onDelete('cascade'))
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('failed_streak', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'text')
      .addPrimaryKeyConstraint('emergency_pin_locks_pkey', ['emergency_share_id', 'address'])
      .execute();
    await db.schema
      .createTable('emergency_access_alerts')
      .addColumn('emergency_share_id', 'text', (c) => c.notNull().references('emergency_shares.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('notification_id', 'text')
      .addColumn('window_started_at', 'text', (c) => c.notNull())
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mailed_at', 'text')
      .addColumn('unmailed', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('emergency_access_alerts_pkey', ['emergency_share_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('emergency_access_alerts_due_idx')
      .on('emergency_access_alerts')
      .columns(['unmailed', 'mailed_at'])
      .execute();
    await db.schema
      .createTable('essentials_views')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('essentials_views_ip_idx').on('essentials_views').columns(['ip', 'created_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('essentials_views').ifExists().execute();
    await db.schema.dropTable('emergency_access_alerts').ifExists().execute();
    await db.schema.dropTable('emergency_pin_locks').ifExists().execute();
  },
};
