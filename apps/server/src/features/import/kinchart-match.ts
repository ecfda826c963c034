import type { AppointmentField, AppointmentValues } from '@kinchart/shared/appointments';
import type { AlreadyPresent, ClinicalCounts, KinchartExportParsed } from '@kinchart/shared/export';
import { newId } from '../../lib/ids';

// Re-importing what is already there adds nothing (docs/decisions/0012-reimport-and-quota.md). An
// export's ids only tie its records together (decision 0004), so records are recognised by what they
// say: each kind has an identity key, compared trimmed and case-blind. Matching counts duplicates (a
// multiset): two identical records in the account match two in the export, a third is new — so an
// account that held duplicates before keeps them, and nothing it already holds is doubled.
// This module decides; import.service.ts loads the account through import.repository.ts and has
// the outcome written (kinchart-restore.ts turns it into rows).

type Part = string | number | boolean | null | undefined;
/** The parts of an identity, as one comparable string. */
export const identity = (...parts: Part[]): string =>
  parts.map((p) => (p === null || p === undefined ? '' : String(p).trim().toLowerCase())).join('\u0000');

/** The fields an appointment is recognised by, besides whose it is (the rest are details of the same one). */
export const APPOINTMENT_IDENTITY = [
  'appointment_date',
  'start_time',
  'provider_name',
  'reason_for_visit',
] as const satisfies readonly AppointmentField[];
type AppointmentIdentity = (typeof APPOINTMENT_IDENTITY)[number];

/** Identity keys, shared with the FHIR import's own de-duplication so both imports agree. */
export const keyOf = {
  member: (p: { name: string | null; date_of_birth: string | null; relationship: string | null; is_pet: boolean }) =>
    identity(p.name, p.date_of_birth, p.relationship, p.is_pet),
  contact: (c: { name: string | null; phone_number: string | null }) => identity(c.name, c.phone_number),
  provider: (h: { provider_name: string | null; phone_number: string | null }) => identity(h.provider_name, h.phone_number),
  medication: (m: { medication_name: string | null; dosage: string | null; start_date: string | null }) =>
    identity(m.medication_name, m.dosage, m.start_date),
  /** `profile_id` is the person the appointment belongs to (two children may see one dentist at one time). */
  appointment: (a: { profile_id: string | null } & Pick<AppointmentValues, AppointmentIdentity>) =>
    identity(a.profile_id, ...APPOINTMENT_IDENTITY.map((f) => a[f])),
  notification: (n: { type: string; title: string; message: string; created_at: string }) =>
    identity(n.type, n.title, n.message, n.created_at),
  /** `profile_id` is the account's profile the file belongs to (after members are matched), or null. */
  file: (f: { profile_id: string | null; display_name: string; original_name: string; record_date: string | null; size: number }) =>
    identity(f.profile_id, f.display_name, f.original_name, f.record_date, f.size),
};

export const LIST_TABLES = ['emergency_contacts', 'healthcare_providers', 'medications'] as const;
export type ListTable = (typeof LIST_TABLES)[number];

type ExportProfile = KinchartExportParsed['profiles'][number];
export type ListItem<T extends ListTable> = ExportProfile[T][number];
type AnyListItem = ListItem<ListTable>;

export interface ExistingRow {
  id: string;
  profile_id: string;
  key: string;
  position: number;
}

/** The account's records as import.repository.ts reads them: what identity keys are made of. */
export interface AccountRows {
  members: ({ id: string } & Parameters<typeof keyOf.member>[0])[];
  lists: {
    emergency_contacts: (RowPlace & Parameters<typeof keyOf.contact>[0])[];
    healthcare_providers: (RowPlace & Parameters<typeof keyOf.provider>[0])[];
    medications: (RowPlace & Parameters<typeof keyOf.medication>[0])[];
  };
  appointments: Parameters<typeof keyOf.appointment>[0][];
  notifications: Parameters<typeof keyOf.notification>[0][];
  files: Parameters<typeof keyOf.file>[0][];
}
type RowPlace = { id: string; profile_id: string; position: number };

/** What the account holds, as identity keys (`existingAccount` makes them). */
export interface ExistingAccount {
  selfId: string;
  members: { id: string; name: string | null; key: string }[];
  lists: Record<ListTable, ExistingRow[]>;
  appointments: string[];
  notifications: string[];
  files: string[];
}

export interface ListPlan {
  insert: { profileId: string; item: AnyListItem; position: number }[];
  /** Own profile only: rows already there, set to the export's values and order. */
  update: { id: string; item: AnyListItem; position: number }[];
  /** Own profile only: rows the export does not hold (the own profile becomes the export's, decision 0004). */
  remove: string[];
  /** Members matched to one already there: items already there, with the row that holds them (kept as it is). */
  kept: { id: string; profileId: string; item: AnyListItem }[];
  /** Members matched to one already there: how many rows each would have after the import. */
  totals: { profileId: string; name: string | null; count: number }[];
}

export interface KinchartMatch {
  /** Every export profile id → the account's profile id (the own profile, a member already there, or a new id). */
  profileIds: Map<string, string>;
  newMembers: ExportProfile[];
  lists: Record<ListTable, ListPlan>;
  appointments: KinchartExportParsed['appointments'];
  notifications: KinchartExportParsed['notifications'];
  files: KinchartExportParsed['files'];
  /** Clinical items are matched by kinchart-clinical.ts. */
  present: Omit<AlreadyPresent, keyof ClinicalCounts>;
}

