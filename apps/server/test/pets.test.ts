import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp, TestClient } from './helpers';
import { TestClient as Client, buildTestApp, signedInUser } from './helpers';
import { insertShare } from './share-factories';
import { selfProfileId } from './factories';
import { exportZip, importFile } from './export-helpers';
import { migrateTo, migrateToLatest } from '../src/db/database';

// Issue 30 #25 (docs/decisions/0037): a pet has a species, a breed, a microchip number and a vet;
// the human-only fields (blood type, language, religious restrictions, organ donor, advance
// directives, living will) are not a pet's, and the pet's emergency page shows the pet's fields and
// the owner's contact instead of them.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const PIN = '4826';

const petFields = {
  species: 'Dog',
  breed: 'Border Collie',
  microchip_number: '985 112 003 456 789',
  vet_name: 'Dr. Amara Okafor, Riverside Vets',
  vet_phone: '+1 555 0142',
};

async function addPet(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/user/family/add', {
    name: 'Rex',
    date_of_birth: '2019-05-01',
    relationship: 'other',
    is_pet: true,
    ...petFields,
    ...body,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string } & Record<string, unknown>>();
}

/** The edit form as the web sends it for a pet: the pet's fields, no human-only ones. */
function petEditForm(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Rex',
    date_of_birth: '2019-05-01',
    relationship: 'other',
    is_pet: true,
    weight: 21.4,
    has_allergies: true,
    allergy_details: 'Chicken',
    ...petFields,
    ...overrides,
  };
}

let addressCounter = 0;
/** A responder's phone: no session, its own address (the PIN limits count per address). */
function responder() {
  addressCounter += 1;
  const client = new Client(t.app);
  return { get: (url: string) => client.get(url, { remoteAddress: `10.37.0.${addressCounter}` }) };
}

