import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { fillProfile, selfProfileId } from './factories';

// DESIGN §7: the right PIN's answer says when the emergency information last changed.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let addressCounter = 0;
function stranger() {
  addressCounter += 1;
  const client = new TestClient(t.app);
  return { get: (url: string) => client.get(url, { remoteAddress: `10.8.0.${addressCounter}` }) };
}

const PIN = '4826';

async function viewWithPin(shareId: string): Promise<{ updated_at: string | null; name: string | null }> {
  const res = await stranger().get(`/api/user/emergency/${shareId}?pin=${PIN}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Time stamps have millisecond resolution: the (faked) clock moves on past `after`. */
function nextMillisecond(after: string) {
  vi.setSystemTime(Date.parse(after) + 1);
}
afterEach(() => {
  vi.useRealTimers();
});

describe('emergency view freshness', () => {
  it('a responder sees when the information last changed, and it moves when the profile or a list item changes', async () => {
    // Only the date is faked, and it stands still until the test moves it.
    vi.useFakeTimers({ toFake: ['Date'] });
    const owner = await signedInUser(t.app);
    const profileId = await selfProfileId(t.database.db, owner.id);
    await fillProfile(t.database.db, owner.id, profileId);
    const setUp = await owner.client.post('/api/user/wearable-qr', { pin: PIN });
    expect(setUp.statusCode).toBe(201);
    const shareId = setUp.json().share_id as string;

    const first = await viewWithPin(shareId);
    expect(first.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Not the future, and not before the account existed.
    expect(Date.parse(first.updated_at ?? '')).toBeLessThanOrEqual(Date.now());

    // The profile changes.
    nextMillisecond(first.updated_at ?? '');
    const update = await owner.client.put('/api/user/updateProfile', { username: 'jordan', name: 'Jordan R. Rivers', blood_type: 'A+' });
    expect(update.statusCode).toBe(200);
    const second = await viewWithPin(shareId);
    expect(second.name).toBe('Jordan R. Rivers');
    expect(Date.parse(second.updated_at ?? '')).toBeGreaterThan(Date.parse(first.updated_at ?? ''));

    // A list item is added.
    nextMillisecond(second.updated_at ?? '');
    const med = await owner.client.post('/api/user/medications', { medication_name: 'Metformin', dosage: '500 mg', is_current: true });
    expect(med.statusCode).toBeLessThan(300);
    const third = await viewWithPin(shareId);
    expect(Date.parse(third.updated_at ?? '')).toBeGreaterThan(Date.parse(second.updated_at ?? ''));

    // A list item is edited: a medication stops being current.
    const created = med.json<{ id?: string; medication_id?: string }>();
    const medId = created.medication_id ?? created.id;
    expect(medId).toBeTruthy();
    nextMillisecond(third.updated_at ?? '');
    const edit = await owner.client.put(`/api/user/medications/${medId}`, {
      medication_name: 'Metformin',
      dosage: '500 mg',
      is_current: false,
    });
    expect(edit.statusCode).toBeLessThan(300);
    const fourth = await viewWithPin(shareId);
    expect(Date.parse(fourth.updated_at ?? '')).toBeGreaterThan(Date.parse(third.updated_at ?? ''));
  });

  it('the answer without the PIN carries no time stamp', async () => {
    const owner = await signedInUser(t.app);
    await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
    const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: PIN })).json().share_id as string;
    const res = await stranger().get(`/api/user/emergency/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ requirePin: true });
  });
});
