import type { Kysely, Migration } from 'kysely';

// A lost phone can be cut off (docs/decisions/0044, "Later changes"). A Web Push subscription
// outlives sessions — they are short (30 min idle, 12 h at most), and reminders must go on through
// the night — but a session ENDED on purpose (logout, the sessions list, "sign out other sessions",
// a password or email change, a password reset) takes the subscriptions made in it along.
// - push_subscriptions.session_id: the session (sessions.id, the token's hash) that subscribed or
//   last re-subscribed the endpoint; null for subscriptions from before this migration. No foreign
//   key: a session that merely expires is deleted by the sweep and must not take the row with it.
// - push_subscriptions.label: the browser in plain words ("Chrome on Android", packages/shared
//   describe-device.ts) from the subscribing request's User-Agent; only those fixed words.
// - push_action_tokens.subscription_id: the subscription a Taken / Snooze token was sent to, so a
//   removed subscription's tokens are removed with it; null for tokens from before this migration.
export const pushSubscriptionSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('push_subscriptions').addColumn('session_id', 'text').execute();
    await db.schema.alterTable('push_subscriptions').addColumn('label', 'text').execute();
    await db.schema.createIndex('push_subscriptions_session_idx').on('push_subscriptions').columns(['session_id']).execute();
    await db.schema.alterTable('push_action_tokens').addColumn('subscription_id', 'text').execute();
    await db.schema.createIndex('push_action_tokens_subscription_idx').on('push_action_tokens').columns(['subscription_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('push_action_tokens_subscription_idx').execute();
    await db.schema.alterTable('push_action_tokens').dropColumn('subscription_id').execute();
    await db.schema.dropIndex('push_subscriptions_session_idx').execute();
    await db.schema.alterTable('push_subscriptions').dropColumn('label').execute();
    await db.schema.alterTable('push_subscriptions').dropColumn('session_id').execute();
  },
};
