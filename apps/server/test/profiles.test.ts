import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEIGHT_CM, MAX_WEIGHT_KG } from '@kinchart/shared/profile';
import type { TestApp, TestClient } from './helpers';
import { TestClient as Client, buildTestApp, signedInUser } from './helpers';
import { importFile } from './export-helpers';

// SPEC §7 "Own profile". Family members and the cross-user ownership matrix live in family.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Every profile field of SPEC §3, as the full profile editor sends them. */
function fullProfile(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Alex Rivera',
    date_of_birth: '1985-04-12',
    phone_number: '+1 555 0100',
    address: '1 Main St, Springfield',
    email: 'alex@example.com',
    blood_type: 'O+',
    height: 180.34,
    weight: 74.8,
    primary_language: 'English',
    religious_restrictions: 'No blood products',
    organ_donor: true,
    advance_directives: true,
    living_will: false,
    has_vision_impairment: false,
    has_hearing_impairment: true,
    has_allergies: true,
    allergy_details: 'Penicillin',
    has_chronic_conditions: true,
    chronic_condition_details: 'Asthma',
    has_bleeding_disorders: false,
    bleeding_disorder_details: null,
    has_previous_surgeries: true,
    surgery_details: 'Appendectomy 2010',
    has_mobility_issues: false,
    mobility_details: '',
    had_anesthesia_reactions: true,
    anesthesia_reaction_details: 'Nausea',
    ...overrides,
  };
}

const contact = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  relationship: 'Sister',
  phone_number: '+1 555 0101',
  email: 'sis@example.com',
  is_primary: true,
  has_medical_power: false,
  ...extra,
});
const provider = (name: string, extra: Record<string, unknown> = {}) => ({
  provider_name: name,
  specialty: 'Family medicine',
  facility: 'Springfield Clinic',
  phone_number: '+1 555 0102',
  email: 'clinic@example.com',
  address: '2 Clinic Rd',
  is_primary: true,
  notes: 'Tuesdays',
  ...extra,
});
const medication = (name: string, extra: Record<string, unknown> = {}) => ({
  medication_name: name,
  dosage: '10 mg',
  frequency: 'Daily',
  purpose: 'Blood pressure',
  is_current: true,
  start_date: '2024-01-15',
  ...extra,
});

async function profileOf(client: TestClient) {
  const res = await client.get('/api/user/getPatientProfile');
  expect(res.statusCode).toBe(200);
  return res.json();
}

function expect400(res: { statusCode: number; json(): unknown }, message: string | RegExp) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { message: string };
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

describe('reading the own profile', () => {
  it('a new account has an empty profile with its username, its email as contact email, and empty lists', async () => {
    const user = await signedInUser(t.app, { username: 'Jordan' });
    const res = await user.client.get('/api/user/getPatientProfile');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      username: 'Jordan',
      account_email: user.email,
      email: user.email,
      name: null,
      date_of_birth: null,
      blood_type: null,
      height: null,
      weight: null,
      organ_donor: false,
      has_allergies: false,
      emergency_contacts: [],
      healthcare_providers: [],
      medications: [],
      family_members: [],
    });
    expect(typeof body.id).toBe('string');
    // The allowlist: nothing about the account beyond the two fields above.
    expect(body).not.toHaveProperty('password_hash');
    expect(body).not.toHaveProperty('user_id');
    expect(body).not.toHaveProperty('is_self');
  });

  it('lists contacts, providers and medications with both id spellings, in the order they were added', async () => {
    const { client } = await signedInUser(t.app);
    for (const name of ['First', 'Second', 'Third']) {
      expect((await client.post('/api/user/emergency-contacts', contact(name))).statusCode).toBe(201);
      expect((await client.post('/api/user/medications', medication(name))).statusCode).toBe(201);
      expect((await client.post('/api/user/healthcare-providers', provider(name))).statusCode).toBe(201);
    }
    const body = await profileOf(client);
    expect(body.emergency_contacts.map((c: { name: string }) => c.name)).toEqual(['First', 'Second', 'Third']);
    expect(body.medications.map((m: { medication_name: string }) => m.medication_name)).toEqual(['First', 'Second', 'Third']);
    expect(body.healthcare_providers.map((p: { provider_name: string }) => p.provider_name)).toEqual(['First', 'Second', 'Third']);
    const [c] = body.emergency_contacts;
    expect(c.contact_id).toBe(c.id);
    const [m] = body.medications;
    expect(m.medication_id).toBe(m.id);
    const [p] = body.healthcare_providers;
    expect(p.provider_id).toBe(p.id);
    expect(p.name).toBe(p.provider_name);
    expect(c).not.toHaveProperty('user_id');
    expect(c).not.toHaveProperty('profile_id');
  });
});

