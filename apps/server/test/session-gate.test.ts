// Every route of the app answers 401 without a session — before its body is parsed or validated —
// unless it is public by design. The routes come from Fastify's own route table, so a route added
// later is checked without anyone remembering to list it here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, registeredRoutes } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/**
 * Answer without a session by design: health, the server's public settings, sign-up and login
 * (its second step, which has its own pending-login marker, and signing in with a passkey alone,
 * each with its challenge), logout (idempotent), the way back in (forgot and reset password, and
 * the reset page's look at its link), an emailed link proving an email (its token is the proof),
 * single sign-on's start, the provider's callback and the password step of linking an account (a sign-in itself; a re-authentication
 * through it checks the session in the service), and the public emergency, share-link, SMART Health Link (manifest
 * and file location) and invitation reads, and the API reference: the OpenAPI document and its page
 * (docs/decisions/0040).
 */
const PUBLIC = [
  /^\/api\/health$/,
  /^\/api\/config$/,
  /^\/api\/auth\/(signup|login|login\/mfa|login\/mfa\/options|login\/passkey|login\/passkey\/options|logout|forgot-password|reset-password|verify-email|oidc\/start|oidc\/callback|oidc\/link)$/,
  /^\/api\/user\/(family\/)?emergency\/:shareId(\/fhir)?$/,
  /^\/api\/shared\//,
  /^\/shl\//,
  /^\/shl-files\//,
  /^\/api\/invitations\/:token$/,
  /^\/api\/calendar\/:file$/,
  /^\/api\/push-actions$/,
  /^\/api\/openapi\.json$/,
  /^\/api\/docs(\/|$)/,
];

describe('without a session', () => {
  it('the route table is read whole (guards the parser in helpers)', () => {
    const routes = registeredRoutes(t.app).map(({ method, path }) => `${method} ${path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'DELETE /api/user/emergency-contacts/:contact_id',
        'PUT /api/user/family/members/:id/qr/pin',
        'DELETE /api/user/files/*',
        'GET /api/user/appointments.ics',
        'GET /api/user/files/:id/content',
        'PUT /api/user/notifications/:id/hide',
        'POST /shl/:manifestId',
        'DELETE /api/auth/sessions/:id',
        'POST /api/auth/reauth',
      ]),
    );
    expect(routes.length).toBeGreaterThan(50);
  });

  it('every private route answers 401 to a request with a wrong body, not 400', async () => {
    const anon = new TestClient(t.app);
    const gated = registeredRoutes(t.app).filter(({ path }) => !PUBLIC.some((pattern) => pattern.test(path)));
    expect(gated.length).toBeGreaterThan(40);
    for (const { method, path } of gated) {
      const url = path.replace(/:[A-Za-z_]+/g, 'some-id').replace('*', 'some-name');
      // Every field of the wrong type or format: validation would answer 400 if it ran first.
      const body = method === 'GET' || method === 'DELETE' ? undefined : { pin: '12', name: 7, newName: '', fileIds: 'x', password: null };
      const res = await anon.request(method, url, body);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json(), `${method} ${path}`).toMatchObject({ message: 'Not authenticated' });
    }
  });
});
