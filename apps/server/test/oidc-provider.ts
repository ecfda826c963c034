// A real OpenID Connect provider on loopback for the single sign-on tests (docs/decisions/0029):
// the `oidc-provider` package (the certified node implementation), with its development login and
// consent pages, one confidential client, and accounts whose claims each test sets. Nothing about
// the protocol is mocked: discovery, the authorization code with PKCE, the token endpoint, signed
// ID tokens and UserInfo are the package's own. e2e/lib/oidc-provider.mjs starts the same for the
// browser journeys.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The claims a test gives an account at the provider (`sub` is the account's login name). */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name; change them between sign-ins like an administrator would. */
  accounts: Map<string, ProviderAccount>;
  close(): Promise<void>;
}

export const CLIENT_ID = 'kinchart';
export const CLIENT_SECRET = 'a-client-secret-for-tests-only-0123456789';

/** Starts a provider on 127.0.0.1 (an ephemeral port) whose one client returns to `redirectUri`. */
export async function startOidcProvider(redirectUri: string): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // The login page's name is the account's `sub`; an account nobody set up has no email.
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    cookies: { keys: ['kinchart-test-provider-cookie-key'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    // Set, so the provider does not print a notice for each default it falls back on.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  handler = provider.callback();
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The value of the first `attribute="…"` after `from` in `html` (plain string work, no regular expression). */
function attributeAfter(html: string, from: number, attribute: string): string | undefined {
  const start = html.indexOf(`${attribute}="`, from);
  if (start < 0) return undefined;
  const valueStart = start + attribute.length + 2;
  return html.slice(valueStart, html.indexOf('"', valueStart));
}

/** The `action` of the page's form and its hidden `prompt` ("login" or "consent"). */
function formOf(html: string): { action: string; prompt: string } {
  const form = html.indexOf('<form');
  const action = form < 0 ? undefined : attributeAfter(html, form, 'action');
  const promptField = html.indexOf('name="prompt"');
  const prompt = promptField < 0 ? undefined : attributeAfter(html, promptField, 'value');
  if (!action || !prompt) throw new Error(`the provider showed no form: ${html.slice(0, 300)}`);
  return { action: action.replaceAll('&amp;', '&'), prompt };
}

/**
 * A browser at the provider: follows `authorizationUrl` through the development login page (as
 * `login`) and the consent page, carrying the provider's cookies in `jar`, until the provider sends
 * the browser to `redirectUri`. Answers that address (the callback, with its code and state).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  redirectUri: string,
  jar: Map<string, string> = new Map(),
): Promise<string> {
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(redirectUri)) return url;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      if (line.toLowerCase().includes('expires=thu, 01 jan 1970') || pair.slice(eq + 1) === '') jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
    const form = formOf(html);
    url = new URL(form.action, url).href;
    method = 'POST';
    body = new URLSearchParams(
      form.prompt === 'login' ? { prompt: 'login', login, password: 'any password' } : { prompt: form.prompt },
    ).toString();
  }
  throw new Error('the provider never sent the browser back');
}
