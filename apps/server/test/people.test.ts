import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareRole } from '@kinchart/shared/people';
import { INVITATION_TTL_DAYS } from '@kinchart/shared/people';
import { sha256Hex } from '../src/lib/ids';
import type { TestApp, TestClient } from './helpers';
import { ORIGIN, TestClient as Client, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';

// DESIGN §11 People and sharing: the people API, invitations (single use, 7 days, stored hashed),
// shares and their roles, revocation, leaving, the end of a share, and the owner's access history.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

const MISSING = '00000000-0000-4000-8000-000000000000';
const GONE = { message: 'This invitation has expired or is no longer available' };
const PAST = '2001-01-01T00:00:00.000Z';

const user = (username: string) => signedInUser(t.app, { username });

/** A family member of `owner` with a name, a medication and a contact. */
async function child(owner: User, name = 'Mia Rivera'): Promise<string> {
  const id = await insertMember(t.database.db, owner.id, { name, relationship: 'daughter' });
  await fillProfile(t.database.db, owner.id, id);
  await t.database.db.updateTable('profiles').set({ name }).where('id', '=', id).execute();
  return id;
}

async function invite(by: TestClient, personId: string, body: Record<string, unknown> = { role: 'viewer' }) {
  const res = await by.post(`/api/user/people/${personId}/shares`, body);
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ share_id: string; invite_url: string; role: ShareRole; expires_at: string | null }>();
  const token = new URL(created.invite_url).pathname.split('/').pop() ?? '';
  return { ...created, token };
}

/** `owner` (or a manager) shares `personId` with `holder` under `role`; answers the share id. */
async function share(
  by: TestClient,
  personId: string,
  holder: User,
  role: ShareRole = 'viewer',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { share_id, token } = await invite(by, personId, { role, ...extra });
  const accepted = await holder.client.post(`/api/user/invitations/${token}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
  return share_id;
}

const setShare = (shareId: string, values: { invite_expires_at?: string; ends_at?: string; revoked_at?: string }) =>
  t.database.db.updateTable('person_shares').set(values).where('id', '=', shareId).execute();

const shareRow = (shareId: string) => t.database.db.selectFrom('person_shares').selectAll().where('id', '=', shareId).executeTakeFirst();

describe('the people a user can see', () => {
  it('lists your own profile first, then your family members, then the people shared with you', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const holderKid = await child(holder, 'Leo Park');
    const shareId = await share(owner.client, mia, holder, 'editor');

    const list = (await holder.client.get('/api/user/people')).json<Record<string, unknown>[]>();
    expect(list).toEqual([
      {
        id: await selfProfileId(t.database.db, holder.id),
        name: null,
        relationship: null,
        is_pet: false,
        is_self: true,
        role: 'owner',
        shared_by: null,
        share_id: null,
      },
      {
        id: holderKid,
        name: 'Leo Park',
        relationship: 'daughter',
        is_pet: false,
        is_self: false,
        role: 'owner',
        shared_by: null,
        share_id: null,
      },
      // The holder's own share id: what they name to leave it.
      {
        id: mia,
        name: 'Mia Rivera',
        relationship: 'daughter',
        is_pet: false,
        is_self: false,
        role: 'editor',
        shared_by: 'Robin',
        share_id: shareId,
      },
    ]);
  });

  it('answers one person as the family member answer, plus who the person is to you', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const own = await owner.client.get(`/api/user/people/${mia}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      id: mia,
      member_id: mia,
      name: 'Mia Rivera',
      relationship: 'daughter',
      is_self: false,
      role: 'owner',
      shared_by: null,
      has_allergies: true,
      allergy_details: 'Penicillin',
      // The fixture gives both the same place in the list: either order.
      medications: expect.arrayContaining([
        expect.objectContaining({ medication_name: 'Warfarin' }),
        expect.objectContaining({ medication_name: 'OldMed' }),
      ]),
      emergency_contacts: [expect.objectContaining({ name: 'Sam Rivers' })],
      healthcare_providers: [],
    });
    expect(own.headers['cache-control']).toBe('no-store');
  });

  it('answers your own profile too, as a person (is_self, no relationship)', async () => {
    const owner = await user('Robin');
    const selfId = await selfProfileId(t.database.db, owner.id);
    const res = await owner.client.get(`/api/user/people/${selfId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: selfId, is_self: true, relationship: null, role: 'owner', shared_by: null });
  });

  it('shows a shared person to its holder with the owner named, and records the read for the owner', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const selfId = await selfProfileId(t.database.db, owner.id);
    await fillProfile(t.database.db, owner.id, selfId);
    const shareId = await share(owner.client, selfId, holder);
    const res = await holder.client.get(`/api/user/people/${selfId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: selfId,
      name: 'Jordan Rivers',
      is_self: true,
      role: 'viewer',
      shared_by: 'Robin',
      blood_type: 'O-',
    });
    const events = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('profile_id', '=', selfId)
      .where('action', '=', 'shared_read')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: owner.id, actor_id: holder.id });
    expect(JSON.parse(events[0]?.detail ?? '{}')).toEqual({ what: 'GET /api/user/people/:personId', share: shareId });
  });

  it('answers 404 to a stranger and for a missing id, the same answer', async () => {
    const owner = await user('Robin');
    const stranger = await user('Mallory');
    const mia = await child(owner);
    const theirs = await stranger.client.get(`/api/user/people/${mia}`);
    const missing = await stranger.client.get(`/api/user/people/${MISSING}`);
    expect(theirs.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(theirs.json()).toEqual(missing.json());
    expect((await stranger.client.get('/api/user/people')).json()).toHaveLength(1);
  });

  it('needs a session', async () => {
    const anon = new Client(t.app);
    expect((await anon.get('/api/user/people')).statusCode).toBe(401);
    expect((await anon.get(`/api/user/people/${MISSING}`)).statusCode).toBe(401);
  });
});

