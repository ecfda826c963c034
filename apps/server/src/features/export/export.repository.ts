import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type {
  AppointmentsTable,
  CalendarFeedsTable,
  ConditionsTable,
  EmergencyContactsTable,
  HealthcareProvidersTable,
  ImmunizationsTable,
  LabResultsTable,
  MedicalFilesTable,
  MedicationsTable,
  NotificationsTable,
  ProceduresTable,
  ProfilesTable,
} from '../../db/schema';

// Everything one account holds, read for the export (decision 0004). Every query is filtered by the
// owner (DESIGN §4). Rows come back raw (0/1 flags, positions, timestamps): kinchart.json keeps
// what the database keeps, so an import can put it back exactly.

export interface AccountData {
  account: { username: string; email: string };
  profiles: Selectable<ProfilesTable>[];
  contacts: Selectable<EmergencyContactsTable>[];
  providers: Selectable<HealthcareProvidersTable>[];
  medications: Selectable<MedicationsTable>[];
  appointments: Selectable<AppointmentsTable>[];
  notifications: Selectable<NotificationsTable>[];
  files: Selectable<MedicalFilesTable>[];
  /** Issue 32: the account's zone and reminder channels (users columns, migration 0022). */
  preferences: {
    time_zone: string | null;
    reminder_email: number;
    reminder_push: number;
    reminder_minimal: number;
    language: string | null;
    units: string | null;
  };
  /** Issue 32: the account's reminder choices for its own people (not for people shared with it). */
  reminderSettings: { profile_id: string; dose_reminders: number; missed_dose_alerts: number; appointment_reminders: number }[];
  /** Issue 32: the account's calendar feeds, without their token hashes (decision 0045). */
  calendarFeeds: Omit<Selectable<CalendarFeedsTable>, 'token_hash' | 'user_id' | 'restored'>[];
  /** DESIGN §12: each person's clinical items, in the order they were added. */
  clinical: {
    immunizations: Selectable<ImmunizationsTable>[];
    lab_results: Selectable<LabResultsTable>[];
    conditions: Selectable<ConditionsTable>[];
    procedures: Selectable<ProceduresTable>[];
  };
}

export async function loadAccountData(db: Db, userId: string): Promise<AccountData | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['username', 'email', 'time_zone', 'reminder_email', 'reminder_push', 'reminder_minimal', 'language', 'units'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const { username, email, ...preferences } = user;
  const account = { username, email };
  const calendarFeeds = await db
    .selectFrom('calendar_feeds')
    .select(['id', 'person_id', 'include_medications', 'minimal', 'created_at', 'last_read_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const reminderSettings = await db
    .selectFrom('reminder_settings')
    .innerJoin('profiles', 'profiles.id', 'reminder_settings.profile_id')
    .select([
      'reminder_settings.profile_id',
      'reminder_settings.dose_reminders',
      'reminder_settings.missed_dose_alerts',
      'reminder_settings.appointment_reminders',
    ])
    .where('reminder_settings.user_id', '=', userId)
    .where('profiles.user_id', '=', userId)
    .orderBy('reminder_settings.profile_id')
    .execute();
  const [profiles, contacts, providers, medications, appointments, notifications, files] = await Promise.all([
    // The own profile first, then members oldest first (as the family list shows them).
    db
      .selectFrom('profiles')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('is_self', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('emergency_contacts')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('healthcare_providers')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('medications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('appointments')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('appointment_date')
      .orderBy('start_time')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('medical_files').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),
  ]);
  const [immunizations, lab_results, conditions, procedures] = await Promise.all([
    db
      .selectFrom('immunizations')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('lab_results')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('conditions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('procedures')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('profile_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return {
    account,
    profiles,
    contacts,
    providers,
    medications,
    appointments,
    notifications,
    files,
    preferences,
    reminderSettings,
    calendarFeeds,
    clinical: { immunizations, lab_results, conditions, procedures },
  };
}
