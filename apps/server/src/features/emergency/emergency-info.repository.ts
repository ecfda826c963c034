import type { EmergencyAllergy, EmergencyEssentials, EmergencyInfo } from '@kinchart/shared/emergency';
import { allergyLine } from '@kinchart/shared/allergies';
import type { Db } from '../../db/database';
import { isResolvedLine, saysNoAllergies, withoutLines } from '@kinchart/shared/problem-lines';
import { fromFlag } from '../../lib/flags';
import { withProfileFlags } from '../profiles/list-rows';
import { entryOfRow } from '../allergies/allergy-entries';

/**
 * The allergy entries a responder sees (issue 34, docs/decisions/0053): only when the allergy
 * details are shown (`shown`: the flag set and a line left once the "none known" lines are out),
 * without the entries whose line says none are known; high criticality first, then the person's order.
 */
async function emergencyAllergies(db: Db, userId: string, profileId: string, shown: boolean): Promise<EmergencyAllergy[]> {
  if (!shown) return [];
  const rows = await db
    .selectFrom('allergies')
    .select(['id', 'substance', 'reactions', 'severity', 'criticality', 'codings', 'position', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const entries = rows.map(entryOfRow).filter((e) => !saysNoAllergies(allergyLine(e)));
  const high = entries.filter((e) => e.criticality === 'high');
  return [...high, ...entries.filter((e) => e.criticality !== 'high')].map((e) => ({
    substance: e.substance,
    reactions: e.reactions,
    severity: e.severity,
    criticality: e.criticality,
  }));
}

/**
 * Reads only what a first responder may see (DESIGN §7): the privacy boundary is the column
 * list, not a filter applied afterwards. Current medications only.
 */
export async function loadEmergencyInfo(db: Db, userId: string, profileId: string): Promise<EmergencyInfo | undefined> {
  const p = await db
    .selectFrom('profiles')
    .select([
      'is_pet',
      'relationship',
      'name',
      'date_of_birth',
      'height',
      'weight',
      'has_vision_impairment',
      'has_hearing_impairment',
      'has_allergies',
      'allergy_details',
      'had_anesthesia_reactions',
      'anesthesia_reaction_details',
      'has_bleeding_disorders',
      'bleeding_disorder_details',
      'has_chronic_conditions',
      'chronic_condition_details',
      'has_previous_surgeries',
      'surgery_details',
      'has_mobility_issues',
      'mobility_details',
      'updated_at',
    ])
    .where('user_id', '=', userId)
    .where('id', '=', profileId)
    .executeTakeFirst();
  if (!p) return undefined;

  const allergies = withoutLines(fromFlag(p.has_allergies), p.allergy_details, saysNoAllergies);
  const [medications, contacts, providers, stamps, kind, allergyEntries] = await Promise.all([
    db
      .selectFrom('medications')
      .select(['medication_name', 'dosage', 'frequency', 'purpose'])
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .where('is_current', '=', 1)
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('emergency_contacts')
      .select(['name', 'relationship', 'phone_number', 'email', 'is_primary', 'has_medical_power'])
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .orderBy('is_primary', 'desc')
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('healthcare_providers')
      .select(['provider_name', 'specialty', 'facility', 'phone_number', 'is_primary'])
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .orderBy('is_primary', 'desc')
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
    listStamps(db, userId, profileId),
    fromFlag(p.is_pet) ? petFacts(db, userId, profileId) : personFacts(db, userId, profileId),
    emergencyAllergies(db, userId, profileId, allergies.flag && !!allergies.details?.trim()),
  ]);

  const { updated_at: profileUpdatedAt, is_pet: _isPet, ...profile } = p;
  const chronic = withoutLines(fromFlag(p.has_chronic_conditions), p.chronic_condition_details, isResolvedLine);
  const shared = {
    ...withProfileFlags(profile),
    // Decision 0035: "NKDA" is not an allergy, and a problem marked resolved is not a chronic condition.
    has_allergies: allergies.flag,
    allergy_details: allergies.details,
    has_chronic_conditions: chronic.flag,
    chronic_condition_details: chronic.details,
    requirePin: false as const,
    medications,
    emergency_contacts: contacts.map((c) => ({
      ...c,
      is_primary: fromFlag(c.is_primary),
      has_medical_power: fromFlag(c.has_medical_power),
    })),
    healthcare_providers: providers.map((h) => ({ ...h, is_primary: fromFlag(h.is_primary) })),
    allergy_entries: allergyEntries,
    updated_at: latestInstant([profileUpdatedAt, ...stamps]),
  };
  return kind && { ...shared, ...kind };
}

/** A person's own part of the answer: the human-only fields (blood type, language, directives). */
async function personFacts(db: Db, userId: string, profileId: string) {
  const row = await db
    .selectFrom('profiles')
    .select(['blood_type', 'primary_language', 'religious_restrictions', 'organ_donor', 'advance_directives', 'living_will'])
    .where('user_id', '=', userId)
    .where('id', '=', profileId)
    .executeTakeFirst();
  return row && { ...withProfileFlags(row), is_pet: false as const };
}

/**
 * A pet's own part (docs/decisions/0037): its species, breed, microchip and vet, and its owner —
 * the name and phone of the account holder's own profile, nothing else of it.
 */
async function petFacts(db: Db, userId: string, profileId: string) {
  const [row, owner] = await Promise.all([
    db
      .selectFrom('profiles')
      .select(['species', 'breed', 'microchip_number', 'vet_name', 'vet_phone'])
      .where('user_id', '=', userId)
      .where('id', '=', profileId)
      .executeTakeFirst(),
    db
      .selectFrom('profiles')
      .select(['name', 'phone_number'])
      .where('user_id', '=', userId)
      .where('is_self', '=', 1)
      .orderBy('created_at')
      .executeTakeFirst(),
  ]);
  return row && { ...row, is_pet: true as const, owner: owner && (owner.name || owner.phone_number) ? owner : null };
}

/**
 * The newest time stamp of the profile's lists. Medications carry updated_at (all of them: a
 * medication that stops being current changes what a responder sees); contacts and providers
 * have only created_at, so an added one moves the time but an edit in place or a removal does not
 * (the tables keep no such time stamp).
 */
async function listStamps(db: Db, userId: string, profileId: string): Promise<(string | null)[]> {
  const [medications, contacts, providers] = await Promise.all([
    db
      .selectFrom('medications')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .executeTakeFirst(),
    db
      .selectFrom('emergency_contacts')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .executeTakeFirst(),
    db
      .selectFrom('healthcare_providers')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .executeTakeFirst(),
  ]);
  return [medications?.at ?? null, contacts?.at ?? null, providers?.at ?? null];
}

/** Time stamps are stored as ISO instants (`nowIso`), but compare them as dates to be safe. */
function latestInstant(stamps: (string | null | undefined)[]): string | null {
  let best: number | null = null;
  for (const stamp of stamps) {
    const at = stamp ? Date.parse(stamp) : Number.NaN;
    if (!Number.isNaN(at) && (best === null || at > best)) best = at;
  }
  return best === null ? null : new Date(best).toISOString();
}

/** Whole years from a `YYYY-MM-DD` birth date to `today` (UTC); null when unknown or in the future. */
export function ageOn(dateOfBirth: string | null, today: Date): number | null {
  const m = dateOfBirth ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ty = today.getUTCFullYear();
  const tm = today.getUTCMonth() + 1;
  const td = today.getUTCDate();
  const age = ty - y - (tm < mo || (tm === mo && td < d) ? 1 : 0);
  return age >= 0 ? age : null;
}

/**
 * A flagged section as one line: its details, a plain "Yes" when flagged without details, else
 * null — without the lines `leaveOut` names (decision 0035), and null when only such lines were there.
 */
function flagged(flag: number, details: string | null, leaveOut: (line: string) => boolean = () => false): string | null {
  const shown = withoutLines(fromFlag(flag), details, leaveOut);
  if (!shown.flag) return null;
  return shown.details?.trim() || 'Yes';
}

/**
 * What an opted-in code shows without the PIN (DESIGN §7, "show when locked"): as above, the
 * column lists are the privacy boundary. `updated_at` is the same "last updated" as the PIN
 * answer's (latestInstant over the profile and its lists).
 */
export async function loadEmergencyEssentials(
  db: Db,
  userId: string,
  profileId: string,
  today: Date,
): Promise<EmergencyEssentials | undefined> {
  const p = await db
    .selectFrom('profiles')
    .select([
      'name',
      'date_of_birth',
      'is_pet',
      'species',
      'blood_type',
      'has_allergies',
      'allergy_details',
      'has_chronic_conditions',
      'chronic_condition_details',
      'has_bleeding_disorders',
      'bleeding_disorder_details',
      'updated_at',
    ])
    .where('user_id', '=', userId)
    .where('id', '=', profileId)
    .executeTakeFirst();
  if (!p) return undefined;

  const allergies = withoutLines(fromFlag(p.has_allergies), p.allergy_details, saysNoAllergies);
  const [medications, contact, allergyEntries] = await Promise.all([
    db
      .selectFrom('medications')
      .select(['medication_name'])
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .where('is_current', '=', 1)
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('emergency_contacts')
      .select(['name', 'phone_number'])
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .where('is_primary', '=', 1)
      .orderBy('position')
      .orderBy('created_at')
      .executeTakeFirst(),
    emergencyAllergies(db, userId, profileId, allergies.flag && !!allergies.details?.trim()),
  ]);

  const updatedAt = latestInstant([p.updated_at, ...(await listStamps(db, userId, profileId))]);
  const isPet = fromFlag(p.is_pet);
  return {
    name: p.name,
    age: ageOn(p.date_of_birth, today),
    is_pet: isPet,
    // What a finder needs to know it is; the rest of a pet's fields stay behind the PIN.
    species: isPet ? p.species?.trim() || null : null,
    // A pet has no blood type (docs/decisions/0037), whatever an older save left.
    blood_type: isPet ? null : p.blood_type,
    allergies: flagged(p.has_allergies, p.allergy_details, saysNoAllergies),
    allergy_entries: allergyEntries,
    conditions: flagged(p.has_chronic_conditions, p.chronic_condition_details, isResolvedLine),
    bleeding_disorder: flagged(p.has_bleeding_disorders, p.bleeding_disorder_details),
    medications: medications.map((m) => m.medication_name?.trim()).filter((n): n is string => !!n),
    primary_contact: contact ? { name: contact.name, phone_number: contact.phone_number } : null,
    updated_at: updatedAt,
  };
}
