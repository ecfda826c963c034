import type { AlreadyPresent, ClinicalCounts, ImportCounts, KinchartExportParsed } from '@kinchart/shared/export';
import { appointmentValuesOf } from '@kinchart/shared/appointments';
import type { ProfileFields } from '@kinchart/shared/profile';
import { LIST_CAPS, PROFILE_FIELD_NAMES } from '@kinchart/shared/profile';
import { badRequest } from '../../lib/http-errors';
import { newId } from '../../lib/ids';
import type { FeedSettings, RestoredFeed } from '../calendar/calendar-transfer';
import { restoredFeed } from '../calendar/calendar-transfer';
import type { PlannedEntry } from '../allergies/allergy-entries';
import { restoredEntries } from '../allergies/allergy-entries';
import type { CareRestore } from '../care/care-transfer';
import type { StoredImportFile } from './blob-writer';
import type {
  ListValues,
  NewAppointment,
  NewImportedFile,
  NewListRow,
  NewMember,
  NewNotification,
  RestoredPreferences,
} from './import.repository';
import type { KinchartMatch, ListItem, ListTable } from './kinchart-match';
import { LIST_TABLES } from './kinchart-match';

// A Kinchart export restored into an account (decision 0004): the own profile (fields and lists)
// becomes the export's; family members, appointments, notifications and files are added — those the
// account already holds are not (decision 0012, decided by kinchart-match.ts). Ids are always new —
// an export's ids only tie its records together — except where a file's blob was already written.
// This module turns a match into the rows to write; import.service.ts has them written.

type ExportProfile = KinchartExportParsed['profiles'][number];

export interface ListWrites<T extends ListTable> {
  remove: string[];
  update: { id: string; values: ListValues[T]; position: number }[];
  insert: NewListRow<T>[];
}

export interface KinchartRestore {
  /** Each export medication's id → the account's medication that holds it (updated, kept or new). */
  medicationIds: Map<string, { id: string; profileId: string }>;
  /** The own profile's new fields and allergy entries: the export's. */
  self: { fields: Partial<ProfileFields>; allergies: PlannedEntry[] } | undefined;
  members: NewMember[];
  lists: { [T in ListTable]: ListWrites<T> };
  /** `uid` is the export's, if it has one: `withUids` decides whether it is kept. */
  appointments: (Omit<NewAppointment, 'uid'> & { uid: string | undefined })[];
  notifications: NewNotification[];
  files: NewImportedFile[];
  /**
   * Issue 32: the export's preferences, when it has them. Its calendar feeds are restored by
   * `feedRestores`: their settings, each with a fresh token nobody knows (docs/decisions/0045).
   */
  preferences: RestoredPreferences | undefined;
  /** Clinical items are counted by kinchart-clinical.ts. */
  counts: Omit<ImportCounts, keyof ClinicalCounts>;
  present: Omit<AlreadyPresent, keyof ClinicalCounts>;
  /** Blobs written for files that proved, under the lock, to be there already: the caller removes them. */
  unused: string[];
}

/**
 * An export profile's allergy entries (docs/decisions/0053): the file's own, one per line of its
 * details; an older file's lines with the codings it kept for them (version 2 `allergy_codings`).
 */
function allergiesOf(p: ExportProfile): PlannedEntry[] {
  return restoredEntries(p.allergy_details ?? null, p.allergies, p.allergy_codings);
}

/** An export profile's own fields (the rest of it is ids, the member's relationship and lists). */
function profileFields(p: ExportProfile): Partial<ProfileFields> {
  const fields: Record<string, unknown> = {};
  for (const key of PROFILE_FIELD_NAMES) fields[key] = p[key];
  return fields;
}

// An export's list item is written with its own values — a medication also with its own edit time,
// and its codings (none in a version 1 export: the own profile's medications become the export's).
const VALUES: { [T in ListTable]: (item: ListItem<T>) => ListValues[T] } = {
  emergency_contacts: (c) => c,
  healthcare_providers: (h) => h,
  medications: (m) => ({ ...m, codings: m.codings ?? null }),
};

