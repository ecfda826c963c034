import type { Db } from '../src/db/database';
import { newId, nowIso } from '../src/lib/ids';

/** The allergy entries a details text makes (docs/decisions/0053: one per line, the line its substance), as the app keeps them. */
export async function insertAllergyLines(db: Db, userId: string, profileId: string, details: string): Promise<void> {
  const now = nowIso();
  const lines = details
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  for (const [position, substance] of lines.entries()) {
    await db
      .insertInto('allergies')
      .values({
        id: newId(),
        user_id: userId,
        profile_id: profileId,
        substance,
        reactions: '[]',
        codings: '[]',
        position,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/** Inserts a family member (and optionally medical details) straight into the database. */
export async function insertMember(
  db: Db,
  userId: string,
  values: Partial<{
    name: string;
    is_pet: number;
    relationship: string;
    has_allergies: number;
    allergy_details: string;
    created_at: string;
  }> = {},
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('profiles')
    .values({
      id,
      user_id: userId,
      is_self: 0,
      name: 'Alex Member',
      relationship: 'child',
      date_of_birth: '2015-04-02',
      created_at: now,
      updated_at: now,
      ...values,
    })
    .execute();
  if (values.allergy_details) await insertAllergyLines(db, userId, id, values.allergy_details);
  return id;
}

/** Fills a profile with emergency-relevant data plus things that must never be shown publicly. */
export async function fillProfile(db: Db, userId: string, profileId: string): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('profiles')
    .set({
      name: 'Jordan Rivers',
      date_of_birth: '1980-02-03',
      blood_type: 'O-',
      address: '12 Secret Lane',
      email: 'jordan.private@example.com',
      phone_number: '555-0100',
      has_allergies: 1,
      allergy_details: 'Penicillin',
      had_anesthesia_reactions: 1,
      anesthesia_reaction_details: 'Malignant hyperthermia',
      has_bleeding_disorders: 0,
      bleeding_disorder_details: 'should not matter',
      organ_donor: 1,
    })
    .where('id', '=', profileId)
    .execute();
  await db.deleteFrom('allergies').where('profile_id', '=', profileId).execute();
  await insertAllergyLines(db, userId, profileId, 'Penicillin');
  await db
    .insertInto('medications')
    .values([
      {
        id: newId(),
        user_id: userId,
        profile_id: profileId,
        medication_name: 'Warfarin',
        dosage: '5 mg',
        is_current: 1,
        created_at: now,
        updated_at: now,
      },
      {
        id: newId(),
        user_id: userId,
        profile_id: profileId,
        medication_name: 'OldMed',
        dosage: '1 mg',
        is_current: 0,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
  await db
    .insertInto('emergency_contacts')
    .values({
      id: newId(),
      user_id: userId,
      profile_id: profileId,
      name: 'Sam Rivers',
      phone_number: '555-0199',
      is_primary: 1,
      created_at: now,
    })
    .execute();
}

export async function selfProfileId(db: Db, userId: string): Promise<string> {
  const row = await db.selectFrom('profiles').select('id').where('user_id', '=', userId).where('is_self', '=', 1).executeTakeFirstOrThrow();
  return row.id;
}