describe('inviting someone to a person', () => {
  it('gives a single-use link of 256 bits, stored only as its hash, valid for 7 days', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const before = Date.now();
    const created = await invite(owner.client, mia, { role: 'editor', expires_at: '2099-12-31', email: ' Casey@Example.com ' });
    expect(created.invite_url).toBe(`${ORIGIN}/invite/${created.token}`);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Without SMTP_URL the email is a label only: nothing is sent, and the answer says so.
    expect(created).toMatchObject({ role: 'editor', expires_at: '2099-12-31', emailed: false });
    const row = await shareRow(created.share_id);
    expect(row).toMatchObject({
      profile_id: mia,
      owner_id: owner.id,
      created_by: owner.id,
      holder_id: null,
      role: 'editor',
      label_email: 'casey@example.com',
      token_hash: sha256Hex(created.token),
      expires_at: '2099-12-31',
      ends_at: '2100-01-01T00:00:00.000Z',
      accepted_at: null,
      revoked_at: null,
    });
    const inviteEnds = Date.parse(row?.invite_expires_at ?? '');
    expect(inviteEnds - before).toBeGreaterThanOrEqual(INVITATION_TTL_DAYS * 86_400_000);
    expect(inviteEnds - Date.now()).toBeLessThanOrEqual(INVITATION_TTL_DAYS * 86_400_000);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'person_share_create')
      .where('profile_id', '=', mia)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: owner.id, actor_id: owner.id });
  });

  it('takes an end given as an instant, and no end at all', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const instant = await invite(owner.client, mia, { role: 'viewer', expires_at: '2099-06-01T12:00:00Z' });
    expect((await shareRow(instant.share_id))?.ends_at).toBe('2099-06-01T12:00:00.000Z');
    const open = await invite(owner.client, mia, { role: 'manager', expires_at: null, email: '' });
    expect(await shareRow(open.share_id)).toMatchObject({ ends_at: null, expires_at: null, label_email: null });
    expect(open.expires_at).toBeNull();
  });

  it('refuses a bad role, an end in the past, a bad date, a bad email and malformed JSON', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const post = (body: unknown) => owner.client.post(`/api/user/people/${mia}/shares`, body);
    const cases: [unknown, string][] = [
      [{ role: 'owner' }, 'Role must be viewer, editor or manager'],
      [{}, 'Role must be viewer, editor or manager'],
      [{ role: 'viewer', expires_at: '2001-01-01' }, 'End date must be in the future'],
      [{ role: 'viewer', expires_at: 'next tuesday' }, 'End date must be a date (YYYY-MM-DD)'],
      [{ role: 'viewer', expires_at: 20_990_101 }, 'End date must be a date (YYYY-MM-DD)'],
      [{ role: 'viewer', email: 'not-an-email' }, 'Please enter a valid email address'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message, JSON.stringify(body)).toContain(message);
    }
    const malformed = await owner.client.post(`/api/user/people/${mia}/shares`, '{"role": "viewer"', {
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: 'Malformed JSON in request body' });
    expect(await t.database.db.selectFrom('person_shares').select('id').where('profile_id', '=', mia).execute()).toEqual([]);
  });

  it(`allows at most 50 pending and active shares per person`, async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const first = await invite(owner.client, mia);
    for (let i = 1; i < 50; i += 1) await invite(owner.client, mia);
    const over = await owner.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ message: string }>().message).toMatch(/at most 50 shares/);
    // An expired invitation no longer counts; a revoked one neither.
    await setShare(first.share_id, { invite_expires_at: PAST });
    await invite(owner.client, mia);
    expect((await owner.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' })).statusCode).toBe(400);
    // Another person has a cap of their own.
    await invite(owner.client, await child(owner, 'Leo'));
  });

  it('lets a manager invite; refuses a viewer and an editor (403) and a stranger (404)', async () => {
    const owner = await user('Robin');
    const [manager, editor, viewer, stranger] = await Promise.all([user('Manny'), user('Eddie'), user('Vera'), user('Mallory')]);
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager');
    await share(owner.client, mia, editor, 'editor');
    await share(owner.client, mia, viewer, 'viewer');

    const byManager = await invite(manager.client, mia, { role: 'manager' });
    expect((await shareRow(byManager.share_id))?.created_by).toBe(manager.id);
    for (const who of [editor, viewer]) {
      const res = await who.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Only the owner or a manager of this person can do this' });
    }
    const res = await stranger.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' });
    expect(res.statusCode).toBe(404);
    expect((await stranger.client.post(`/api/user/people/${MISSING}/shares`, { role: 'viewer' })).statusCode).toBe(404);
  });

  it("keeps a manager's invitations within the manager's own end", async () => {
    const owner = await user('Robin');
    const manager = await user('Manny');
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager', { expires_at: '2090-05-01' });
    for (const body of [{ role: 'viewer' }, { role: 'manager', expires_at: '2091-01-01' }]) {
      const res = await manager.client.post(`/api/user/people/${mia}/shares`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(
        'Your own access lasts through 2090-05-01: choose an end date no later than that',
      );
    }
    await invite(manager.client, mia, { role: 'viewer', expires_at: '2090-05-01' });
  });

  it('records one share event for a manager, not a second generic write', async () => {
    const owner = await user('Robin');
    const manager = await user('Manny');
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager');
    await invite(manager.client, mia);
    const actions = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('profile_id', '=', mia)
      .where('actor_id', '=', manager.id)
      .execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['person_share_accept', 'person_share_create']);
  });
});

