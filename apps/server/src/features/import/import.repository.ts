import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AlreadyPresent, ImportCounts, KinchartExportParsed } from '@kinchart/shared/export';
import { DETAILS_MAX, LIST_CAPS, PROFILE_FIELD_NAMES } from '@kinchart/shared/profile';
import type { Database, ProfilesTable } from '../../db/schema';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { fromFlag, toFlag } from '../../lib/flags';
import { newId, nowIso } from '../../lib/ids';
import { notificationMessage } from '../export/kinchart-format';
import type { StorageQuota } from '../files/storage-quota';
import { lockAccount } from '../../db/account-lock';
import { contactColumns, medicationColumns, providerColumns } from '../profiles/list-rows';
import { checkQuota } from '../files/storage-quota';
import type { StoredImportFile } from './blob-writer';
import type { FhirPlan, TextField } from './fhir-plan';
import { FLAG_OF } from './fhir-plan';
import type { ExistingAccount, ListItem, ListTable } from './kinchart-match';
import { LIST_TABLES, keyOf, matchKinchart } from './kinchart-match';

// The only place the import speaks SQL. Each import is one transaction: everything is written, or
// nothing (decision 0004). Ids are always new — an export's ids only tie its records together — and
// every row carries the signed-in user's id. What the account already holds is not added again
// (decision 0012, kinchart-match.ts).

type Trx = Kysely<Database>;
type Table = keyof Database;

/** Inserts in batches that stay under both dialects' bound-parameter limits (SQLite 32766, pg 65535). */
async function insertAll<T extends Table>(trx: Trx, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length;
  const size = Math.max(1, Math.floor(20_000 / columns));
  for (let i = 0; i < rows.length; i += size) {
    await trx.insertInto(table).values(rows.slice(i, i + size)).execute();
  }
}


export const fileKey = (name: string, size: number): string => `${name}\u0000${size}`;

function emptyCounts(): ImportCounts {
  return { family_members: 0, allergies: 0, conditions: 0, emergency_contacts: 0, healthcare_providers: 0, medications: 0, appointments: 0, notifications: 0, files: 0 };
}

async function selfProfileId(trx: Trx, userId: string): Promise<string> {
  const row = await trx.selectFrom('profiles').select('id').where('user_id', '=', userId).where('is_self', '=', 1).orderBy('created_at').executeTakeFirst();
  if (!row) throw notFound('Profile not found');
  return row.id;
}

/** An export profile's own fields as profile columns (booleans as flags). */
function profileColumns(p: KinchartExportParsed['profiles'][number]): Record<string, string | number | null> {
  const columns: Record<string, string | number | null> = {};
  for (const key of PROFILE_FIELD_NAMES) {
    const value = p[key];
    columns[key] = typeof value === 'boolean' ? toFlag(value) : value;
  }
  return columns;
}

/** The account's records as identity keys (kinchart-match.ts decides with them). */
async function loadExisting(q: Trx, userId: string): Promise<ExistingAccount> {
  const selfId = await selfProfileId(q, userId);
  const members = await q.selectFrom('profiles').select(['id', 'name', 'date_of_birth', 'relationship', 'is_pet']).where('user_id', '=', userId).where('is_self', '=', 0).execute();
  const rowsOf = async (table: ListTable, key: (row: Record<string, unknown>) => string) =>
    (await q.selectFrom(table).selectAll().where('user_id', '=', userId).execute()).map((r) => ({
      id: r.id,
      profile_id: r.profile_id,
      position: Number(r.position),
      key: key(r as unknown as Record<string, unknown>),
    }));
  const appointments = await q
    .selectFrom('appointments')
    .select(['profile_id', 'appointment_date', 'start_time', 'provider_name', 'reason_for_visit'])
    .where('user_id', '=', userId)
    .execute();
  const notifications = await q.selectFrom('notifications').select(['type', 'title', 'data', 'created_at']).where('user_id', '=', userId).execute();
  const files = await q
    .selectFrom('medical_files')
    .select(['profile_id', 'display_name', 'original_name', 'record_date', 'size'])
    .where('user_id', '=', userId)
    .execute();
  return {
    selfId,
    members: members.map((m) => ({ id: m.id, name: m.name, key: keyOf.member({ ...m, is_pet: fromFlag(m.is_pet) }) })),
    lists: {
      emergency_contacts: await rowsOf('emergency_contacts', (r) => keyOf.contact(r as never)),
      healthcare_providers: await rowsOf('healthcare_providers', (r) => keyOf.provider(r as never)),
      medications: await rowsOf('medications', (r) => keyOf.medication(r as never)),
    },
    // Rows without a person are the own profile's (DESIGN §4).
    appointments: appointments.map((a) => keyOf.appointment({ ...a, profile_id: a.profile_id ?? selfId })),
    notifications: notifications.map((n) => keyOf.notification({ ...n, message: notificationMessage(n) })),
    files: files.map((f) => keyOf.file({ ...f, profile_id: f.profile_id ?? selfId, size: Number(f.size) })),
  };
}

