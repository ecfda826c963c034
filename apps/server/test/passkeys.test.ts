// Passkeys (DESIGN §5, docs/decisions/0027-passkeys.md): registering several with names, renaming
// and removing them, signing in with one alone (a discoverable credential) or as the second step
// of a password login, and re-authenticating with one. The browser side is a software
// authenticator with real P-256 keys (soft-authenticator.ts); Chromium's virtual authenticator
// drives the same flows in e2e/tests/passkeys.e2e.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser } from './helpers';
import { sha256Hex } from '../src/lib/ids';
import { createSoftAuthenticator } from './soft-authenticator';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Options = { challenge: string; rp: { id: string; name: string }; user: { id: string; name: string; displayName: string } } & Record<
  string,
  unknown
>;

const sessionKey = (client: TestClient): string => sha256Hex(decodeURIComponent(client.cookie?.split('=')[1] ?? ''));

/** Moves the session's last proof of identity 11 minutes into the past: re-authentication is due. */
async function ageAuthentication(client: TestClient): Promise<void> {
  const at = new Date(Date.now() - 11 * 60_000).toISOString();
  const result = await t.database.db
    .updateTable('sessions')
    .set({ authenticated_at: at })
    .where('id', '=', sessionKey(client))
    .executeTakeFirst();
  expect(Number(result.numUpdatedRows)).toBe(1);
}

async function registrationOptions(client: TestClient): Promise<Options> {
  const res = await client.post('/api/auth/mfa/passkeys/options');
  expect(res.statusCode).toBe(200);
  return res.json<Options>();
}

/** A user and an authenticator holding one registered passkey; the first one's recovery codes come back. */
async function userWithPasskey(name = 'My security key') {
  const user = await signedInUser(t.app);
  const authenticator = createSoftAuthenticator(ORIGIN);
  const { response, credential } = authenticator.register(await registrationOptions(user.client));
  const res = await user.client.post('/api/auth/mfa/passkeys', { name, response });
  expect(res.statusCode).toBe(201);
  const body = res.json<{ passkey: { id: string }; recovery_codes?: string[] }>();
  return { ...user, authenticator, credential, passkeyId: body.passkey.id, recoveryCodes: body.recovery_codes ?? [] };
}

async function loginOptions(client: TestClient) {
  const res = await client.post('/api/auth/login/passkey/options');
  expect(res.statusCode).toBe(200);
  return res.json<{ challenge: string; rpId: string; allowCredentials?: { id: string }[]; userVerification: string }>();
}

const audits = async (userId: string, action: string) =>
  (
    await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('user_id', '=', userId)
      .where('action', '=', action)
      .orderBy('created_at')
      .execute()
  ).map((row) => ({ action: row.action, detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null }));

