// A person's lists have one cap however they are written (LIST_CAPS in packages/shared): the full
// edit form refuses a longer list, and so does adding one item at a time — also when the adds race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_CAPS, listFullMessage } from '@kinchart/shared/profile';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const contact = (i: number) => ({
  name: `Contact ${i}`,
  relationship: 'Friend',
  phone_number: `+1 555 01${String(i).padStart(2, '0')}`,
  is_primary: false,
});
const provider = (i: number) => ({ name: `Dr. ${i}`, specialty: 'GP', phone_number: '+1 555 0300', is_primary: false });
const medication = (i: number) => ({ medication_name: `Medicine ${i}`, dosage: '5 mg', frequency: 'Daily', is_current: true });

async function memberWithFullLists() {
  const owner = await signedInUser(t.app);
  const added = await owner.client.post('/api/user/family/add', {
    name: 'Robin',
    date_of_birth: '2015-04-03',
    relationship: 'Child',
    is_pet: false,
  });
  expect(added.statusCode).toBe(201);
  const id = added.json().id as string;
  const full = await owner.client.put(`/api/user/family/members/${id}`, {
    name: 'Robin',
    date_of_birth: '2015-04-03',
    relationship: 'Child',
    is_pet: false,
    emergency_contacts: Array.from({ length: LIST_CAPS.emergency_contacts }, (_, i) => ({ ...contact(i), is_primary: i === 0 })),
    healthcare_providers: Array.from({ length: LIST_CAPS.healthcare_providers }, (_, i) => ({
      provider_name: `Dr. ${i}`,
      specialty: 'GP',
      phone_number: '+1 555 0300',
    })),
    medications: Array.from({ length: LIST_CAPS.medications }, (_, i) => medication(i)),
  });
  expect(full.statusCode).toBe(200);
  return { owner, id };
}

describe('list caps', () => {
  it('the full form refuses one more than the cap', async () => {
    const owner = await signedInUser(t.app);
    const res = await owner.client.put('/api/user/updateProfile', {
      medications: Array.from({ length: LIST_CAPS.medications + 1 }, (_, i) => medication(i)),
    });
    expect(res.statusCode).toBe(400);
  });

  it('adding one item to a full list answers 400 naming the cap, and nothing is added', async () => {
    const { owner, id } = await memberWithFullLists();
    const cases = [
      ['emergency-contacts', contact(99), 'emergency_contacts'],
      ['healthcare-providers', provider(99), 'healthcare_providers'],
      ['medications', medication(999), 'medications'],
    ] as const;
    for (const [path, body, list] of cases) {
      const res = await owner.client.post(`/api/user/family/members/${id}/${path}`, body);
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toMatchObject({ message: listFullMessage(list) });
      const member = (await owner.client.get(`/api/user/family/members/${id}`)).json<Record<string, unknown[]>>();
      expect(member[list]).toHaveLength(LIST_CAPS[list]);
    }
    expect(listFullMessage('emergency_contacts')).toBe('A profile can have at most 50 emergency contacts.');
  });

  it('ten parallel adds to a list one short of its cap: exactly one is stored', async () => {
    const { owner, id } = await memberWithFullLists();
    const list = (await owner.client.get(`/api/user/family/members/${id}/emergency-contacts`)).json<{ contact_id: string }[]>();
    const removed = await owner.client.delete(`/api/user/family/members/${id}/emergency-contacts/${list[1]!.contact_id}`);
    expect(removed.statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => owner.client.post(`/api/user/family/members/${id}/emergency-contacts`, contact(60 + i))),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(9);
    expect((await owner.client.get(`/api/user/family/members/${id}/emergency-contacts`)).json<unknown[]>()).toHaveLength(
      LIST_CAPS.emergency_contacts,
    );
  });
});
