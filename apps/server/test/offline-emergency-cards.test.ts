import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emergencyCardsSchema } from '@kinchart/shared/emergency';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';

// DESIGN §7: the owner's emergency cards, kept offline on their own device (PWA). One answer holds
// every person's card in the emergency page's shape, for the signed-in owner's own people only.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const CARDS = '/api/user/emergency-cards';
const PIN = '4826';

async function ownerWithFamily() {
  const owner = await signedInUser(t.app);
  const ownId = await selfProfileId(t.database.db, owner.id);
  await fillProfile(t.database.db, owner.id, ownId);
  // The family list's order is the order members were added: the pet a millisecond after the child.
  const added = Date.now();
  const childId = await insertMember(t.database.db, owner.id, {
    name: 'Alex Rivers',
    relationship: 'child',
    has_allergies: 1,
    allergy_details: 'Bee stings',
    created_at: new Date(added).toISOString(),
  });
  const petId = await insertMember(t.database.db, owner.id, {
    name: 'Rex',
    relationship: 'other',
    is_pet: 1,
    created_at: new Date(added + 1).toISOString(),
  });
  return { owner, ownId, childId, petId };
}

describe('GET /api/user/emergency-cards', () => {
  it('the owner gets the card of their own profile first, then each family member and pet, with the QR link only while the code is active', async () => {
    const { owner, ownId, childId, petId } = await ownerWithFamily();
    const own = await owner.client.post('/api/user/wearable-qr', { pin: PIN });
    expect(own.statusCode).toBe(201);
    const child = await owner.client.post(`/api/user/family/members/${childId}/qr`, { pin: '5937' });
    expect(child.statusCode).toBe(201);
    // The child's code is switched off: the card stays, its QR link goes.
    expect((await owner.client.put(`/api/user/family/members/${childId}/qr/toggle`, { is_active: false })).statusCode).toBe(200);

    const res = await owner.client.get(CARDS);
    expect(res.statusCode).toBe(200);
    // Health data: never kept in a shared or browser cache (DESIGN §5).
    expect(res.headers['cache-control']).toBe('no-store');
    const { cards } = emergencyCardsSchema.parse(res.json());
    expect(cards.map((c) => [c.profile_id, c.is_self, c.info.name])).toEqual([
      [ownId, true, 'Jordan Rivers'],
      [childId, false, 'Alex Rivers'],
      [petId, false, 'Rex'],
    ]);
    expect(cards[0]?.qr_data).toBe(own.json().qr_data);
    expect(cards[0]?.qr_data).toMatch(/\/emergency\/[\w-]{43}$/);
    expect(cards[1]?.qr_data).toBeNull();
    expect(cards[2]?.qr_data).toBeNull();
    expect(cards[1]?.info).toMatchObject({ relationship: 'child', is_pet: false, has_allergies: true, allergy_details: 'Bee stings' });
    expect(cards[2]?.info.is_pet).toBe(true);
  });

  it('a card shows exactly what the emergency page shows with the right PIN, and nothing more', async () => {
    const { owner } = await ownerWithFamily();
    const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: PIN })).json().share_id as string;
    const page = await new TestClient(t.app).get(`/api/user/emergency/${shareId}?pin=${PIN}`, { remoteAddress: '10.9.0.1' });
    expect(page.statusCode).toBe(200);

    const res = await owner.client.get(CARDS);
    const own = res.json().cards[0];
    expect(own.info).toEqual(page.json());
    // The privacy boundary of the emergency view holds here too: no address, phone, email or past medications.
    expect(res.body).not.toContain('12 Secret Lane');
    expect(res.body).not.toContain('jordan.private@example.com');
    expect(res.body).not.toContain('OldMed');
    expect(res.body).not.toMatch(/pin_hash|access_pin|"pin"/);
  });

  it('signed out, the cards answer 401 and no health data', async () => {
    await ownerWithFamily();
    const res = await new TestClient(t.app).get(CARDS);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Not authenticated' });
  });

  it("another user's people are never included", async () => {
    const first = await ownerWithFamily();
    await first.owner.client.post('/api/user/wearable-qr', { pin: PIN });
    const other = await signedInUser(t.app);
    const otherMember = await insertMember(t.database.db, other.id, { name: 'Other Child' });

    const mine = (await first.owner.client.get(CARDS)).json().cards as { profile_id: string; info: { name: string } }[];
    expect(mine).toHaveLength(3);
    expect(mine.map((c) => c.profile_id)).not.toContain(otherMember);
    expect(JSON.stringify(mine)).not.toContain('Other Child');

    const theirs = await other.client.get(CARDS);
    expect(theirs.statusCode).toBe(200);
    const cards = theirs.json().cards as { profile_id: string; is_self: boolean; qr_data: string | null; info: { name: string | null } }[];
    expect(cards.map((c) => c.profile_id)).toEqual([await selfProfileId(t.database.db, other.id), otherMember]);
    expect(cards.every((c) => c.qr_data === null)).toBe(true);
    expect(theirs.body).not.toContain('Jordan Rivers');
    expect(theirs.body).not.toContain('Alex Rivers');
  });
});