describe('a pet has its own fields', () => {
  it('an owner can add a pet with its species, breed, microchip number and vet, and reads them back', async () => {
    const { client } = await signedInUser(t.app);
    const added = await addPet(client);
    expect(added).toMatchObject({ ...petFields, is_pet: true, message: 'Family member added successfully!' });

    const read = await client.get(`/api/user/family/members/${added.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject(petFields);
    const listed = (await client.get('/api/user/family/members')).json();
    expect(listed).toEqual([expect.objectContaining({ id: added.id, ...petFields })]);
    const own = (await client.get('/api/user/getPatientProfile')).json();
    expect(own.family_members).toEqual([expect.objectContaining({ id: added.id, ...petFields })]);
  });

  it('an owner can change a pet’s fields with the edit form, and clear them', async () => {
    const { client } = await signedInUser(t.app);
    const pet = await addPet(client);
    const changed = await client.put(`/api/user/family/members/${pet.id}`, petEditForm({ breed: 'Kelpie', vet_phone: '+1 555 0199' }));
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      ...petFields,
      breed: 'Kelpie',
      vet_phone: '+1 555 0199',
      weight: 21.4,
      message: 'Family member updated successfully!',
    });

    const cleared = await client.put(
      `/api/user/family/members/${pet.id}`,
      petEditForm({ species: '', breed: null, microchip_number: undefined, vet_name: '  ', vet_phone: '' }),
    );
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ species: null, breed: null, microchip_number: null, vet_name: null, vet_phone: null });
  });

  it('a pet keeps none of the human-only fields, even when a client sends them', async () => {
    const { client } = await signedInUser(t.app);
    const pet = await addPet(client);
    const res = await client.put(
      `/api/user/family/members/${pet.id}`,
      petEditForm({
        blood_type: 'A+',
        primary_language: 'English',
        religious_restrictions: 'None',
        organ_donor: true,
        advance_directives: true,
        living_will: true,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ...petFields,
      blood_type: null,
      primary_language: null,
      religious_restrictions: null,
      organ_donor: false,
      advance_directives: false,
      living_will: false,
      has_allergies: true,
      allergy_details: 'Chicken',
    });
  });

  it('a person keeps none of the pet fields: they are a pet’s only', async () => {
    const { client } = await signedInUser(t.app);
    const added = await client.post('/api/user/family/add', {
      name: 'Mia',
      date_of_birth: '2015-09-03',
      relationship: 'child',
      ...petFields,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      is_pet: false,
      species: null,
      breed: null,
      microchip_number: null,
      vet_name: null,
      vet_phone: null,
    });

    // A pet that turns out to be a person loses the pet fields and may have a blood type.
    const pet = await addPet(client);
    const person = await client.put(`/api/user/family/members/${pet.id}`, petEditForm({ is_pet: false, blood_type: 'B-' }));
    expect(person.statusCode).toBe(200);
    expect(person.json()).toMatchObject({ is_pet: false, blood_type: 'B-', species: null, microchip_number: null, vet_name: null });

    // The account holder's own profile is a person too.
    const own = await client.put('/api/user/updateProfile', { name: 'Pat', ...petFields });
    expect(own.statusCode).toBe(200);
    expect((await client.get('/api/user/getPatientProfile')).json()).toMatchObject({
      name: 'Pat',
      species: null,
      breed: null,
      vet_name: null,
    });
  });

  describe('the pet fields are checked and the answer names the field', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a species that is not text', { species: 7 }, 'species: must be text'],
      ['an over-long species', { species: 's'.repeat(101) }, 'species: must be at most 100 characters'],
      ['an over-long breed', { breed: 'b'.repeat(101) }, 'breed: must be at most 100 characters'],
      ['an over-long microchip number', { microchip_number: '1'.repeat(33) }, 'microchip_number: must be at most 32 characters'],
      [
        'a microchip number with other characters',
        { microchip_number: '985<script>' },
        'Microchip number may hold only letters, digits, spaces and hyphens',
      ],
      ['an over-long vet name', { vet_name: 'v'.repeat(201) }, 'vet_name: must be at most 200 characters'],
      ['an over-long vet phone', { vet_phone: '5'.repeat(51) }, 'vet_phone: must be at most 50 characters'],
    ];
    it.each(cases)('adding a pet with %s answers 400 and adds nothing', async (_label, change, message) => {
      const { client } = await signedInUser(t.app);
      const res = await client.post('/api/user/family/add', {
        name: 'Rex',
        date_of_birth: '2019-05-01',
        relationship: 'other',
        is_pet: true,
        ...change,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
      expect((await client.get('/api/user/family/members')).json()).toEqual([]);
    });
    it.each(cases)('editing a pet with %s answers 400 and changes nothing', async (_label, change, message) => {
      const { client } = await signedInUser(t.app);
      const pet = await addPet(client);
      const res = await client.put(`/api/user/family/members/${pet.id}`, petEditForm(change));
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
      expect((await client.get(`/api/user/family/members/${pet.id}`)).json()).toMatchObject(petFields);
    });
  });

  it('another user cannot read or change a pet: 404 like a missing id, and nothing changes', async () => {
    const owner = await signedInUser(t.app);
    const pet = await addPet(owner.client);
    const intruder = await signedInUser(t.app);
    for (const id of [pet.id, MISSING]) {
      expect((await intruder.client.get(`/api/user/family/members/${id}`)).statusCode).toBe(404);
      expect((await intruder.client.put(`/api/user/family/members/${id}`, petEditForm({ vet_phone: '+1 555 0666' }))).statusCode).toBe(404);
    }
    expect((await owner.client.get(`/api/user/family/members/${pet.id}`)).json()).toMatchObject(petFields);
  });

  it('someone the pet is shared with as a viewer reads its fields but cannot change them (403)', async () => {
    const owner = await signedInUser(t.app);
    const pet = await addPet(owner.client);
    const sitter = await signedInUser(t.app);
    await insertShare(t.database.db, { profileId: pet.id, ownerId: owner.id, holderId: sitter.id, role: 'viewer' });
    expect((await sitter.client.get(`/api/user/family/members/${pet.id}`)).json()).toMatchObject(petFields);
    expect((await sitter.client.put(`/api/user/family/members/${pet.id}`, petEditForm({ vet_phone: '+1 555 0666' }))).statusCode).toBe(403);
    expect((await owner.client.get(`/api/user/family/members/${pet.id}`)).json()).toMatchObject({ vet_phone: petFields.vet_phone });
  });

  it('without a session the pet routes answer 401', async () => {
    const anon = new Client(t.app);
    expect(
      (
        await anon.post('/api/user/family/add', {
          name: 'Rex',
          date_of_birth: '2019-05-01',
          relationship: 'other',
          is_pet: true,
          ...petFields,
        })
      ).statusCode,
    ).toBe(401);
    expect((await anon.put(`/api/user/family/members/${MISSING}`, petEditForm())).statusCode).toBe(401);
  });
});

describe("a pet's emergency page", () => {
  async function petWithCode() {
    const owner = await signedInUser(t.app);
    await t.database.db
      .updateTable('profiles')
      .set({
        name: 'Jordan Rivers',
        phone_number: '+1 555 0100',
        address: '12 Secret Lane',
        email: 'jordan.private@example.com',
        blood_type: 'O-',
      })
      .where('id', '=', await selfProfileId(t.database.db, owner.id))
      .execute();
    const pet = await addPet(owner.client);
    // A pet saved before pets had their own fields may still hold human-only values.
    await t.database.db
      .updateTable('profiles')
      .set({
        has_allergies: 1,
        allergy_details: 'Chicken',
        organ_donor: 1,
        blood_type: 'A+',
        religious_restrictions: 'None',
        primary_language: 'English',
      })
      .where('id', '=', pet.id)
      .execute();
    const setUp = await owner.client.post(`/api/user/family/members/${pet.id}/qr`, { pin: PIN });
    expect(setUp.statusCode).toBe(201);
    return { owner, pet, shareId: setUp.json<{ share_id: string }>().share_id };
  }

  it('a responder with the PIN sees the species, breed, microchip, vet and owner contact, and none of the human-only fields', async () => {
    const { shareId } = await petWithCode();
    const res = await responder().get(`/api/user/family/emergency/${shareId}?pin=${PIN}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      requirePin: false,
      is_pet: true,
      name: 'Rex',
      ...petFields,
      owner: { name: 'Jordan Rivers', phone_number: '+1 555 0100' },
    });
    for (const key of ['blood_type', 'primary_language', 'religious_restrictions', 'organ_donor', 'advance_directives', 'living_will']) {
      expect(body, key).not.toHaveProperty(key);
    }
    // The owner's other details stay private.
    expect(JSON.stringify(body)).not.toContain('Secret Lane');
    expect(JSON.stringify(body)).not.toContain('jordan.private');
    expect(JSON.stringify(body)).not.toContain('O-');
  });

  it('a person’s emergency answer carries no pet fields and no owner', async () => {
    const owner = await signedInUser(t.app);
    const setUp = await owner.client.post('/api/user/wearable-qr', { pin: PIN });
    const res = await responder().get(`/api/user/emergency/${setUp.json<{ share_id: string }>().share_id}?pin=${PIN}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ is_pet: false, organ_donor: false });
    for (const key of ['species', 'breed', 'microchip_number', 'vet_name', 'vet_phone', 'owner']) expect(body, key).not.toHaveProperty(key);
  });

  it('the FHIR summary a responder downloads names the species and breed and states no directives for a pet', async () => {
    const { shareId } = await petWithCode();
    const res = await responder().get(`/api/user/family/emergency/${shareId}/fhir?pin=${PIN}`);
    expect(res.statusCode).toBe(200);
    const bundle = res.json<{ entry: { resource: { resourceType: string; extension?: unknown[] } }[] }>();
    const patient = bundle.entry.find((e) => e.resource.resourceType === 'Patient')?.resource;
    expect(patient?.extension).toEqual([
      {
        url: 'http://hl7.org/fhir/StructureDefinition/patient-animal',
        extension: [
          { url: 'species', valueCodeableConcept: { text: 'Dog' } },
          { url: 'breed', valueCodeableConcept: { text: 'Border Collie' } },
        ],
      },
    ]);
    expect(res.body).not.toContain('Organ donor');
    expect(res.body).not.toContain('Religious restrictions');
    expect(res.body).not.toContain('A+');
  });

  it('a pet’s essentials without the PIN carry no blood type, even one an older save left', async () => {
    const { owner, pet, shareId } = await petWithCode();
    expect((await owner.client.put(`/api/user/family/members/${pet.id}/qr/settings`, { essentials_without_pin: true })).statusCode).toBe(
      200,
    );
    const res = await responder().get(`/api/user/family/emergency/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ requirePin: true, essentials: { name: 'Rex', blood_type: null, allergies: 'Chicken' } });
  });

  it('a finder without the PIN is told the essentials are a pet’s and its species, and nothing more of its pet fields', async () => {
    const { owner, pet, shareId } = await petWithCode();
    expect((await owner.client.put(`/api/user/family/members/${pet.id}/qr/settings`, { essentials_without_pin: true })).statusCode).toBe(
      200,
    );
    const res = await responder().get(`/api/user/family/emergency/${shareId}`);
    expect(res.statusCode).toBe(200);
    const essentials = res.json<{ essentials: Record<string, unknown> }>().essentials;
    expect(essentials).toMatchObject({ is_pet: true, species: 'Dog', blood_type: null });
    // The microchip, the vet and the owner stay behind the PIN.
    for (const key of ['breed', 'microchip_number', 'vet_name', 'vet_phone', 'owner']) expect(essentials, key).not.toHaveProperty(key);
    expect(JSON.stringify(essentials)).not.toContain('985');

    // A person's essentials say so, with no species.
    const person = await signedInUser(t.app);
    const own = await person.client.post('/api/user/wearable-qr', { pin: PIN, essentials_without_pin: true });
    const mine = await responder().get(`/api/user/emergency/${own.json<{ share_id: string }>().share_id}`);
    expect(mine.json()).toMatchObject({ requirePin: true, essentials: { is_pet: false, species: null } });
  });

  it('the owner’s kept emergency cards show the pet the same way', async () => {
    const { owner, pet } = await petWithCode();
    const res = await owner.client.get('/api/user/emergency-cards');
    expect(res.statusCode).toBe(200);
    const card = res.json<{ cards: { profile_id: string; info: Record<string, unknown> }[] }>().cards.find((c) => c.profile_id === pet.id);
    expect(card?.info).toMatchObject({ is_pet: true, ...petFields });
    expect(card?.info).not.toHaveProperty('organ_donor');
  });
});

