import type { Kysely, Migration } from 'kysely';

// Issue 32, DESIGN §13, docs/decisions/0044: reminders that reach a person.
// - reminder_settings: each user's choice per person (no row: the defaults, owner true/false/true,
//   holder all false);
// - push_subscriptions: the browsers that subscribed to Web Push (one row per user and endpoint);
// - reminder_occurrences: one row per reminder occurrence, keyed by what it is ("dose:<dose id>",
//   "missed:<dose id>", "refill:<medication>:<runs-out date>", "appointment:<id>:<minutes>:<start>",
//   "snooze:<id>"). The instance whose insert (or pending → claimed update) wins delivers it; an
//   occurrence found more than an hour late is written as missed and not sent;
// - reminder_deliveries: one row per occurrence, recipient and channel (the primary key is the
//   "once per recipient and channel");
// - push_action_tokens: the single-use Taken / Snooze tokens a push carries (SHA-256 stored).
export const reminders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('reminder_settings')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('dose_reminders', 'integer', (c) => c.notNull())
      .addColumn('missed_dose_alerts', 'integer', (c) => c.notNull())
      .addColumn('appointment_reminders', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('reminder_settings_pk', ['user_id', 'profile_id'])
      .execute();
    await db.schema.createIndex('reminder_settings_profile_idx').on('reminder_settings').columns(['profile_id']).execute();

    await db.schema
      .createTable('push_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('push_subscriptions_endpoint_idx')
      .on('push_subscriptions')
      .columns(['user_id', 'endpoint'])
      .unique()
      .execute();

    await db.schema
      .createTable('reminder_occurrences')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      // The instant it is due, ISO 8601 UTC.
      .addColumn('due_at', 'text', (c) => c.notNull())
      // pending (a snooze waiting for its time), sent, late (sent under an hour late), missed (not sent).
      .addColumn('state', 'text', (c) => c.notNull())
      // A snooze's one recipient and what it reminds of (JSON); null for the scheduled kinds.
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('data', 'text')
      .addColumn('claimed_at', 'text')
      .execute();
    await db.schema.createIndex('reminder_occurrences_due_idx').on('reminder_occurrences').columns(['state', 'due_at']).execute();

    await db.schema
      .createTable('reminder_deliveries')
      .addColumn('occurrence_key', 'text', (c) => c.notNull().references('reminder_occurrences.key').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('reminder_deliveries_pk', ['occurrence_key', 'user_id', 'channel'])
      .execute();

    await db.schema
      .createTable('push_action_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('dose_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('push_action_tokens_expiry_idx').on('push_action_tokens').columns(['expires_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['push_action_tokens', 'reminder_deliveries', 'reminder_occurrences', 'push_subscriptions', 'reminder_settings']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
