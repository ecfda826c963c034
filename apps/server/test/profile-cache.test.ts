import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { PatientProfile } from '@kinchart/shared/profile';
import { buildApp } from '../src/app';
import { createPatientProfileCache } from '../src/features/profiles/patient-profile-cache';
import type { SessionUser } from '../src/common/session.repository';
import type { TestApp } from './helpers';
import { GOOD_PASSWORD, TestClient, buildTestApp, signedInUser, uniqueEmail, TEST_REMINDERS, TEST_TEXT } from './helpers';

// GET /api/user/getPatientProfile answers from a per-account cache keyed by a counter the database
// moves (docs/decisions/0007-request-path-and-upload-speed.md). These tests read through instance
// A (filling its cache), write through instance B on the same database, and read through A again:
// only a counter kept by the database can make A see the change.

let t: TestApp;
let b: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp();
  b = await buildApp({ config: t.config, database: t.database, webRoot: null, reminders: TEST_REMINDERS, text: TEST_TEXT });
  await b.ready();
});
afterAll(async () => {
  await b.close();
  await t.close();
});

/** The same session on both instances. */
async function userOnBoth() {
  const a = await signedInUser(t.app);
  const onB = new TestClient(b);
  onB.cookie = a.client.cookie;
  return { ...a, onA: a.client, onB };
}

async function profileVia(client: TestClient): Promise<PatientProfile> {
  const res = await client.get('/api/user/getPatientProfile');
  expect(res.statusCode).toBe(200);
  return res.json<PatientProfile>();
}

type Writer = (client: TestClient, before: PatientProfile) => Promise<{ statusCode: number }>;
type Check = (after: PatientProfile) => unknown;

describe('every change a profile shows is seen by the next read on another instance', () => {
  const first = <T>(list: T[]): T => {
    const item = list[0];
    if (!item) throw new Error('expected an item');
    return item;
  };
  /** Every list holds one item, and there is one family member, before each change. */
  const seeded = async (c: TestClient) => {
    const put = await c.put('/api/user/updateProfile', {
      name: 'Sam Seed',
      emergency_contacts: [{ name: 'Kim', phone_number: '555-0101', relationship: 'sister' }],
      healthcare_providers: [{ provider_name: 'Dr. Old', specialty: 'GP' }],
      medications: [{ medication_name: 'Old Med', dosage: '1 mg', is_current: true }],
    });
    const member = await c.post('/api/user/family/add', {
      name: 'Sibling',
      date_of_birth: '2012-02-03',
      relationship: 'brother',
      is_pet: false,
    });
    expect([put.statusCode, member.statusCode]).toEqual([200, 201]);
  };

  const cases: { name: string; write: Writer; check: Check }[] = [
    {
      name: 'POST /api/user/profile',
      write: (c) => c.post('/api/user/profile', { name: 'Basic Name' }),
      check: (p) => p.name === 'Basic Name',
    },
    {
      name: 'PUT /api/user/updateProfile (fields)',
      write: (c) => c.put('/api/user/updateProfile', { blood_type: 'AB-' }),
      check: (p) => p.blood_type === 'AB-',
    },
    {
      name: 'username change',
      write: (c) => c.post('/api/user/profile', { name: 'N', username: 'Renamed Person' }),
      check: (p) => p.username === 'Renamed Person',
    },
    {
      name: 'e-mail change',
      write: (c) => c.put('/api/auth/change-email', { newEmail: 'moved.' + uniqueEmail(), password: GOOD_PASSWORD }),
      check: (p) => p.account_email.startsWith('moved.'),
    },
    {
      name: 'add emergency contact',
      write: (c) => c.post('/api/user/emergency-contacts', { name: 'New Contact', phone_number: '555-0102' }),
      check: (p) => p.emergency_contacts.some((x) => x.name === 'New Contact'),
    },
    {
      name: 'edit emergency contact',
      write: (c, p) => c.post('/api/user/emergency-contacts', { ...first(p.emergency_contacts), name: 'Kim Edited' }),
      check: (p) => first(p.emergency_contacts).name === 'Kim Edited',
    },
    {
      name: 'delete emergency contact',
      write: (c, p) => c.delete(`/api/user/emergency-contacts/${first(p.emergency_contacts).id}`),
      check: (p) => p.emergency_contacts.length === 0,
    },
    {
      name: 'add provider',
      write: (c) => c.post('/api/user/healthcare-providers', { provider_name: 'Dr. New' }),
      check: (p) => p.healthcare_providers.some((x) => x.provider_name === 'Dr. New'),
    },
    {
      name: 'edit provider',
      write: (c, p) => c.put(`/api/user/healthcare-providers/${first(p.healthcare_providers).id}`, { provider_name: 'Dr. Edited' }),
      check: (p) => first(p.healthcare_providers).provider_name === 'Dr. Edited',
    },
    {
      name: 'delete provider',
      write: (c, p) => c.delete(`/api/user/healthcare-providers/${first(p.healthcare_providers).id}`),
      check: (p) => p.healthcare_providers.length === 0,
    },
    {
      name: 'add medication',
      write: (c) => c.post('/api/user/medications', { medication_name: 'New Med' }),
      check: (p) => p.medications.some((x) => x.medication_name === 'New Med'),
    },
    {
      name: 'edit medication',
      write: (c, p) => c.put(`/api/user/medications/${first(p.medications).id}`, { medication_name: 'Old Med', is_current: false }),
      check: (p) => first(p.medications).is_current === false,
    },
    {
      name: 'delete medication',
      write: (c, p) => c.delete(`/api/user/medications/${first(p.medications).id}`),
      check: (p) => p.medications.length === 0,
    },
    {
      name: 'add family member',
      write: (c) => c.post('/api/user/family/add', { name: 'Robin', date_of_birth: '2015-02-03', relationship: 'child', is_pet: false }),
      check: (p) => p.family_members.some((m) => m.name === 'Robin'),
    },
    {
      name: 'edit family member',
      write: (c, p) =>
        c.put(`/api/user/family/members/${first(p.family_members).id}`, {
          name: 'Robin Edited',
          date_of_birth: '2015-02-03',
          relationship: 'child',
          is_pet: false,
        }),
      check: (p) => p.family_members.some((m) => m.name === 'Robin Edited'),
    },
    {
      name: 'delete family member',
      write: (c, p) => c.delete(`/api/user/family/members/${first(p.family_members).id}`),
      check: (p) => p.family_members.length === 0,
    },
  ];

  it.each(cases)('$name', async ({ write, check }) => {
    const u = await userOnBoth();
    await seeded(u.onA);
    const before = await profileVia(u.onA);
    expect(await profileVia(u.onA)).toEqual(before); // now answered from A's cache
    expect(check(before)).toBe(false);

    const res = await write(u.onB, before);
    expect(res.statusCode).toBeLessThan(300);
    expect(check(await profileVia(u.onA))).toBe(true);
  });

  it('a change written straight to the database, past every service, is seen too', async () => {
    const u = await userOnBoth();
    await seeded(u.onA);
    const before = await profileVia(u.onA);
    await t.database.db.updateTable('medications').set({ dosage: '99 mg' }).where('user_id', '=', u.id).execute();
    expect(first((await profileVia(u.onA)).medications).dosage).toBe('99 mg');
    await t.database.db.deleteFrom('emergency_contacts').where('user_id', '=', u.id).execute();
    const after = await profileVia(u.onA);
    expect(after.emergency_contacts).toEqual([]);
    expect(after.name).toBe(before.name);
  });

  it("one account's change leaves another account's answer alone, and never crosses over", async () => {
    const one = await userOnBoth();
    const two = await userOnBoth();
    await one.onA.post('/api/user/profile', { name: 'Account One' });
    await two.onA.post('/api/user/profile', { name: 'Account Two' });
    const twoBefore = await profileVia(two.onA);
    await one.onB.post('/api/user/medications', { medication_name: 'Only For One' });
    expect(await profileVia(two.onA)).toEqual(twoBefore);
    expect((await profileVia(one.onA)).medications.map((m) => m.medication_name)).toEqual(['Only For One']);
  });
});

