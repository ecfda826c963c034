// Single sign-on with OpenID Connect (docs/decisions/0029), against a real provider on loopback
// (test/oidc-provider.ts): the authorization code flow with PKCE, linking by verified email, new
// accounts by SIGNUP_MODE, the second factor kept, re-authentication, and every way a callback can
// be refused. The browser is played by a cookie jar: Kinchart's answers come through `inject`, the
// provider's over real HTTP.
import { Secret, TOTP } from 'otpauth';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { sha256Hex } from '../src/lib/ids';
import { createAuthRepository } from '../src/features/auth/auth.repository';
import { loggerOptions, redactUrl } from '../src/plugins/logging';
import type { TestApp } from './helpers';
import { ORIGIN, appWithCapturedLog, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import type { TestProvider } from './oidc-provider';
import { signInAtProvider, startOidcProvider } from './oidc-provider';

const REDIRECT_URI = `${ORIGIN}/api/auth/oidc/callback`;

/** A browser: every cookie Kinchart sets (session, pending second step, sign-on marker), and our Origin on writes. */
class Browser {
  readonly cookies = new Map<string, string>();
  /** Headers the browser sends on every request (Accept-Language, issue 35). */
  headers: Record<string, string> = {};
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        origin: ORIGIN,
        ...this.headers,
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      if (line.includes('Max-Age=0') || line.includes('Expires=Thu, 01 Jan 1970') || pair.slice(eq + 1) === '') this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
    return res;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);

  async whoAmI(): Promise<string | null> {
    const res = await this.get('/api/auth/check-auth');
    return res.statusCode === 200 ? res.json<{ user: { id: string } }>().user.id : null;
  }
}

let provider: TestProvider;
let t: TestApp;
let accountCounter = 0;

const ssoEnv = (p: TestProvider, extra: Record<string, string> = {}) => ({
  OIDC_ISSUER: p.issuer,
  OIDC_CLIENT_ID: p.clientId,
  OIDC_CLIENT_SECRET: p.clientSecret,
  OIDC_NAME: 'Acme ID',
  ...extra,
});

/** An account at the provider, by a fresh login name. */
function providerAccount(claims: { email?: string; email_verified?: boolean; name?: string; preferred_username?: string }): string {
  accountCounter += 1;
  const login = `acct-${accountCounter}`;
  provider.accounts.set(login, claims);
  return login;
}

/** Start in `browser`, sign in at the provider as `login`; answers the authorization URL and the callback address. */
async function throughProvider(app: FastifyInstance, browser: Browser, login: string, body: object = { purpose: 'login' }) {
  const start = await browser.post('/api/auth/oidc/start', body);
  expect(start.statusCode, start.body).toBe(200);
  const authorizationUrl = new URL(start.json<{ url: string }>().url);
  const callback = await signInAtProvider(authorizationUrl.href, login, REDIRECT_URI);
  return { authorizationUrl, callbackPath: callback.slice(ORIGIN.length) };
}

/** The whole sign-in: start, provider, callback. Answers the callback's answer. */
async function ssoSignIn(app: FastifyInstance, browser: Browser, login: string, body: object = { purpose: 'login' }) {
  const { callbackPath } = await throughProvider(app, browser, login, body);
  const res = await browser.get(callbackPath);
  expect(res.statusCode).toBe(303);
  return { res, location: res.headers.location as string, callbackPath };
}

/**
 * A password account whose email is proven (DESIGN §5): in the product by its emailed link
 * (email-verification.test.ts); this suite has no SMTP, so the proof is written as the link would.
 */
async function provenUser(app: TestApp = t) {
  const user = await signedInUser(app.app);
  await app.database.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', user.id).execute();
  return user;
}

const identities = (userId: string) =>
  t.database.db.selectFrom('oidc_identities').select(['issuer', 'subject']).where('user_id', '=', userId).execute();
const audits = (userId: string, action: string) =>
  t.database.db.selectFrom('audit_events').select(['detail']).where('user_id', '=', userId).where('action', '=', action).execute();

