import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, buildTestApp, signedInUser } from './helpers';

// DESIGN §5: the Host header must be PUBLIC_URL's host — or, when PUBLIC_URL is on this machine
// (the local default), any loopback name — so a DNS-rebinding page cannot read the API through a
// name of its own. The port is not compared: a proxy in front may listen on another one.

const UNKNOWN_HOST = { message: 'This server does not answer for that host name. Use the address in PUBLIC_URL.' };

let local: TestApp;
let deployed: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  local = await buildTestApp();
  deployed = await buildTestApp({ PUBLIC_URL: 'https://kinchart.example' });
  proxied = await buildTestApp({ PUBLIC_URL: 'https://kinchart.example', TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await local.close();
  await deployed.close();
  await proxied.close();
});

const get = (app: TestApp, url: string, headers: Record<string, string>) => app.app.inject({ method: 'GET', url, headers });

describe('the Host header', () => {
  it('on the local default, every loopback name and port answers, and a rebinding name is refused with 421', async () => {
    const user = await signedInUser(local.app);
    for (const host of ['localhost:3000', 'localhost', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:80']) {
      const res = await get(local, '/api/auth/check-auth', { host, cookie: user.client.cookie ?? '' });
      expect(res.statusCode, host).toBe(200);
    }
    for (const host of ['attacker.example', 'attacker.example:3000', 'localhost.attacker.example', '127.0.0.2']) {
      const res = await get(local, '/api/auth/check-auth', { host, cookie: user.client.cookie ?? '' });
      expect(res.statusCode, host).toBe(421);
      expect(res.json(), host).toMatchObject(UNKNOWN_HOST);
      expect(res.headers['cache-control'], host).toBe('no-store');
    }
  });

  it('a deployment answers only its PUBLIC_URL host, on pages and API alike, whatever the port', async () => {
    expect((await get(deployed, '/api/auth/check-auth', { host: 'kinchart.example' })).statusCode).toBe(401);
    expect((await get(deployed, '/api/auth/check-auth', { host: 'kinchart.example:3000' })).statusCode).toBe(401);
    expect((await get(deployed, '/api/auth/check-auth', { host: 'localhost:3000' })).statusCode).toBe(421);
    expect((await get(deployed, '/dashboard', { host: 'evil.example' })).statusCode).toBe(421);
    const write = await deployed.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: 'evil.example', origin: 'http://evil.example' },
      payload: {},
    });
    expect(write.statusCode).toBe(421);
  });

  it('a load balancer may check /api/health by address', async () => {
    const res = await get(deployed, '/api/health', { host: '10.0.0.7:3000' });
    expect(res.statusCode).toBe(200);
  });

  it('behind a trusted proxy the host is the one the browser asked for (X-Forwarded-Host)', async () => {
    expect((await get(proxied, '/api/auth/check-auth', { host: '10.0.0.7:3000', 'x-forwarded-host': 'kinchart.example' })).statusCode).toBe(
      401,
    );
    expect((await get(proxied, '/api/auth/check-auth', { host: 'kinchart.example', 'x-forwarded-host': 'evil.example' })).statusCode).toBe(
      421,
    );
    // Without TRUST_PROXY the header is anyone's to write, and is not read.
    expect((await get(deployed, '/api/auth/check-auth', { host: 'evil.example', 'x-forwarded-host': 'kinchart.example' })).statusCode).toBe(
      421,
    );
  });

  it('an absolute-form request line naming another host is refused, whatever the Host header says', async () => {
    await local.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = local.app.server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('GET http://attacker.example/api/auth/check-auth HTTP/1.1\r\nHost: localhost:3000\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(Number(text.split(' ')[1])));
    });
    expect(status).toBe(421);
  });
});

describe('JSON bodies', () => {
  it('a body that is not valid UTF-8 is refused with 400, never stored with replacement characters', async () => {
    const user = await signedInUser(local.app);
    const bad = Buffer.concat([Buffer.from('{"username":"Pat '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await user.client.request('PUT', '/api/user/updateProfile', undefined, {
      payload: bad,
      headers: { 'content-type': 'application/json', origin: ORIGIN },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The request body is not valid UTF-8' });
    const profile = (await user.client.get('/api/user/getPatientProfile')).body;
    expect(profile).not.toContain('\uFFFD');
  });
});