describe('export and import', () => {
  it('a pet’s fields go into the Kinchart export and come back with an import into another account', async () => {
    const source = await signedInUser(t.app);
    await addPet(source.client);
    const zip = await exportZip(source.client);
    const target = await signedInUser(t.app);
    const res = await importFile(target.client, zip, 'kinchart-export.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect((await target.client.get('/api/user/family/members')).json()).toEqual([
      expect.objectContaining({ name: 'Rex', is_pet: true, ...petFields }),
    ]);
  });
});

describe('migration 0020', () => {
  it('adds the pet columns to every profile, keeping each row; down removes them', async () => {
    const { db } = t.database;
    const owner = await signedInUser(t.app);
    const pet = await addPet(owner.client);
    const columns = async () =>
      ((await db.introspection.getTables()).find((table) => table.name === 'profiles')?.columns ?? []).map((c) => c.name);
    // The migration just before this one, whichever that is once other branches add theirs.
    const { rows } = await sql<{
      name: string;
    }>`select name from kysely_migration where name < ${'0020-pet-fields'} order by name desc limit 1`.execute(db);
    const before = rows[0]?.name;
    expect(before).toBeDefined();

    await migrateTo(db, before);
    expect(await columns()).not.toEqual(expect.arrayContaining(['species']));
    expect(await columns()).not.toContain('vet_phone');
    await migrateToLatest(db);
    expect(await columns()).toEqual(expect.arrayContaining(['species', 'breed', 'microchip_number', 'vet_name', 'vet_phone']));

    // The pet is still there, named and a pet; its pet fields went with the columns.
    expect((await owner.client.get(`/api/user/family/members/${pet.id}`)).json()).toMatchObject({
      name: 'Rex',
      is_pet: true,
      species: null,
      vet_phone: null,
    });
  });
});
