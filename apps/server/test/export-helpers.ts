import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { expect } from 'vitest';
import type { Db } from '../src/db/database';
import { newId } from '../src/lib/ids';
import type { TestApp, TestClient } from './helpers';
import { signedInUser } from './helpers';
import { fixture, multipartBody, uploadRecord } from './files-helpers';

// Shared by the export, import and round-trip tests: a richly filled account (and its clinical
// items), reading a zip, and a snapshot of everything an account holds with the ids taken out (an
// import makes new ids).

/** Every entry of a zip, by name. */
export async function readZip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, strictFileNames: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

export interface ZipEntrySpec {
  name: string;
  content: Buffer | string;
  compress?: boolean;
}

/** A zip built in memory from entries. */
export async function makeZip(entries: ZipEntrySpec[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const e of entries) {
    const content = typeof e.content === 'string' ? Buffer.from(e.content, 'utf8') : e.content;
    zip.addBuffer(content, e.name, { compress: e.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as Readable) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** POST /api/user/import with the file part (and optional fields), the way the browser sends it. */
export function importFile(client: TestClient, content: Buffer, filename: string, fields: Record<string, string> = {}) {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename, content, contentType: filename.endsWith('.zip') ? 'application/zip' : 'application/json' },
  ]);
  return client.post('/api/user/import', payload, { headers });
}

export async function exportZip(client: TestClient): Promise<Buffer> {
  const res = await client.get('/api/user/export');
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res.rawPayload;
}

export const TEXT_NOTE = Buffer.from('Discharge note: rest for two days.\nÜnïcödé text survives.\n', 'utf8');

