import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp, TestClient } from './helpers';
import { newId } from '../src/lib/ids';
import { TestClient as Client, buildTestApp, dialect, signedInUser } from './helpers';

// SPEC §7 "Family", plus the ownership matrix for every profile route (DESIGN §4: another user's id
// answers 404 exactly like a missing id).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';

const familyContact = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  relationship: 'Neighbour',
  phone_number: '+1 555 0200',
  is_primary: true,
  ...extra,
});
const familyProvider = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  specialty: 'Paediatrics',
  phone_number: '+1 555 0201',
  is_primary: true,
  ...extra,
});
const familyMedication = (name: string, extra: Record<string, unknown> = {}) => ({
  medication_name: name,
  dosage: '5 ml',
  frequency: 'Twice daily',
  is_current: true,
  ...extra,
});

/** The family edit form: every profile field plus relationship, is_pet and the three lists. */
function editForm(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Mia Rivera',
    date_of_birth: '2015-09-03',
    relationship: 'daughter',
    is_pet: false,
    phone_number: null,
    address: '1 Main St',
    email: '',
    blood_type: 'A-',
    height: 120.5,
    weight: 24.3,
    primary_language: 'English',
    religious_restrictions: null,
    organ_donor: false,
    advance_directives: false,
    living_will: false,
    has_vision_impairment: true,
    has_hearing_impairment: false,
    has_allergies: true,
    allergy_details: 'Peanuts',
    has_chronic_conditions: false,
    chronic_condition_details: null,
    has_bleeding_disorders: false,
    bleeding_disorder_details: null,
    has_previous_surgeries: false,
    surgery_details: null,
    has_mobility_issues: false,
    mobility_details: null,
    had_anesthesia_reactions: false,
    anesthesia_reaction_details: null,
    ...overrides,
  };
}

async function addMember(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/user/family/add', { name: 'Mia', date_of_birth: '2015-09-03', relationship: 'child', ...body });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; name: string }>();
}

async function memberOf(client: TestClient, id: string) {
  const res = await client.get(`/api/user/family/members/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

function expect400(res: { statusCode: number; json(): unknown }, message: string | RegExp) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { message: string };
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

async function countRows(table: string, column: 'user_id' | 'profile_id', id: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${id}`.execute(
    t.database.db,
  );
  return Number(rows[0]?.n);
}

describe('adding a family member', () => {
  it('answers 201 with the member, its empty lists and a message', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/family/add', {
      name: 'Rex',
      date_of_birth: '2019-05-01',
      relationship: 'other',
      is_pet: true,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Rex',
      date_of_birth: '2019-05-01',
      relationship: 'other',
      is_pet: true,
      blood_type: null,
      emergency_contacts: [],
      healthcare_providers: [],
      medications: [],
      message: 'Family member added successfully!',
    });
    expect(body.member_id).toBe(body.id);
    expect(body).not.toHaveProperty('user_id');
    expect(body).not.toHaveProperty('is_self');
  });

  it('is_pet is optional and defaults to a person', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/family/add', { name: 'Sam', date_of_birth: '1960-01-01', relationship: 'parent' });
    expect(res.statusCode).toBe(201);
    expect(res.json().is_pet).toBe(false);
  });

  describe('needs name, date of birth and relationship (SPEC §5)', () => {
    const base = { name: 'Mia', date_of_birth: '2015-09-03', relationship: 'child' };
    const cases: [string, Record<string, unknown>, string][] = [
      ['no name', { name: undefined }, 'Name is required'],
      ['a blank name', { name: '   ' }, 'Name is required'],
      ['no date of birth', { date_of_birth: undefined }, 'Date of birth is required'],
      ['an empty date of birth', { date_of_birth: '' }, 'Date of birth is required'],
      ['a date of birth in the future', { date_of_birth: '2999-12-31' }, 'Date of birth cannot be in the future'],
      ['a date of birth that does not exist', { date_of_birth: '2019-04-31' }, 'Date of birth must be a real calendar date'],
      ['a date of birth that is not a date', { date_of_birth: 20150903 }, 'Date of birth must be a date as YYYY-MM-DD'],
      ['no relationship', { relationship: undefined }, 'Relationship is required'],
      ['a relationship that is not text', { relationship: ['child'] }, 'Relationship must be text'],
      ['an over-long relationship', { relationship: 'r'.repeat(101) }, 'Relationship must be at most 100 characters'],
      ['an over-long name', { name: 'n'.repeat(201) }, 'Name must be at most 200 characters'],
      ['an is_pet that is not a boolean', { is_pet: 'woof' }, 'is_pet: must be true or false'],
    ];
    it.each(cases)('%s', async (_label, change, message) => {
      const { client } = await signedInUser(t.app);
      expect400(await client.post('/api/user/family/add', { ...base, ...change }), message);
      expect((await client.get('/api/user/family/members')).json()).toEqual([]);
    });
  });
});