beforeAll(async () => {
  provider = await startOidcProvider(REDIRECT_URI);
  t = await buildTestApp(ssoEnv(provider));
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/kinchart-oidc-config' };

  it('single sign-on is on only with issuer, client id and secret; the name defaults to SSO', () => {
    expect(loadConfig(base).oidc).toBeUndefined();
    expect(loadConfig({ ...base, OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }).oidc).toEqual({
      issuer: 'https://id.example.org',
      clientId: 'c',
      clientSecret: 's',
      name: 'SSO',
      allowInsecureRequests: false,
    });
    expect(
      loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_NAME: 'Acme' }).oidc,
    ).toMatchObject({
      name: 'Acme',
      allowInsecureRequests: true,
    });
  });

  it('a partial set, an http issuer elsewhere than this machine, or a lone OIDC_NAME stops the start with one line naming the variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'c' }, 'OIDC_CLIENT_SECRET'],
      [{ OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }, 'OIDC_ISSUER'],
      [{ OIDC_ISSUER: 'http://id.example.org', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }, 'OIDC_ISSUER: must be an https://'],
      [{ OIDC_ISSUER: 'ftp://id.example.org', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }, 'OIDC_ISSUER'],
      [{ OIDC_NAME: 'Acme' }, 'OIDC_NAME'],
    ];
    for (const [env, names] of cases) {
      expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...env })).toThrow(`Invalid configuration: ${names}`);
    }
  });

  it('GET /api/config names the provider for the buttons, and says null without one', async () => {
    expect((await new Browser(t.app).get('/api/config')).json()).toMatchObject({ sso: { name: 'Acme ID' } });
    const plain = await buildTestApp();
    try {
      expect((await new Browser(plain.app).get('/api/config')).json()).toMatchObject({ sso: null });
      // Without a provider both routes answer 404 with words, before the body is read.
      const start = await new Browser(plain.app).post('/api/auth/oidc/start', { purpose: 'nonsense' });
      expect(start.statusCode).toBe(404);
      expect(start.json()).toMatchObject({ message: 'Single sign-on is not set up on this server.' });
      expect((await new Browser(plain.app).get('/api/auth/oidc/callback?state=x&code=y')).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('starting a sign-on', () => {
  it('sends the browser to the provider with PKCE (S256), state, nonce and the openid email profile scope, and binds it to this browser', async () => {
    const browser = new Browser(t.app);
    const res = await browser.post('/api/auth/oidc/start', { purpose: 'login', next: '/invite/abc' });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json<{ url: string }>().url);
    expect(url.origin).toBe(provider.issuer);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(provider.clientId);
    expect(q.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(q.get('prompt')).toBeNull();
    const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('oidc='));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Max-Age=600');
    // The server keeps the verifier, the nonce and the path back, under the state's hash only.
    const row = await t.database.db
      .selectFrom('oidc_requests')
      .selectAll()
      .where('id', '=', sha256Hex(q.get('state') ?? ''))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'login', next: '/invite/abc', session_id: null, nonce: q.get('nonce') });
    expect(row.browser_hash).toBe(sha256Hex(browser.cookies.get('oidc') ?? ''));
  });

  it('refuses a bad body with 400, a cross-site request with 403, and a re-authentication without a session with 401', async () => {
    const browser = new Browser(t.app);
    for (const body of [
      {},
      { purpose: 'admin' },
      { purpose: 'login', next: '//evil.example/' },
      { purpose: 'login', next: 'https://evil.example/' },
      { purpose: 'login', next: '/\\evil' },
    ]) {
      const res = await browser.post('/api/auth/oidc/start', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json<{ message: string }>().message).toBe('string');
    }
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/start',
      payload: { purpose: 'login' },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await browser.post('/api/auth/oidc/start', { purpose: 'reauth' })).statusCode).toBe(401);
    expect(browser.cookies.has('oidc')).toBe(false);
  });

  it('answers 503 with words when the provider cannot be reached, and counts nothing against the address', async () => {
    const down = await buildTestApp({ OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' });
    try {
      const res = await new Browser(down.app, '198.51.100.77').post('/api/auth/oidc/start', { purpose: 'login' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        message: 'Single sign-on is not available right now. Please try again later, or log in with your password.',
      });
      expect(await down.database.db.selectFrom('oidc_attempts').selectAll().execute()).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it('holds an address to 30 unfinished sign-ons in 15 minutes; a finished one is given back', async () => {
    const address = '198.51.100.30';
    const email = uniqueEmail('limit');
    const login = providerAccount({ email, email_verified: true, name: 'Lim It' });
    const done = await ssoSignIn(t.app, new Browser(t.app, address), login);
    expect(done.location).toBe('/dashboard');
    for (let i = 0; i < 30; i += 1)
      expect((await new Browser(t.app, address).post('/api/auth/oidc/start', { purpose: 'login' })).statusCode).toBe(200);
    const refused = await new Browser(t.app, address).post('/api/auth/oidc/start', { purpose: 'login' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.json()).toMatchObject({ message: 'Too many sign-in attempts. Please try again in 15 minutes.' });
    // Another address is not held.
    expect((await new Browser(t.app, '198.51.100.31').post('/api/auth/oidc/start', { purpose: 'login' })).statusCode).toBe(200);
  });
});

describe('signing in', () => {
  it('a first sign-in links the account that has the verified email, and gives a working session', async () => {
    const user = await provenUser();
    const login = providerAccount({ email: user.email.toUpperCase(), email_verified: true, name: 'Pat at Acme' });
    const browser = new Browser(t.app);
    const { location } = await ssoSignIn(t.app, browser, login, { purpose: 'login', next: '/settings' });
    expect(location).toBe('/settings');
    expect(await browser.whoAmI()).toBe(user.id);
    // The sign-on marker is spent; the session is a normal one.
    expect(browser.cookies.has('oidc')).toBe(false);
    expect((await browser.get('/api/user/getPatientProfile')).statusCode).toBe(200);
    expect(await identities(user.id)).toEqual([{ issuer: provider.issuer, subject: login }]);
    expect(await audits(user.id, 'oidc_link')).toEqual([{ detail: JSON.stringify({ purpose: 'login' }) }]);
    expect((await audits(user.id, 'login')).map((a) => a.detail)).toContain(JSON.stringify({ method: 'oidc' }));
    // The password still works as before.
    expect((await new Browser(t.app).post('/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('a second sign-in finds the link even after the email changed at the provider', async () => {
    const user = await provenUser();
    const login = providerAccount({ email: user.email, email_verified: true });
    await ssoSignIn(t.app, new Browser(t.app), login);
    provider.accounts.set(login, { email: uniqueEmail('moved'), email_verified: false });
    const browser = new Browser(t.app);
    const { location } = await ssoSignIn(t.app, browser, login);
    expect(location).toBe('/dashboard');
    expect(await browser.whoAmI()).toBe(user.id);
    expect(await identities(user.id)).toHaveLength(1);
  });

  it('an email the provider did not verify neither signs in nor links', async () => {
    const user = await provenUser();
    for (const claims of [{ email: user.email, email_verified: false }, { email: user.email }, {}]) {
      const browser = new Browser(t.app);
      const { location } = await ssoSignIn(t.app, browser, providerAccount(claims));
      expect(location).toBe('/login?sso_error=unverified');
      expect(browser.cookies.has('sid')).toBe(false);
      expect(await browser.whoAmI()).toBeNull();
    }
    expect(await identities(user.id)).toEqual([]);
  });

  it('a verified email nobody uses makes a new account when sign-up is open, named from the provider, with no usable password', async () => {
    const email = uniqueEmail('newcomer');
    const browser = new Browser(t.app);
    const { location } = await ssoSignIn(
      t.app,
      browser,
      providerAccount({ email, email_verified: true, name: '  Robin\u202E Newcomer  ' }),
    );
    expect(location).toBe('/dashboard');
    const me = await browser.get('/api/auth/check-auth');
    expect(me.json()).toMatchObject({ user: { email, username: 'Robin Newcomer' } });
    const row = await t.database.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(await audits(row.id, 'signup')).toEqual([{ detail: JSON.stringify({ method: 'oidc' }) }]);
    expect(await identities(row.id)).toHaveLength(1);
    // The own profile exists like any sign-up's.
    expect((await browser.get('/api/user/getPatientProfile')).statusCode).toBe(200);
  });

  it('a new account by single sign-on takes its language and units from the browser’s Accept-Language (issue 35)', async () => {
    const email = uniqueEmail('lisboa');
    const browser = new Browser(t.app);
    browser.headers = { 'accept-language': 'pt-PT,pt;q=0.9,en;q=0.5' };
    const { location } = await ssoSignIn(t.app, browser, providerAccount({ email, email_verified: true, name: 'Rita' }));
    expect(location).toBe('/dashboard');
    expect((await browser.get('/api/user/preferences')).json()).toMatchObject({ language: 'pt-BR', language_set: true, units: 'metric' });
  });

  it('makes no account when sign-up is by invitation or closed, but still signs in an existing one', async () => {
    for (const mode of ['invite', 'closed']) {
      const app = await buildTestApp(ssoEnv(provider, { SIGNUP_MODE: mode }));
      try {
        const email = uniqueEmail(`no-${mode}`);
        const browser = new Browser(app.app);
        const { location } = await ssoSignIn(app.app, browser, providerAccount({ email, email_verified: true }));
        expect(location).toBe('/login?sso_error=no_account');
        expect(await app.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
        expect(await browser.whoAmI()).toBeNull();
        // An account made before the server closed sign-up can still use single sign-on.
        const known = uniqueEmail(`known-${mode}`);
        const id = await createAuthRepository(app.database.db).createUser({ email: known, username: 'Known', passwordHash: 'not-a-hash' });
        await app.database.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', id).execute();
        const member = new Browser(app.app);
        expect((await ssoSignIn(app.app, member, providerAccount({ email: known, email_verified: true }))).location).toBe('/dashboard');
        expect(await member.whoAmI()).toBe(id);
      } finally {
        await app.close();
      }
    }
  });

  it('an account with a second factor on gets the second step, not a session', async () => {
    const user = await provenUser();
    const setup = await user.client.post('/api/auth/mfa/totp/setup');
    const { secret } = setup.json<{ secret: string }>();
    const code = (at: number) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
    expect((await user.client.post('/api/auth/mfa/totp/confirm', { code: code(Date.now() - 30_000) })).statusCode).toBe(200);

    const browser = new Browser(t.app);
    const { location } = await ssoSignIn(t.app, browser, providerAccount({ email: user.email, email_verified: true }), {
      purpose: 'login',
      next: '/settings',
    });
    expect(location).toBe('/login?second_factor=totp%2Crecovery_code&next=%2Fsettings');
    expect(browser.cookies.has('sid')).toBe(false);
    expect(browser.cookies.has('mfa')).toBe(true);
    expect(await browser.whoAmI()).toBeNull();
    // The login page's existing second step finishes it.
    const second = await browser.post('/api/auth/login/mfa', { code: code(Date.now()) });
    expect(second.statusCode, second.body).toBe(200);
    expect(await browser.whoAmI()).toBe(user.id);
  });
});

describe('an account whose email is not proven', () => {
  /** Someone signs up with a password and an email that is not theirs, and never follows its link. */
  async function squatter(email = uniqueEmail('victim')) {
    return signedInUser(t.app, { email, password: 'squatter password one' });
  }
  const linkRows = () => t.database.db.selectFrom('oidc_link_requests').selectAll().execute();

  it('someone who registered another person’s email with a password does not get that person’s single sign-on', async () => {
    const attacker = await squatter();
    const victim = new Browser(t.app);
    const { location } = await ssoSignIn(
      t.app,
      victim,
      providerAccount({ email: attacker.email, email_verified: true, name: 'Real Owner' }),
    );
    expect(location).toBe('/link-account');
    expect(victim.cookies.has('sid')).toBe(false);
    expect(await victim.whoAmI()).toBeNull();
    expect(await identities(attacker.id)).toEqual([]);
    // The screen asks for that account's password and names the address and the provider, nothing more.
    const info = await victim.get('/api/auth/oidc/link');
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({ email: attacker.email, provider: 'Acme ID' });
    // Without the password nothing links, however often the victim signs in.
    const wrong = await victim.post('/api/auth/oidc/link', { password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: 'Password is incorrect' });
    expect(await identities(attacker.id)).toEqual([]);
    expect(await victim.whoAmI()).toBeNull();
  });

  it('the account’s password links it and signs in; its email is then proven and the next sign-in links directly', async () => {
    const user = await signedInUser(t.app);
    const login = providerAccount({ email: user.email, email_verified: true });
    const browser = new Browser(t.app);
    const { location } = await ssoSignIn(t.app, browser, login, { purpose: 'login', next: '/invite/abc' });
    expect(location).toBe('/link-account?next=%2Finvite%2Fabc');
    const res = await browser.post('/api/auth/oidc/link', { password: user.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Login successful.', user: { id: user.id } });
    expect(await browser.whoAmI()).toBe(user.id);
    expect(await identities(user.id)).toEqual([{ issuer: provider.issuer, subject: login }]);
    expect(await audits(user.id, 'oidc_link')).toEqual([{ detail: JSON.stringify({ purpose: 'login', confirmed: 'password' }) }]);
    const row = await t.database.db.selectFrom('users').select('email_verified_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
    // The pending link is spent.
    expect((await browser.post('/api/auth/oidc/link', { password: user.password })).statusCode).toBe(404);
    const again = new Browser(t.app);
    expect((await ssoSignIn(t.app, again, login)).location).toBe('/dashboard');
    expect(await again.whoAmI()).toBe(user.id);
  });

  it('a proven email links automatically; after an email change it is unproven again and the password is asked', async () => {
    const user = await provenUser();
    const newEmail = uniqueEmail('changed');
    expect((await user.client.put('/api/auth/change-email', { newEmail, password: user.password })).statusCode).toBe(200);
    const browser = new Browser(t.app);
    expect((await ssoSignIn(t.app, browser, providerAccount({ email: newEmail, email_verified: true }))).location).toBe('/link-account');
    expect(await identities(user.id)).toEqual([]);
  });

  it('the password step belongs to the browser that came back from the provider, and lasts 10 minutes', async () => {
    const user = await squatter();
    const browser = new Browser(t.app);
    await ssoSignIn(t.app, browser, providerAccount({ email: user.email, email_verified: true }));
    const elsewhere = new Browser(t.app);
    expect((await elsewhere.get('/api/auth/oidc/link')).statusCode).toBe(404);
    expect((await elsewhere.post('/api/auth/oidc/link', { password: user.password })).statusCode).toBe(404);
    const rows = (await linkRows()).filter((r) => r.user_id === user.id);
    expect(rows).toHaveLength(1);
    expect(Date.parse(rows[0]!.expires_at) - Date.parse(rows[0]!.created_at)).toBe(10 * 60_000);
    await t.database.db
      .updateTable('oidc_link_requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const late = await browser.post('/api/auth/oidc/link', { password: user.password });
    expect(late.statusCode).toBe(404);
    expect(late.json<{ message: string }>().message).toContain('expired');
    expect(await identities(user.id)).toEqual([]);
  });

  it('wrong passwords count as failed logins: 10, then 429 even with the right one', async () => {
    const user = await squatter();
    const browser = new Browser(t.app, '198.51.100.90');
    await ssoSignIn(t.app, browser, providerAccount({ email: user.email, email_verified: true }));
    for (let i = 0; i < 10; i += 1)
      expect((await browser.post('/api/auth/oidc/link', { password: `wrong password ${i}` })).statusCode).toBe(401);
    const refused = await browser.post('/api/auth/oidc/link', { password: 'squatter password one' });
    expect(refused.statusCode).toBe(429);
    expect(await identities(user.id)).toEqual([]);
  });

  it('an empty or missing password is a 400 naming the field, and a cross-site post is refused', async () => {
    const browser = new Browser(t.app);
    for (const body of [{}, { password: '' }, { password: 5 }]) {
      const res = await browser.post('/api/auth/oidc/link', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('assword');
    }
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/link',
      payload: { password: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('an account with a second factor gets the second step after its password', async () => {
    const user = await signedInUser(t.app);
    const setup = await user.client.post('/api/auth/mfa/totp/setup');
    const { secret } = setup.json<{ secret: string }>();
    const code = (at: number) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
    expect((await user.client.post('/api/auth/mfa/totp/confirm', { code: code(Date.now() - 30_000) })).statusCode).toBe(200);
    const browser = new Browser(t.app);
    await ssoSignIn(t.app, browser, providerAccount({ email: user.email, email_verified: true }));
    const res = await browser.post('/api/auth/oidc/link', { password: user.password });
    expect(res.json()).toEqual({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    expect(browser.cookies.has('mfa')).toBe(true);
    expect(await browser.whoAmI()).toBeNull();
    expect((await browser.post('/api/auth/login/mfa', { code: code(Date.now()) })).statusCode).toBe(200);
    expect(await browser.whoAmI()).toBe(user.id);
  });
});

describe('refused callbacks', () => {
  it('a callback address works once: the same address again is refused', async () => {
    const user = await provenUser();
    const browser = new Browser(t.app);
    const { callbackPath } = await ssoSignIn(t.app, browser, providerAccount({ email: user.email, email_verified: true }));
    const again = new Browser(t.app);
    for (const [k, v] of browser.cookies) if (k !== 'sid') again.cookies.set(k, v);
    const replay = await again.get(callbackPath);
    expect(replay.headers.location).toBe('/login?sso_error=expired');
    expect(await again.whoAmI()).toBeNull();
  });

  it('a callback in another browser than the one that started is refused, and spends the sign-on', async () => {
    const user = await provenUser();
    const login = providerAccount({ email: user.email, email_verified: true });
    const started = new Browser(t.app);
    const { callbackPath } = await throughProvider(t.app, started, login, { purpose: 'login', next: '/settings' });
    const elsewhere = new Browser(t.app);
    elsewhere.cookies.set('oidc', 'x'.repeat(43));
    const res = await elsewhere.get(callbackPath);
    expect(res.headers.location).toBe('/login?sso_error=browser&next=%2Fsettings');
    expect(await elsewhere.whoAmI()).toBeNull();
    expect((await new Browser(t.app).get(callbackPath)).headers.location).toBe('/login?sso_error=expired');
    expect((await started.get(callbackPath)).headers.location).toBe('/login?sso_error=expired');
    expect(await identities(user.id)).toEqual([]);
  });

  it('a sign-on older than 10 minutes is refused', async () => {
    const user = await provenUser();
    const browser = new Browser(t.app);
    const { authorizationUrl, callbackPath } = await throughProvider(
      t.app,
      browser,
      providerAccount({ email: user.email, email_verified: true }),
    );
    const id = sha256Hex(authorizationUrl.searchParams.get('state') ?? '');
    await t.database.db
      .updateTable('oidc_requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await browser.get(callbackPath)).headers.location).toBe('/login?sso_error=expired');
    expect(await browser.whoAmI()).toBeNull();
  });

  it('a callback without a state, with an unknown one, or with the provider saying no is refused with its own code', async () => {
    const browser = new Browser(t.app);
    expect((await browser.get('/api/auth/oidc/callback')).headers.location).toBe('/login?sso_error=expired');
    expect((await browser.get('/api/auth/oidc/callback?code=abc&state=unknown')).headers.location).toBe('/login?sso_error=expired');
    const start = await browser.post('/api/auth/oidc/start', { purpose: 'login' });
    const state = new URL(start.json<{ url: string }>().url).searchParams.get('state') ?? '';
    const denied = await browser.get(`/api/auth/oidc/callback?error=access_denied&state=${state}`);
    expect(denied.headers.location).toBe('/login?sso_error=denied');
  });

  it('a code whose PKCE verifier is not the one the server kept is refused by the provider', async () => {
    const user = await provenUser();
    const browser = new Browser(t.app);
    const { authorizationUrl, callbackPath } = await throughProvider(
      t.app,
      browser,
      providerAccount({ email: user.email, email_verified: true }),
    );
    const id = sha256Hex(authorizationUrl.searchParams.get('state') ?? '');
    await t.database.db
      .updateTable('oidc_requests')
      .set({ code_verifier: 'a'.repeat(43) })
      .where('id', '=', id)
      .execute();
    expect((await browser.get(callbackPath)).headers.location).toBe('/login?sso_error=failed');
    expect(await browser.whoAmI()).toBeNull();
  });
});

describe('re-authentication', () => {
  async function staleSession() {
    const user = await signedInUser(t.app);
    const browser = new Browser(t.app);
    const login = await browser.post('/api/auth/login', { email: user.email, password: user.password });
    expect(login.statusCode).toBe(200);
    const sid = browser.cookies.get('sid') ?? '';
    const at = new Date(Date.now() - 20 * 60_000).toISOString();
    await t.database.db
      .updateTable('sessions')
      .set({ authenticated_at: at })
      .where('id', '=', sha256Hex(decodeURIComponent(sid)))
      .execute();
    expect((await browser.get('/api/user/export')).json()).toMatchObject({ reauth_required: true });
    return { user, browser };
  }

  it('confirming through the provider marks this session re-authenticated: the export then goes through without a password', async () => {
    const { user, browser } = await staleSession();
    const login = providerAccount({ email: user.email, email_verified: true });
    const { authorizationUrl, callbackPath } = await throughProvider(t.app, browser, login, {
      purpose: 'reauth',
      next: '/settings?tab=security',
    });
    // The provider is asked to sign the person in again, whatever session it has.
    expect(authorizationUrl.searchParams.get('prompt')).toBe('login');
    expect(authorizationUrl.searchParams.get('max_age')).toBe('0');
    const res = await browser.get(callbackPath);
    expect(res.headers.location).toBe('/settings?tab=security&sso=confirmed');
    expect(await browser.whoAmI()).toBe(user.id);
    expect((await browser.get('/api/user/export')).statusCode).toBe(200);
    expect((await audits(user.id, 'reauthenticate')).map((a) => a.detail)).toEqual([JSON.stringify({ method: 'oidc' })]);
  });

  it("another person's provider account does not re-authenticate this session", async () => {
    const { browser } = await staleSession();
    const other = await provenUser();
    const { callbackPath } = await throughProvider(t.app, browser, providerAccount({ email: other.email, email_verified: true }), {
      purpose: 'reauth',
      next: '/settings',
    });
    expect((await browser.get(callbackPath)).headers.location).toBe('/settings?sso_error=other_account');
    expect((await browser.get('/api/user/export')).json()).toMatchObject({ reauth_required: true });
    // Nor is that provider account linked to the other person's account on the way (decision 0030).
    expect(await identities(other.id)).toEqual([]);
  });

  it('a re-authentication that comes back without its session goes to the login page', async () => {
    const { user, browser } = await staleSession();
    const { callbackPath } = await throughProvider(t.app, browser, providerAccount({ email: user.email, email_verified: true }), {
      purpose: 'reauth',
      next: '/settings',
    });
    await browser.post('/api/auth/logout');
    // Logging out ended the session, and the sign-on that named it with it.
    expect((await browser.get(callbackPath)).headers.location).toBe('/login?sso_error=expired');
  });
});

describe('logs', () => {
  it('the callback’s code and state never reach the request log', async () => {
    expect(redactUrl('/api/auth/oidc/callback?code=SECRETCODE&state=SECRETSTATE&iss=x')).toBe(
      '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=x',
    );
    const { app, log } = await appWithCapturedLog(t, loggerOptions('info') as object);
    try {
      const user = await provenUser();
      const browser = new Browser(app);
      const { callbackPath } = await throughProvider(
        app,
        browser,
        providerAccount({ email: user.email, email_verified: true, name: 'Logged Person' }),
      );
      const url = new URL(callbackPath, ORIGIN);
      const res = await browser.get(callbackPath);
      expect(res.headers.location).toBe('/dashboard');
      const written = log();
      expect(written).toContain('/api/auth/oidc/callback?code=[redacted]&state=[redacted]');
      for (const secret of [url.searchParams.get('code') ?? '', url.searchParams.get('state') ?? '', user.email, 'Logged Person']) {
        expect(secret.length).toBeGreaterThan(0);
        expect(written).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  });
});