/** An account with something in every table the export covers, made through the API where there is one. */
export async function makeRichAccount(t: TestApp) {
  const user = await signedInUser(t.app, { username: 'Rich Example' });
  const c = user.client;
  const ok = (res: { statusCode: number; body: string }, status = 200) => expect(res.statusCode, res.body).toBe(status);

  ok(
    await c.put('/api/user/updateProfile', {
      name: 'Jordan Rivers',
      date_of_birth: '1980-02-03',
      phone_number: '555-0100',
      address: '12 Lane <b>&',
      email: 'jordan@example.com',
      blood_type: 'AB-',
      height: 180.34,
      weight: 74.8,
      primary_language: 'English',
      religious_restrictions: 'No <blood> products',
      organ_donor: true,
      advance_directives: true,
      living_will: false,
      has_vision_impairment: true,
      has_hearing_impairment: false,
      has_allergies: true,
      allergy_details: 'Penicillin; peanuts',
      has_chronic_conditions: true,
      chronic_condition_details: 'Asthma',
      has_bleeding_disorders: true,
      bleeding_disorder_details: 'Hemophilia A',
      has_previous_surgeries: true,
      surgery_details: 'Appendectomy 2001',
      has_mobility_issues: false,
      mobility_details: 'kept although the flag is off',
      had_anesthesia_reactions: true,
      anesthesia_reaction_details: 'Malignant hyperthermia',
      emergency_contacts: [
        {
          name: 'Sam Rivers',
          relationship: 'spouse',
          phone_number: '555-0199',
          email: 'sam@example.com',
          is_primary: true,
          has_medical_power: true,
        },
        { name: 'Ana Ríos', relationship: 'sister', phone_number: '555-0142', is_primary: false, has_medical_power: false },
      ],
      healthcare_providers: [
        {
          provider_name: 'Dr. Chen',
          specialty: 'Cardiology',
          facility: 'Riverside',
          phone_number: '555-0300',
          email: 'chen@example.com',
          address: '1 Main St',
          is_primary: true,
          notes: 'Tuesdays',
        },
      ],
      medications: [
        { medication_name: 'Warfarin', dosage: '5 mg', frequency: 'daily', purpose: 'Clots', start_date: '2020-01-01', is_current: true },
        {
          medication_name: 'Amoxicillin',
          dosage: '500 mg',
          frequency: '3x daily',
          purpose: 'Infection',
          start_date: '2019-01-01',
          end_date: '2019-01-10',
          is_current: false,
        },
        { medication_name: null, dosage: null, is_current: true },
      ],
    }),
  );

  const kid = await c.post('/api/user/family/add', {
    name: 'Alex Rivers',
    date_of_birth: '2015-04-02',
    relationship: 'child',
    is_pet: false,
  });
  ok(kid, 201);
  const kidId = kid.json().id as string;
  ok(
    await c.put(`/api/user/family/members/${kidId}`, {
      name: 'Alex Rivers',
      date_of_birth: '2015-04-02',
      relationship: 'child',
      blood_type: 'O+',
      has_allergies: true,
      allergy_details: 'Bee stings',
      emergency_contacts: [{ name: 'Jordan Rivers', phone_number: '555-0100', is_primary: true }],
      healthcare_providers: [{ name: 'Dr. Patel', phone_number: '555-0400', specialty: 'Pediatrics' }],
      medications: [{ medication_name: 'Ventolin', dosage: '2 puffs', frequency: 'as needed' }],
    }),
  );
  const pet = await c.post('/api/user/family/add', { name: 'Rex', date_of_birth: '2019-06-01', relationship: 'dog', is_pet: true });
  ok(pet, 201);
  // Two members with one name: their FHIR files must not collide.
  ok(await c.post('/api/user/family/add', { name: 'Rex', date_of_birth: '2020-06-01', relationship: 'other', is_pet: true }), 201);

  for (const a of [
    {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      end_time: '2026-12-03T10:00',
      provider_name: 'Dr. Chen',
      reason_for_visit: 'Check-up',
      location: 'Riverside',
    },
    {
      appointment_date: '2025-01-15',
      start_time: '2025-01-15T08:00:00.000Z',
      end_time: '2025-01-15T09:00:00Z',
      provider_name: 'Lab',
      reason_for_visit: null,
      location: null,
    },
    { appointment_date: '2026-02-01', start_time: null, end_time: null, provider_name: 'Dentist' },
  ]) {
    ok(await c.post('/api/user/appointments', a), 201);
  }

  const files: { filename: string; content: Buffer; fields: Record<string, string> }[] = [
    {
      filename: 'record.pdf',
      content: fixture('record.pdf'),
      fields: {
        customName: 'Lab results',
        customDate: '2026-01-05',
        providerName: 'Lab',
        visitLocation: 'Riverside',
        visitReason: 'Blood test',
      },
    },
    { filename: 'pixel.png', content: fixture('pixel.png'), fields: { customName: 'Lab results', customDate: '2026-01-06' } },
    { filename: 'letter.docx', content: fixture('letter.docx'), fields: { customName: 'CON', customDate: '' } },
    { filename: 'note.txt', content: TEXT_NOTE, fields: { customName: '../../etc/passwd:*?', visitReason: 'Discharge' } },
  ];
  for (const f of files) ok(await uploadRecord(c, { filename: f.filename, content: f.content }, f.fields), 201);

  // Notifications: one from a QR set-up, plus read and hidden ones.
  ok(await c.post('/api/user/wearable-qr', { pin: '4826' }), 201);
  await insertNotification(t.database.db, user.id, { title: 'Read one', is_read: 1 });
  await insertNotification(t.database.db, user.id, { title: 'Hidden one', is_hidden: 1, level: 'warning' });

  return { user, kidId, petId: pet.json().id as string, files };
}

/**
 * Clinical items (DESIGN §12) for the rich account's people, through the API: every kind, partial
 * dates, codings, a vital sign, statuses that put conditions in either section; and codings on a
 * medication and on allergy lines (only an import brings those, so they are written directly): the
 * kid's one line, and one of the own profile's for a line edited away since (it applies to nothing).
 */