describe('registering passkeys', () => {
  it('options name this site, ask for a discoverable credential and no attestation, and identify the user by a handle, not the email', async () => {
    const user = await signedInUser(t.app);
    const options = await registrationOptions(user.client);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Kinchart' });
    expect(options.attestation).toBe('none');
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true });
    expect(options.user.name).toBe(user.email);
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(user.id);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('the first passkey turns the second factor on and brings ten recovery codes; the next one does not; both are listed with their names', async () => {
    const user = await signedInUser(t.app);
    const authenticator = createSoftAuthenticator(ORIGIN);
    expect((await user.client.get('/api/auth/mfa')).json()).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });

    const first = await user.client.post('/api/auth/mfa/passkeys', {
      name: '  Laptop  ',
      response: authenticator.register(await registrationOptions(user.client)).response,
    });
    expect(first.statusCode).toBe(201);
    const added = first.json<{
      message: string;
      passkey: { id: string; name: string; created_at: string; last_used_at: null };
      recovery_codes: string[];
    }>();
    expect(added.message).toBe('Passkey added');
    expect(added.passkey).toMatchObject({ name: 'Laptop', last_used_at: null });
    expect(added.recovery_codes).toHaveLength(10);

    const options = await registrationOptions(user.client);
    // The authenticator already registered is excluded: one device is not two factors.
    expect(options.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.credentials[0]?.id.toString('base64url') })]);
    const phone = createSoftAuthenticator(ORIGIN);
    const second = await user.client.post('/api/auth/mfa/passkeys', { name: 'Phone', response: phone.register(options).response });
    expect(second.statusCode).toBe(201);
    expect(second.json()).not.toHaveProperty('recovery_codes');

    const status = (await user.client.get('/api/auth/mfa')).json<{
      totp: boolean;
      passkeys: { name: string }[];
      recovery_codes_left: number;
    }>();
    expect(status.totp).toBe(false);
    expect(status.passkeys.map((p) => p.name)).toEqual(['Laptop', 'Phone']);
    expect(status.recovery_codes_left).toBe(10);
    expect(await audits(user.id, 'mfa_passkey_add')).toHaveLength(2);
  });

  it('a registration is refused when its challenge is spent, from another session, from another origin, without a name, or malformed', async () => {
    const user = await signedInUser(t.app);
    const authenticator = createSoftAuthenticator(ORIGIN);
    const options = await registrationOptions(user.client);
    const { response } = authenticator.register(options);

    expect((await user.client.post('/api/auth/mfa/passkeys', { response })).statusCode).toBe(400);
    expect((await user.client.post('/api/auth/mfa/passkeys', { name: 'x'.repeat(61), response })).json()).toMatchObject({
      message: 'Passkey name must be at most 60 characters',
    });
    expect(
      (await user.client.post('/api/auth/mfa/passkeys', { name: 'Key', response: { ...response, type: 'password' } })).statusCode,
    ).toBe(400);
    expect(
      (await user.client.post('/api/auth/mfa/passkeys', { name: 'Key', response: { ...response, id: 'not base64url!' } })).statusCode,
    ).toBe(400);

    // The same browser signed in twice: a challenge handed to one session is not the other's.
    const otherSession = new TestClient(t.app);
    expect((await otherSession.post('/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    const stolen = await otherSession.post('/api/auth/mfa/passkeys', { name: 'Key', response });
    expect(stolen.json()).toMatchObject({ message: 'The passkey could not be added. Please try again.' });

    const phished = authenticator.register(await registrationOptions(user.client), { origin: 'https://kinchart.example.net' }).response;
    expect((await user.client.post('/api/auth/mfa/passkeys', { name: 'Key', response: phished })).statusCode).toBe(400);

    expect((await user.client.post('/api/auth/mfa/passkeys', { name: 'Key', response })).statusCode).toBe(201);
    // Spent: the same answer again is refused.
    expect((await user.client.post('/api/auth/mfa/passkeys', { name: 'Key', response })).statusCode).toBe(400);
    expect((await user.client.get('/api/auth/mfa')).json<{ passkeys: unknown[] }>().passkeys).toHaveLength(1);
  });

  it('the same credential cannot be registered twice, by the same account or another', async () => {
    const owner = await userWithPasskey();
    const other = await signedInUser(t.app);
    const options = await registrationOptions(other.client);
    // A (misbehaving) authenticator answering with a credential that is registered already.
    const copy = owner.authenticator.register(options, { reuse: owner.credential }).response;
    const res = await other.client.post('/api/auth/mfa/passkeys', { name: 'Copy', response: copy });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'This passkey is already registered.' });
    expect((await other.client.get('/api/auth/mfa')).json<{ passkeys: unknown[] }>().passkeys).toEqual([]);
    const again = owner.authenticator.register(await registrationOptions(owner.client), { reuse: owner.credential }).response;
    expect((await owner.client.post('/api/auth/mfa/passkeys', { name: 'Again', response: again })).statusCode).toBe(409);
  });

  it('adding and removing a passkey need a recent password; renaming does not', async () => {
    const user = await userWithPasskey();
    await ageAuthentication(user.client);
    for (const res of [
      await user.client.post('/api/auth/mfa/passkeys/options'),
      await user.client.post('/api/auth/mfa/passkeys', {
        name: 'Key',
        response: user.authenticator.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'x' } }).response,
      }),
      await user.client.delete(`/api/auth/mfa/passkeys/${user.passkeyId}`),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ reauth_required: true });
    }
    expect((await user.client.put(`/api/auth/mfa/passkeys/${user.passkeyId}`, { name: 'Renamed' })).statusCode).toBe(200);
  });
});

