import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShareRole } from '@kinchart/shared/people';
import type { TestApp, TestClient } from './helpers';
import { TestClient as Client, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import { fillProfile, insertMember } from './factories';
import type { LoopbackSmtp } from './smtp-helpers';
import { startLoopbackSmtp } from './smtp-helpers';
import { endHandedOnOrphans } from '../src/db/migrations/0018-end-handed-on-shares';

// DESIGN §11, docs/decisions/0032: what a share hands on ends with it (revoke, leave, a role below
// manager, a newer invitation, the holder's account going, expiry) — transitively and in one
// transaction; a role changes in place; an invitation goes by email when SMTP is set; and the
// access history makes one entry of repeated reads by one account within 10 minutes.

const MAIL_FROM = 'Kinchart <kinchart@kinchart.test>';
const GONE = { message: 'This invitation has expired or is no longer available' };
const MISSING = '00000000-0000-4000-8000-000000000000';
const MINUTE = 60_000;

let smtp: LoopbackSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A header as written, from its RFC 2047 quoted-printable words. */
function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?Q\?([^?]*)\?=\s*/gi, (_, word: string) =>
    Buffer.from(
      word.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

type User = Awaited<ReturnType<typeof signedInUser>>;
const user = (username: string) => signedInUser(t.app, { username });

async function child(owner: User, name = 'Mia Rivera'): Promise<string> {
  const id = await insertMember(t.database.db, owner.id, { name, relationship: 'daughter' });
  await fillProfile(t.database.db, owner.id, id);
  await t.database.db.updateTable('profiles').set({ name }).where('id', '=', id).execute();
  return id;
}

async function invite(by: TestClient, personId: string, body: Record<string, unknown> = { role: 'viewer' }) {
  const res = await by.post(`/api/user/people/${personId}/shares`, body);
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ share_id: string; invite_url: string; role: ShareRole; expires_at: string | null; emailed: boolean }>();
  return { ...created, token: new URL(created.invite_url).pathname.split('/').pop() ?? '' };
}

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

const sees = async (who: User, personId: string) => (await who.client.get(`/api/user/people/${personId}`)).statusCode;
const shareRow = (shareId: string) =>
  t.database.db.selectFrom('person_shares').selectAll().where('id', '=', shareId).executeTakeFirstOrThrow();
const openIds = async (owner: User, personId: string) =>
  (await owner.client.get(`/api/user/people/${personId}/shares`)).json<{ share_id: string }[]>().map((s) => s.share_id);

/** A manager (Manny) who handed on a viewer share, a pending invitation and a manager share, which handed on a viewer share in turn. */
async function handedOnChain() {
  const owner = await user('Robin');
  const [manager, viewer, second, far, direct, later] = await Promise.all([
    user('Manny'),
    user('Vera'),
    user('Max'),
    user('Fay'),
    user('Dana'),
    user('Lou'),
  ]);
  const mia = await child(owner);
  const managerShare = await share(owner.client, mia, manager, 'manager');
  const directShare = await share(owner.client, mia, direct, 'viewer');
  const viewerShare = await share(manager.client, mia, viewer, 'viewer');
  const pending = await invite(manager.client, mia, { role: 'editor' });
  const secondShare = await share(manager.client, mia, second, 'manager');
  const farShare = await share(second.client, mia, far, 'viewer');
  const farPending = await invite(second.client, mia, { role: 'viewer' });
  return {
    owner,
    manager,
    viewer,
    second,
    far,
    direct,
    later,
    mia,
    managerShare,
    directShare,
    viewerShare,
    pending,
    secondShare,
    farShare,
    farPending,
  };
}

/** Everyone the manager handed on (and those handed on) has lost access; the owner's own share stays. */
async function expectHandedOnEnded(c: Awaited<ReturnType<typeof handedOnChain>>) {
  for (const who of [c.viewer, c.second, c.far]) expect(await sees(who, c.mia)).toBe(404);
  for (const link of [c.pending, c.farPending]) {
    expect((await c.later.client.post(`/api/user/invitations/${link.token}/accept`)).json()).toMatchObject(GONE);
    expect((await new Client(t.app).get(`/api/invitations/${link.token}`)).statusCode).toBe(404);
  }
  expect(await sees(c.later, c.mia)).toBe(404);
  expect(await sees(c.direct, c.mia)).toBe(200);
  expect(await openIds(c.owner, c.mia)).toEqual([c.directShare]);
}

describe('what a share handed on ends with it', () => {
  it('revoking a manager ends the shares and invitations they handed on, and what those handed on', async () => {
    const c = await handedOnChain();
    expect(await openIds(c.owner, c.mia)).toHaveLength(7);
    expect((await c.owner.client.delete(`/api/user/people/${c.mia}/shares/${c.managerShare}`)).statusCode).toBe(200);
    expect(await sees(c.manager, c.mia)).toBe(404);
    await expectHandedOnEnded(c);
    // Ended for good, in the rows too, and the owner reads why.
    for (const id of [c.viewerShare, c.pending.share_id, c.secondShare, c.farShare, c.farPending.share_id]) {
      expect(await shareRow(id)).toMatchObject({ revoked_at: expect.any(String), token_hash: null });
    }
    const history = (await c.owner.client.get(`/api/user/people/${c.mia}/access-history`)).json<{ actor: string; what: string }[]>();
    const robin = history.filter((e) => e.actor === 'Robin').map((e) => e.what);
    expect(robin).toEqual(
      expect.arrayContaining([
        'Ended a share (Manager)',
        'Ended a passed-on share (Viewer)',
        'Ended a passed-on share (Manager)',
        'Cancelled a passed-on invitation (Editor)',
        'Cancelled a passed-on invitation (Viewer)',
      ]),
    );
  });

  it('a manager who leaves takes what they handed on with them', async () => {
    const c = await handedOnChain();
    const res = await c.manager.client.delete(`/api/user/people/${c.mia}/shares/${c.managerShare}`);
    expect(res.json()).toMatchObject({ message: 'You no longer have access to this person' });
    await expectHandedOnEnded(c);
  });

  it('a manager revoking a second manager ends only what the second one handed on', async () => {
    const c = await handedOnChain();
    expect((await c.manager.client.delete(`/api/user/people/${c.mia}/shares/${c.secondShare}`)).statusCode).toBe(200);
    expect(await sees(c.far, c.mia)).toBe(404);
    expect(await sees(c.viewer, c.mia)).toBe(200);
    expect(await sees(c.manager, c.mia)).toBe(200);
    expect((await c.later.client.post(`/api/user/invitations/${c.farPending.token}/accept`)).statusCode).toBe(404);
    expect((await c.later.client.post(`/api/user/invitations/${c.pending.token}/accept`)).statusCode).toBe(200);
  });

  it("a manager's share that expires leaves nothing it handed on open", async () => {
    const owner = await user('Robin');
    const [manager, viewer, second, later] = await Promise.all([user('Manny'), user('Vera'), user('Max'), user('Lou')]);
    const mia = await child(owner);
    const end = new Date(Date.now() + 5 * MINUTE).toISOString();
    await share(owner.client, mia, manager, 'manager', { expires_at: end });
    // What a manager hands on cannot outlast them (decision 0018), at any depth.
    expect((await manager.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' })).statusCode).toBe(400);
    await share(manager.client, mia, viewer, 'viewer', { expires_at: end });
    await share(manager.client, mia, second, 'manager', { expires_at: end });
    const pending = await invite(second.client, mia, { role: 'viewer', expires_at: end });
    expect(await sees(viewer, mia)).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(end) + MINUTE);
    for (const who of [manager, viewer, second]) expect(await sees(who, mia)).toBe(404);
    expect((await later.client.post(`/api/user/invitations/${pending.token}/accept`)).json()).toMatchObject(GONE);
    expect(await openIds(owner, mia)).toEqual([]);
  });

  it('changing a manager to a lesser role ends what they handed on; changing a viewer leaves others alone', async () => {
    const c = await handedOnChain();
    expect((await c.owner.client.put(`/api/user/people/${c.mia}/shares/${c.directShare}`, { role: 'editor' })).statusCode).toBe(200);
    expect(await sees(c.viewer, c.mia)).toBe(200);
    const res = await c.owner.client.put(`/api/user/people/${c.mia}/shares/${c.managerShare}`, { role: 'editor' });
    expect(res.statusCode).toBe(200);
    expect((await c.manager.client.get(`/api/user/people/${c.mia}`)).json()).toMatchObject({ role: 'editor' });
    for (const who of [c.viewer, c.second, c.far]) expect(await sees(who, c.mia)).toBe(404);
    expect(await sees(c.direct, c.mia)).toBe(200);
    expect(new Set(await openIds(c.owner, c.mia))).toEqual(new Set([c.managerShare, c.directShare]));
  });

  it('a newer invitation accepted as viewer ends what the old manager share handed on; as manager it keeps them', async () => {
    const c = await handedOnChain();
    await share(c.owner.client, c.mia, c.second, 'manager');
    expect(await sees(c.far, c.mia)).toBe(200);
    await share(c.owner.client, c.mia, c.manager, 'viewer');
    expect(await sees(c.viewer, c.mia)).toBe(404);
    expect((await c.later.client.post(`/api/user/invitations/${c.pending.token}/accept`)).statusCode).toBe(404);
    // Max is the owner's manager now: what Max handed on stays.
    for (const who of [c.second, c.far, c.manager]) expect(await sees(who, c.mia)).toBe(200);
    expect((await c.manager.client.get(`/api/user/people/${c.mia}`)).json()).toMatchObject({ role: 'viewer' });
  });

  it("deleting a manager's account ends what they handed on", async () => {
    const c = await handedOnChain();
    expect((await c.manager.client.delete('/api/auth/deleteAccount', { password: c.manager.password })).statusCode).toBe(200);
    await expectHandedOnEnded(c);
  });

  it('an invitation a manager makes while being revoked does not survive them', async () => {
    const owner = await user('Robin');
    const manager = await user('Manny');
    const mia = await child(owner);
    const managerShare = await share(owner.client, mia, manager, 'manager');
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => manager.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' })),
      owner.client.delete(`/api/user/people/${mia}/shares/${managerShare}`),
      ...Array.from({ length: 4 }, () => manager.client.post(`/api/user/people/${mia}/shares`, { role: 'viewer' })),
    ]);
    for (const res of answers) expect([200, 201, 403, 404]).toContain(res.statusCode);
    expect(await openIds(owner, mia)).toEqual([]);
  });

  it('migration 0018 ends the shares already handed on by someone who no longer manages the person', async () => {
    const c = await handedOnChain();
    // As the old code left it: the manager's share revoked, nothing else.
    await t.database.db
      .updateTable('person_shares')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', c.managerShare)
      .execute();
    expect(await sees(c.far, c.mia)).toBe(200);
    await endHandedOnOrphans.up(t.database.db);
    await expectHandedOnEnded(c);
  });
});

