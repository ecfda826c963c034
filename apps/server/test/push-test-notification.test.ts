// Issue 32: Settings → "Send a test notification" — POST /api/user/push-subscriptions/{id}/test sends
// one push at once, so a user sees that reminders reach the device. In process (the loopback push
// service trusted through the app's agent), and as the production server in a process of its own
// that trusts the service's certificate through NODE_EXTRA_CA_CERTS, as an operator would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import type { LoopbackPush } from './push-helpers';
import { startLoopbackPush } from './push-helpers';
import type { ServerProcess } from './server-process';
import { HttpClient, signUp, startServer } from './server-process';

let push: LoopbackPush;
let t: TestApp;
beforeAll(async () => {
  push = await startLoopbackPush();
  t = await buildTestApp({ PUSH_ALLOWED_HOSTS: push.host }, { reminders: { timer: false, pushAgent: push.agent } });
});
afterAll(async () => {
  await t.close();
  await push.close();
});

describe('a test notification', () => {
  it('reaches the device at once, VAPID-signed and encrypted, naming nobody', async () => {
    const user = await signedInUser(t.app);
    const device = push.subscription();
    const { id } = (await user.client.post('/api/user/push-subscriptions', device.json)).json<{ id: string }>();
    const sent = await user.client.post(`/api/user/push-subscriptions/${id}/test`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ message: 'Test notification sent' });
    const [arrived] = await push.pushesTo(device.id, 1);
    expect(arrived?.payload).toEqual({
      title: 'Kinchart',
      body: 'Reminders will appear on this device.',
      tag: 'kinchart-test',
      url: '/settings',
    });
    expect(arrived?.claims.aud).toBe(push.origin);
  });

  it('another user’s subscription, or one that does not exist, is 404; one the push service forgot is removed', async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const device = push.subscription();
    const { id } = (await owner.client.post('/api/user/push-subscriptions', device.json)).json<{ id: string }>();
    expect((await other.client.post(`/api/user/push-subscriptions/${id}/test`)).statusCode).toBe(404);
    expect((await owner.client.post('/api/user/push-subscriptions/nothing-here/test')).statusCode).toBe(404);

    push.gone(device.id);
    const gone = await owner.client.post(`/api/user/push-subscriptions/${id}/test`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: 'Push subscription not found' });
    expect((await owner.client.get('/api/user/push-subscriptions')).json().subscriptions).toEqual([]);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/push-subscriptions/x/test',
      headers: { origin: 'http://localhost:3000' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the production server trusts a push service through NODE_EXTRA_CA_CERTS', () => {
  let dir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-push-ca-'));
    const ca = path.join(dir, 'push-ca.pem');
    fs.writeFileSync(ca, push.cert);
    server = await startServer({
      DATA_DIR: path.join(dir, 'data'),
      PUBLIC_URL: 'http://127.0.0.1',
      PUSH_ALLOWED_HOSTS: push.host,
      NODE_EXTRA_CA_CERTS: ca,
    });
  });
  afterAll(async () => {
    await server.stop('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends to the loopback https endpoint with no agent of the test’s own', async () => {
    const client = new HttpClient('http://127.0.0.1');
    await signUp(client, server.url);
    const device = push.subscription();
    const created = await client.post(server.url, '/api/user/push-subscriptions', device.json);
    expect(created.status, created.body.toString()).toBe(201);
    const sent = await client.post(server.url, `/api/user/push-subscriptions/${created.json<{ id: string }>().id}/test`);
    expect(sent.status, `${sent.body.toString()}\n${server.output()}`).toBe(200);
    const [arrived] = await push.pushesTo(device.id, 1);
    expect(arrived?.payload).toMatchObject({ title: 'Kinchart', tag: 'kinchart-test' });
  });
});