describe('renaming and removing', () => {
  it('a passkey is renamed; an empty name is refused; another user’s passkey answers 404 like an unknown one', async () => {
    const user = await userWithPasskey();
    const stranger = await userWithPasskey();
    expect((await user.client.put(`/api/auth/mfa/passkeys/${user.passkeyId}`, { name: 'Work key' })).json()).toMatchObject({
      message: 'Passkey renamed',
    });
    expect((await user.client.get('/api/auth/mfa')).json<{ passkeys: { name: string }[] }>().passkeys[0]?.name).toBe('Work key');
    expect((await user.client.put(`/api/auth/mfa/passkeys/${user.passkeyId}`, { name: '   ' })).json()).toMatchObject({
      message: 'Passkey name is required',
    });

    for (const id of [stranger.passkeyId, '00000000-0000-4000-8000-000000000000']) {
      const rename = await user.client.put(`/api/auth/mfa/passkeys/${id}`, { name: 'Mine now' });
      expect(rename.statusCode).toBe(404);
      expect(rename.json()).toMatchObject({ message: 'Passkey not found' });
      expect((await user.client.delete(`/api/auth/mfa/passkeys/${id}`)).statusCode).toBe(404);
    }
    expect((await stranger.client.get('/api/auth/mfa')).json<{ passkeys: { name: string }[] }>().passkeys).toEqual([
      expect.objectContaining({ name: 'My security key' }),
    ]);
  });

  it('removing the last passkey with TOTP off ends the second factor: the recovery codes go and the password alone signs in', async () => {
    const user = await userWithPasskey();
    const res = await user.client.delete(`/api/auth/mfa/passkeys/${user.passkeyId}`);
    expect(res.json()).toMatchObject({ message: 'Passkey removed' });
    expect((await user.client.get('/api/auth/mfa')).json()).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    const login = await new TestClient(t.app).post('/api/auth/login', { email: user.email, password: user.password });
    expect(login.json()).toMatchObject({ message: 'Login successful.' });
    expect(await audits(user.id, 'mfa_passkey_remove')).toEqual([expect.objectContaining({ action: 'mfa_passkey_remove' })]);
  });

  it('a removed passkey no longer signs in', async () => {
    const user = await userWithPasskey();
    expect((await user.client.delete(`/api/auth/mfa/passkeys/${user.passkeyId}`)).statusCode).toBe(200);
    const browser = new TestClient(t.app);
    const res = await browser.post('/api/auth/login/passkey', { response: user.authenticator.assert(await loginOptions(browser)) });
    expect(res.statusCode).toBe(401);
  });
});

describe('signing in with a passkey alone', () => {
  it('options allow any of the site’s passkeys and require user verification; the answer signs in with a session', async () => {
    const user = await userWithPasskey();
    const browser = new TestClient(t.app);
    const options = await loginOptions(browser);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);

    const res = await browser.post('/api/auth/login/passkey', { response: user.authenticator.assert(options) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Login successful.', user: { id: user.id, username: user.username, email: user.email } });
    expect((await browser.get('/api/auth/check-auth')).statusCode).toBe(200);
    // A fresh sign-in is a recent authentication: export needs no further prompt.
    expect((await browser.get('/api/user/export')).statusCode).toBe(200);
    expect((await audits(user.id, 'login')).at(-1)?.detail).toMatchObject({ method: 'passkey' });
    const listed = (await user.client.get('/api/auth/mfa')).json<{ passkeys: { last_used_at: string | null }[] }>();
    expect(listed.passkeys[0]?.last_used_at).not.toBeNull();
  });

  it('is refused without user verification, from another origin, for another relying party, replayed, or with a counter that went back', async () => {
    const user = await userWithPasskey();
    const browser = new TestClient(t.app);
    const expectRefused = async (response: unknown) => {
      const res = await browser.post('/api/auth/login/passkey', { response });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'That passkey was not accepted. Please try again or use another way to sign in.' });
      expect(res.headers['set-cookie']).toBeUndefined();
    };
    await expectRefused(user.authenticator.assert(await loginOptions(browser), { userVerified: false }));
    await expectRefused(user.authenticator.assert(await loginOptions(browser), { origin: 'https://kinchart.example.net' }));
    await expectRefused(user.authenticator.assert({ ...(await loginOptions(browser)), rpId: 'example.net' }));

    const good = user.authenticator.assert(await loginOptions(browser));
    expect((await browser.post('/api/auth/login/passkey', { response: good })).statusCode).toBe(200);
    await expectRefused(good);

    // A cloned authenticator shows as a signature counter that did not grow.
    await expectRefused(user.authenticator.assert(await loginOptions(browser), { counter: 1 }));
  });

  it('a challenge made for another purpose does not sign in, nor does an unknown credential', async () => {
    const user = await userWithPasskey();
    const reauth = await user.client.post('/api/auth/reauth/options');
    const browser = new TestClient(t.app);
    expect((await browser.post('/api/auth/login/passkey', { response: user.authenticator.assert(reauth.json()) })).statusCode).toBe(401);

    const stranger = createSoftAuthenticator(ORIGIN);
    stranger.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'eA' } });
    expect((await browser.post('/api/auth/login/passkey', { response: stranger.assert(await loginOptions(browser)) })).statusCode).toBe(
      401,
    );
    expect((await browser.post('/api/auth/login/passkey', {})).statusCode).toBe(400);
  });

  it('failed passkey sign-ins count like wrong passwords: after 10, the right passkey answers 429', async () => {
    const user = await userWithPasskey();
    const browser = new TestClient(t.app);
    const remoteAddress = '198.51.100.77';
    for (let i = 0; i < 10; i += 1) {
      const res = await browser.post(
        '/api/auth/login/passkey',
        { response: user.authenticator.assert(await loginOptions(browser), { userVerified: false }) },
        { remoteAddress },
      );
      expect(res.statusCode).toBe(401);
    }
    const res = await browser.post(
      '/api/auth/login/passkey',
      { response: user.authenticator.assert(await loginOptions(browser)) },
      { remoteAddress },
    );
    expect(res.statusCode).toBe(429);
  });
});

