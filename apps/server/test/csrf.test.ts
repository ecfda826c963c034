import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, buildTestApp, signedInUser } from './helpers';

// DESIGN §5 CSRF: a write must come from PUBLIC_URL's origin or from the request's own origin —
// scheme, host and port all three — decided on the route that will answer, never on how the URL
// is spelled. The own-origin rule is what lets another port or scheme of PUBLIC_URL's host through.

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
    expect((await logout(t, { host: 'kinchart.example:8080', origin: 'http://kinchart.example:8080' })).statusCode).toBe(200);
    expect((await logout(t, { host: 'kinchart.example', origin: 'http://kinchart.example:80' })).statusCode).toBe(200);
  });

  it('an https origin with the same host is refused on an http deployment, and so is another port', async () => {
    const scheme = await logout(t, { host: 'kinchart.example:8080', origin: 'https://kinchart.example:8080' });
    expect(scheme.statusCode).toBe(403);
    expect(scheme.json()).toMatchObject({ message: 'Cross-origin request refused' });
    expect((await logout(t, { host: 'kinchart.example:8080', origin: 'http://kinchart.example:8081' })).statusCode).toBe(403);
    expect((await logout(t, { host: 'kinchart.example:8080', referer: 'https://kinchart.example:8080/dashboard' })).statusCode).toBe(403);
  });

  it('behind a trusted proxy the scheme is the one the browser used', async () => {
    const https = { host: 'kinchart.example', 'x-forwarded-proto': 'https' };
    expect((await logout(proxied, { ...https, origin: 'https://kinchart.example' })).statusCode).toBe(200);
    expect((await logout(proxied, { ...https, origin: 'http://kinchart.example' })).statusCode).toBe(403);
  });
});

/** One request written on a socket as is: the URL exactly as spelled (inject and fetch would tidy it). */
function rawRequest(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(headers.split(' ')[1]), headers: headers.toLowerCase(), body });
    });
  });
}

describe('the CSRF origin check does not depend on how the URL is spelled', () => {
  let local: TestApp;
  let port: number;
  beforeAll(async () => {
    local = await buildTestApp();
    await local.app.listen({ port: 0, host: '127.0.0.1' });
    port = (local.app.server.address() as AddressInfo).port;
  });
  afterAll(() => local.close());

  const foreign = (line: string, cookie: string) =>
    `${line} HTTP/1.1\r\nHost: localhost:3000\r\nOrigin: http://evil.example\r\nCookie: ${cookie}`;

  it('a foreign page cannot sign a user out with a percent-encoded or absolute-form API path, and the refusal is never cached', async () => {
    const user = await signedInUser(local.app);
    const cookie = user.client.cookie ?? '';
    for (const line of [
      'POST /%61pi/auth/logout',
      'POST /api/auth/%6cogout',
      'POST http://localhost:3000/api/auth/logout',
      'POST http://localhost:3000/%61pi/auth/logout',
    ]) {
      const res = await rawRequest(port, foreign(line, cookie));
      expect(res.status, line).toBe(403);
      expect(JSON.parse(res.body), line).toMatchObject({ message: 'Cross-origin request refused' });
      expect(res.headers, line).toContain('cache-control: no-store');
    }
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(200);
  });

  it('a foreign page cannot import into a signed-in user’s record through a re-spelled path', async () => {
    const user = await signedInUser(local.app);
    const res = await rawRequest(port, foreign('POST /%61pi/user/import', user.client.cookie ?? ''));
    expect(res.status).toBe(403);
  });

  it('a write to a path no route answers is refused too when it comes from another origin', async () => {
    const res = await local.app.inject({ method: 'POST', url: '/no-such-page', headers: { origin: 'http://evil.example' } });
    expect(res.statusCode).toBe(403);
    const own = await local.app.inject({ method: 'POST', url: '/no-such-page', headers: { origin: ORIGIN } });
    expect(own.statusCode).toBe(404);
  });
});