describe('the cached answer', () => {
  it('is the same JSON, headers included, as the first one', async () => {
    const u = await userOnBoth();
    const first = await u.onA.get('/api/user/getPatientProfile');
    const second = await u.onA.get('/api/user/getPatientProfile');
    expect(second.body).toBe(first.body);
    for (const res of [first, second]) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('is not served once the session has ended', async () => {
    const u = await userOnBoth();
    await profileVia(u.onA);
    await u.onB.post('/api/auth/logout');
    const res = await new TestClient(t.app).get('/api/user/getPatientProfile', { headers: { cookie: u.onA.cookie ?? '' } });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain(u.email);
  });
});

describe('createPatientProfileCache', () => {
  const user = (id: string, profileVersion = 1, username = 'U', email = 'u@example.com'): SessionUser => ({
    sessionId: 's',
    id,
    username,
    email,
    profileVersion,
    authenticatedAt: null,
  });

  it('answers only while version, username and e-mail are unchanged', () => {
    const cache = createPatientProfileCache();
    const body = Buffer.from('body-a');
    cache.set(user('a'), body);
    expect(cache.get(user('a'))).toBe(body);
    expect(cache.get(user('a', 2))).toBeUndefined();
    cache.set(user('a'), body);
    expect(cache.get(user('a', 1, 'Other'))).toBeUndefined();
    cache.set(user('a'), body);
    expect(cache.get(user('a', 1, 'U', 'new@example.com'))).toBeUndefined();
    expect(cache.get(user('b'))).toBeUndefined();
  });

  const [A, B, C] = [Buffer.from('A'), Buffer.from('B'), Buffer.from('C')];

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = createPatientProfileCache({ maxEntries: 2 });
    cache.set(user('a'), A);
    cache.set(user('b'), B);
    expect(cache.get(user('a'))).toBe(A); // a is now the most recent
    cache.set(user('c'), C);
    expect(cache.size).toBe(2);
    expect(cache.get(user('b'))).toBeUndefined();
    expect(cache.get(user('a'))).toBe(A);
    expect(cache.get(user('c'))).toBe(C);
  });

  it('keeps at most maxBytes of answers, and never one larger than that', () => {
    const cache = createPatientProfileCache({ maxBytes: 10 });
    cache.set(user('a'), Buffer.alloc(4));
    cache.set(user('b'), Buffer.alloc(4));
    cache.set(user('c'), Buffer.alloc(4)); // a goes
    expect([cache.get(user('a')), cache.size, cache.bytes]).toEqual([undefined, 2, 8]);
    cache.set(user('d'), Buffer.alloc(11));
    expect(cache.get(user('d'))).toBeUndefined();
    expect(cache.bytes).toBe(8);
    cache.set(user('b'), Buffer.alloc(2)); // replacing an entry counts only the new one
    expect(cache.bytes).toBe(6);
  });

  it('forgets an entry after ttlMs', () => {
    let now = 1_000;
    const cache = createPatientProfileCache({ ttlMs: 100, now: () => now });
    cache.set(user('a'), A);
    now += 99;
    expect(cache.get(user('a'))).toBe(A);
    now += 101;
    expect(cache.get(user('a'))).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