describe('a passkey as the second factor', () => {
  it('the right password asks for the passkey; the second step’s challenge lists the account’s passkeys; the answer signs in', async () => {
    const user = await userWithPasskey();
    const browser = new TestClient(t.app);
    const login = await browser.post('/api/auth/login', { email: user.email, password: user.password });
    expect(login.json()).toEqual({ mfa_required: true, methods: ['passkey', 'recovery_code'] });

    const options = await browser.post('/api/auth/login/mfa/options');
    expect(options.statusCode).toBe(200);
    const body = options.json<{ challenge: string; allowCredentials: { id: string }[]; userVerification: string }>();
    expect(body.allowCredentials.map((c) => c.id)).toEqual([user.credential.id.toString('base64url')]);
    expect(body.userVerification).toBe('preferred');

    // A second factor may be a security key without a PIN: user presence is enough here.
    const res = await browser.post('/api/auth/login/mfa', { passkey: user.authenticator.assert(body, { userVerified: false }) });
    expect(res.json()).toMatchObject({ message: 'Login successful.' });
    expect((await browser.get('/api/auth/check-auth')).statusCode).toBe(200);
    expect((await audits(user.id, 'login')).at(-1)?.detail).toMatchObject({ second_factor: 'passkey' });
  });

  it('another account’s passkey, or a challenge of another pending login, does not complete the step', async () => {
    const user = await userWithPasskey();
    const other = await userWithPasskey();
    const browser = new TestClient(t.app);
    await browser.post('/api/auth/login', { email: user.email, password: user.password });
    const options = (await browser.post('/api/auth/login/mfa/options')).json<{ challenge: string }>();
    const wrong = await browser.post('/api/auth/login/mfa', {
      passkey: other.authenticator.assert(options, { credential: other.credential }),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: 'That passkey was not accepted. Please try again or use another way to sign in.' });

    const elsewhere = new TestClient(t.app);
    await elsewhere.post('/api/auth/login', { email: user.email, password: user.password });
    const theirs = (await elsewhere.post('/api/auth/login/mfa/options')).json<{ challenge: string }>();
    expect((await browser.post('/api/auth/login/mfa', { passkey: user.authenticator.assert(theirs) })).statusCode).toBe(401);
    // The recovery code still works as the way back in.
    const recovered = await browser.post('/api/auth/login/mfa', { recovery_code: user.recoveryCodes[0] });
    expect(recovered.statusCode).toBe(200);
  });

  it('the second step’s options need a pending login', async () => {
    const res = await new TestClient(t.app).post('/api/auth/login/mfa/options');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'login_expired' });
  });

  it('with TOTP and a passkey, either finishes the login; turning TOTP off keeps the recovery codes while the passkey stays', async () => {
    const user = await userWithPasskey();
    const setup = await user.client.post('/api/auth/mfa/totp/setup');
    const { secret } = setup.json<{ secret: string }>();
    const { Secret, TOTP } = await import('otpauth');
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const confirmed = await user.client.post('/api/auth/mfa/totp/confirm', { code });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;

    const browser = new TestClient(t.app);
    expect((await browser.post('/api/auth/login', { email: user.email, password: user.password })).json()).toEqual({
      mfa_required: true,
      methods: ['passkey', 'totp', 'recovery_code'],
    });

    expect((await user.client.delete('/api/auth/mfa/totp')).statusCode).toBe(200);
    expect((await user.client.get('/api/auth/mfa')).json()).toMatchObject({ totp: false, recovery_codes_left: 10 });
    expect((await browser.post('/api/auth/login/mfa', { recovery_code: codes[0] })).statusCode).toBe(200);
  });

  it('new recovery codes can be made while only a passkey is on', async () => {
    const user = await userWithPasskey();
    const res = await user.client.post('/api/auth/mfa/recovery-codes');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ recovery_codes: string[] }>().recovery_codes).toHaveLength(10);
  });
});