describe('the Complete Your Profile form (POST /api/user/profile)', () => {
  it('saves username, name, date of birth, address and phone number', async () => {
    const { client } = await signedInUser(t.app, { username: 'Before' });
    const res = await client.post('/api/user/profile', {
      username: 'After',
      name: 'Sam Lee',
      date_of_birth: '1990-06-01',
      address: '5 Elm St',
      phone_number: '555-0199',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Profile updated successfully!' });
    expect(await profileOf(client)).toMatchObject({
      username: 'After',
      name: 'Sam Lee',
      date_of_birth: '1990-06-01',
      address: '5 Elm St',
      phone_number: '555-0199',
    });
    expect((await client.get('/api/auth/check-auth')).json().user.username).toBe('After');
  });

  it('keeps the username when none is sent and leaves the other profile fields alone', async () => {
    const { client } = await signedInUser(t.app, { username: 'Keeper' });
    await client.put('/api/user/updateProfile', fullProfile());
    const res = await client.post('/api/user/profile', { name: 'New Name', date_of_birth: '1985-04-12' });
    expect(res.statusCode).toBe(200);
    const body = await profileOf(client);
    expect(body).toMatchObject({ username: 'Keeper', name: 'New Name', blood_type: 'O+', height: 180.34, address: null });
  });

  it('needs a name, and refuses a birth date in the future or that does not exist', async () => {
    const { client } = await signedInUser(t.app);
    expect400(await client.post('/api/user/profile', { date_of_birth: '1990-01-01' }), 'Name is required');
    expect400(await client.post('/api/user/profile', { name: '   ' }), 'Name is required');
    expect400(await client.post('/api/user/profile', { name: 'A', date_of_birth: '2999-01-01' }), 'Date of birth cannot be in the future');
    expect400(
      await client.post('/api/user/profile', { name: 'A', date_of_birth: '2021-02-29' }),
      'Date of birth must be a real calendar date',
    );
    expect400(await client.post('/api/user/profile', { name: 'A', username: 'u'.repeat(101) }), 'Username must be at most 100 characters');
    expect((await profileOf(client)).name).toBeNull();
  });
});

describe('the full profile editor (PUT /api/user/updateProfile)', () => {
  it('stores every field; height in cm and weight in kg come back exactly', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.put('/api/user/updateProfile', fullProfile());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Profile updated successfully!' });
    const body = await profileOf(client);
    const expected = { ...fullProfile(), mobility_details: null };
    expect(body).toMatchObject(expected);
    expect(body.height).toBe(180.34);
    expect(body.weight).toBe(74.8);
  });

  it('treats the body as the whole profile: a field left out is cleared', async () => {
    const { client } = await signedInUser(t.app);
    await client.put('/api/user/updateProfile', fullProfile());
    const { blood_type: _b, organ_donor: _o, allergy_details: _a, height: _h, ...rest } = fullProfile();
    expect((await client.put('/api/user/updateProfile', rest)).statusCode).toBe(200);
    const body = await profileOf(client);
    expect(body).toMatchObject({
      blood_type: null,
      organ_donor: false,
      allergy_details: null,
      height: null,
      weight: 74.8,
      name: 'Alex Rivera',
    });
  });

  it('trims text, upper-cases the blood type and stores empty text as nothing', async () => {
    const { client } = await signedInUser(t.app);
    await client.put(
      '/api/user/updateProfile',
      fullProfile({ name: '  Trim Me  ', blood_type: 'ab-', address: '   ', height: '170.18', weight: '' }),
    );
    expect(await profileOf(client)).toMatchObject({ name: 'Trim Me', blood_type: 'AB-', address: null, height: 170.18, weight: null });
  });

  it('replaces the nested lists that are sent and keeps the ones that are not', async () => {
    const { client } = await signedInUser(t.app);
    await client.post('/api/user/emergency-contacts', contact('Old contact'));
    await client.post('/api/user/healthcare-providers', provider('Old provider'));
    await client.post('/api/user/medications', medication('Old med'));

    const res = await client.put(
      '/api/user/updateProfile',
      fullProfile({
        emergency_contacts: [contact('New A'), contact('New B', { is_primary: false })],
        medications: [medication('Med 1'), medication('Med 2', { is_current: false, end_date: '2024-06-01' }), medication('Med 3')],
      }),
    );
    expect(res.statusCode).toBe(200);
    const body = await profileOf(client);
    expect(body.emergency_contacts.map((c: { name: string }) => c.name)).toEqual(['New A', 'New B']);
    expect(body.medications.map((m: { medication_name: string }) => m.medication_name)).toEqual(['Med 1', 'Med 2', 'Med 3']);
    expect(body.medications[1]).toMatchObject({ is_current: false, end_date: '2024-06-01' });
    expect(body.healthcare_providers.map((p: { provider_name: string }) => p.provider_name)).toEqual(['Old provider']);

    // An empty list empties it.
    await client.put('/api/user/updateProfile', fullProfile({ medications: [] }));
    expect((await profileOf(client)).medications).toEqual([]);
  });

  it('keeps the ids of records sent back as they were received', async () => {
    const { client } = await signedInUser(t.app);
    await client.post('/api/user/emergency-contacts', contact('Keep me'));
    await client.post('/api/user/medications', medication('Keep me too'));
    const before = await profileOf(client);
    const sentBack = { ...before, emergency_contacts: [...before.emergency_contacts, contact('Brand new')] };
    sentBack.medications[0].dosage = '20 mg';
    expect((await client.put('/api/user/updateProfile', sentBack)).statusCode).toBe(200);
    const after = await profileOf(client);
    expect(after.emergency_contacts[0].id).toBe(before.emergency_contacts[0].id);
    expect(after.emergency_contacts[1].id).not.toBe(before.emergency_contacts[0].id);
    expect(after.medications[0]).toMatchObject({ id: before.medications[0].id, dosage: '20 mg' });
  });

  it('updates the username when it is sent', async () => {
    const { client } = await signedInUser(t.app, { username: 'Old' });
    await client.put('/api/user/updateProfile', fullProfile({ username: 'Newer' }));
    expect((await profileOf(client)).username).toBe('Newer');
  });

  describe('refuses an invalid profile with a message naming the field, and saves nothing', () => {
    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      ['an unknown blood type', { blood_type: 'C+' }, 'Blood type must be one of A+, A-, B+, B-, AB+, AB-, O+, O-'],
      ['a blood type that is not text', { blood_type: 7 }, 'Blood type must be one of A+, A-, B+, B-, AB+, AB-, O+, O-'],
      ['a birth date in the future', { date_of_birth: '2999-01-01' }, 'Date of birth cannot be in the future'],
      ['a birth date that does not exist', { date_of_birth: '2023-02-30' }, 'Date of birth must be a real calendar date'],
      ['a birth date that is not a date', { date_of_birth: 'last spring' }, 'Date of birth must be a date as YYYY-MM-DD'],
      ['a height over 8 ft 11 in', { height: MAX_HEIGHT_CM + 0.01 }, `Height (cm) must be between 0 and ${MAX_HEIGHT_CM}`],
      ['a negative height', { height: -1 }, /^Height \(cm\) must be between 0 and/],
      ['a height that is not a number', { height: 'tall' }, /^Height \(cm\) must be between 0 and/],
      ['a weight over 1000 lb', { weight: MAX_WEIGHT_KG + 0.1 }, `Weight (kg) must be between 0 and ${MAX_WEIGHT_KG}`],
      ['a negative weight', { weight: -0.5 }, /^Weight \(kg\) must be between 0 and/],
      ['an over-long name', { name: 'x'.repeat(201) }, 'name: must be at most 200 characters'],
      ['over-long allergy details', { allergy_details: 'x'.repeat(5001) }, 'allergy_details: must be at most 5000 characters'],
      ['a name that is not text', { name: 42 }, 'name: must be text'],
      ['a flag that is not a boolean', { organ_donor: 'yes' }, 'organ_donor: must be true or false'],
      ['a malformed email', { email: 'not-an-email' }, 'Email must be a valid email address'],
      ['a list that is not a list', { medications: 'aspirin' }, 'medications must be array'],
      ['a contact without a name', { emergency_contacts: [contact('')] }, 'Contact name is required'],
      ['a provider without a name', { healthcare_providers: [provider(' ')] }, 'Provider name is required'],
      [
        'a medication that ends before it starts',
        { medications: [medication('X', { start_date: '2024-05-01', end_date: '2024-04-01' })] },
        'End date cannot be before the start date',
      ],
      [
        'a medication start date that is not a date',
        { medications: [medication('X', { start_date: '1/2/2024' })] },
        'Start date must be a date as YYYY-MM-DD',
      ],
    ];
    it.each(cases)('%s', async (_label, change, message) => {
      const { client } = await signedInUser(t.app);
      await client.put('/api/user/updateProfile', fullProfile({ medications: [medication('Existing')] }));
      const before = await profileOf(client);
      expect400(await client.put('/api/user/updateProfile', fullProfile({ name: 'Changed', ...change })), message);
      expect(await profileOf(client)).toEqual(before);
    });
  });

  it('answers 400 for malformed JSON and for a body that is not an object', async () => {
    const { client } = await signedInUser(t.app);
    const bad = await client.put('/api/user/updateProfile', '{"name": ', { headers: { 'content-type': 'application/json' } });
    expect400(bad, 'Malformed JSON in request body');
    expect400(await client.put('/api/user/updateProfile', [1, 2]), 'Request body must be a JSON object');
  });
});

