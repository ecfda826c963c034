import { selfProfileId } from '../../common/person-access';
import type { AppointmentValues } from '@kinchart/shared/appointments';
import { appointmentValuesOf } from '@kinchart/shared/appointments';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { ProfileFields } from '@kinchart/shared/profile';
import { FLAG_DETAIL_PAIRS, PROFILE_FLAGS } from '@kinchart/shared/profile';
import type { Coding } from '@kinchart/shared/clinical';
import type { Database, ProfilesTable } from '../../db/schema';
import type { Db } from '../../db/database';
import { lockAccount } from '../../db/account-lock.repository';
import { fromFlag, toFlag } from '../../lib/flags';
import { newId } from '../../lib/ids';
import { notificationMessage } from '../export/kinchart-format';
import type { ClinicalTable } from '../clinical/clinical-kinds';
import type { ClinicalInsert } from '../clinical/clinical.service';
import { clinicalTransfer } from '../clinical/clinical.service';
import type { AllergyEntry, AllergyValues, PlannedEntry } from '../allergies/allergy-entries';
import { allergyTransfer } from '../allergies/allergies.service';
import type { CareRestore } from '../care/care-transfer';
import { careTransfer } from '../care/care-transfer';
import type { RestoredFeed } from '../calendar/calendar-transfer';
import { calendarTransfer } from '../calendar/calendar-transfer';
import type { StorageQuota } from '../files/storage-quota';
import { checkQuota } from '../files/storage-quota';
import type { ContactValues, MedicationValues, ProviderValues } from '../profiles/list-rows';
import { contactColumns, medicationColumns, providerColumns } from '../profiles/list-rows';
import type { FlagField, PlanFields, TextField } from './fhir-plan';
import { PLAN_FIELDS } from './fhir-plan';
import type { AccountRows, ListTable } from './kinchart-match';
import { APPOINTMENT_IDENTITY } from './kinchart-match';

// The only place the import speaks SQL: it reads what the account holds and writes what
// import.service.ts decided, in one transaction per import (`transaction`, decision 0004). Every
// statement carries the signed-in user's id; yes/no values become 0/1 flags here (decision 0002).

type Executor = Kysely<Database>;
type Table = keyof Database;

/**
 * Profile columns to set, yes/no values as booleans. A new allergy_details text makes the allergy
 * entries follow it (docs/decisions/0053), a new line taking its entry from `incomingAllergies`.
 */
export type ProfileChange = Partial<Record<keyof ProfileFields | 'is_pet', string | number | boolean | null>> & {
  incomingAllergies?: ReadonlyMap<string, AllergyValues>;
  updated_at: string;
};

export interface NewMember {
  id: string;
  fields: Partial<ProfileFields>;
  /** The allergy entries, one per line of the details (allergies/allergy-entries.ts restoredEntries). */
  allergies: PlannedEntry[];
  relationship: string | null;
  is_pet: boolean;
  created_at: string;
  updated_at: string;
}

/** What a list row is written with; a medication also carries its edit time, and may carry codings (DESIGN §12). */
export interface ListValues {
  emergency_contacts: ContactValues;
  healthcare_providers: ProviderValues;
  medications: MedicationValues & { updated_at: string; codings?: Coding[] | null };
}

/** What a FHIR import compares with: a profile's details texts (and allergy entries), flags, demographics and measurements. */
export type ProfileState = Record<TextField, string | null> &
  Record<FlagField, boolean> &
  Record<keyof PlanFields, string | number | null> & { is_pet: boolean; allergies: AllergyEntry[] };

export interface NewListRow<T extends ListTable> {
  /** The new row's id, when the caller must know it (a restored medication's schedule and doses follow it). */
  id?: string;
  profileId: string;
  values: ListValues[T];
  position: number;
  created_at: string;
}

export interface NewAppointment extends AppointmentValues {
  /** The person it belongs to (DESIGN §4). */
  profile_id: string;
  uid: string;
  created_at: string;
  /** Issue 32: reminder lead times in minutes; absent or null, the default. */
  reminder_minutes?: number[] | null;
}

/** Issue 32: an account's zone and reminder channels, as an export carries them. */
export interface RestoredPreferences {
  time_zone: string | null;
  reminder_email: boolean;
  reminder_push: boolean;
  reminder_minimal: boolean;
  /** Issue 35: absent in older files (then the account's are kept); null: never chosen. */
  language?: string | null | undefined;
  units?: string | null | undefined;
}

