// SIGNUP_MODE (docs/decisions/0025): `open` lets anyone sign up (the SPEC's flow); `invite` only
// someone whose sign-up carries an open person-share invitation (DESIGN §11), one sign-up per
// invitation; `closed` nobody. The web app reads the mode from GET /api/config.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_CLOSED, SIGNUP_INVITE_ONLY } from '@kinchart/shared/auth';
import type { TestApp } from './helpers';
import { GOOD_PASSWORD, TestClient, buildTestApp, uniqueEmail } from './helpers';
import { createAuthRepository } from '../src/features/auth/auth.repository';
import { hashSecret } from '../src/lib/passwords';
import { selfProfileId } from './factories';
import { sha256Hex } from '../src/lib/ids';

let open: TestApp;
let invite: TestApp;
let closed: TestApp;
beforeAll(async () => {
  [open, invite, closed] = await Promise.all([
    buildTestApp(),
    buildTestApp({ SIGNUP_MODE: 'invite' }),
    buildTestApp({ SIGNUP_MODE: 'closed' }),
  ]);
});
afterAll(async () => {
  await Promise.all([open.close(), invite.close(), closed.close()]);
});

const signup = (t: TestApp, extra: Record<string, unknown> = {}) =>
  new TestClient(t.app).post('/api/auth/signup', { username: 'Sam', email: uniqueEmail('new'), password: GOOD_PASSWORD, ...extra });

/** An account made by the operator's hand (the only way in while sign-up is shut), signed in. */
async function existingAccount(t: TestApp) {
  const email = uniqueEmail('owner');
  const id = await createAuthRepository(t.database.db).createUser({
    email,
    username: 'Owner',
    passwordHash: await hashSecret(GOOD_PASSWORD),
  });
  const client = new TestClient(t.app);
  expect((await client.post('/api/auth/login', { email, password: GOOD_PASSWORD })).statusCode).toBe(200);
  return { id, client };
}

/** A fresh invitation to the owner's own chart; its token. */
async function invitation(t: TestApp): Promise<string> {
  const owner = await existingAccount(t);
  const res = await owner.client.post(`/api/user/people/${await selfProfileId(t.database.db, owner.id)}/shares`, { role: 'viewer' });
  expect(res.statusCode).toBe(201);
  return new URL(res.json<{ invite_url: string }>().invite_url).pathname.split('/').pop() ?? '';
}

describe('SIGNUP_MODE=open (the default)', () => {
  it('anyone can sign up, with or without an invitation, and GET /api/config says so', async () => {
    expect((await signup(open)).statusCode).toBe(201);
    expect((await signup(open, { invitation: 'whatever' })).statusCode).toBe(201);
    expect((await new TestClient(open.app).get('/api/config')).json()).toMatchObject({ signup_mode: 'open' });
  });
});

describe('SIGNUP_MODE=closed', () => {
  it('nobody can sign up, not even with an invitation, and existing accounts still sign in', async () => {
    const plain = await signup(closed);
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toMatchObject({ message: SIGNUP_CLOSED });
    const invited = await signup(closed, { invitation: await invitation(closed) });
    expect(invited.statusCode).toBe(403);
    expect(invited.json()).toMatchObject({ message: SIGNUP_CLOSED });
    expect((await closed.database.db.selectFrom('users').select('id').execute()).length).toBe(1);
    expect((await new TestClient(closed.app).get('/api/config')).json()).toMatchObject({ signup_mode: 'closed' });
  });
});

describe('SIGNUP_MODE=invite', () => {
  it('refuses a sign-up without an invitation, or with a token that opens none', async () => {
    for (const extra of [{}, { invitation: 'A'.repeat(43) }, { invitation: 'not-a-token' }, { invitation: '' }]) {
      const res = await signup(invite, extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(403);
      expect(res.json()).toMatchObject({ message: SIGNUP_INVITE_ONLY });
    }
    expect((await new TestClient(invite.app).get('/api/config')).json()).toMatchObject({ signup_mode: 'invite' });
  });

  it('an invitation admits one sign-up, and the new account can then accept it', async () => {
    const token = await invitation(invite);
    const email = uniqueEmail('invited');
    const client = new TestClient(invite.app);
    const created = await client.post('/api/auth/signup', { username: 'Invited', email, password: GOOD_PASSWORD, invitation: token });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ message: 'Account created successfully!' });

    const second = await signup(invite, { invitation: token });
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ message: SIGNUP_INVITE_ONLY });

    expect((await client.post('/api/auth/login', { email, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await client.post(`/api/user/invitations/${token}/accept`)).statusCode).toBe(200);
  });

  it('a sign-up refused for another reason gives the invitation back', async () => {
    const token = await invitation(invite);
    const taken = uniqueEmail('taken');
    expect((await signup(invite, { email: taken, invitation: token })).statusCode).toBe(201);
    const token2 = await invitation(invite);
    const conflict = await signup(invite, { email: taken, invitation: token2 });
    expect(conflict.statusCode).toBe(409);
    const row = await invite.database.db
      .selectFrom('person_shares')
      .select('signup_claimed_at')
      .where('token_hash', '=', sha256Hex(token2))
      .executeTakeFirstOrThrow();
    expect(row.signup_claimed_at).toBeNull();
    expect((await signup(invite, { invitation: token2 })).statusCode).toBe(201);
  });

  it('an invitation that was cancelled or already accepted admits nobody', async () => {
    const token = await invitation(invite);
    await invite.database.db
      .updateTable('person_shares')
      .set({ revoked_at: new Date().toISOString() })
      .where('token_hash', '=', sha256Hex(token))
      .execute();
    expect((await signup(invite, { invitation: token })).statusCode).toBe(403);
  });

  it('of two sign-ups racing with one invitation, exactly one gets through', async () => {
    const token = await invitation(invite);
    const answers = await Promise.all([signup(invite, { invitation: token }), signup(invite, { invitation: token })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403]);
  });
});