describe('own emergency contacts', () => {
  it('adding answers 201 with the contact and a message, and it shows in the profile', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/emergency-contacts', contact('Maria', { has_medical_power: true }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ ...contact('Maria', { has_medical_power: true }), message: 'Emergency contact added successfully!' });
    expect(body.contact_id).toBe(body.id);
    const { message: _m, code: _c, ...stored } = body;
    expect((await profileOf(client)).emergency_contacts).toEqual([stored]);
  });

  it('a contact needs a name and a phone number; the rest may be empty', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/emergency-contacts', { name: 'Just a name', phone_number: '555-0101', email: '' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Just a name',
      phone_number: '555-0101',
      relationship: null,
      email: null,
      is_primary: false,
      has_medical_power: false,
    });
    expect400(await client.post('/api/user/emergency-contacts', { phone_number: '555' }), 'Contact name is required');
    expect400(
      await client.post('/api/user/emergency-contacts', { name: 'A', phone_number: '5', is_primary: 'maybe' }),
      'is_primary: must be true or false',
    );
    expect400(
      await client.post('/api/user/emergency-contacts', { name: 'A', phone_number: '5'.repeat(51) }),
      /must be at most 50 characters/,
    );
  });

  it('a user cannot save an emergency contact without a phone number (missing, empty or blank)', async () => {
    const { client } = await signedInUser(t.app);
    for (const body of [
      { name: 'No phone' },
      { name: 'No phone', phone_number: '' },
      { name: 'No phone', phone_number: '   ' },
      { name: 'No phone', phone_number: null },
    ]) {
      const res = await client.post('/api/user/emergency-contacts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ message: expect.stringContaining('Contact phone number is required') });
    }
    // Nor through the whole-profile save, which carries the same lists.
    expect400(
      await client.put('/api/user/updateProfile', { name: 'Me', emergency_contacts: [{ name: 'No phone' }] }),
      'Contact phone number is required',
    );
    expect((await profileOf(client)).emergency_contacts).toEqual([]);
  });

  it('re-posting a contact with its contact_id (the edit form) updates it instead of adding another', async () => {
    const { client } = await signedInUser(t.app);
    const added = (await client.post('/api/user/emergency-contacts', contact('Before'))).json();
    const res = await client.post('/api/user/emergency-contacts', { ...added, name: 'After', phone_number: '555-0000' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: added.id,
      name: 'After',
      phone_number: '555-0000',
      message: 'Emergency contact updated successfully!',
    });
    const list = (await profileOf(client)).emergency_contacts;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: added.id, name: 'After' });
  });

  it('removing answers 200 with a message; removing it again is 404', async () => {
    const { client } = await signedInUser(t.app);
    const added = (await client.post('/api/user/emergency-contacts', contact('Gone soon'))).json();
    const res = await client.delete(`/api/user/emergency-contacts/${added.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Emergency contact removed successfully!' });
    expect((await profileOf(client)).emergency_contacts).toEqual([]);
    const again = await client.delete(`/api/user/emergency-contacts/${added.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'Emergency contact not found' });
  });
});

