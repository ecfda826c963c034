import { selfProfileId } from '../../common/person-access.repository';
import type { Kysely, Selectable, Updateable } from 'kysely';
import type {
  EmergencyContact,
  FamilyMemberSummary,
  HealthcareProvider,
  Medication,
  PetFields,
  ProfileFields,
  ProfileValues,
} from '@kinchart/shared/profile';
import { LIST_CAPS, PROFILE_FIELD_NAMES } from '@kinchart/shared/profile';
import { lockAccount } from '../../db/account-lock.repository';
import type { Database, ProfilesTable } from '../../db/schema';
import { fromFlag, toFlag } from '../../lib/flags';
import { newId, nowIso } from '../../lib/ids';
import type { ContactValues, MedicationValues, ProviderValues } from './list-rows';
import { contactColumns, medicationColumns, profileValuesOf, providerColumns, toContact, toMedication, toProvider } from './list-rows';
import { allergyTransfer } from '../allergies/allergies.service';

export type { ContactValues, MedicationValues, ProviderValues } from './list-rows';

// The only place that speaks SQL for profiles (DESIGN §4). Every statement carries the owner's
// user_id, and every nested-record statement also the profile_id, so an id that belongs to someone
// else matches nothing — the caller turns "nothing" into the same 404 as a missing id.

type Executor = Kysely<Database>;

export type WithClientId<T> = T & { clientId?: string | undefined };

export interface ProfileLists {
  emergency_contacts?: WithClientId<ContactValues>[] | undefined;
  healthcare_providers?: WithClientId<ProviderValues>[] | undefined;
  medications?: WithClientId<MedicationValues>[] | undefined;
}

/** What the emergency view and the export read of one person (DESIGN §7). */
export interface ProfileBundle {
  profile: ProfileValues & { id: string; is_self: boolean; relationship: string | null; is_pet: boolean };
  emergency_contacts: EmergencyContact[];
  healthcare_providers: HealthcareProvider[];
  medications: Medication[];
}

type ProfileRow = Selectable<ProfilesTable>;

/** The columns for the profile fields present in `fields` (booleans become 0/1). */
function toColumns(fields: Partial<ProfileFields>): Updateable<ProfilesTable> {
  const columns: Record<string, string | number | null> = {};
  for (const key of PROFILE_FIELD_NAMES) {
    if (!(key in fields)) continue;
    const value = fields[key];
    if (value !== undefined) columns[key] = typeof value === 'boolean' ? toFlag(value) : value;
  }
  return columns;
}

function toSummary(row: ProfileRow): FamilyMemberSummary {
  return { ...profileValuesOf(row), id: row.id, member_id: row.id, relationship: row.relationship, is_pet: fromFlag(row.is_pet) };
}

type NestedTable = 'emergency_contacts' | 'healthcare_providers' | 'medications';

type NestedRow<T extends NestedTable> = Selectable<Database[T]>;

// SPEC §3 lists are shown in the order the user put them: position, then creation.
async function nestedRows<T extends NestedTable>(db: Executor, table: T, userId: string, profileId: string): Promise<NestedRow<T>[]> {
  // Kysely cannot type a query on a table-name type parameter, so it runs on the union of the
  // three tables and its rows are typed back to the one table `T` names.
  const from: NestedTable = table;
  const rows = await db
    .selectFrom(from)
    .selectAll()
    .where('user_id', '=', userId)
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows as unknown as NestedRow<T>[];
}

/**
 * One person's profile values and nested lists, or undefined when `profileId` is not one of
 * `userId`'s profiles. Reused by the emergency view and the export.
 */
export async function loadProfileBundle(db: Executor, userId: string, profileId: string): Promise<ProfileBundle | undefined> {
  const [row, lists] = await Promise.all([
    db.selectFrom('profiles').selectAll().where('id', '=', profileId).where('user_id', '=', userId).executeTakeFirst(),
    loadLists(db, userId, profileId),
  ]);
  return row ? bundleOf(row, lists) : undefined;
}