describe('the list of shares', () => {
  it('lists pending and active shares with the holder, and nothing revoked, ended or expired', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const other = await user('Dana');
    const mia = await child(owner);
    const active = await share(owner.client, mia, holder, 'editor', { expires_at: '2099-01-01' });
    const pending = await invite(owner.client, mia, { role: 'viewer', email: 'gran@example.com' });
    const revoked = await invite(owner.client, mia);
    const expired = await invite(owner.client, mia);
    const ended = await share(owner.client, mia, other);
    await owner.client.delete(`/api/user/people/${mia}/shares/${revoked.share_id}`);
    await setShare(expired.share_id, { invite_expires_at: PAST });
    await setShare(ended, { ends_at: PAST });

    const res = await owner.client.get(`/api/user/people/${mia}/shares`);
    expect(res.statusCode).toBe(200);
    const list = res.json<Record<string, unknown>[]>();
    expect(list.map((s) => s.share_id)).toEqual([active, pending.share_id]);
    expect(list[0]).toMatchObject({ role: 'editor', status: 'active', holder_username: 'Casey', email: null, expires_at: '2099-01-01' });
    expect(list[0]?.accepted_at).toEqual(expect.any(String));
    expect(list[1]).toMatchObject({
      role: 'viewer',
      status: 'pending',
      holder_username: null,
      email: 'gran@example.com',
      expires_at: null,
      accepted_at: null,
    });
    expect(list[1]?.invite_expires_at).toEqual(expect.any(String));
    // Never the token nor its hash.
    expect(res.body).not.toContain(pending.token);
    expect(res.body).not.toContain(sha256Hex(pending.token));
  });

  it('is for the owner and managers: viewers and editors get 403, strangers 404', async () => {
    const owner = await user('Robin');
    const [manager, editor, viewer, stranger] = await Promise.all([user('Manny'), user('Eddie'), user('Vera'), user('Mallory')]);
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager');
    await share(owner.client, mia, editor, 'editor');
    await share(owner.client, mia, viewer, 'viewer');
    expect((await manager.client.get(`/api/user/people/${mia}/shares`)).json()).toHaveLength(3);
    expect((await editor.client.get(`/api/user/people/${mia}/shares`)).statusCode).toBe(403);
    expect((await viewer.client.get(`/api/user/people/${mia}/shares`)).statusCode).toBe(403);
    expect((await stranger.client.get(`/api/user/people/${mia}/shares`)).statusCode).toBe(404);
  });
});