describe('changing a role in place', () => {
  it("the owner changes a holder's role; it applies at once and is in the access history", async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const shareId = await share(owner.client, mia, holder, 'viewer');
    expect((await holder.client.post(`/api/user/people/${mia}/conditions`, { name: 'Asthma', onset_date: '2015' })).statusCode).toBe(403);
    const res = await owner.client.put(`/api/user/people/${mia}/shares/${shareId}`, { role: 'editor' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ share_id: shareId, role: 'editor', status: 'active', holder_username: 'Casey' });
    expect((await holder.client.get(`/api/user/people/${mia}`)).json()).toMatchObject({ role: 'editor' });
    expect((await owner.client.get(`/api/user/people/${mia}/shares`)).json()).toEqual([
      expect.objectContaining({ share_id: shareId, role: 'editor' }),
    ]);
    const history = (await owner.client.get(`/api/user/people/${mia}/access-history`)).json<
      { actor: string; action: string; what: string }[]
    >();
    expect(history.filter((e) => e.action === 'person_share_role')).toEqual([
      expect.objectContaining({ actor: 'Robin', action: 'person_share_role', what: 'Changed a role (Viewer to Editor)' }),
    ]);
  });

  it('changes a pending invitation: the link then gives the new role', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const pending = await invite(owner.client, mia, { role: 'viewer' });
    expect((await owner.client.put(`/api/user/people/${mia}/shares/${pending.share_id}`, { role: 'manager' })).json()).toMatchObject({
      role: 'manager',
      status: 'pending',
    });
    expect((await new Client(t.app).get(`/api/invitations/${pending.token}`)).json()).toMatchObject({ role: 'manager' });
    expect((await holder.client.post(`/api/user/invitations/${pending.token}/accept`)).json()).toMatchObject({ role: 'manager' });
  });

  it('a manager changes roles; a viewer or editor cannot (403), not even their own; a stranger gets 404', async () => {
    const owner = await user('Robin');
    const [manager, editor, viewer, stranger] = await Promise.all([user('Manny'), user('Eddie'), user('Vera'), user('Mallory')]);
    const mia = await child(owner);
    await share(owner.client, mia, manager, 'manager');
    const editorShare = await share(owner.client, mia, editor, 'editor');
    const viewerShare = await share(owner.client, mia, viewer, 'viewer');
    expect((await manager.client.put(`/api/user/people/${mia}/shares/${viewerShare}`, { role: 'manager' })).statusCode).toBe(200);
    expect((await manager.client.put(`/api/user/people/${mia}/shares/${viewerShare}`, { role: 'viewer' })).statusCode).toBe(200);
    for (const [who, id] of [
      [editor, viewerShare],
      [viewer, viewerShare],
      [editor, editorShare],
    ] as const) {
      const res = await who.client.put(`/api/user/people/${mia}/shares/${id}`, { role: 'manager' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Only the owner or a manager of this person can do this' });
    }
    expect((await stranger.client.put(`/api/user/people/${mia}/shares/${viewerShare}`, { role: 'viewer' })).statusCode).toBe(404);
    expect((await viewer.client.get(`/api/user/people/${mia}`)).json()).toMatchObject({ role: 'viewer' });
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['actor_id', 'detail'])
      .where('action', '=', 'person_share_role')
      .where('profile_id', '=', mia)
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit.every((a) => a.actor_id === manager.id)).toBe(true);
  });

  it('refuses a bad role (400 naming it), an ended or unknown share and one of another person (404)', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const mia = await child(owner);
    const leo = await child(owner, 'Leo');
    const shareId = await share(owner.client, mia, holder, 'viewer');
    const leoShare = await share(owner.client, leo, holder, 'viewer');
    for (const body of [{ role: 'owner' }, {}, { role: 'Editor' }]) {
      const res = await owner.client.put(`/api/user/people/${mia}/shares/${shareId}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('Role must be viewer, editor or manager');
    }
    expect((await owner.client.put(`/api/user/people/${mia}/shares/${MISSING}`, { role: 'editor' })).statusCode).toBe(404);
    expect((await owner.client.put(`/api/user/people/${mia}/shares/${leoShare}`, { role: 'editor' })).statusCode).toBe(404);
    await owner.client.delete(`/api/user/people/${mia}/shares/${shareId}`);
    expect((await owner.client.put(`/api/user/people/${mia}/shares/${shareId}`, { role: 'editor' })).json()).toMatchObject({
      message: 'Share not found',
    });
    expect((await holder.client.get(`/api/user/people/${leo}`)).json()).toMatchObject({ role: 'viewer' });
    expect((await new Client(t.app).put(`/api/user/people/${mia}/shares/${shareId}`, { role: 'editor' })).statusCode).toBe(401);
  });
});

describe('an invitation by email', () => {
  it('with SMTP set, sends the link to the address given, with first names only', async () => {
    const owner = await user('Robin Rivera');
    const mia = await child(owner);
    const to = uniqueEmail('gran');
    const created = await invite(owner.client, mia, { role: 'editor', email: to.toUpperCase(), expires_at: '2099-12-31' });
    expect(created.emailed).toBe(true);
    const [mail] = await smtp.messagesTo(to, 1);
    expect(mail!.to).toEqual([to]);
    expect(decodeHeader(mail!.headers.subject ?? '')).toBe('Kinchart: Robin invited you to Mia’s chart');
    expect(mail!.text).toContain(created.invite_url);
    expect(mail!.text).toContain('as Editor');
    // No health data, no surname, no other account's address.
    // The link's random token may spell anything (even "O-"), so it is left out of the search.
    const words = mail!.text.replace(created.invite_url, '');
    for (const secret of ['Penicillin', 'Warfarin', 'Rivera', owner.email, 'Sam Rivers', 'O-']) expect(words).not.toContain(secret);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'person_share_create')
      .where('profile_id', '=', mia)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail ?? '{}')).toMatchObject({ emailed: true });
    expect(audit.detail).not.toContain(to);
  });

  it('without an email sends nothing and says so', async () => {
    const owner = await user('Robin');
    const mia = await child(owner);
    const before = smtp.received.length;
    const created = await invite(owner.client, mia, { role: 'viewer' });
    expect(created.emailed).toBe(false);
    // A later email to someone else arrives after anything this one could have sent.
    const marker = uniqueEmail('marker');
    await invite(owner.client, mia, { role: 'viewer', email: marker });
    await smtp.messagesTo(marker, 1);
    // Only invitations count: the sign-up's own confirmation link (decision 0030) may land in between.
    const invitations = smtp.received.slice(before).filter((m) => decodeHeader(m.headers.subject ?? '').includes('invited you'));
    expect(invitations.map((m) => m.to)).toEqual([[marker]]);
  });
});

describe('the access history', () => {
  it('makes one entry of repeated reads by one account within 10 minutes, with their count and time range', async () => {
    const owner = await user('Robin');
    const holder = await user('Casey');
    const other = await user('Dana');
    const mia = await child(owner);
    await share(owner.client, mia, holder, 'editor');
    await share(owner.client, mia, other, 'viewer');
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now() + MINUTE;
    const at = (minutes: number) => vi.setSystemTime(start + minutes * MINUTE);
    at(0);
    await holder.client.get(`/api/user/people/${mia}`);
    at(1);
    await other.client.get(`/api/user/people/${mia}`);
    at(2);
    await holder.client.get(`/api/user/people/${mia}/conditions`);
    at(3);
    expect((await holder.client.post(`/api/user/people/${mia}/conditions`, { name: 'Asthma', onset_date: '2015' })).statusCode).toBe(201);
    at(9);
    await holder.client.get(`/api/user/people/${mia}`);
    at(11);
    await holder.client.get(`/api/user/people/${mia}`);

    const history = (await owner.client.get(`/api/user/people/${mia}/access-history`)).json<
      { actor: string; action: string; what: string; count: number; first_at: string; created_at: string; what_all: string[] }[]
    >();
    const iso = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
    const reads = history.filter((e) => e.action !== 'person_share_create' && e.action !== 'person_share_accept');
    expect(reads).toEqual([
      expect.objectContaining({ actor: 'Casey', action: 'shared_read', count: 1, first_at: iso(11), created_at: iso(11) }),
      expect.objectContaining({
        actor: 'Casey',
        action: 'shared_read',
        count: 3,
        first_at: iso(0),
        created_at: iso(9),
        what: 'GET /api/user/people/:personId',
        what_all: ['GET /api/user/people/:personId', 'GET /api/user/people/:personId/conditions'],
      }),
      expect.objectContaining({ actor: 'Casey', action: 'shared_write', count: 1, created_at: iso(3) }),
      expect.objectContaining({ actor: 'Dana', action: 'shared_read', count: 1, created_at: iso(1) }),
    ]);
    expect(history.filter((e) => e.action === 'person_share_create')).toEqual([
      expect.objectContaining({ count: 1, what_all: ['Created an invitation (Viewer)'] }),
      expect.objectContaining({ count: 1, what_all: ['Created an invitation (Editor)'] }),
    ]);
  });
});