/** A multiset of keys: `take` answers whether one more is there, and uses it up. */
class KeyPool<T> {
  private readonly byKey = new Map<string, T[]>();
  constructor(items: Iterable<T>, key: (item: T) => string) {
    for (const item of items) {
      const k = key(item);
      const list = this.byKey.get(k);
      if (list) list.push(item);
      else this.byKey.set(k, [item]);
    }
  }
  take(k: string): T | undefined {
    return this.byKey.get(k)?.shift();
  }
  rest(): T[] {
    return [...this.byKey.values()].flat();
  }
}

const LIST_KEY: Record<ListTable, (item: AnyListItem) => string> = {
  emergency_contacts: (c) => keyOf.contact(c as ListItem<'emergency_contacts'>),
  healthcare_providers: (h) => keyOf.provider(h as ListItem<'healthcare_providers'>),
  medications: (m) => keyOf.medication(m as ListItem<'medications'>),
};

/** The account's rows as identity keys: what `matchKinchart` compares an export with. */
export function existingAccount(selfId: string, rows: AccountRows): ExistingAccount {
  const placed = (r: RowPlace, key: string): ExistingRow => ({ id: r.id, profile_id: r.profile_id, position: r.position, key });
  return {
    selfId,
    members: rows.members.map((m) => ({ id: m.id, name: m.name, key: keyOf.member(m) })),
    lists: {
      emergency_contacts: rows.lists.emergency_contacts.map((r) => placed(r, keyOf.contact(r))),
      healthcare_providers: rows.lists.healthcare_providers.map((r) => placed(r, keyOf.provider(r))),
      medications: rows.lists.medications.map((r) => placed(r, keyOf.medication(r))),
    },
    // Rows without a person are the own profile's (DESIGN §4).
    appointments: rows.appointments.map((a) => keyOf.appointment({ ...a, profile_id: a.profile_id ?? selfId })),
    notifications: rows.notifications.map((n) => keyOf.notification(n)),
    files: rows.files.map((f) => keyOf.file({ ...f, profile_id: f.profile_id ?? selfId })),
  };
}

export function matchKinchart(doc: KinchartExportParsed, existing: ExistingAccount): KinchartMatch {
  const present: KinchartMatch['present'] = {
    family_members: 0,
    emergency_contacts: 0,
    healthcare_providers: 0,
    medications: 0,
    appointments: 0,
    notifications: 0,
    files: 0,
  };
  const profileIds = new Map<string, string>();
  const matched = new Map<string, { name: string | null }>();
  const newMembers: ExportProfile[] = [];

  const members = new KeyPool(existing.members, (m) => m.key);
  for (const p of doc.profiles) {
    if (p.is_self) {
      profileIds.set(p.id, existing.selfId);
      continue;
    }
    const same = members.take(keyOf.member(p));
    if (same) {
      profileIds.set(p.id, same.id);
      matched.set(same.id, same);
      present.family_members += 1;
    } else {
      profileIds.set(p.id, newId());
      newMembers.push(p);
    }
  }

  const lists = {} as Record<ListTable, ListPlan>;
  for (const table of LIST_TABLES) {
    const plan: ListPlan = { insert: [], update: [], remove: [], kept: [], totals: [] };
    const key = LIST_KEY[table];
    for (const p of doc.profiles) {
      const profileId = profileIds.get(p.id) ?? existing.selfId;
      const items: AnyListItem[] = p[table];
      const member = matched.get(profileId);
      if (!p.is_self && !member) {
        for (const item of items) plan.insert.push({ profileId, item, position: item.position });
        continue;
      }
      const rows = existing.lists[table].filter((r) => r.profile_id === profileId);
      const pool = new KeyPool(rows, (r) => r.key);
      let next = rows.reduce((max, r) => Math.max(max, r.position + 1), 0);
      let added = 0;
      for (const item of items) {
        const same = pool.take(key(item));
        if (same) {
          present[table] += 1;
          if (p.is_self) plan.update.push({ id: same.id, item, position: item.position });
          else plan.kept.push({ id: same.id, profileId, item });
        } else {
          plan.insert.push({ profileId, item, position: p.is_self ? item.position : next++ });
          added += 1;
        }
      }
      if (p.is_self) plan.remove.push(...pool.rest().map((r) => r.id));
      else if (member) plan.totals.push({ profileId, name: member.name, count: rows.length + added });
    }
    lists[table] = plan;
  }

  const fresh = <T>(items: T[], have: string[], key: (item: T) => string, kind: keyof KinchartMatch['present']): T[] => {
    const pool = new KeyPool(have, (k) => k);
    return items.filter((item) => {
      if (pool.take(key(item)) === undefined) return true;
      present[kind] += 1;
      return false;
    });
  };
  // A record without a person (an older export's appointments, a file filed under none) is the
  // own profile's, as the account's own rows without one are (DESIGN §4).
  const personOf = (profileId: string | null | undefined) => (profileId ? (profileIds.get(profileId) ?? existing.selfId) : existing.selfId);
  const appointments = fresh(
    doc.appointments,
    existing.appointments,
    (a) => keyOf.appointment({ ...a, profile_id: personOf(a.profile_id) }),
    'appointments',
  );
  const notifications = fresh(doc.notifications, existing.notifications, keyOf.notification, 'notifications');
  const files = fresh(doc.files, existing.files, (f) => keyOf.file({ ...f, profile_id: personOf(f.profile_id) }), 'files');

  return { profileIds, newMembers, lists, appointments, notifications, files, present };
}