describe('own medications', () => {
  it('adding answers 201 with the medication and a message; it is current unless said otherwise', async () => {
    const { client } = await signedInUser(t.app);
    const { is_current: _c, ...withoutFlag } = medication('Lisinopril');
    const res = await client.post('/api/user/medications', withoutFlag);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      ...medication('Lisinopril'),
      end_date: null,
      is_current: true,
      message: 'Medication added successfully!',
    });
    expect(body.medication_id).toBe(body.id);
  });

  it('the profile medication form has no required fields (SPEC §5)', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/medications', { dosage: '5 ml' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ medication_name: null, dosage: '5 ml', is_current: true });
  });

  it('updating answers 200 with the updated medication and a message', async () => {
    const { client } = await signedInUser(t.app);
    const added = (await client.post('/api/user/medications', medication('Metformin'))).json();
    const res = await client.put(
      `/api/user/medications/${added.id}`,
      medication('Metformin', { dosage: '1000 mg', is_current: false, end_date: '2024-12-31' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: added.id,
      dosage: '1000 mg',
      is_current: false,
      end_date: '2024-12-31',
      message: 'Medication updated successfully!',
    });
    expect((await profileOf(client)).medications).toEqual([
      expect.objectContaining({ id: added.id, dosage: '1000 mg', is_current: false }),
    ]);
  });

  it('refuses invalid dates and types', async () => {
    const { client } = await signedInUser(t.app);
    expect400(
      await client.post('/api/user/medications', medication('X', { start_date: '2024-13-01' })),
      'Start date must be a real calendar date',
    );
    expect400(
      await client.post('/api/user/medications', medication('X', { end_date: '2020-01-01' })),
      'End date cannot be before the start date',
    );
    expect400(await client.post('/api/user/medications', medication('X', { is_current: 'yes' })), 'is_current: must be true or false');
    expect400(await client.post('/api/user/medications', medication('x'.repeat(201))), 'medication_name: must be at most 200 characters');
  });

  it('removing answers 200; an unknown id is 404 for update and removal', async () => {
    const { client } = await signedInUser(t.app);
    const added = (await client.post('/api/user/medications', medication('Short course'))).json();
    const res = await client.delete(`/api/user/medications/${added.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Medication removed successfully!' });
    expect((await client.delete(`/api/user/medications/${added.id}`)).statusCode).toBe(404);
    const put = await client.put(`/api/user/medications/${added.id}`, medication('Back?'));
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ message: 'Medication not found' });
  });
});

describe('own healthcare providers', () => {
  it('adding answers 201 with the provider (both name spellings) and a message', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/healthcare-providers', provider('Dr. Chen'));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ ...provider('Dr. Chen'), name: 'Dr. Chen', message: 'Healthcare provider added successfully!' });
    expect(body.provider_id).toBe(body.id);
  });

  it('needs a provider name', async () => {
    const { client } = await signedInUser(t.app);
    expect400(await client.post('/api/user/healthcare-providers', provider('')), 'Provider name is required');
    expect400(await client.post('/api/user/healthcare-providers', { specialty: 'x' }), 'Provider name is required');
    expect400(
      await client.post('/api/user/healthcare-providers', provider('Dr', { notes: 'n'.repeat(2001) })),
      'notes: must be at most 2000 characters',
    );
  });

  it('updating answers 200 with the provider and a message; removing answers 200', async () => {
    const { client } = await signedInUser(t.app);
    const added = (await client.post('/api/user/healthcare-providers', provider('Dr. Old'))).json();
    const put = await client.put(`/api/user/healthcare-providers/${added.id}`, provider('Dr. New', { is_primary: false }));
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      id: added.id,
      provider_name: 'Dr. New',
      name: 'Dr. New',
      is_primary: false,
      message: 'Healthcare provider updated successfully!',
    });
    const del = await client.delete(`/api/user/healthcare-providers/${added.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ message: 'Healthcare provider removed successfully!' });
    expect((await profileOf(client)).healthcare_providers).toEqual([]);
    const again = await client.put(`/api/user/healthcare-providers/${added.id}`, provider('Dr. Ghost'));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'Healthcare provider not found' });
  });
});