async function loadLists(db: Executor, userId: string, profileId: string) {
  const [contacts, providers, medications] = await Promise.all([
    nestedRows(db, 'emergency_contacts', userId, profileId),
    nestedRows(db, 'healthcare_providers', userId, profileId),
    nestedRows(db, 'medications', userId, profileId),
  ]);
  return { contacts, providers, medications };
}

function bundleOf(row: ProfileRow, lists: Awaited<ReturnType<typeof loadLists>>): ProfileBundle {
  return {
    profile: {
      ...profileValuesOf(row),
      id: row.id,
      is_self: fromFlag(row.is_self),
      relationship: row.relationship,
      is_pet: fromFlag(row.is_pet),
    },
    emergency_contacts: lists.contacts.map(toContact),
    healthcare_providers: lists.providers.map(toProvider),
    medications: lists.medications.map(toMedication),
  };
}

function profileQueries(db: Executor) {
  async function nextPosition(q: Kysely<Database>, table: NestedTable, userId: string, profileId: string): Promise<number> {
    const row = await q
      .selectFrom(table)
      .select((eb) => eb.fn.max('position').as('max'))
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .executeTakeFirst();
    const max = row?.max;
    return max === null || max === undefined ? 0 : Number(max) + 1;
  }

  /** Existing ids (and their creation times) of one profile's list: the ids a replace may keep. */
  async function existingIds(table: NestedTable, userId: string, profileId: string): Promise<Map<string, string>> {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .execute();
    return new Map(rows.map((r) => [r.id, r.created_at]));
  }

  /**
   * Replaces one list: the new items in order. A client id that named a row of this same list keeps
   * that row — updated in place, with its id and created_at, so the client's ids stay valid after a
   * save and what hangs on the row (a medication's schedule and dose log, issue 32) stays with it;
   * rows the list no longer names are deleted; any other item is inserted with a fresh id.
   */
  async function replaceList<V>(
    table: NestedTable,
    userId: string,
    profileId: string,
    items: WithClientId<V>[],
    columns: (v: V) => Record<string, string | number | null>,
  ) {
    const from: NestedTable = table;
    const existing = await existingIds(table, userId, profileId);
    const now = nowIso();
    const used = new Set<string>();
    const planned = items.map((item, position) => {
      const keep = item.clientId && existing.has(item.clientId) && !used.has(item.clientId) ? item.clientId : undefined;
      if (keep) used.add(keep);
      const values = { ...columns(item), position, ...(table === 'medications' ? { updated_at: now } : {}) };
      return { keep, values };
    });
    const gone = [...existing.keys()].filter((id) => !used.has(id));
    if (gone.length > 0) {
      await db.deleteFrom(from).where('user_id', '=', userId).where('profile_id', '=', profileId).where('id', 'in', gone).execute();
    }
    for (const { keep, values } of planned) {
      if (keep) await db.updateTable(from).set(values).where('id', '=', keep).where('user_id', '=', userId).execute();
    }
    const inserts = planned
      .filter((p) => !p.keep)
      .map(({ values }) => ({ ...values, id: newId(), user_id: userId, profile_id: profileId, created_at: now }));
    if (inserts.length > 0) await db.insertInto(from).values(inserts).execute();
  }

  /**
   * The list, insert, update and delete statements of one nested table, written once for the
   * three. Each one carries the user_id and the profile_id. The statements run on the union of the
   * tables (Kysely cannot type a query on a table-name type parameter); rows are typed back to `T`'s.
   */
  function nestedRecords<T extends NestedTable, V, R>(
    table: T,
    columns: (v: V) => Record<string, string | number | null>,
    toRecord: (row: NestedRow<T>) => R,
  ) {
    const from: NestedTable = table;
    // Of the three tables only medications has an updated_at column.
    const stamped = table === 'medications';
    return {
      list: async (userId: string, profileId: string): Promise<R[]> => (await nestedRows(db, table, userId, profileId)).map(toRecord),

      /** Adds one item at the end; null when the list already holds its cap (LIST_CAPS). */
      insert: async (userId: string, profileId: string, values: V): Promise<R | null> =>
        db.transaction().execute(async (trx) => {
          // The account's lock makes count-then-insert one step: parallel adds cannot pass the cap.
          await lockAccount(trx, userId);
          const { count } = await trx
            .selectFrom(from)
            .select((eb) => eb.fn.countAll().as('count'))
            .where('user_id', '=', userId)
            .where('profile_id', '=', profileId)
            .executeTakeFirstOrThrow();
          if (Number(count) >= LIST_CAPS[table]) return null;
          const position = await nextPosition(trx, table, userId, profileId);
          const now = nowIso();
          const row = await trx
            .insertInto(from)
            .values({
              id: newId(),
              user_id: userId,
              profile_id: profileId,
              ...columns(values),
              position,
              created_at: now,
              ...(stamped ? { updated_at: now } : {}),
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return toRecord(row as unknown as NestedRow<T>);
        }),

      update: async (userId: string, profileId: string, id: string, values: V): Promise<R | undefined> => {
        const row = await db
          .updateTable(from)
          .set(stamped ? { ...columns(values), updated_at: nowIso() } : columns(values))
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('profile_id', '=', profileId)
          .returningAll()
          .executeTakeFirst();
        return row ? toRecord(row as unknown as NestedRow<T>) : undefined;
      },

      remove: async (userId: string, profileId: string, id: string): Promise<boolean> => {
        const result = await db
          .deleteFrom(from)
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('profile_id', '=', profileId)
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      },
    };
  }

  const contacts = nestedRecords('emergency_contacts', contactColumns, toContact);
  const providers = nestedRecords('healthcare_providers', providerColumns, toProvider);
  const medications = nestedRecords('medications', medicationColumns, toMedication);

  return {
    loadBundle: (userId: string, profileId: string) => loadProfileBundle(db, userId, profileId),

    /** The account holder's own profile id (created at sign-up with is_self = 1). */
    selfProfileId: (userId: string) => selfProfileId(db, userId),

    /**
     * The own profile with the account's username and email, in as few round trips as it takes
     * (DESIGN §9 budgets GET /api/user/getPatientProfile): one for profile + account, then the lists.
     */
    async loadSelf(userId: string): Promise<(ProfileBundle & { username: string; account_email: string }) | undefined> {
      const row = await db
        .selectFrom('profiles')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .selectAll('profiles')
        .select(['users.username as account_username', 'users.email as account_email'])
        .where('profiles.user_id', '=', userId)
        .where('profiles.is_self', '=', 1)
        .orderBy('profiles.created_at')
        .executeTakeFirst();
      if (!row) return undefined;
      const { account_username, account_email, ...profile } = row;
      return { ...bundleOf(profile, await loadLists(db, userId, profile.id)), username: account_username, account_email };
    },

    async updateUsername(userId: string, username: string) {
      await db.updateTable('users').set({ username, updated_at: nowIso() }).where('id', '=', userId).execute();
    },

    /** SPEC §7 family list: members only, oldest first. */
    async listMembers(userId: string): Promise<FamilyMemberSummary[]> {
      const rows = await db
        .selectFrom('profiles')
        .selectAll()
        .where('user_id', '=', userId)
        .where('is_self', '=', 0)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toSummary);
    },

    async insertMember(
      userId: string,
      values: PetFields & { name: string; date_of_birth: string; relationship: string; is_pet: boolean; time_zone: string | null },
    ) {
      const id = newId();
      const now = nowIso();
      await db
        .insertInto('profiles')
        .values({
          id,
          user_id: userId,
          is_self: 0,
          name: values.name,
          date_of_birth: values.date_of_birth,
          relationship: values.relationship,
          is_pet: toFlag(values.is_pet),
          species: values.species,
          breed: values.breed,
          microchip_number: values.microchip_number,
          vet_name: values.vet_name,
          vet_phone: values.vet_phone,
          time_zone: values.time_zone,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    },

    /**
     * The member's record files and appointments move to the owner's own profile first, in the
     * same transaction (DESIGN §4: nothing is lost); contacts, providers, medications, the emergency
     * share and the person's shares go with the profile (ON DELETE CASCADE).
     */
    async deleteMember(userId: string, memberId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const member = await trx
          .selectFrom('profiles')
          .select('id')
          .where('id', '=', memberId)
          .where('user_id', '=', userId)
          .where('is_self', '=', 0)
          .executeTakeFirst();
        if (!member) return false;
        const ownProfileId = (await selfProfileId(trx, userId)) ?? null;
        await trx
          .updateTable('medical_files')
          .set({ profile_id: ownProfileId })
          .where('user_id', '=', userId)
          .where('profile_id', '=', memberId)
          .execute();
        await trx
          .updateTable('appointments')
          .set({ profile_id: ownProfileId })
          .where('user_id', '=', userId)
          .where('profile_id', '=', memberId)
          .execute();
        const result = await trx
          .deleteFrom('profiles')
          .where('id', '=', memberId)
          .where('user_id', '=', userId)
          .where('is_self', '=', 0)
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /**
     * Writes the given columns of one profile; `extra` carries relationship / is_pet for members.
     * Run it in a transaction: a written allergy_details text also rewrites the allergy entries.
     */
    async updateProfile(
      userId: string,
      profileId: string,
      fields: Partial<ProfileFields>,
      extra: { relationship?: string; is_pet?: boolean } = {},
    ): Promise<boolean> {
      // The allergy entries follow a new details text: the account's lock first, as the allergies API
      // takes it, so a parallel allergy write sees this text and its entries or neither.
      if ('allergy_details' in fields) await lockAccount(db, userId);
      const columns: Updateable<ProfilesTable> = { ...toColumns(fields), updated_at: nowIso() };
      if (extra.relationship !== undefined) columns.relationship = extra.relationship;
      if (extra.is_pet !== undefined) columns.is_pet = toFlag(extra.is_pet);
      const result = await db
        .updateTable('profiles')
        .set(columns)
        .where('id', '=', profileId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // Issue 34 (docs/decisions/0053): the allergy entries follow the details text, on the same transaction.
      if ('allergy_details' in fields) await allergyTransfer(db).followDetails(userId, profileId, fields.allergy_details ?? null);
      return true;
    },

    async replaceLists(userId: string, profileId: string, lists: ProfileLists) {
      if (lists.emergency_contacts) await replaceList('emergency_contacts', userId, profileId, lists.emergency_contacts, contactColumns);
      if (lists.healthcare_providers)
        await replaceList('healthcare_providers', userId, profileId, lists.healthcare_providers, providerColumns);
      if (lists.medications) await replaceList('medications', userId, profileId, lists.medications, medicationColumns);
    },

    listContacts: contacts.list,
    insertContact: contacts.insert,
    updateContact: contacts.update,
    deleteContact: contacts.remove,

    listProviders: providers.list,
    insertProvider: providers.insert,
    updateProvider: providers.update,
    deleteProvider: providers.remove,

    listMedications: medications.list,
    insertMedication: medications.insert,
    updateMedication: medications.update,
    deleteMedication: medications.remove,
  };
}
export type ProfileQueries = ReturnType<typeof profileQueries>;

export function createProfileRepository(db: Executor) {
  return {
    ...profileQueries(db),
    /** Runs `fn` with the queries bound to one transaction: all of it is saved, or none. */
    transaction<T>(fn: (tx: ProfileQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(profileQueries(trx)));
    },
  };
}