export interface NewNotification {
  type: string;
  level: Selectable<Database['notifications']>['level'];
  title: string;
  message: string;
  is_read: boolean;
  is_hidden: boolean;
  created_at: string;
}

/** A medical_files row for a blob already committed (its id is the blob's). */
export type NewImportedFile = Omit<Insertable<Database['medical_files']>, 'user_id'> & { id: string; size: number };

type ListRow<T extends ListTable> = Selectable<Database[T]> & { position: number };

const LIST_COLUMNS: { [T in ListTable]: (v: ListValues[T]) => Record<string, string | number | null> } = {
  emergency_contacts: contactColumns,
  healthcare_providers: providerColumns,
  medications: (m) => ({
    ...medicationColumns(m),
    updated_at: m.updated_at,
    ...(m.codings === undefined ? {} : { codings: m.codings === null ? null : JSON.stringify(m.codings) }),
  }),
};

const DETAIL_FIELDS: TextField[] = FLAG_DETAIL_PAIRS.map(([, details]) => details);

/** Yes/no values as 0/1 flags; everything else as it is. */
function columnsOf(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'boolean' ? toFlag(value) : value]));
}

function importQueries(db: Executor) {
  const clinical = clinicalTransfer(db);
  const care = careTransfer(db);
  const allergies = allergyTransfer(db);
  /** Inserts in batches that stay under both dialects' bound-parameter limits (SQLite 32766, pg 65535). */
  async function insertAll<T extends Table>(table: T, rows: Insertable<Database[T]>[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0] as object).length;
    const size = Math.max(1, Math.floor(20_000 / columns));
    for (let i = 0; i < rows.length; i += size) {
      await db
        .insertInto(table)
        .values(rows.slice(i, i + size))
        .execute();
    }
  }

  /** One list's rows of the account, or of one of its profiles. */
  async function listRows<T extends ListTable>(userId: string, table: T, profileId?: string): Promise<ListRow<T>[]> {
    // Kysely cannot type a query on a table-name type parameter: it runs on the union of the three.
    const from: ListTable = table;
    let query = db.selectFrom(from).selectAll().where('user_id', '=', userId);
    if (profileId !== undefined) query = query.where('profile_id', '=', profileId);
    return (await query.execute()).map((r) => ({ ...r, position: Number(r.position) })) as unknown as ListRow<T>[];
  }

  /** The account's appointments (or one person's), by the fields they are recognised by. */
  const appointments = (userId: string, profileId?: string) => {
    let query = db
      .selectFrom('appointments')
      .select(['profile_id', ...APPOINTMENT_IDENTITY])
      .where('user_id', '=', userId);
    if (profileId !== undefined) query = query.where('profile_id', '=', profileId);
    return query.execute();
  };

  return {
    /** Holds the account's row until the transaction ends (db/account-lock.ts). */
    lockAccount: (userId: string) => lockAccount(db, userId),

    /** The storage quota's check (files/storage-quota.ts); in a transaction after `lockAccount`, it decides. */
    checkQuota: (userId: string, adding: number, quota: StorageQuota, what: string) => checkQuota(db, userId, adding, quota, what),

    selfProfileId: (userId: string) => selfProfileId(db, userId),

    /** What a FHIR import compares one of the user's profiles with; undefined when it is not theirs. */
    async profileState(userId: string, profileId: string): Promise<ProfileState | undefined> {
      const row = await db
        .selectFrom('profiles')
        .select([...DETAIL_FIELDS, ...PROFILE_FLAGS, ...PLAN_FIELDS, 'is_pet'])
        .where('user_id', '=', userId)
        .where('id', '=', profileId)
        .executeTakeFirst();
      if (!row) return undefined;
      const flags = Object.fromEntries([...PROFILE_FLAGS, 'is_pet' as const].map((f) => [f, fromFlag(row[f])]));
      return { ...row, ...flags, allergies: await allergies.entries(userId, profileId) } as unknown as ProfileState;
    },

    /** One person's clinical items of a kind, as the import recognises them (DESIGN §12). */
    async clinicalRows(userId: string, table: ClinicalTable, profileId: string): Promise<Record<string, unknown>[]> {
      return clinical.items(table, userId, profileId);
    },

    /** Name and size of each of the user's files. */
    async fileSizes(userId: string): Promise<{ display_name: string; size: number }[]> {
      const rows = await db.selectFrom('medical_files').select(['display_name', 'size']).where('user_id', '=', userId).execute();
      return rows.map((r) => ({ display_name: r.display_name, size: Number(r.size) }));
    },

    listRows,
    appointments,

    /** The account's family members, lists, appointments, notifications and files. */
    async account(userId: string): Promise<AccountRows> {
      const members = await db
        .selectFrom('profiles')
        .select(['id', 'name', 'date_of_birth', 'relationship', 'is_pet'])
        .where('user_id', '=', userId)
        .where('is_self', '=', 0)
        .execute();
      const notifications = await db
        .selectFrom('notifications')
        .select(['type', 'title', 'data', 'created_at'])
        .where('user_id', '=', userId)
        .execute();
      const files = await db
        .selectFrom('medical_files')
        .select(['profile_id', 'display_name', 'original_name', 'record_date', 'size'])
        .where('user_id', '=', userId)
        .execute();
      return {
        members: members.map((m) => ({ ...m, is_pet: fromFlag(m.is_pet) })),
        lists: {
          emergency_contacts: await listRows(userId, 'emergency_contacts'),
          healthcare_providers: await listRows(userId, 'healthcare_providers'),
          medications: await listRows(userId, 'medications'),
        },
        appointments: await appointments(userId),
        notifications: notifications.map((n) => ({
          type: n.type,
          title: n.title,
          message: notificationMessage(n),
          created_at: n.created_at,
        })),
        files: files.map((f) => ({ ...f, size: Number(f.size) })),
      };
    },

    /** DESIGN §12: the account's clinical items of one kind, every person's (the clinical feature's, clinical.service.ts). */
    clinicalItems: (userId: string, table: ClinicalTable) => clinical.items(table, userId),

    /** Adds one person's clinical items (clinical.service.ts); the caller holds the lock and checked the cap. */
    insertClinicalItems: (userId: string, table: ClinicalTable, profileId: string, items: readonly ClinicalInsert[]) =>
      clinical.insert(table, userId, profileId, items),

    /** Issue 32: the medications' schedules and logged doses (the care feature's, care-transfer.ts). */
    restoreCare: (userId: string, self: { userId: string; exportUsername: string }, items: readonly CareRestore[]) =>
      care.restore(userId, self, items),

    /** Issue 32: the account's calendar feeds' settings (the calendar feature's, calendar-transfer.ts). */
    calendarFeeds: (userId: string) => calendarTransfer(db).settings(userId),

    /** Issue 32: restored calendar feeds (kinchart-restore.ts feedRestores), each with a token nobody knows. */
    insertCalendarFeeds: (userId: string, feeds: readonly RestoredFeed[], at: string) => calendarTransfer(db).insert(userId, feeds, at),

    /** Appointment UIDs are unique server-wide: which of `uids` someone already has. */
    async takenUids(uids: string[]): Promise<Set<string>> {
      const taken = new Set<string>();
      for (let i = 0; i < uids.length; i += 500) {
        const rows = await db
          .selectFrom('appointments')
          .select('uid')
          .where('uid', 'in', uids.slice(i, i + 500))
          .execute();
        for (const r of rows) taken.add(r.uid);
      }
      return taken;
    },

    /** Writes the change; a new allergy_details text has the allergy entries follow it (docs/decisions/0053). */
    async updateProfile(userId: string, profileId: string, change: ProfileChange): Promise<void> {
      const { incomingAllergies, ...columns } = change;
      await db
        .updateTable('profiles')
        .set(columnsOf(columns) as Updateable<ProfilesTable>)
        .where('user_id', '=', userId)
        .where('id', '=', profileId)
        .execute();
      if ('allergy_details' in columns) {
        const details = typeof columns.allergy_details === 'string' ? columns.allergy_details : null;
        await allergies.followDetails(userId, profileId, details, incomingAllergies);
      }
    },

    /** A restored person's allergy entries, as planned (kinchart-restore.ts): the person's others go. */
    replaceAllergies: (userId: string, profileId: string, planned: readonly PlannedEntry[]) =>
      allergies.replace(userId, profileId, planned),

    async insertMembers(userId: string, members: NewMember[]): Promise<void> {
      await insertAll(
        'profiles',
        members.map((m) => ({
          ...(columnsOf(m.fields) as Omit<Insertable<ProfilesTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>),
          id: m.id,
          user_id: userId,
          is_self: 0,
          relationship: m.relationship,
          is_pet: toFlag(m.is_pet),
          created_at: m.created_at,
          updated_at: m.updated_at,
        })),
      );
      for (const m of members) if (m.allergies.length > 0) await allergies.replace(userId, m.id, m.allergies);
    },

    async deleteListRows(userId: string, table: ListTable, ids: string[]): Promise<void> {
      if (ids.length > 0) await db.deleteFrom(table).where('user_id', '=', userId).where('id', 'in', ids).execute();
    },

    async updateListRow<T extends ListTable>(userId: string, table: T, id: string, values: ListValues[T], position: number): Promise<void> {
      const from: ListTable = table;
      await db
        .updateTable(from)
        .set({ ...LIST_COLUMNS[table](values), position })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute();
    },

    async insertListRows<T extends ListTable>(userId: string, table: T, rows: NewListRow<T>[]): Promise<void> {
      const values = rows.map((r) => ({
        id: r.id ?? newId(),
        user_id: userId,
        profile_id: r.profileId,
        ...LIST_COLUMNS[table](r.values),
        position: r.position,
        created_at: r.created_at,
      }));
      await insertAll(table, values as never[]);
    },

    async insertAppointments(userId: string, rows: NewAppointment[]): Promise<void> {
      await insertAll(
        'appointments',
        rows.map((a) => ({
          id: newId(),
          user_id: userId,
          profile_id: a.profile_id,
          uid: a.uid,
          ...appointmentValuesOf(a),
          created_at: a.created_at,
          reminder_minutes: a.reminder_minutes ? JSON.stringify(a.reminder_minutes) : null,
        })),
      );
    },

    /** The export's reminder choices for the account's people (issue 32): each replaces the one there. */
    async saveReminderSettings(
      userId: string,
      rows: { profileId: string; dose_reminders: boolean; missed_dose_alerts: boolean; appointment_reminders: boolean }[],
      at: string,
    ): Promise<void> {
      for (const r of rows) {
        const values = {
          dose_reminders: toFlag(r.dose_reminders),
          missed_dose_alerts: toFlag(r.missed_dose_alerts),
          appointment_reminders: toFlag(r.appointment_reminders),
          updated_at: at,
        };
        await db
          .insertInto('reminder_settings')
          .values({ user_id: userId, profile_id: r.profileId, ...values })
          .onConflict((oc) => oc.columns(['user_id', 'profile_id']).doUpdateSet(values))
          .execute();
      }
    },

    /** The export's preferences become the account's (issue 32). */
    async updatePreferences(userId: string, p: RestoredPreferences): Promise<void> {
      await db
        .updateTable('users')
        .set({
          time_zone: p.time_zone,
          reminder_email: toFlag(p.reminder_email),
          reminder_push: toFlag(p.reminder_push),
          reminder_minimal: toFlag(p.reminder_minimal),
          // Issue 35: an older file (without them) leaves the account's language and units as they are.
          ...(p.language !== undefined ? { language: p.language } : {}),
          ...(p.units !== undefined ? { units: p.units } : {}),
        })
        .where('id', '=', userId)
        .execute();
    },

    async insertNotifications(userId: string, rows: NewNotification[]): Promise<void> {
      await insertAll(
        'notifications',
        rows.map((n) => ({
          id: newId(),
          user_id: userId,
          type: n.type,
          level: n.level,
          title: n.title,
          data: JSON.stringify({ message: n.message }),
          is_read: toFlag(n.is_read),
          is_hidden: toFlag(n.is_hidden),
          dedupe_key: null,
          created_at: n.created_at,
        })),
      );
    },

    async insertFiles(userId: string, rows: NewImportedFile[]): Promise<void> {
      await insertAll(
        'medical_files',
        rows.map((f) => ({ ...f, user_id: userId })),
      );
    },
  };
}
export type ImportQueries = ReturnType<typeof importQueries>;

export function createImportRepository(db: Db) {
  return {
    ...importQueries(db),
    /** Runs `fn` with the queries bound to one transaction: all of it is written, or nothing. */
    transaction<T>(fn: (tx: ImportQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(importQueries(trx)));
    },
  };
}
