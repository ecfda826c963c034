import type { Db } from '../../db/database';
import type { ReminderOccurrencesTable } from '../../db/schema';

// The SQL of reminders (issue 32, DESIGN §13, docs/decisions/0044): each user's reminder settings per
// person, push subscriptions, the occurrences and deliveries the scheduler claims, the push action
// tokens, and the scheduler's reads of schedules, the dose log, appointments and recipients.

const CHUNK = 500;
/** The row that holds when the scheduler last ticked (on any instance). */
const TICK_KEY = 'tick';

/** `items` in slices small enough for one `in (…)` list on both databases. */
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export type ReminderRepository = ReturnType<typeof createReminderRepository>;

export interface OccurrenceRow {
  key: string;
  kind: string;
  due_at: string;
  state: ReminderOccurrencesTable['state'];
  user_id?: string | null;
  data?: string | null;
}

export function createReminderRepository(db: Db) {
  return {
    // ---------- settings and channels ----------

    /** The account's language as stored (issue 35: a test push is written in it). */
    async language(userId: string): Promise<string | null> {
      return (await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language ?? null;
    },

    settings(userId: string, profileId: string) {
      return db
        .selectFrom('reminder_settings')
        .select(['dose_reminders', 'missed_dose_alerts', 'appointment_reminders'])
        .where('user_id', '=', userId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst();
    },

    /** Writes the whole choice (insert, or update the row there). */
    async saveSettings(row: {
      user_id: string;
      profile_id: string;
      dose_reminders: number;
      missed_dose_alerts: number;
      appointment_reminders: number;
      updated_at: string;
    }): Promise<void> {
      await db
        .insertInto('reminder_settings')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['user_id', 'profile_id']).doUpdateSet({
            dose_reminders: row.dose_reminders,
            missed_dose_alerts: row.missed_dose_alerts,
            appointment_reminders: row.appointment_reminders,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },

    /** Every settings row for these people (the scheduler's recipients). */
    async settingsOfPeople(profileIds: readonly string[]) {
      const rows = [];
      for (const ids of chunks(profileIds)) {
        rows.push(
          ...(await db
            .selectFrom('reminder_settings')
            .select(['user_id', 'profile_id', 'dose_reminders', 'missed_dose_alerts', 'appointment_reminders'])
            .where('profile_id', 'in', ids)
            .execute()),
        );
      }
      return rows;
    },

    /** The accounts holding an active, accepted share of these people. */
    async holdersOf(profileIds: readonly string[], now: string) {
      const rows = [];
      for (const ids of chunks(profileIds)) {
        rows.push(
          ...(await db
            .selectFrom('person_shares')
            .select(['profile_id', 'holder_id', 'role'])
            .where('profile_id', 'in', ids)
            .where('holder_id', 'is not', null)
            .where('revoked_at', 'is', null)
            .where('accepted_at', 'is not', null)
            .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
            .execute()),
        );
      }
      return rows;
    },

    /** True when `userId` owns the person or holds an active, accepted share of them (a snooze's recipient, when it is due). */
    async seesPerson(userId: string, profileId: string, now: string): Promise<boolean> {
      const owned = await db
        .selectFrom('profiles')
        .select('id')
        .where('id', '=', profileId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (owned) return true;
      const share = await db
        .selectFrom('person_shares')
        .select('id')
        .where('profile_id', '=', profileId)
        .where('holder_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('accepted_at', 'is not', null)
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .executeTakeFirst();
      return share !== undefined;
    },

    /** Each account's channels, zone and address. */
    async channelsOf(userIds: readonly string[]) {
      const rows = [];
      for (const ids of chunks(userIds)) {
        rows.push(
          ...(await db
            .selectFrom('users')
            .select(['id', 'email', 'reminder_email', 'reminder_push', 'reminder_minimal', 'language'])
            .where('id', 'in', ids)
            .execute()),
        );
      }
      return rows;
    },

    // ---------- push subscriptions ----------

    /**
     * Inserts, or updates the keys of the user's subscription with this endpoint; answers its id.
     * The session that (re-)subscribed and the browser's label are written each time: ending that
     * session on purpose removes the subscription (common/session.repository.ts).
     */
    async saveSubscription(row: {
      id: string;
      user_id: string;
      endpoint: string;
      p256dh: string;
      auth: string;
      session_id: string;
      label: string;
      at: string;
    }): Promise<string> {
      const saved = await db
        .insertInto('push_subscriptions')
        .values({
          id: row.id,
          user_id: row.user_id,
          endpoint: row.endpoint,
          p256dh: row.p256dh,
          auth: row.auth,
          session_id: row.session_id,
          label: row.label,
          created_at: row.at,
          updated_at: row.at,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'endpoint'])
            .doUpdateSet({ p256dh: row.p256dh, auth: row.auth, session_id: row.session_id, label: row.label, updated_at: row.at }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return saved.id;
    },

    /** One of the user's subscriptions with its keys (for a send), or undefined. */
    subscription(userId: string, id: string) {
      return db
        .selectFrom('push_subscriptions')
        .select(['id', 'endpoint', 'p256dh', 'auth'])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    subscriptions(userId: string) {
      return db
        .selectFrom('push_subscriptions')
        .select(['id', 'endpoint', 'label', 'session_id', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async subscriptionsOf(userIds: readonly string[]) {
      const rows = [];
      for (const ids of chunks(userIds)) {
        rows.push(
          ...(await db
            .selectFrom('push_subscriptions')
            .select(['id', 'user_id', 'endpoint', 'p256dh', 'auth'])
            .where('user_id', 'in', ids)
            .execute()),
        );
      }
      return rows;
    },

    /** Deletes the user's subscription and the action tokens pushed to it; false when it is not theirs (or not there). */
    async deleteSubscription(userId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx.deleteFrom('push_action_tokens').where('subscription_id', '=', id).execute();
        return true;
      });
    },

    /** A push service said the subscription is gone (404/410): it goes, with the action tokens pushed to it. */
    async dropSubscription(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('push_subscriptions').where('id', '=', id).execute();
        await trx.deleteFrom('push_action_tokens').where('subscription_id', '=', id).execute();
      });
    },

    // ---------- the scheduler's reads ----------

    /**
     * The timed schedules of current medications, with the medication's name and the person's name.
     * `reminders` (the schedule's flag) silences only the at-time dose and refill reminders: a
     * holder's "Tell me when a dose is missed" is theirs, so missed-dose alerts go either way.
     */
    scheduledMedications() {
      return db
        .selectFrom('medication_schedules as s')
        .innerJoin('medications as m', 'm.id', 's.medication_id')
        .innerJoin('profiles as p', 'p.id', 's.profile_id')
        .select([
          's.medication_id',
          's.user_id',
          's.profile_id',
          's.times',
          's.days',
          's.start_date',
          's.end_date',
          's.as_needed',
          's.dose_units',
          's.quantity_on_hand',
          's.refill_remind_days',
          's.reminders',
          'm.medication_name',
          'p.name as person_name',
          'p.is_self as person_is_self',
        ])
        .where('s.as_needed', '=', 0)
        .where('m.is_current', '=', 1)
        .execute();
    },

    /** Which of these dose ids are in the dose log (taken or skipped). */
    async loggedDoses(doseIds: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (const ids of chunks(doseIds)) {
        for (const row of await db.selectFrom('dose_log').select('id').where('id', 'in', ids).execute()) found.add(row.id);
      }
      return found;
    },

    /** Appointments on these dates with a start time and a person. */
    appointmentsOn(dates: readonly string[]) {
      return db
        .selectFrom('appointments as a')
        .innerJoin('profiles as p', 'p.id', 'a.profile_id')
        .select([
          'a.id',
          'a.user_id',
          'a.profile_id',
          'a.appointment_date',
          'a.start_time',
          'a.provider_name',
          'a.reminder_minutes',
          'p.name as person_name',
          'p.is_self as person_is_self',
        ])
        .where('a.appointment_date', 'in', [...dates])
        .execute();
    },

    // ---------- occurrences and deliveries ----------

    /** When any instance last ticked (ms), or undefined on a new database. */
    async lastTick(): Promise<number | undefined> {
      const row = await db.selectFrom('reminder_occurrences').select('due_at').where('key', '=', TICK_KEY).executeTakeFirst();
      return row ? Date.parse(row.due_at) : undefined;
    },

    /** Notes this tick's time (a later start catches up from here). */
    async recordTick(at: string): Promise<void> {
      await db
        .insertInto('reminder_occurrences')
        .values({ key: TICK_KEY, kind: 'tick', due_at: at, state: 'sent', user_id: null, data: null, claimed_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ due_at: at, claimed_at: at }))
        .execute();
    },

    /** Which of these occurrence keys are already written. */
    async knownOccurrences(keys: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (const ids of chunks(keys)) {
        for (const row of await db.selectFrom('reminder_occurrences').select('key').where('key', 'in', ids).execute()) found.add(row.key);
      }
      return found;
    },

    /** Writes the occurrences not yet there, in slices; answers the keys this call wrote (this instance delivers those). */
    async claimMany(rows: readonly OccurrenceRow[], at: string): Promise<Set<string>> {
      const won = new Set<string>();
      for (const slice of chunks(rows)) {
        const written = await db
          .insertInto('reminder_occurrences')
          .values(
            slice.map((r) => ({
              key: r.key,
              kind: r.kind,
              due_at: r.due_at,
              state: r.state,
              user_id: r.user_id ?? null,
              data: r.data ?? null,
              claimed_at: at,
            })),
          )
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .execute();
        for (const w of written) won.add(w.key);
      }
      return won;
    },

    /** A pending occurrence (a snooze) waiting for its time. */
    async addPending(row: OccurrenceRow): Promise<void> {
      await db
        .insertInto('reminder_occurrences')
        .values({
          key: row.key,
          kind: row.kind,
          due_at: row.due_at,
          state: 'pending',
          user_id: row.user_id ?? null,
          data: row.data ?? null,
        })
        .execute();
    },

    pendingDue(now: string) {
      return db
        .selectFrom('reminder_occurrences')
        .select(['key', 'kind', 'due_at', 'user_id', 'data'])
        .where('state', '=', 'pending')
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .limit(1000)
        .execute();
    },

    /** Moves a pending occurrence to `state`; true when this call moved it. */
    async claimPending(key: string, state: ReminderOccurrencesTable['state'], at: string): Promise<boolean> {
      const result = await db
        .updateTable('reminder_occurrences')
        .set({ state, claimed_at: at })
        .where('key', '=', key)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Writes the deliveries not yet there, in slices; answers "occurrence|user|channel" of those this call wrote. */
    async claimDeliveries(
      rows: readonly { occurrence_key: string; user_id: string; channel: 'in_app' | 'email' | 'push'; delivered_at: string }[],
    ): Promise<Set<string>> {
      const won = new Set<string>();
      for (const slice of chunks(rows)) {
        const written = await db
          .insertInto('reminder_deliveries')
          .values([...slice])
          .onConflict((oc) => oc.columns(['occurrence_key', 'user_id', 'channel']).doNothing())
          .returning(['occurrence_key', 'user_id', 'channel'])
          .execute();
        for (const w of written) won.add(`${w.occurrence_key}|${w.user_id}|${w.channel}`);
      }
      return won;
    },

    /** Occurrences older than `before` (and their deliveries) go. */
    async pruneOccurrences(before: string): Promise<void> {
      await db
        .deleteFrom('reminder_occurrences')
        .where('due_at', '<', before)
        .where('state', '!=', 'pending')
        .where('key', '!=', TICK_KEY)
        .execute();
      await db.deleteFrom('push_action_tokens').where('expires_at', '<', before).execute();
    },

    // ---------- push action tokens ----------

    /** Writes push action tokens (their hashes), in slices. */
    async addActionTokens(
      rows: readonly {
        token_hash: string;
        user_id: string;
        profile_id: string;
        dose_id: string;
        expires_at: string;
        subscription_id: string;
      }[],
    ) {
      for (const slice of chunks(rows))
        await db
          .insertInto('push_action_tokens')
          .values([...slice])
          .execute();
    },

    /**
     * Marks the token used and answers it, when it is unused and not expired; one caller wins. The
     * same reminder pushed to the user's other browsers carried sibling tokens (one per browser):
     * they are spent with it, so a second device's button says the reminder was answered.
     */
    async useActionToken(tokenHash: string, now: string) {
      return db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('push_action_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) === 0) return undefined;
        const token = await trx
          .selectFrom('push_action_tokens')
          .select(['user_id', 'profile_id', 'dose_id', 'expires_at'])
          .where('token_hash', '=', tokenHash)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('push_action_tokens')
          .set({ used_at: now })
          .where('user_id', '=', token.user_id)
          .where('dose_id', '=', token.dose_id)
          .where('expires_at', '=', token.expires_at)
          .where('used_at', 'is', null)
          .execute();
        return { user_id: token.user_id, profile_id: token.profile_id, dose_id: token.dose_id };
      });
    },

    /** The medication's and person's names for a snoozed dose. */
    doseNames(medicationId: string) {
      return db
        .selectFrom('medications as m')
        .innerJoin('profiles as p', 'p.id', 'm.profile_id')
        .select(['m.medication_name', 'm.profile_id', 'm.user_id as owner_id', 'p.name as person_name', 'p.is_self as person_is_self'])
        .where('m.id', '=', medicationId)
        .executeTakeFirst();
    },
  };
}
