import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp } from './helpers';

// DESIGN §5 CSRF: a write must come from PUBLIC_URL's origin or from the request's own origin —
// scheme, host and port all three. PUBLIC_URL here is another host, so only the own-origin rule
// can let these requests through.

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'http://kinchart.example' });
  proxied = await buildTestApp({ PUBLIC_URL: 'https://kinchart.example', TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await t.close();
  await proxied.close();
});

const logout = (app: TestApp, headers: Record<string, string>) => app.app.inject({ method: 'POST', url: '/api/auth/logout', headers });

describe('the CSRF origin check compares scheme, host and port', () => {
  it('a page on the same host and port over plain http may write to an http deployment', async () => {
    expect((await logout(t, { host: 'app.internal:8080', origin: 'http://app.internal:8080' })).statusCode).toBe(200);
    expect((await logout(t, { host: 'app.internal', origin: 'http://app.internal:80' })).statusCode).toBe(200);
  });

  it('an https origin with the same host is refused on an http deployment, and so is another port', async () => {
    const scheme = await logout(t, { host: 'app.internal:8080', origin: 'https://app.internal:8080' });
    expect(scheme.statusCode).toBe(403);
    expect(scheme.json()).toEqual({ message: 'Cross-origin request refused' });
    expect((await logout(t, { host: 'app.internal:8080', origin: 'http://app.internal:8081' })).statusCode).toBe(403);
    expect((await logout(t, { host: 'app.internal', referer: 'https://app.internal/dashboard' })).statusCode).toBe(403);
  });

  it('behind a trusted proxy the scheme is the one the browser used', async () => {
    const https = { host: 'app.internal', 'x-forwarded-proto': 'https' };
    expect((await logout(proxied, { ...https, origin: 'https://app.internal' })).statusCode).toBe(200);
    expect((await logout(proxied, { ...https, origin: 'http://app.internal' })).statusCode).toBe(403);
  });
});
