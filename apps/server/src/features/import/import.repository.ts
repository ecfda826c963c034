import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ImportCounts, KinchartExportParsed } from '@kinchart/shared/export';
import { PROFILE_FIELD_NAMES } from '@kinchart/shared/profile';
import type { Database, ProfilesTable } from '../../db/schema';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { toFlag } from '../../lib/flags';
import { newId, nowIso } from '../../lib/ids';
import type { StoredImportFile } from './blob-writer';
import type { FhirPlan, TextField } from './fhir-plan';
import { FLAG_OF } from './fhir-plan';

// The only place the import speaks SQL. Each import is one transaction: everything is written, or
// nothing (issue 7). Ids are always new — an export's ids only tie its records together — and every
// row carries the signed-in user's id.

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

const LIST_LIMITS = { emergency_contacts: 50, healthcare_providers: 50, medications: 200 } as const;
const DETAILS_MAX = 5000;

export const fileKey = (name: string, size: number): string => `${name}\u0000${size}`;

function emptyCounts(): ImportCounts {
  return { family_members: 0, allergies: 0, conditions: 0, emergency_contacts: 0, healthcare_providers: 0, medications: 0, appointments: 0, notifications: 0, files: 0 };
}

export function createImportRepository(db: Db) {
  async function selfProfileId(trx: Trx, userId: string): Promise<string> {
    const row = await trx.selectFrom('profiles').select('id').where('user_id', '=', userId).where('is_self', '=', 1).orderBy('created_at').executeTakeFirst();
    if (!row) throw notFound('Profile not found');
    return row.id;
  }

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
    /** The profile a FHIR Bundle goes to: the own profile, or one of the user's members (else 404). */
    async targetProfile(userId: string, target: string | undefined): Promise<{ id: string; isSelf: boolean }> {
      if (!target || target === 'self') return { id: await selfProfileId(db, userId), isSelf: true };
      const row = await db.selectFrom('profiles').select('id').where('user_id', '=', userId).where('id', '=', target).where('is_self', '=', 0).executeTakeFirst();
      if (!row) throw notFound('Family member not found');
      return { id: row.id, isSelf: false };
    },

    /** Files the user already has, by name and size: the FHIR import skips those (a re-import adds nothing). */
    async fileKeys(userId: string): Promise<Set<string>> {
      const rows = await db.selectFrom('medical_files').select(['display_name', 'size']).where('user_id', '=', userId).execute();
      return new Set(rows.map((r) => fileKey(r.display_name, Number(r.size))));
    },

    /**
     * Restores a Kinchart export into the account: the own profile (fields and lists) becomes the
     * export's; family members, appointments, notifications and files are added.
     */
    async restoreKinchart(userId: string, doc: KinchartExportParsed, files: Map<string, StoredImportFile>): Promise<ImportCounts> {
      return db.transaction().execute(async (trx) => {
        const counts = emptyCounts();
        const now = nowIso();
        const selfId = await selfProfileId(trx, userId);
        const profileIds = new Map<string, string>();
        const members: Insertable<ProfilesTable>[] = [];

        for (const p of doc.profiles) {
          const columns: Record<string, string | number | null> = {};
          for (const key of PROFILE_FIELD_NAMES) {
            const value = p[key];
            columns[key] = typeof value === 'boolean' ? toFlag(value) : value;
          }
          if (p.is_self) {
            profileIds.set(p.id, selfId);
            await trx.updateTable('profiles').set({ ...(columns as Updateable<ProfilesTable>), updated_at: now }).where('id', '=', selfId).where('user_id', '=', userId).execute();
            for (const table of ['emergency_contacts', 'healthcare_providers', 'medications'] as const) {
              await trx.deleteFrom(table).where('user_id', '=', userId).where('profile_id', '=', selfId).execute();
            }
          } else {
            const id = newId();
            profileIds.set(p.id, id);
            members.push({
              ...(columns as Omit<Insertable<ProfilesTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>),
              id,
              user_id: userId,
              is_self: 0,
              relationship: p.relationship,
              is_pet: toFlag(p.is_pet),
              created_at: p.created_at,
              updated_at: p.updated_at,
            });
          }
        }
        await insertAll(trx, 'profiles', members);
        counts.family_members = members.length;

        const pid = (id: string) => profileIds.get(id) ?? selfId;
        const contacts = doc.profiles.flatMap((p) =>
          p.emergency_contacts.map((c) => ({
            id: newId(),
            user_id: userId,
            profile_id: pid(p.id),
            name: c.name,
            relationship: c.relationship,
            phone_number: c.phone_number,
            email: c.email,
            is_primary: toFlag(c.is_primary),
            has_medical_power: toFlag(c.has_medical_power),
            position: c.position,
            created_at: c.created_at,
          })),
        );
        const providers = doc.profiles.flatMap((p) =>
          p.healthcare_providers.map((h) => ({
            id: newId(),
            user_id: userId,
            profile_id: pid(p.id),
            provider_name: h.provider_name,
            specialty: h.specialty,
            facility: h.facility,
            phone_number: h.phone_number,
            email: h.email,
            address: h.address,
            is_primary: toFlag(h.is_primary),
            notes: h.notes,
            position: h.position,
            created_at: h.created_at,
          })),
        );
        const medications = doc.profiles.flatMap((p) =>
          p.medications.map((m) => ({
            id: newId(),
            user_id: userId,
            profile_id: pid(p.id),
            medication_name: m.medication_name,
            dosage: m.dosage,
            frequency: m.frequency,
            purpose: m.purpose,
            start_date: m.start_date,
            end_date: m.end_date,
            is_current: toFlag(m.is_current),
            position: m.position,
            created_at: m.created_at,
            updated_at: m.updated_at,
          })),
        );
        await insertAll(trx, 'emergency_contacts', contacts);
        await insertAll(trx, 'healthcare_providers', providers);
        await insertAll(trx, 'medications', medications);
        counts.emergency_contacts = contacts.length;
        counts.healthcare_providers = providers.length;
        counts.medications = medications.length;

        const free = await freeUids(trx, doc.appointments.map((a) => a.uid).filter((u): u is string => !!u));
        const appointments = doc.appointments.map((a) => {
          const uid = a.uid && free.has(a.uid) ? a.uid : newId();
          free.delete(uid); // one UID per appointment, even if the export repeats one
          return {
            id: newId(),
            user_id: userId,
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

        const notifications = doc.notifications.map((n) => ({
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

        const fileRows = doc.files.map((f) => {
          const stored = files.get(f.id);
          if (!stored) throw new Error('An imported file has no stored blob');
          return {
            id: stored.id,
            user_id: userId,
            profile_id: f.profile_id === null ? null : pid(f.profile_id),
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
          };
        });
        await insertAll(trx, 'medical_files', fileRows);
        counts.files = fileRows.length;
        return counts;
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
    ): Promise<ImportCounts> {
      return db.transaction().execute(async (trx) => {
        const counts = emptyCounts();
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

        type ListTable = keyof typeof LIST_LIMITS;
        const existing = async (table: ListTable) =>
          trx.selectFrom(table).selectAll().where('user_id', '=', userId).where('profile_id', '=', profileId).execute();
        const nextPosition = (rows: { position: number }[]) => rows.reduce((max, r) => Math.max(max, Number(r.position) + 1), 0);
        const key = (...parts: (string | null | undefined)[]) => parts.map((p) => (p ?? '').trim().toLowerCase()).join('\u0000');
        async function addList<V>(table: ListTable, items: V[], keyOf: (v: V) => string, rowOf: (v: V, position: number) => Record<string, unknown>) {
          const rows = await existing(table);
          const seen = new Set(rows.map((r) => keyOf(r as unknown as V)));
          const fresh = items.filter((v) => {
            const k = keyOf(v);
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          });
          if (rows.length + fresh.length > LIST_LIMITS[table]) {
            throw new HttpError(400, `This import would give the profile more than ${LIST_LIMITS[table]} ${table.replace(/_/g, ' ')}.`);
          }
          let position = nextPosition(rows);
          await insertAll(trx, table, fresh.map((v) => ({ id: newId(), user_id: userId, profile_id: profileId, ...rowOf(v, position++), created_at: now })) as never[]);
          return fresh.length;
        }

        counts.emergency_contacts = await addList(
          'emergency_contacts',
          plan.contacts,
          (c) => key(c.name, c.phone_number),
          (c, position) => ({ ...c, is_primary: toFlag(c.is_primary), has_medical_power: toFlag(c.has_medical_power), position }),
        );
        counts.healthcare_providers = await addList(
          'healthcare_providers',
          plan.providers,
          (h) => key(h.provider_name, h.phone_number),
          (h, position) => ({ ...h, is_primary: toFlag(h.is_primary), position }),
        );
        counts.medications = await addList(
          'medications',
          plan.medications,
          (m) => key(m.medication_name, m.dosage, m.start_date),
          (m, position) => ({ ...m, is_current: toFlag(m.is_current), position, updated_at: now }),
        );

        const have = await trx.selectFrom('appointments').select(['appointment_date', 'start_time', 'provider_name', 'reason_for_visit']).where('user_id', '=', userId).execute();
        const seen = new Set(have.map((a) => key(a.appointment_date, a.start_time, a.provider_name, a.reason_for_visit)));
        const appointments = plan.appointments.filter((a) => {
          const k = key(a.appointment_date, a.start_time, a.provider_name, a.reason_for_visit);
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        });
        await insertAll(trx, 'appointments', appointments.map((a) => ({ ...a, id: newId(), uid: newId(), user_id: userId, created_at: now })));
        counts.appointments = appointments.length;

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
        return counts;
      });
    },
  };
}
export type ImportRepository = ReturnType<typeof createImportRepository>;