export function createImportRepository(db: Db) {

  /** Appointment UIDs are unique server-wide: an export's UID is kept unless someone has it already. */
  async function freeUids(trx: Trx, uids: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let i = 0; i < uids.length; i += 500) {
      const rows = await trx.selectFrom('appointments').select('uid').where('uid', 'in', uids.slice(i, i + 500)).execute();
      for (const r of rows) taken.add(r.uid);
    }
    return new Set(uids.filter((u) => !taken.has(u)));
  }

  return {
    /** Files the user already has, by name and size: the FHIR import skips those (a re-import adds nothing). */
    async fileKeys(userId: string): Promise<Set<string>> {
      const rows = await db.selectFrom('medical_files').select(['display_name', 'size']).where('user_id', '=', userId).execute();
      return new Set(rows.map((r) => fileKey(r.display_name, Number(r.size))));
    },

    /** What the account holds, as identity keys: what a Kinchart import is matched against (kinchart-match.ts). */
    existing: (userId: string) => loadExisting(db, userId),

    /**
     * Restores a Kinchart export into the account: the own profile (fields and lists) becomes the
     * export's; family members, appointments, notifications and files are added — those the account
     * already holds are not (decision 0012), and are counted in `present`. `files` holds the blobs the
     * service wrote for the files it expected to add; `unused` names those that turned out, under the
     * lock, to be there already (the caller removes them). Refused whole past the storage quota.
     */
    async restoreKinchart(
      userId: string,
      doc: KinchartExportParsed,
      files: Map<string, StoredImportFile>,
      quota: StorageQuota,
    ): Promise<{ counts: ImportCounts; present: AlreadyPresent; unused: string[] }> {
      return db.transaction().execute(async (trx) => {
        // First the account's lock: a parallel import or upload of this account waits, so what is
        // "already there" and the quota are both decided on what is really there (decision 0012).
        await lockAccount(trx, userId);
        const counts = emptyCounts();
        const now = nowIso();
        const existing = await loadExisting(trx, userId);
        const match = matchKinchart(doc, existing);
        const { selfId } = existing;
        const pid = (id: string) => match.profileIds.get(id) ?? selfId;

        const fileRows = match.files.flatMap((f) => {
          const stored = files.get(f.id);
          if (!stored) return []; // it was there when the import began (and has been deleted since)
          return [
            {
              id: stored.id,
              user_id: userId,
              // DESIGN §4: every file belongs to a person — the own profile when the export names none.
              profile_id: f.profile_id === null ? selfId : pid(f.profile_id),
              display_name: f.display_name,
              original_name: f.original_name,
              file_type: stored.mime,
              size: stored.size,
              storage_key: stored.id,
              wrapped_key: stored.wrappedKey,
              record_date: f.record_date,
              provider_name: f.provider_name,
              visit_location: f.visit_location,
              visit_reason: f.visit_reason,
              created_at: f.created_at,
              updated_at: f.updated_at,
            },
          ];
        });
        await checkQuota(trx, userId, fileRows.reduce((sum, r) => sum + r.size, 0), quota, "this import's files need");
        for (const table of LIST_TABLES) {
          for (const total of match.lists[table].totals) {
            if (total.count > LIST_CAPS[table]) {
              throw badRequest(`This import would give ${total.name ?? 'a family member'} more than ${LIST_CAPS[table]} ${table.replace(/_/g, ' ')}.`);
            }
          }
        }

        const self = doc.profiles.find((p) => p.is_self);
        if (self) {
          await trx.updateTable('profiles').set({ ...(profileColumns(self) as Updateable<ProfilesTable>), updated_at: now }).where('id', '=', selfId).where('user_id', '=', userId).execute();
        }
        const members: Insertable<ProfilesTable>[] = match.newMembers.map((p) => {
          return {
            ...(profileColumns(p) as Omit<Insertable<ProfilesTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>),
            id: pid(p.id),
            user_id: userId,
            is_self: 0,
            relationship: p.relationship,
            is_pet: toFlag(p.is_pet),
            created_at: p.created_at,
            updated_at: p.updated_at,
          };
        });
        await insertAll(trx, 'profiles', members);
        counts.family_members = members.length;

        const contactValues = (c: ListItem<'emergency_contacts'>) => contactColumns(c);
        const providerValues = (h: ListItem<'healthcare_providers'>) => providerColumns(h);
        // The export's own edit time stays with each medication.
        const medicationValues = (m: ListItem<'medications'>) => ({ ...medicationColumns(m), updated_at: m.updated_at });
        async function applyList(table: ListTable, values: (item: never) => Record<string, unknown>) {
          const plan = match.lists[table];
          if (plan.remove.length > 0) await trx.deleteFrom(table).where('user_id', '=', userId).where('id', 'in', plan.remove).execute();
          for (const u of plan.update) {
            await trx
              .updateTable(table)
              .set({ ...values(u.item as never), position: u.position })
              .where('user_id', '=', userId)
              .where('id', '=', u.id)
              .execute();
          }
          const rows = plan.insert.map((i) => ({
            id: newId(),
            user_id: userId,
            profile_id: i.profileId,
            ...values(i.item as never),
            position: i.position,
            created_at: i.item.created_at,
          }));
          await insertAll(trx, table, rows as never[]);
          return rows.length;
        }
        counts.emergency_contacts = await applyList('emergency_contacts', contactValues);
        counts.healthcare_providers = await applyList('healthcare_providers', providerValues);
        counts.medications = await applyList('medications', medicationValues);

        const free = await freeUids(trx, match.appointments.map((a) => a.uid).filter((u): u is string => !!u));
        const appointments = match.appointments.map((a) => {
          const uid = a.uid && free.has(a.uid) ? a.uid : newId();
          free.delete(uid); // one UID per appointment, even if the export repeats one
          return {
            id: newId(),
            user_id: userId,
            // The person it belongs to; an older export's appointments (no profile_id) are the own profile's.
            profile_id: a.profile_id ? pid(a.profile_id) : selfId,
            uid,
            appointment_date: a.appointment_date,
            start_time: a.start_time,
            end_time: a.end_time,
            provider_name: a.provider_name,
            reason_for_visit: a.reason_for_visit,
            location: a.location,
            created_at: a.created_at,
          };
        });
        await insertAll(trx, 'appointments', appointments);
        counts.appointments = appointments.length;

        const notifications = match.notifications.map((n) => ({
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
        }));
        await insertAll(trx, 'notifications', notifications);
        counts.notifications = notifications.length;

        await insertAll(trx, 'medical_files', fileRows);
        counts.files = fileRows.length;
        const inserted = new Set(fileRows.map((r) => r.id));
        const unused = [...files.values()].map((f) => f.id).filter((id) => !inserted.has(id));
        return { counts, present: { ...match.present, files: doc.files.length - fileRows.length }, unused };
      });
    },

    /**
     * Merges a FHIR plan into one profile: demographics the bundle states are set; allergy and
     * condition texts are added as new lines (a line already there is not repeated); contacts,
     * providers, medications, appointments and documents are added unless the same one is already
     * there — so importing one bundle twice changes nothing the second time.
     */
    async applyFhirPlan(
      userId: string,
      profileId: string,
      plan: FhirPlan,
      documents: { stored: StoredImportFile; doc: FhirPlan['documents'][number] }[],
      quota: StorageQuota,
    ): Promise<{ counts: ImportCounts; present: AlreadyPresent }> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, userId);
        await checkQuota(trx, userId, documents.reduce((sum, d) => sum + d.stored.size, 0), quota, "this import's files need");
        const counts = emptyCounts();
        const present: AlreadyPresent = { family_members: 0, emergency_contacts: 0, healthcare_providers: 0, medications: 0, appointments: 0, notifications: 0, files: 0 };
        counts.allergies = plan.allergies;
        counts.conditions = plan.conditions;
        const now = nowIso();
        const profile = await trx.selectFrom('profiles').selectAll().where('user_id', '=', userId).where('id', '=', profileId).executeTakeFirst();
        if (!profile) throw notFound('Family member not found');

        const set: Updateable<ProfilesTable> = { ...plan.fields, updated_at: now };
        if (plan.isPet) set.is_pet = 1;
        for (const flag of plan.flags) set[flag] = 1;
        for (const [field, lines] of Object.entries(plan.texts) as [TextField, string[]][]) {
          const current = profile[field];
          const fresh = lines.filter((l) => !(current ?? '').toLowerCase().includes(l.trim().toLowerCase()));
          if (fresh.length === 0) continue;
          const next = [current, ...[...new Set(fresh)]].filter(Boolean).join('\n');
          if (next.length > DETAILS_MAX) throw badRequest(`${field.replace(/_/g, ' ')} would be longer than ${DETAILS_MAX} characters after this import.`);
          set[field] = next;
          set[FLAG_OF[field]] = 1;
        }
        await trx.updateTable('profiles').set(set).where('user_id', '=', userId).where('id', '=', profileId).execute();

        const existing = async (table: ListTable) =>
          trx.selectFrom(table).selectAll().where('user_id', '=', userId).where('profile_id', '=', profileId).execute();
        const nextPosition = (rows: { position: number }[]) => rows.reduce((max, r) => Math.max(max, Number(r.position) + 1), 0);
        async function addList<V>(table: ListTable, items: V[], identityOf: (v: V) => string, rowOf: (v: V, position: number) => Record<string, unknown>) {
          const rows = await existing(table);
          const seen = new Set(rows.map((r) => identityOf(r as unknown as V)));
          const fresh = items.filter((v) => {
            const k = identityOf(v);
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          });
          if (rows.length + fresh.length > LIST_CAPS[table]) {
            throw new HttpError(400, `This import would give the profile more than ${LIST_CAPS[table]} ${table.replace(/_/g, ' ')}.`);
          }
          let position = nextPosition(rows);
          await insertAll(trx, table, fresh.map((v) => ({ id: newId(), user_id: userId, profile_id: profileId, ...rowOf(v, position++), created_at: now })) as never[]);
          present[table] = items.length - fresh.length;
          return fresh.length;
        }

        counts.emergency_contacts = await addList(
          'emergency_contacts',
          plan.contacts,
          keyOf.contact,
          (c, position) => ({ ...contactColumns(c), position }),
        );
        counts.healthcare_providers = await addList(
          'healthcare_providers',
          plan.providers,
          keyOf.provider,
          (h, position) => ({ ...providerColumns(h), position }),
        );
        counts.medications = await addList(
          'medications',
          plan.medications,
          keyOf.medication,
          (m, position) => ({ ...medicationColumns(m), position, updated_at: now }),
        );

        // The bundle's appointments are this person's (DESIGN §4): compared with theirs only.
        const have = await trx
          .selectFrom('appointments')
          .select(['profile_id', 'appointment_date', 'start_time', 'provider_name', 'reason_for_visit'])
          .where('user_id', '=', userId)
          .where('profile_id', '=', profileId)
          .execute();
        const seen = new Set(have.map(keyOf.appointment));
        const appointments = plan.appointments.filter((a) => {
          const k = keyOf.appointment({ ...a, profile_id: profileId });
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        });
        await insertAll(
          trx,
          'appointments',
          appointments.map((a) => ({
            id: newId(),
            uid: newId(),
            user_id: userId,
            profile_id: profileId,
            appointment_date: a.appointment_date,
            start_time: a.start_time,
            end_time: a.end_time,
            provider_name: a.provider_name,
            reason_for_visit: a.reason_for_visit,
            location: a.location,
            created_at: now,
          })),
        );
        counts.appointments = appointments.length;
        present.appointments = plan.appointments.length - appointments.length;

        await insertAll(
          trx,
          'medical_files',
          documents.map(({ stored, doc }) => ({
            id: stored.id,
            user_id: userId,
            profile_id: profileId,
            display_name: doc.display_name,
            original_name: doc.display_name,
            file_type: stored.mime,
            size: stored.size,
            storage_key: stored.id,
            wrapped_key: stored.wrappedKey,
            record_date: doc.record_date ?? doc.created_at ?? now,
            provider_name: doc.provider_name,
            visit_location: null,
            visit_reason: doc.visit_reason,
            created_at: now,
            updated_at: now,
          })),
        );
        counts.files = documents.length;
        present.files = plan.documents.length - documents.length;
        return { counts, present };
      });
    },
  };
}
export type ImportRepository = ReturnType<typeof createImportRepository>;