describe('re-authenticating with a passkey', () => {
  it('a passkey answers the prompt: export then passes without the password', async () => {
    const user = await userWithPasskey();
    await ageAuthentication(user.client);
    expect((await user.client.get('/api/user/export')).statusCode).toBe(401);
    const options = await user.client.post('/api/auth/reauth/options');
    expect(options.json()).toMatchObject({
      userVerification: 'required',
      allowCredentials: [expect.objectContaining({ id: user.credential.id.toString('base64url') })],
    });
    const res = await user.client.post('/api/auth/reauth', { passkey: user.authenticator.assert(options.json()) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Passkey confirmed' });
    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
  });

  it('another account’s passkey, another session’s challenge, or no user verification is refused and counts as a wrong password', async () => {
    const user = await userWithPasskey();
    const other = await userWithPasskey();
    await ageAuthentication(user.client);
    const mine = (await user.client.post('/api/auth/reauth/options')).json<{ challenge: string }>();
    const wrong = await user.client.post('/api/auth/reauth', {
      passkey: other.authenticator.assert(mine, { credential: other.credential }),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'That passkey could not confirm it is you. Please try again.' });

    const theirs = (await other.client.post('/api/auth/reauth/options')).json<{ challenge: string }>();
    expect(
      (await user.client.post('/api/auth/reauth', { passkey: user.authenticator.assert(theirs, { credential: user.credential }) }))
        .statusCode,
    ).toBe(400);
    const unverified = user.authenticator.assert((await user.client.post('/api/auth/reauth/options')).json(), { userVerified: false });
    expect((await user.client.post('/api/auth/reauth', { passkey: unverified })).statusCode).toBe(400);
    expect((await user.client.get('/api/user/export')).statusCode).toBe(401);
    expect((await user.client.post('/api/auth/reauth', { password: 'x', passkey: unverified })).statusCode).toBe(400);
    expect((await user.client.post('/api/auth/reauth', {})).json()).toMatchObject({ message: 'Password is required' });
  });
});

describe('the relying party', () => {
  it('a server reached by an IP address offers no passkeys: options answer 409 and the public settings say so', async () => {
    const ip = await buildTestApp({ PUBLIC_URL: 'http://127.0.0.1:3000' });
    try {
      const res = await ip.app.inject({
        method: 'POST',
        url: '/api/auth/login/passkey/options',
        headers: { origin: 'http://127.0.0.1:3000' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        message: 'Passkeys need this server to be reached by a domain name (PUBLIC_URL), not an IP address.',
      });
      expect((await ip.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ passkeys: false });
    } finally {
      await ip.close();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ passkeys: true });
  });

  it('deleting the account removes its passkeys and their challenges', async () => {
    const user = await userWithPasskey();
    await user.client.post('/api/auth/reauth/options');
    expect((await user.client.delete('/api/auth/deleteAccount', { password: user.password })).statusCode).toBe(200);
    expect(await t.database.db.selectFrom('passkeys').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('webauthn_challenges').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });
});
