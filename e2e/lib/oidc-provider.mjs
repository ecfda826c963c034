// A real OpenID Connect provider on loopback for the browser journeys (docs/decisions/0029), the
// same package and set-up as the API tests' (apps/server/test/oidc-provider.ts): `oidc-provider`
// with its development login and consent pages and one confidential client. e2e/run.mjs starts it
// before the server and gives the server its OIDC_* settings.
//
// Journeys run in another process, so accounts are not set up ahead: the name typed on the
// provider's login page is the account. `someone@example.test` has that email, verified;
// `unverified:someone@example.test` has it unverified.
import http from 'node:http';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'kinchart-e2e';
export const CLIENT_SECRET = 'a-client-secret-for-the-e2e-run-only-0123456789';
const UNVERIFIED = 'unverified:';

/** The claims of the account typed as `login` on the provider's page. */
export function claimsOf(login) {
  const unverified = login.startsWith(UNVERIFIED);
  const email = unverified ? login.slice(UNVERIFIED.length) : login;
  return { sub: login, email, email_verified: !unverified, name: email.split('@')[0] };
}

/** Starts the provider on `host` (an ephemeral port); its one client returns to `redirectUri`. */
export async function startOidcProvider(host, redirectUri) {
  let handler = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(0, host, resolve));
  const issuer = `http://${host}:${server.address().port}`;
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
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => claimsOf(id) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['kinchart-e2e-provider-cookie-key'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  handler = provider.callback();
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