export async function addClinicalRecords(
  t: TestApp,
  user: { id: string; client: TestClient },
  people: { selfId: string; kidId: string; petId: string },
) {
  const c = user.client;
  const add = async (personId: string, kind: string, body: Record<string, unknown>) => {
    const res = await c.post(`/api/user/people/${personId}/${kind}`, body);
    expect(res.statusCode, res.body).toBe(201);
  };
  const { selfId, kidId, petId } = people;
  await add(selfId, 'immunizations', {
    vaccine: 'MMR <live>',
    date: '2015-03',
    dose_number: 2,
    lot_number: 'AB123',
    site: 'Left arm',
    performer: 'Dr Lee',
    notes: 'No reaction',
    codings: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '03', display: 'MMR' }],
  });
  await add(selfId, 'immunizations', { vaccine: 'Tetanus', date: null });
  await add(selfId, 'lab-results', {
    name: 'HbA1c',
    loinc_code: '4548-4',
    value: 6.1,
    unit: '%',
    reference_range: '4-5.6',
    interpretation: 'H',
    date: '2024-02-10',
    codings: [{ system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' }],
  });
  await add(selfId, 'lab-results', { name: 'Strep test', value_text: 'negative', interpretation: 'NEG', date: '2023' });
  await add(selfId, 'lab-results', {
    name: 'Blood pressure systolic',
    category: 'vital-signs',
    loinc_code: '8480-6',
    value: 128,
    unit: 'mm[Hg]',
    date: '2024-06',
  });
  await add(selfId, 'lab-results', {
    name: 'Heart rate',
    category: 'vital-signs',
    loinc_code: '8867-4',
    value: 64,
    unit: '/min',
    date: null,
  });
  await add(selfId, 'conditions', {
    name: 'Type 2 diabetes',
    status: 'active',
    onset_date: '2019-11',
    codings: [{ system: 'http://snomed.info/sct', code: '44054006', display: 'Diabetes mellitus type 2' }],
  });
  await add(selfId, 'conditions', {
    name: 'Fractured wrist',
    status: 'resolved',
    onset_date: '2010',
    abatement_date: '2010-09',
    notes: 'Cast for 6 weeks',
  });
  await add(selfId, 'procedures', {
    name: 'Appendectomy',
    status: 'completed',
    performed_date: '2001-07-03',
    performer: 'City Hospital',
    codings: [{ system: 'http://snomed.info/sct', code: '80146002', display: 'Appendectomy' }],
  });
  await add(selfId, 'procedures', { name: 'Colonoscopy', status: 'completed', performed_date: null });
  await add(kidId, 'immunizations', { vaccine: 'DTaP', date: '2015-06-02', dose_number: 1 });
  await add(kidId, 'conditions', { name: 'Eczema', status: 'remission', onset_date: '2016' });
  await add(petId, 'immunizations', { vaccine: 'Rabies', date: '2020-05-01', performer: 'Vet clinic' });
  await t.database.db
    .updateTable('medications')
    .set({
      codings: JSON.stringify([
        { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '855332', display: 'Warfarin Sodium 5 MG Oral Tablet' },
      ]),
    })
    .where('user_id', '=', user.id)
    .where('medication_name', '=', 'Warfarin')
    .execute();
  // Issue 34: allergy entries with what only an import (or the allergies API) brings: codings,
  // severity and criticality (written directly, so the details text stays as it is).
  const allergyEntry = async (profileId: string, substance: string, code: string, display: string, criticality: 'high' | 'low') => {
    const result = await t.database.db
      .updateTable('allergies')
      .set({ codings: JSON.stringify([{ system: 'http://snomed.info/sct', code, display }]), severity: 'severe', criticality })
      .where('profile_id', '=', profileId)
      .where('substance', '=', substance)
      .executeTakeFirst();
    expect(Number(result.numUpdatedRows)).toBe(1);
  };
  await allergyEntry(kidId, 'Bee stings', '424213003', 'Allergy to bee venom', 'high');
  await allergyEntry(selfId, 'Penicillin; peanuts', '91936005', 'Allergy to penicillin', 'low');
}

export async function insertNotification(
  db: Db,
  userId: string,
  values: Partial<{ title: string; is_read: number; is_hidden: number; level: 'info' | 'warning' | 'error'; created_at: string }>,
) {
  await db
    .insertInto('notifications')
    .values({
      id: newId(),
      user_id: userId,
      type: 'info',
      level: values.level ?? 'info',
      title: values.title ?? 'Note',
      data: JSON.stringify({ message: `${values.title ?? 'Note'} message` }),
      is_read: values.is_read ?? 0,
      is_hidden: values.is_hidden ?? 0,
      created_at: values.created_at ?? new Date(Date.now() - 60_000).toISOString(),
    })
    .execute();
}

/**
 * Everything an account holds, ids replaced by stable labels (an import makes new ids): the own
 * profile is 'self', members are 'member:<n>' in creation order. The own profile's timestamps are
 * the account's, not data, so they are left out; file bytes are read through the API.
 */
export async function snapshotAccount(db: Db, userId: string, client?: TestClient) {
  // Members added in the same millisecond are ordered by who they are, not by their (new) ids.
  const profiles = await db
    .selectFrom('profiles')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_self', 'desc')
    .orderBy('created_at')
    .orderBy('name')
    .orderBy('date_of_birth')
    .orderBy('id')
    .execute();
  const label = new Map<string, string>();
  profiles.forEach((p, i) => label.set(p.id, p.is_self ? 'self' : `member:${i}`));
  const strip = <T extends Record<string, unknown>>(row: T, drop: string[]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      if (drop.includes(k)) continue;
      out[k] = k === 'profile_id' && typeof v === 'string' ? (label.get(v) ?? v) : k === 'size' || k === 'position' ? Number(v) : v;
    }
    return out;
  };
  const list = async (table: 'emergency_contacts' | 'healthcare_providers' | 'medications') =>
    (
      await db
        .selectFrom(table)
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('profile_id')
        .orderBy('position')
        .orderBy('created_at')
        .execute()
    )
      .map((r) => strip(r, ['id', 'user_id']))
      .sort((a, b) => String(a.profile_id).localeCompare(String(b.profile_id)) || Number(a.position) - Number(b.position));
  const fileRows = await db
    .selectFrom('medical_files')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('display_name')
    .execute();
  const files = [];
  for (const f of fileRows) {
    const bytes = client ? (await client.get(`/api/user/files/${f.id}/content`)).rawPayload.toString('base64') : undefined;
    files.push({ ...strip(f, ['id', 'user_id', 'storage_key', 'wrapped_key']), bytes });
  }
  const clinical = async (table: 'immunizations' | 'lab_results' | 'conditions' | 'procedures') =>
    (await db.selectFrom(table).selectAll().where('user_id', '=', userId).execute())
      .map((r) => strip(r, ['id', 'user_id']))
      .map((r) => JSON.stringify(r))
      .sort()
      .map((r) => JSON.parse(r) as Record<string, unknown>);
  // Issue 34: the allergy entries, their JSON texts compared as what they say.
  const allergies = (await db.selectFrom('allergies').selectAll().where('user_id', '=', userId).execute())
    .map((r): Record<string, unknown> => ({
      ...strip(r, ['id', 'user_id']),
      reactions: JSON.parse(r.reactions) as unknown,
      codings: JSON.parse(r.codings) as unknown,
    }))
    .sort((a, b) => String(a.profile_id).localeCompare(String(b.profile_id)) || Number(a.position) - Number(b.position));
  return {
    profiles: profiles.map((p) => strip(p, p.is_self ? ['id', 'user_id', 'created_at', 'updated_at'] : ['id', 'user_id'])),
    allergies,
    emergency_contacts: await list('emergency_contacts'),
    healthcare_providers: await list('healthcare_providers'),
    medications: await list('medications'),
    appointments: (
      await db
        .selectFrom('appointments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('appointment_date')
        .orderBy('created_at')
        .execute()
    ).map((r) => strip(r, ['id', 'user_id', 'uid'])),
    notifications: (
      await db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('title').execute()
    ).map((r) => strip(r, ['id', 'user_id', 'dedupe_key'])),
    files,
    immunizations: await clinical('immunizations'),
    lab_results: await clinical('lab_results'),
    conditions: await clinical('conditions'),
    procedures: await clinical('procedures'),
  };
}