describe('an invitation link', () => {
  it('tells a signed-out visitor who shares whom, under which role', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const { token } = await invite(owner.client, mia, { role: 'editor', expires_at: '2099-02-03' });
    const res = await new Client(t.app).get(`/api/invitations/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ shared_by: 'Robin', person_name: 'Mia Rivera', is_pet: false, role: 'editor', expires_at: '2099-02-03' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the same 404 for a guessed, malformed, used, revoked or expired token', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const used = await invite(owner.client, mia);
    await holder.client.post(`/api/user/invitations/${used.token}/accept`);
    const revoked = await invite(owner.client, mia);
    await owner.client.delete(`/api/user/people/${mia}/shares/${revoked.share_id}`);
    const expired = await invite(owner.client, mia);
    await setShare(expired.share_id, { invite_expires_at: PAST });
    const ended = await invite(owner.client, mia);
    await setShare(ended.share_id, { ends_at: PAST });
    const guessed = 'A'.repeat(43);
    const anon = new Client(t.app);
    for (const token of [
      guessed,
      'short',
      `${used.token}x`,
      'a'.repeat(90),
      encodeURIComponent('../../etc'),
      used.token,
      revoked.token,
      expired.token,
      ended.token,
    ]) {
      const preview = await anon.get(`/api/invitations/${token}`);
      expect(preview.statusCode, token).toBe(404);
      expect(preview.json(), token).toMatchObject(GONE);
      const accept = await holder.client.post(`/api/user/invitations/${token}/accept`);
      expect(accept.statusCode, token).toBe(404);
      expect(accept.json(), token).toMatchObject(GONE);
    }
  });
});

describe('accepting an invitation', () => {
  it("gives the holder the person under the invitation's role and tells the owner", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const { token, share_id } = await invite(owner.client, mia, { role: 'editor' });
    const res = await holder.client.post(`/api/user/invitations/${token}/accept`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ personId: mia, role: 'editor' });
    expect(await shareRow(share_id)).toMatchObject({ holder_id: holder.id, token_hash: null, revoked_at: null });
    expect((await holder.client.get('/api/user/people')).json()).toContainEqual(
      expect.objectContaining({ id: mia, role: 'editor', shared_by: 'Robin' }),
    );

    const notes = (await owner.client.get('/api/user/notifications')).json<
      { type: string; title: string; level: string; data: { message: string } }[]
    >();
    const accepted = notes.filter((n) => n.type === 'share_accepted');
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({ level: 'info', title: 'Casey accepted your invitation to Mia Rivera' });
    expect(accepted[0]?.data.message).toBe('Casey now has Editor access to Mia Rivera. You can end it at any time in Settings.');
    // No health data in it.
    expect(JSON.stringify(accepted[0])).not.toMatch(/Penicillin|Warfarin/);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'person_share_accept')
      .where('profile_id', '=', mia)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: owner.id, actor_id: holder.id });
  });

  it('works once: a second accept, by the same account or another, is refused', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const other = await user('Dana');
    const mia = await child(owner);
    const { token } = await invite(owner.client, mia);
    expect((await holder.client.post(`/api/user/invitations/${token}/accept`)).statusCode).toBe(200);
    for (const who of [holder, other]) {
      const again = await who.client.post(`/api/user/invitations/${token}/accept`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject(GONE);
    }
    expect((await other.client.get(`/api/user/people/${mia}`)).statusCode).toBe(404);
  });

  it('lets exactly one of many parallel accepts win', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const takers = await Promise.all(['A', 'B', 'C', 'D', 'E', 'F'].map((n) => user(`Taker ${n}`)));
    for (let round = 0; round < 3; round += 1) {
      const { token, share_id } = await invite(owner.client, mia);
      const answers = await Promise.all(takers.map((who) => who.client.post(`/api/user/invitations/${token}/accept`)));
      const winners = answers.flatMap((res, i) => (res.statusCode === 200 ? [takers[i]] : []));
      expect(winners).toHaveLength(1);
      for (const res of answers) expect([200, 404]).toContain(res.statusCode);
      expect((await shareRow(share_id))?.holder_id).toBe(winners[0]?.id);
    }
    const notes = (await owner.client.get('/api/user/notifications')).json<{ type: string }[]>();
    expect(notes.filter((n) => n.type === 'share_accepted')).toHaveLength(3);
  });

  it("refuses the owner's own invitation and leaves it open for someone else", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const { token } = await invite(owner.client, mia);
    const own = await owner.client.post(`/api/user/invitations/${token}/accept`);
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ message: 'You already own this person' });
    expect((await holder.client.post(`/api/user/invitations/${token}/accept`)).statusCode).toBe(200);
  });

  it('replaces the share a holder already has of that person', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const first = await share(owner.client, mia, holder, 'viewer');
    const second = await share(owner.client, mia, holder, 'editor');
    expect((await shareRow(first))?.revoked_at).toEqual(expect.any(String));
    expect((await shareRow(second))?.revoked_at).toBeNull();
    const shares = (await owner.client.get(`/api/user/people/${mia}/shares`)).json<{ share_id: string }[]>();
    expect(shares.map((s) => s.share_id)).toEqual([second]);
    expect((await holder.client.get(`/api/user/people/${mia}`)).json()).toMatchObject({ role: 'editor' });
  });

  it('needs a session; the signed-out visitor is asked to sign in first', async () => {
    const owner = await user('Robin');
    const { token } = await invite(owner.client, await child(owner));
    expect((await new Client(t.app).post(`/api/user/invitations/${token}/accept`)).statusCode).toBe(401);
  });
});

describe('ending a share', () => {
  it('the owner revokes at once: the former holder gets 404 right after', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder, 'editor');
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(200);
    const res = await owner.client.delete(`/api/user/people/${mia}/shares/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Access revoked' });
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(404);
    expect((await holder.client.get('/api/user/people')).json()).toHaveLength(1);
    expect((await owner.client.delete(`/api/user/people/${mia}/shares/${shareId}`)).statusCode).toBe(404);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'person_share_revoke')
      .where('profile_id', '=', mia)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: owner.id, actor_id: owner.id });
  });

  it("a manager revokes someone else's share", async () => {
    const owner = await user('Robin');
    const manager = await user('Manny');
    const holder = await user('Casey');
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager');
    const shareId = await share(owner.client, mia, holder);
    expect((await manager.client.delete(`/api/user/people/${mia}/shares/${shareId}`)).json()).toMatchObject({ message: 'Access revoked' });
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(404);
  });

  it('the holder can leave a share, whatever its role', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder, 'viewer');
    // The holder learns the id from their own people list.
    const listed = (await holder.client.get('/api/user/people')).json<{ id: string; share_id: string | null }[]>();
    expect(listed.find((p) => p.id === mia)?.share_id).toBe(shareId);
    const res = await holder.client.delete(`/api/user/people/${mia}/shares/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'You no longer have access to this person' });
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(404);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'person_share_leave')
      .where('profile_id', '=', mia)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: owner.id, actor_id: holder.id });
  });

  it("refuses a viewer or editor ending someone else's share (403), a stranger (404), and unknown or other people's shares (404)", async () => {
    const owner = await user('Robin');
    const [holder, viewer, editor, stranger] = await Promise.all([user('Casey'), user('Vera'), user('Eddie'), user('Mallory')]);
    const mia = await child(owner);
    const leo = await child(owner, 'Leo');
    const shareId = await share(owner.client, mia, holder);
    await share(owner.client, mia, viewer);
    await share(owner.client, mia, editor, 'editor');
    const leoShare = await share(owner.client, leo, holder);
    const url = `/api/user/people/${mia}/shares/${shareId}`;
    expect((await viewer.client.delete(url)).statusCode).toBe(403);
    expect((await editor.client.delete(url)).statusCode).toBe(403);
    // The same 403 whether or not the share exists: nothing learned about share ids.
    expect((await viewer.client.delete(`/api/user/people/${mia}/shares/${MISSING}`)).statusCode).toBe(403);
    expect((await stranger.client.delete(url)).statusCode).toBe(404);
    expect((await owner.client.delete(`/api/user/people/${mia}/shares/${MISSING}`)).statusCode).toBe(404);
    // A share of another person, named under this one.
    expect((await owner.client.delete(`/api/user/people/${mia}/shares/${leoShare}`)).statusCode).toBe(404);
    expect((await holder.client.get(`/api/user/people/${leo}`)).statusCode).toBe(200);
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(200);
  });

  it('cancelling a pending invitation makes its link useless', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const pending = await invite(owner.client, mia);
    expect((await owner.client.delete(`/api/user/people/${mia}/shares/${pending.share_id}`)).statusCode).toBe(200);
    expect(await shareRow(pending.share_id)).toMatchObject({ token_hash: null, holder_id: null });
    expect((await holder.client.post(`/api/user/invitations/${pending.token}/accept`)).statusCode).toBe(404);
  });

  it('a share past its end gives no access any more', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder, 'manager', { expires_at: '2099-01-01' });
    await setShare(shareId, { ends_at: PAST });
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(404);
    expect((await holder.client.get(`/api/user/people/${mia}/shares`)).statusCode).toBe(404);
    expect((await holder.client.get('/api/user/people')).json()).toHaveLength(1);
  });

  it("ends when the holder's account is deleted", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder);
    expect((await holder.client.delete('/api/auth/deleteAccount', { password: holder.password })).statusCode).toBe(200);
    expect(await shareRow(shareId)).toBeUndefined();
    expect((await owner.client.get(`/api/user/people/${mia}/shares`)).json()).toEqual([]);
  });

  it("ends when the owner's account is deleted", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder);
    const pending = await invite(owner.client, mia);
    expect((await owner.client.delete('/api/auth/deleteAccount', { password: owner.password })).statusCode).toBe(200);
    expect(await shareRow(shareId)).toBeUndefined();
    expect(await shareRow(pending.share_id)).toBeUndefined();
    expect((await holder.client.get(`/api/user/people/${mia}`)).statusCode).toBe(404);
    expect((await holder.client.get('/api/user/people')).json()).toHaveLength(1);
    expect((await new Client(t.app).get(`/api/invitations/${pending.token}`)).statusCode).toBe(404);
  });
});

describe("a person's access history", () => {
  it("lists what holders did through their shares, newest first, with each holder's username", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const manager = await user('Manny');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder, 'viewer');
    await share(owner.client, mia, manager, 'manager');
    await holder.client.get(`/api/user/people/${mia}`);
    await manager.client.get(`/api/user/people/${mia}/shares`);
    await owner.client.get(`/api/user/people/${mia}`); // The owner's own reads are not listed.
    await manager.client.delete(`/api/user/people/${mia}/shares/${shareId}`);

    const res = await owner.client.get(`/api/user/people/${mia}/access-history`);
    expect(res.statusCode).toBe(200);
    const history = res.json<{ id: string; actor: string; action: string; what: string; created_at: string }[]>();
    const rows = history.map(({ actor, action, what }) => ({ actor, action, what }));
    expect(rows).toEqual(
      expect.arrayContaining([
        { actor: 'Robin', action: 'person_share_create', what: 'Created an invitation (Viewer)' },
        { actor: 'Casey', action: 'person_share_accept', what: 'Accepted an invitation (Viewer)' },
        { actor: 'Manny', action: 'person_share_accept', what: 'Accepted an invitation (Manager)' },
        { actor: 'Casey', action: 'shared_read', what: 'GET /api/user/people/:personId' },
        { actor: 'Manny', action: 'shared_read', what: 'GET /api/user/people/:personId/shares' },
        { actor: 'Manny', action: 'person_share_revoke', what: 'Ended a share (Viewer)' },
      ]),
    );
    expect(rows).toHaveLength(7);
    const times = history.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());
    // The last thing done is at the top (events of one millisecond may come in either order).
    expect(history.find((e) => e.action === 'person_share_revoke')?.created_at).toBe(times[0]);
  });

  it("names a holder whose account is gone 'Deleted account'", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    await share(owner.client, mia, holder);
    await holder.client.get(`/api/user/people/${mia}`);
    await holder.client.delete('/api/auth/deleteAccount', { password: holder.password });
    const history = (await owner.client.get(`/api/user/people/${mia}/access-history`)).json<{ actor: string; action: string }[]>();
    expect(history.filter((e) => e.action === 'shared_read')).toEqual([expect.objectContaining({ actor: 'Deleted account' })]);
  });

  it('is for the owner only: managers, editors and viewers get 403, strangers 404', async () => {
    const owner = await user('Robin');
    const [manager, editor, viewer, stranger] = await Promise.all([user('Manny'), user('Eddie'), user('Vera'), user('Mallory')]);
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager');
    await share(owner.client, mia, editor, 'editor');
    await share(owner.client, mia, viewer, 'viewer');
    for (const who of [manager, editor, viewer]) {
      const res = await who.client.get(`/api/user/people/${mia}/access-history`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Only the owner of this person can do this' });
    }
    expect((await stranger.client.get(`/api/user/people/${mia}/access-history`)).statusCode).toBe(404);
    expect((await owner.client.get(`/api/user/people/${MISSING}/access-history`)).statusCode).toBe(404);
  });

  it('keeps to the last 200 entries', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    await share(owner.client, mia, holder);
    // 205 reads, each 11 minutes after the one before: 205 entries of their own.
    const start = Date.now() - 205 * 11 * 60_000;
    await t.database.db
      .insertInto('audit_events')
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          user_id: owner.id,
          actor_id: holder.id,
          profile_id: mia,
          action: 'shared_read',
          ip: null,
          detail: JSON.stringify({ what: 'GET /api/user/people/:personId' }),
          created_at: new Date(start + i * 11 * 60_000).toISOString(),
        })),
      )
      .execute();
    const history = (await owner.client.get(`/api/user/people/${mia}/access-history`)).json<{ action: string; count: number }[]>();
    expect(history).toHaveLength(200);
    expect(history.every((e) => e.count === 1)).toBe(true);
  });
});