describe('listing and reading family members', () => {
  it('lists members (never the own profile) oldest first, and the own profile lists them too', async () => {
    const user = await signedInUser(t.app);
    const first = await addMember(user.client, { name: 'First' });
    const second = await addMember(user.client, { name: 'Second', is_pet: true, relationship: 'other' });
    const res = await user.client.get('/api/user/family/members');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = res.json();
    expect(list.map((m: { id: string }) => m.id).sort()).toEqual([first.id, second.id].sort());
    expect(list.find((m: { id: string }) => m.id === second.id)).toMatchObject({
      name: 'Second',
      relationship: 'other',
      is_pet: true,
      member_id: second.id,
    });
    expect(list[0]).not.toHaveProperty('emergency_contacts');
    const own = (await user.client.get('/api/user/getPatientProfile')).json();
    expect(own.family_members.map((m: { id: string }) => m.id).sort()).toEqual([first.id, second.id].sort());
    expect(list.some((m: { id: string }) => m.id === own.id)).toBe(false);
  });

  it('reads one member with its nested lists', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    await client.post(`/api/user/family/members/${member.id}/emergency-contacts`, familyContact('Nana'));
    await client.post(`/api/user/family/members/${member.id}/medications`, familyMedication('Amoxicillin'));
    const body = await memberOf(client, member.id);
    expect(body).toMatchObject({ id: member.id, name: 'Mia', relationship: 'child', is_pet: false });
    expect(body.emergency_contacts).toEqual([expect.objectContaining({ name: 'Nana', phone_number: '+1 555 0200' })]);
    expect(body.medications).toEqual([expect.objectContaining({ medication_name: 'Amoxicillin', dosage: '5 ml' })]);
    expect(body.healthcare_providers).toEqual([]);
  });

  it('the own profile id is not a family member: every family route answers 404 for it', async () => {
    const { client } = await signedInUser(t.app);
    const ownId = (await client.get('/api/user/getPatientProfile')).json().id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/user/family/members/${ownId}`],
      ['PUT', `/api/user/family/members/${ownId}`, editForm()],
      ['DELETE', `/api/user/family/members/${ownId}`],
      ['GET', `/api/user/family/members/${ownId}/emergency-contacts`],
      ['POST', `/api/user/family/members/${ownId}/emergency-contacts`, familyContact('X')],
      ['GET', `/api/user/family/members/${ownId}/medications`],
      ['POST', `/api/user/family/members/${ownId}/medications`, familyMedication('X')],
    ];
    for (const [method, url, body] of calls) {
      const res = await client.request(method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Family member not found' });
    }
    const own = (await client.get('/api/user/getPatientProfile')).json();
    expect(own.emergency_contacts).toEqual([]);
    expect(own.medications).toEqual([]);
  });
});

describe('editing a family member (PUT /api/user/family/members/{id})', () => {
  it('saves the whole edit form with its lists and answers 200 with the member and a message', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const res = await client.put(
      `/api/user/family/members/${member.id}`,
      editForm({
        emergency_contacts: [familyContact('Grandma'), familyContact('Grandpa', { is_primary: false, email: 'gp@example.com' })],
        healthcare_providers: [familyProvider('Dr. Patel')],
        medications: [familyMedication('Ibuprofen'), familyMedication('Vitamin D', { is_current: false })],
      }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: member.id,
      name: 'Mia Rivera',
      relationship: 'daughter',
      blood_type: 'A-',
      height: 120.5,
      weight: 24.3,
      has_allergies: true,
      allergy_details: 'Peanuts',
      email: null,
      message: 'Family member updated successfully!',
    });
    expect(body.emergency_contacts.map((c: { name: string }) => c.name)).toEqual(['Grandma', 'Grandpa']);
    // The family form names the provider `name`; the answer carries both spellings.
    expect(body.healthcare_providers).toEqual([
      expect.objectContaining({ provider_name: 'Dr. Patel', name: 'Dr. Patel', phone_number: '+1 555 0201' }),
    ]);
    expect(body.medications.map((m: { medication_name: string; is_current: boolean }) => [m.medication_name, m.is_current])).toEqual([
      ['Ibuprofen', true],
      ['Vitamin D', false],
    ]);
    const { message: _m, code: _c, ...stored } = body;
    expect(await memberOf(client, member.id)).toEqual(stored);
  });

  it('a form seeded from the member and edited through `name` renames the provider', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    await client.put(`/api/user/family/members/${member.id}`, editForm({ healthcare_providers: [familyProvider('Dr. Old')] }));
    const seeded = await memberOf(client, member.id);
    seeded.healthcare_providers[0].name = 'Dr. New';
    const res = await client.put(`/api/user/family/members/${member.id}`, seeded);
    expect(res.statusCode).toBe(200);
    expect(res.json().healthcare_providers).toEqual([
      expect.objectContaining({ id: seeded.healthcare_providers[0].id, provider_name: 'Dr. New', name: 'Dr. New' }),
    ]);
  });

  it('lists left out of the body are kept; fields left out are cleared', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    await client.post(`/api/user/family/members/${member.id}/medications`, familyMedication('Keep'));
    await client.put(`/api/user/family/members/${member.id}`, editForm());
    const res = await client.put(`/api/user/family/members/${member.id}`, {
      name: 'Mia',
      date_of_birth: '2015-09-03',
      relationship: 'child',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ blood_type: null, height: null, has_allergies: false, allergy_details: null, is_pet: false });
    expect(res.json().medications).toEqual([expect.objectContaining({ medication_name: 'Keep' })]);
  });

  describe('refuses an invalid edit with a message naming the field, and changes nothing', () => {
    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      ['no name', { name: '' }, 'Name is required'],
      ['no date of birth', { date_of_birth: null }, 'Date of birth is required'],
      ['no relationship', { relationship: ' ' }, 'Relationship is required'],
      ['a birth date in the future', { date_of_birth: '2999-01-01' }, 'Date of birth cannot be in the future'],
      ['an unknown blood type', { blood_type: 'Z' }, 'Blood type must be one of A+, A-, B+, B-, AB+, AB-, O+, O-'],
      ['a height past the bound', { height: 272 }, /^Height \(cm\) must be between 0 and 271.78$/],
      ['a weight past the bound', { weight: 454 }, /^Weight \(kg\) must be between 0 and 453.6$/],
      [
        'a contact without a phone number',
        { emergency_contacts: [familyContact('Only name', { phone_number: '' })] },
        'Contact phone number is required',
      ],
      ['a contact without a name', { emergency_contacts: [familyContact('')] }, 'Contact name is required'],
      [
        'a provider without a phone number',
        { healthcare_providers: [familyProvider('Dr. X', { phone_number: undefined })] },
        'Provider phone number is required',
      ],
      ['a provider without a name', { healthcare_providers: [{ phone_number: '555' }] }, 'Provider name is required'],
      [
        'a medication without a dosage',
        { medications: [familyMedication('Ok'), familyMedication('Ok 2'), familyMedication('Bad', { dosage: '' })] },
        'Dosage is required',
      ],
      ['a medication without a name', { medications: [familyMedication(' ')] }, 'Medication name is required'],
      ['a list of the wrong type', { emergency_contacts: { name: 'x' } }, 'emergency_contacts must be array'],
      ['an over-long detail', { allergy_details: 'a'.repeat(5001) }, 'allergy_details: must be at most 5000 characters'],
    ];
    it.each(cases)('%s', async (_label, change, message) => {
      const { client } = await signedInUser(t.app);
      const member = await addMember(client);
      await client.put(
        `/api/user/family/members/${member.id}`,
        editForm({ emergency_contacts: [familyContact('Existing')], medications: [familyMedication('Existing')] }),
      );
      const before = await memberOf(client, member.id);
      expect400(
        await client.put(
          `/api/user/family/members/${member.id}`,
          editForm({ name: 'Renamed', medications: [familyMedication('New')], ...change }),
        ),
        message,
      );
      expect(await memberOf(client, member.id)).toEqual(before);
    });
  });

  it('a database failure part-way through the save leaves nothing half-written', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    await client.put(
      `/api/user/family/members/${member.id}`,
      editForm({ emergency_contacts: [familyContact('Existing')], medications: [familyMedication('Existing')] }),
    );
    const before = await memberOf(client, member.id);
    // A trigger makes the database refuse one medication row. By then the profile row, the
    // contacts and the old medications have already been written inside the transaction.
    await installFailingTrigger();
    try {
      const res = await client.put(
        `/api/user/family/members/${member.id}`,
        editForm({
          name: 'Half Saved?',
          blood_type: 'B+',
          emergency_contacts: [familyContact('New contact')],
          medications: [familyMedication('One'), familyMedication('Two'), familyMedication('explode')],
        }),
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ message: 'Something went wrong. Please try again.' });
    } finally {
      await removeFailingTrigger();
    }
    expect(await memberOf(client, member.id)).toEqual(before);
  });

  it('the own profile editor is all-or-nothing too', async () => {
    const { client } = await signedInUser(t.app);
    await client.put('/api/user/updateProfile', {
      name: 'Me',
      emergency_contacts: [familyContact('Existing')],
      medications: [familyMedication('Existing')],
    });
    const before = (await client.get('/api/user/getPatientProfile')).json();
    await installFailingTrigger();
    try {
      const res = await client.put('/api/user/updateProfile', {
        name: 'Changed',
        username: 'changed-username',
        emergency_contacts: [],
        medications: [familyMedication('explode')],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await removeFailingTrigger();
    }
    expect((await client.get('/api/user/getPatientProfile')).json()).toEqual(before);
  });
});

async function installFailingTrigger() {
  const db = t.database.db;
  if (dialect === 'sqlite') {
    await sql`CREATE TRIGGER test_refuse_medication BEFORE INSERT ON medications
      WHEN NEW.medication_name = 'explode' BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`.execute(db);
    return;
  }
  await sql`CREATE FUNCTION test_refuse_medication() RETURNS trigger AS $$
    BEGIN IF NEW.medication_name = 'explode' THEN RAISE EXCEPTION 'refused by test trigger'; END IF; RETURN NEW; END
    $$ LANGUAGE plpgsql`.execute(db);
  await sql`CREATE TRIGGER test_refuse_medication BEFORE INSERT ON medications
    FOR EACH ROW EXECUTE FUNCTION test_refuse_medication()`.execute(db);
}

async function removeFailingTrigger() {
  const db = t.database.db;
  if (dialect === 'sqlite') {
    await sql`DROP TRIGGER IF EXISTS test_refuse_medication`.execute(db);
    return;
  }
  await sql`DROP TRIGGER IF EXISTS test_refuse_medication ON medications`.execute(db);
  await sql`DROP FUNCTION IF EXISTS test_refuse_medication()`.execute(db);
}

describe("a member's emergency contacts", () => {
  it('lists, adds (201 with the contact and a message) and removes (200)', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/emergency-contacts`;
    const added = await client.post(base, familyContact('Aunt Jo'));
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      ...familyContact('Aunt Jo'),
      email: null,
      has_medical_power: false,
      message: 'Emergency contact added successfully!',
    });
    const { id } = added.json();
    const list = await client.get(base);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([expect.objectContaining({ id, contact_id: id, name: 'Aunt Jo' })]);
    const removed = await client.delete(`${base}/${id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Emergency contact removed successfully!' });
    expect((await client.get(base)).json()).toEqual([]);
    expect((await client.delete(`${base}/${id}`)).statusCode).toBe(404);
  });

  it('needs a name and a phone number', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/emergency-contacts`;
    expect400(await client.post(base, familyContact('No phone', { phone_number: undefined })), 'Contact phone number is required');
    expect400(await client.post(base, familyContact(' ')), 'Contact name is required');
    expect((await client.get(base)).json()).toEqual([]);
  });

  it('a contact id of another profile is not found under this member', async () => {
    const { client } = await signedInUser(t.app);
    const a = await addMember(client, { name: 'A' });
    const b = await addMember(client, { name: 'B' });
    const ofA = (await client.post(`/api/user/family/members/${a.id}/emergency-contacts`, familyContact('A contact'))).json();
    const own = (await client.post('/api/user/emergency-contacts', familyContact('Own contact'))).json();
    expect((await client.delete(`/api/user/family/members/${b.id}/emergency-contacts/${ofA.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/user/family/members/${b.id}/emergency-contacts/${own.id}`)).statusCode).toBe(404);
    // …and the own-profile route does not reach a member's contact either.
    expect((await client.delete(`/api/user/emergency-contacts/${ofA.id}`)).statusCode).toBe(404);
    expect((await client.get(`/api/user/family/members/${a.id}/emergency-contacts`)).json()).toHaveLength(1);
    expect((await client.get('/api/user/getPatientProfile')).json().emergency_contacts).toHaveLength(1);
  });
});