describe("what an import keeps beside the profile (the allergies' codings, docs/decisions/0053)", () => {
  // An allergy as another system codes it: Kinchart keeps its text in allergy_details, its codes internally.
  const bundle = Buffer.from(
    JSON.stringify({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: 'urn:uuid:a1',
          resource: {
            resourceType: 'AllergyIntolerance',
            clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
            code: { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }] },
            patient: { reference: 'Patient/p1' },
          },
        },
      ],
    }),
  );
  // Issue 34: the allergy's entry keeps them (docs/decisions/0053).
  const STORED = [['Allergy to penicillin', [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }]]];

  it('no profile answer carries them, and the profile editors cannot write them', async () => {
    const user = await signedInUser(t.app);
    const c = user.client;
    const added = await c.post('/api/user/family/add', { name: 'Kit', date_of_birth: '2015-01-01', relationship: 'child' });
    expect(added.statusCode).toBe(201);
    const kitId = added.json().id as string;
    const answers = async () => ({
      own: await profileOf(c),
      member: (await c.get(`/api/user/family/members/${kitId}`)).json<Record<string, unknown>>(),
      members: (await c.get('/api/user/family/members')).json<Record<string, unknown>[]>(),
    });
    const keysOf = (a: Awaited<ReturnType<typeof answers>>) => ({
      own: Object.keys(a.own as Record<string, unknown>).sort(),
      member: Object.keys(a.member).sort(),
      members: a.members.map((m) => Object.keys(m).sort()),
    });
    const before = keysOf(await answers());

    for (const fields of [{}, { profileId: kitId }] as Record<string, string>[])
      expect((await importFile(c, bundle, 'allergy.json', fields)).statusCode).toBe(200);
    const column = async () => {
      const rows = await t.database.db
        .selectFrom('allergies')
        .select(['profile_id', 'substance', 'codings'])
        .where('user_id', '=', user.id)
        .orderBy('position')
        .execute();
      const of = (person: (id: string) => boolean) =>
        rows.filter((r) => person(r.profile_id)).map((r) => [r.substance, JSON.parse(r.codings) as unknown]);
      return [
        ['self', of((id) => id !== kitId)],
        ['kit', of((id) => id === kitId)],
      ];
    };
    expect(await column()).toEqual([
      ['self', STORED],
      ['kit', STORED],
    ]);

    // The same fields as before the import: the text is there, its codes are not.
    const after = await answers();
    expect(keysOf(after)).toEqual(before);
    expect((after.own as { allergy_details: string }).allergy_details).toBe('Allergy to penicillin');
    expect(after.member.allergy_details).toBe('Allergy to penicillin');
    expect(JSON.stringify(after)).not.toContain('91936005');

    // The editors' bodies are the SPEC's profile fields: anything else is not written, nor answered.
    const sneaky = { allergy_codings: JSON.stringify([{ text: 'Allergy to penicillin', codings: [] }]) };
    expect((await c.put('/api/user/updateProfile', fullProfile({ allergy_details: 'Allergy to penicillin', ...sneaky }))).statusCode).toBe(
      200,
    );
    const memberUpdate = await c.put(`/api/user/family/members/${kitId}`, {
      name: 'Kit',
      date_of_birth: '2015-01-01',
      relationship: 'child',
      has_allergies: true,
      allergy_details: 'Allergy to penicillin',
      ...sneaky,
    });
    expect(memberUpdate.statusCode, memberUpdate.body).toBe(200);
    expect(Object.keys(memberUpdate.json<Record<string, unknown>>())).not.toContain('allergy_codings');
    expect(JSON.stringify(memberUpdate.json())).not.toContain('91936005');
    expect(await column()).toEqual([
      ['self', STORED],
      ['kit', STORED],
    ]);
    expect(keysOf(await answers())).toEqual(before);
  });
});