function listWrites<T extends ListTable>(match: KinchartMatch, table: T): ListWrites<T> {
  const plan = match.lists[table];
  // The plan of `table` holds that table's items.
  const values = (item: ListItem<ListTable>) => VALUES[table](item);
  return {
    remove: plan.remove,
    update: plan.update.map((u) => ({ id: u.id, values: values(u.item), position: u.position })),
    insert: plan.insert.map((i) => ({
      id: newId(),
      profileId: i.profileId,
      values: values(i.item),
      position: i.position,
      created_at: i.item.created_at,
    })),
  };
}

/**
 * The rows a matched export writes. `stored` holds the blobs the service wrote for the files it
 * expected to add (by export file id); a file it holds no blob for was there when the import began.
 */
export function restoreRows(
  doc: KinchartExportParsed,
  match: KinchartMatch,
  selfId: string,
  stored: Map<string, StoredImportFile>,
): KinchartRestore {
  const pid = (id: string) => match.profileIds.get(id) ?? selfId;

  const files = match.files.flatMap((f): NewImportedFile[] => {
    const blob = stored.get(f.id);
    if (!blob) return []; // it was there when the import began (and has been deleted since)
    return [
      {
        id: blob.id,
        // DESIGN §4: every file belongs to a person — the own profile when the export names none.
        profile_id: f.profile_id === null ? selfId : pid(f.profile_id),
        display_name: f.display_name,
        original_name: f.original_name,
        file_type: blob.mime,
        size: blob.size,
        storage_key: blob.id,
        wrapped_key: blob.wrappedKey,
        record_date: f.record_date,
        provider_name: f.provider_name,
        visit_location: f.visit_location,
        visit_reason: f.visit_reason,
        created_at: f.created_at,
        updated_at: f.updated_at,
      },
    ];
  });

  const self = doc.profiles.find((p) => p.is_self);
  const members = match.newMembers.map((p): NewMember => ({
    id: pid(p.id),
    fields: profileFields(p),
    allergies: allergiesOf(p),
    relationship: p.relationship,
    is_pet: p.is_pet,
    created_at: p.created_at,
    updated_at: p.updated_at,
  }));
  const lists = {
    emergency_contacts: listWrites(match, 'emergency_contacts'),
    healthcare_providers: listWrites(match, 'healthcare_providers'),
    medications: listWrites(match, 'medications'),
  };
  // Issue 32: a medication's schedule and doses follow it to the account's row that holds it.
  const medicationIds = new Map<string, { id: string; profileId: string }>();
  const plan = match.lists.medications;
  for (const u of plan.update) medicationIds.set(u.item.id, { id: u.id, profileId: selfId });
  for (const k of plan.kept) medicationIds.set(k.item.id, { id: k.id, profileId: k.profileId });
  // listWrites keeps the plan's order: the n-th row written is the n-th item planned.
  plan.insert.forEach((i, n) => {
    const written = lists.medications.insert[n];
    if (written?.id) medicationIds.set(i.item.id, { id: written.id, profileId: written.profileId });
  });
  const appointments = match.appointments.map((a) => ({
    // The person it belongs to; an older export's appointments (no profile_id) are the own profile's.
    profile_id: a.profile_id ? pid(a.profile_id) : selfId,
    uid: a.uid,
    ...appointmentValuesOf(a),
    created_at: a.created_at,
    reminder_minutes: a.reminder_minutes ?? null,
  }));

  const inserted = new Set(files.map((r) => r.id));
  return {
    medicationIds,
    self: self && { fields: profileFields(self), allergies: allergiesOf(self) },
    members,
    lists,
    appointments,
    notifications: match.notifications,
    files,
    preferences: doc.preferences,
    counts: {
      family_members: members.length,
      allergies: 0,
      emergency_contacts: lists.emergency_contacts.insert.length,
      healthcare_providers: lists.healthcare_providers.insert.length,
      medications: lists.medications.insert.length,
      appointments: appointments.length,
      notifications: match.notifications.length,
      files: files.length,
    },
    present: { ...match.present, files: doc.files.length - files.length },
    unused: [...stored.values()].map((f) => f.id).filter((id) => !inserted.has(id)),
  };
}