describe("a member's medications", () => {
  it('lists, adds (201 with the medication and a message) and removes (200)', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/medications`;
    const added = await client.post(base, familyMedication('Cetirizine', { purpose: 'Hay fever', start_date: '2024-03-01' }));
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      medication_name: 'Cetirizine',
      dosage: '5 ml',
      purpose: 'Hay fever',
      start_date: '2024-03-01',
      end_date: null,
      is_current: true,
      message: 'Medication added successfully!',
    });
    const { id } = added.json();
    expect((await client.get(base)).json()).toEqual([expect.objectContaining({ id, medication_id: id })]);
    const removed = await client.delete(`${base}/${id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Medication removed successfully!' });
    expect((await client.get(base)).json()).toEqual([]);
  });

  it('needs a medication name and a dosage', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/medications`;
    expect400(await client.post(base, { dosage: '1 tab' }), 'Medication name is required');
    expect400(await client.post(base, { medication_name: 'Something' }), 'Dosage is required');
    expect400(await client.post(base, familyMedication('X', { start_date: '2024-02-30' })), 'Start date must be a real calendar date');
    expect((await client.get(base)).json()).toEqual([]);
  });

  it('a medication id of another profile is not found under this member', async () => {
    const { client } = await signedInUser(t.app);
    const a = await addMember(client, { name: 'A' });
    const b = await addMember(client, { name: 'B' });
    const ofA = (await client.post(`/api/user/family/members/${a.id}/medications`, familyMedication('For A'))).json();
    const own = (await client.post('/api/user/medications', familyMedication('Mine'))).json();
    expect((await client.delete(`/api/user/family/members/${b.id}/medications/${ofA.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/user/family/members/${b.id}/medications/${own.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/user/medications/${ofA.id}`)).statusCode).toBe(404);
    expect((await client.put(`/api/user/medications/${ofA.id}`, familyMedication('Hijack'))).statusCode).toBe(404);
    expect((await client.get(`/api/user/family/members/${a.id}/medications`)).json()).toEqual([
      expect.objectContaining({ id: ofA.id, medication_name: 'For A' }),
    ]);
  });
});

describe("a member's healthcare providers, one at a time", () => {
  it('adds (201), edits (200) and removes (200) a provider, each saved at once', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/healthcare-providers`;
    const added = await client.post(base, familyProvider('Dr. Paws', { facility: 'Vet clinic' }));
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      provider_name: 'Dr. Paws',
      name: 'Dr. Paws',
      specialty: 'Paediatrics',
      facility: 'Vet clinic',
      phone_number: '+1 555 0201',
      is_primary: true,
      message: 'Healthcare provider added successfully!',
    });
    const { id } = added.json();
    expect((await memberOf(client, member.id)).healthcare_providers).toEqual([
      expect.objectContaining({ id, provider_id: id, provider_name: 'Dr. Paws' }),
    ]);

    const edited = await client.put(`${base}/${id}`, familyProvider('Dr. Whiskers', { phone_number: '555-0300', is_primary: false }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id,
      provider_name: 'Dr. Whiskers',
      phone_number: '555-0300',
      is_primary: false,
      message: 'Healthcare provider updated successfully!',
    });
    expect((await memberOf(client, member.id)).healthcare_providers).toEqual([
      expect.objectContaining({ id, provider_name: 'Dr. Whiskers' }),
    ]);

    const removed = await client.delete(`${base}/${id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Healthcare provider removed successfully!' });
    expect((await memberOf(client, member.id)).healthcare_providers).toEqual([]);
    expect((await client.delete(`${base}/${id}`)).statusCode).toBe(404);
    expect((await client.put(`${base}/${id}`, familyProvider('Gone'))).statusCode).toBe(404);
  });

  it('needs a name and a phone number, as in the member edit form', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/healthcare-providers`;
    expect400(await client.post(base, familyProvider('No phone', { phone_number: ' ' })), 'Provider phone number is required');
    expect400(await client.post(base, { phone_number: '555' }), 'Provider name is required');
    const { id } = (await client.post(base, familyProvider('Dr. Kept'))).json();
    expect400(await client.put(`${base}/${id}`, familyProvider('Dr. Kept', { phone_number: '' })), 'Provider phone number is required');
    expect((await memberOf(client, member.id)).healthcare_providers).toEqual([
      expect.objectContaining({ id, provider_name: 'Dr. Kept', phone_number: '+1 555 0201' }),
    ]);
  });

  it('a provider of another profile is not found under this member, and the own routes do not reach a member’s', async () => {
    const { client } = await signedInUser(t.app);
    const a = await addMember(client, { name: 'A' });
    const b = await addMember(client, { name: 'B' });
    const ofA = (await client.post(`/api/user/family/members/${a.id}/healthcare-providers`, familyProvider('For A'))).json();
    const own = (await client.post('/api/user/healthcare-providers', { provider_name: 'Mine' })).json();
    expect((await client.put(`/api/user/family/members/${b.id}/healthcare-providers/${ofA.id}`, familyProvider('Hijack'))).statusCode).toBe(
      404,
    );
    expect((await client.delete(`/api/user/family/members/${b.id}/healthcare-providers/${ofA.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/user/family/members/${b.id}/healthcare-providers/${own.id}`)).statusCode).toBe(404);
    expect((await client.put(`/api/user/healthcare-providers/${ofA.id}`, { provider_name: 'Hijack' })).statusCode).toBe(404);
    expect((await client.delete(`/api/user/healthcare-providers/${ofA.id}`)).statusCode).toBe(404);
    expect((await memberOf(client, a.id)).healthcare_providers).toEqual([expect.objectContaining({ id: ofA.id, provider_name: 'For A' })]);
    expect((await client.get('/api/user/getPatientProfile')).json().healthcare_providers).toEqual([
      expect.objectContaining({ id: own.id, provider_name: 'Mine' }),
    ]);
  });
});