describe('path ids', () => {
  it('a malformed id is simply not found; an over-long one is refused', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.delete('/api/user/medications/not-a-uuid')).statusCode).toBe(404);
    expect((await client.delete("/api/user/emergency-contacts/'%20OR%201=1")).statusCode).toBe(404);
    expect400(
      await client.delete(`/api/user/healthcare-providers/${'a'.repeat(65)}`),
      'provider_id: must be at most 64 characters (params)',
    );
  });
});

describe('without a session', () => {
  it('every own-profile route answers 401, before looking at the body', async () => {
    const anon = new Client(t.app);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/user/getPatientProfile'],
      ['POST', '/api/user/profile', { name: 'x' }],
      ['PUT', '/api/user/updateProfile', { blood_type: 'not even valid' }],
      ['POST', '/api/user/emergency-contacts', contact('x')],
      ['DELETE', '/api/user/emergency-contacts/some-id'],
      ['POST', '/api/user/medications', medication('x')],
      ['PUT', '/api/user/medications/some-id', medication('x')],
      ['DELETE', '/api/user/medications/some-id'],
      ['POST', '/api/user/healthcare-providers', provider('x')],
      ['PUT', '/api/user/healthcare-providers/some-id', provider('x')],
      ['DELETE', '/api/user/healthcare-providers/some-id'],
    ];
    for (const [method, url, body] of calls) {
      const res = await anon.request(method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Not authenticated' });
    }
  });
});