/**
 * Issue 32 (format version 3, decision 0046): each medication's schedule and logged doses, under the
 * account's medication that holds it now. Older exports have none.
 */
export function careRestores(doc: KinchartExportParsed, medicationIds: KinchartRestore['medicationIds']): CareRestore[] {
  return doc.profiles.flatMap((p) =>
    p.medications.flatMap((m): CareRestore[] => {
      const target = medicationIds.get(m.id);
      if (!target || (!m.schedule && m.doses.length === 0)) return [];
      return [{ profileId: target.profileId, medicationId: target.id, schedule: m.schedule ?? null, doses: m.doses }];
    }),
  );
}

/** A family member matched to one already there may not be given more than a list's cap. */
export function checkListCaps(match: KinchartMatch): void {
  for (const table of LIST_TABLES) {
    for (const total of match.lists[table].totals) {
      if (total.count > LIST_CAPS[table]) {
        throw badRequest(
          `This import would give ${total.name ?? 'a family member'} more than ${LIST_CAPS[table]} ${table.replace(/_/g, ' ')}.`,
        );
      }
    }
  }
}

/**
 * Appointment UIDs are unique server-wide: an export's UID is kept unless someone has it already
 * (`taken`), and given to one appointment only, even if the export repeats it.
 */
export function withUids(appointments: KinchartRestore['appointments'], taken: ReadonlySet<string>): NewAppointment[] {
  const used = new Set(taken);
  return appointments.map((a) => {
    const uid = a.uid && !used.has(a.uid) ? a.uid : newId();
    used.add(uid);
    return { ...a, uid };
  });
}

const feedKey = (f: FeedSettings) => JSON.stringify([f.person_id, f.include_medications, f.minimal]);

/**
 * Issue 32, docs/decisions/0045: the export's calendar feeds the account gets. A feed's secret address
 * is never exported, so each restored feed is its settings — the person mapped to the account's own
 * (a person the export does not hold, one shared with its account, is kept while this account can
 * see them too) — with a fresh random token nobody knows, stored hashed and marked `restored` until
 * the account renews its address. Feeds the account already has with the same settings are not
 * made again (as many of each as it holds: importing the same export twice adds nothing), and no
 * more than `room` are made (the cap of feeds an account). `skipped` says what was left out.
 */
export function feedRestores(
  doc: KinchartExportParsed,
  profileIds: ReadonlyMap<string, string>,
  visible: ReadonlySet<string>,
  existing: readonly FeedSettings[],
  room: number,
): { feeds: RestoredFeed[]; skipped: string[] } {
  const held = new Map<string, number>();
  for (const f of existing) held.set(feedKey(f), (held.get(feedKey(f)) ?? 0) + 1);
  const feeds: RestoredFeed[] = [];
  let unseen = 0;
  let overCap = 0;
  for (const f of doc.calendar_feeds ?? []) {
    const personId = f.person_id === null ? null : (profileIds.get(f.person_id) ?? (visible.has(f.person_id) ? f.person_id : undefined));
    if (personId === undefined) {
      unseen += 1;
      continue;
    }
    const settings = { person_id: personId, include_medications: f.include_medications, minimal: f.minimal };
    const there = held.get(feedKey(settings)) ?? 0;
    if (there > 0) {
      held.set(feedKey(settings), there - 1);
      continue;
    }
    if (feeds.length >= room) {
      overCap += 1;
      continue;
    }
    feeds.push(restoredFeed(settings));
  }
  const skipped: string[] = [];
  if (unseen > 0) skipped.push(`${unseen} calendar feed${unseen === 1 ? '' : 's'} of a person this account cannot see`);
  if (overCap > 0) skipped.push(`${overCap} calendar feed${overCap === 1 ? '' : 's'} beyond the limit of feeds an account`);
  return { feeds, skipped };
}