describe("a member's medication edited on its own", () => {
  it('saves the edit at once (200) and refuses one without a name or a dosage', async () => {
    const { client } = await signedInUser(t.app);
    const member = await addMember(client);
    const base = `/api/user/family/members/${member.id}/medications`;
    const { id } = (await client.post(base, familyMedication('Cetirizine'))).json();
    const res = await client.put(
      `${base}/${id}`,
      familyMedication('Cetirizine', { dosage: '10 ml', is_current: false, end_date: '2024-05-01' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id,
      medication_name: 'Cetirizine',
      dosage: '10 ml',
      is_current: false,
      end_date: '2024-05-01',
      message: 'Medication updated successfully!',
    });
    expect400(await client.put(`${base}/${id}`, familyMedication('Cetirizine', { dosage: '' })), 'Dosage is required');
    expect((await client.get(base)).json()).toEqual([expect.objectContaining({ id, dosage: '10 ml' })]);
    expect((await client.put(`${base}/${MISSING}`, familyMedication('X'))).statusCode).toBe(404);
  });
});

describe('deleting a family member', () => {
  it('answers 200 and removes the member with every contact, provider, medication and emergency code', async () => {
    const user = await signedInUser(t.app);
    const member = await addMember(user.client);
    const keep = await addMember(user.client, { name: 'Stays' });
    await user.client.put(
      `/api/user/family/members/${member.id}`,
      editForm({
        emergency_contacts: [familyContact('C1'), familyContact('C2')],
        healthcare_providers: [familyProvider('P1')],
        medications: [familyMedication('M1'), familyMedication('M2')],
      }),
    );
    await user.client.post(`/api/user/family/members/${keep.id}/medications`, familyMedication('Kept'));
    await user.client.post('/api/user/medications', familyMedication('Mine'));
    const now = new Date().toISOString();
    await t.database.db
      .insertInto('emergency_shares')
      .values({
        id: newId(),
        user_id: user.id,
        profile_id: member.id,
        kind: 'family',
        share_id: `test-share-${member.id}`,
        pin_hash: 'x',
        created_at: now,
        updated_at: now,
      })
      .execute();

    const res = await user.client.delete(`/api/user/family/members/${member.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Family member deleted successfully' });

    for (const table of ['emergency_contacts', 'healthcare_providers', 'medications', 'emergency_shares']) {
      expect(await countRows(table, 'profile_id', member.id), table).toBe(0);
    }
    expect(await countRows('profiles', 'user_id', user.id)).toBe(2); // own profile + the one that stays
    expect((await user.client.get(`/api/user/family/members/${member.id}`)).statusCode).toBe(404);
    expect((await user.client.get(`/api/user/family/members/${keep.id}/medications`)).json()).toHaveLength(1);
    expect((await user.client.get('/api/user/getPatientProfile')).json().medications).toHaveLength(1);
    expect((await user.client.delete(`/api/user/family/members/${member.id}`)).statusCode).toBe(404);
  });
});

describe('ownership: one user cannot reach another user’s profiles', () => {
  /** Owner with a member, member contact/medication and own contact/medication/provider. */
  async function ownerWithData() {
    const owner = await signedInUser(t.app);
    const member = await addMember(owner.client, { name: 'Private Member' });
    const memberContact = (
      await owner.client.post(`/api/user/family/members/${member.id}/emergency-contacts`, familyContact('Member contact'))
    ).json();
    const memberMedication = (
      await owner.client.post(`/api/user/family/members/${member.id}/medications`, familyMedication('Member med'))
    ).json();
    await owner.client.put(`/api/user/family/members/${member.id}`, {
      ...(await memberOf(owner.client, member.id)),
      healthcare_providers: [familyProvider('Member provider')],
    });
    const ownContact = (await owner.client.post('/api/user/emergency-contacts', familyContact('Own contact'))).json();
    const ownMedication = (await owner.client.post('/api/user/medications', familyMedication('Own med'))).json();
    const ownProvider = (await owner.client.post('/api/user/healthcare-providers', { provider_name: 'Own provider' })).json();
    const ownProfileId = (await owner.client.get('/api/user/getPatientProfile')).json().id;
    const memberProvider = (await memberOf(owner.client, member.id)).healthcare_providers[0].id as string;
    return {
      owner,
      ids: {
        member: member.id,
        memberContact: memberContact.id,
        memberMedication: memberMedication.id,
        memberProvider,
        ownContact: ownContact.id,
        ownMedication: ownMedication.id,
        ownProvider: ownProvider.id,
        ownProfileId,
      },
    };
  }

  async function snapshot(client: TestClient, memberId: string) {
    return {
      own: (await client.get('/api/user/getPatientProfile')).json(),
      member: await memberOf(client, memberId),
      members: (await client.get('/api/user/family/members')).json(),
    };
  }

  it('a second user gets 404, exactly like a missing id, on every read, update and delete — and nothing changes', async () => {
    const { owner, ids } = await ownerWithData();
    const before = await snapshot(owner.client, ids.member);
    const intruder = await signedInUser(t.app);
    const intruderMember = await addMember(intruder.client, { name: 'Intruder kid' });

    const m = ids.member;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/user/family/members/${m}`],
      [
        'PUT',
        `/api/user/family/members/${m}`,
        editForm({ name: 'Hacked', emergency_contacts: [], medications: [], healthcare_providers: [] }),
      ],
      ['DELETE', `/api/user/family/members/${m}`],
      ['GET', `/api/user/family/members/${m}/emergency-contacts`],
      ['POST', `/api/user/family/members/${m}/emergency-contacts`, familyContact('Planted')],
      ['DELETE', `/api/user/family/members/${m}/emergency-contacts/${ids.memberContact}`],
      ['GET', `/api/user/family/members/${m}/medications`],
      ['POST', `/api/user/family/members/${m}/medications`, familyMedication('Planted')],
      ['DELETE', `/api/user/family/members/${m}/medications/${ids.memberMedication}`],
      ['PUT', `/api/user/family/members/${m}/medications/${ids.memberMedication}`, familyMedication('Hacked')],
      ['POST', `/api/user/family/members/${m}/healthcare-providers`, familyProvider('Planted')],
      ['PUT', `/api/user/family/members/${m}/healthcare-providers/${ids.memberProvider}`, familyProvider('Hacked')],
      ['DELETE', `/api/user/family/members/${m}/healthcare-providers/${ids.memberProvider}`],
      ['PUT', `/api/user/family/members/${intruderMember.id}/healthcare-providers/${ids.memberProvider}`, familyProvider('Hacked')],
      ['DELETE', `/api/user/family/members/${intruderMember.id}/healthcare-providers/${ids.memberProvider}`],
      // The owner's own profile id used as a member id.
      ['GET', `/api/user/family/members/${ids.ownProfileId}`],
      // The owner's nested records through the intruder's own routes and member.
      ['DELETE', `/api/user/emergency-contacts/${ids.ownContact}`],
      ['DELETE', `/api/user/emergency-contacts/${ids.memberContact}`],
      ['PUT', `/api/user/medications/${ids.ownMedication}`, familyMedication('Hacked')],
      ['DELETE', `/api/user/medications/${ids.ownMedication}`],
      ['PUT', `/api/user/medications/${ids.memberMedication}`, familyMedication('Hacked')],
      ['DELETE', `/api/user/medications/${ids.memberMedication}`],
      ['PUT', `/api/user/healthcare-providers/${ids.ownProvider}`, { provider_name: 'Hacked' }],
      ['DELETE', `/api/user/healthcare-providers/${ids.ownProvider}`],
      ['DELETE', `/api/user/family/members/${intruderMember.id}/emergency-contacts/${ids.memberContact}`],
      ['DELETE', `/api/user/family/members/${intruderMember.id}/medications/${ids.memberMedication}`],
    ];
    for (const [method, url, body] of calls) {
      const theirs = await intruder.client.request(method as 'GET', url, body);
      // The same call with the owner's ids swapped for ids that exist nowhere.
      let missingUrl = url;
      for (const id of Object.values(ids)) missingUrl = missingUrl.replaceAll(id, MISSING);
      expect(missingUrl).not.toBe(url);
      const missing = await intruder.client.request(method as 'GET', missingUrl, body);
      expect(theirs.statusCode, `${method} ${url}`).toBe(404);
      expect(theirs.json(), `${method} ${url}`).toEqual(missing.json());
      expect(missing.statusCode).toBe(404);
    }

    expect(await snapshot(owner.client, ids.member)).toEqual(before);
    // Nothing leaked into the intruder's lists either.
    const theirs = (await intruder.client.get('/api/user/getPatientProfile')).json();
    expect(theirs.family_members.map((x: { id: string }) => x.id)).toEqual([intruderMember.id]);
    expect(theirs.emergency_contacts).toEqual([]);
    expect(theirs.medications).toEqual([]);
  });

  it('a second user re-posting someone else’s contact id adds their own contact and leaves the original alone', async () => {
    const { owner, ids } = await ownerWithData();
    const intruder = await signedInUser(t.app);
    const res = await intruder.client.post('/api/user/emergency-contacts', {
      contact_id: ids.ownContact,
      id: ids.ownContact,
      name: 'Overwrite?',
      phone_number: '555-0100',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().id).not.toBe(ids.ownContact);
    const ownerContacts = (await owner.client.get('/api/user/getPatientProfile')).json().emergency_contacts;
    expect(ownerContacts).toEqual([expect.objectContaining({ id: ids.ownContact, name: 'Own contact' })]);
  });

  it('list replaces never adopt ids from another user', async () => {
    const { owner, ids } = await ownerWithData();
    const intruder = await signedInUser(t.app);
    const res = await intruder.client.put('/api/user/updateProfile', {
      medications: [{ id: ids.ownMedication, medication_id: ids.ownMedication, medication_name: 'Mine now?' }],
    });
    expect(res.statusCode).toBe(200);
    const intruderMeds = (await intruder.client.get('/api/user/getPatientProfile')).json().medications;
    expect(intruderMeds).toHaveLength(1);
    expect(intruderMeds[0].id).not.toBe(ids.ownMedication);
    expect((await owner.client.get('/api/user/getPatientProfile')).json().medications).toEqual([
      expect.objectContaining({ id: ids.ownMedication, medication_name: 'Own med' }),
    ]);
  });
});

describe('without a session', () => {
  it('every family route answers 401', async () => {
    const anon = new Client(t.app);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/user/family/members'],
      ['POST', '/api/user/family/add', { name: 'x', date_of_birth: '2000-01-01', relationship: 'child' }],
      ['GET', `/api/user/family/members/${MISSING}`],
      ['PUT', `/api/user/family/members/${MISSING}`, { name: '' }],
      ['DELETE', `/api/user/family/members/${MISSING}`],
      ['GET', `/api/user/family/members/${MISSING}/emergency-contacts`],
      ['POST', `/api/user/family/members/${MISSING}/emergency-contacts`, familyContact('x')],
      ['DELETE', `/api/user/family/members/${MISSING}/emergency-contacts/${MISSING}`],
      ['GET', `/api/user/family/members/${MISSING}/medications`],
      ['POST', `/api/user/family/members/${MISSING}/medications`, familyMedication('x')],
      ['DELETE', `/api/user/family/members/${MISSING}/medications/${MISSING}`],
      ['PUT', `/api/user/family/members/${MISSING}/medications/${MISSING}`, familyMedication('x')],
      ['POST', `/api/user/family/members/${MISSING}/healthcare-providers`, familyProvider('x')],
      ['PUT', `/api/user/family/members/${MISSING}/healthcare-providers/${MISSING}`, familyProvider('x')],
      ['DELETE', `/api/user/family/members/${MISSING}/healthcare-providers/${MISSING}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await anon.request(method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Not authenticated' });
    }
  });
});
