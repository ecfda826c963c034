import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationSchema } from '@kinchart/shared/notifications';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, dialect, signedInUser } from './helpers';
import { fillProfile, selfProfileId } from './factories';
import type { EventStream } from './sse-helpers';
import { openEventStream } from './sse-helpers';

// DESIGN §7: new notifications reach the owner's open pages at once, as server-sent events, read
// here over a real HTTP connection.

let t: TestApp;
let base: string;
const streams: EventStream[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
});

async function stream(cookie?: string) {
  const s = await openEventStream(`${base}/api/user/notifications/stream`, cookie ? { cookie } : {});
  streams.push(s);
  return s;
}

let addressCounter = 0;
async function viewWithPin(shareId: string, pin: string) {
  addressCounter += 1;
  return new TestClient(t.app).get(`/api/user/emergency/${shareId}?pin=${pin}`, { remoteAddress: `10.77.0.${addressCounter}` });
}

describe('the notification stream', () => {
  it('needs a session: 401 JSON without one', async () => {
    const s = await stream();
    expect(s.status).toBe(401);
    expect(s.headers['content-type']).toMatch(/application\/json/);
    await s.ended;
    expect(JSON.parse(s.body())).toHaveProperty('message');
  });

  it('is an event stream that is never cached', async () => {
    const owner = await signedInUser(t.app);
    const s = await stream(owner.client.cookie);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(s.headers['cache-control']).toBe('no-store');
    s.close();
  });

  it("a PIN view reaches the owner's open stream as the list's notification, and another user's stream gets nothing", async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
    const setup = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    expect(setup.statusCode).toBe(201);
    const shareId = setup.json<{ share_id: string }>().share_id;

    const mine = await stream(owner.client.cookie);
    const theirs = await stream(other.client.cookie);
    expect((await viewWithPin(shareId, '4826')).statusCode).toBe(200);

    const event = await mine.waitFor((e) => e.event === 'notification' && JSON.parse(e.data).type === 'qr_access', 5_000);
    const pushed = notificationSchema.parse(JSON.parse(event.data));
    const listed = (await owner.client.get('/api/user/notifications')).json<unknown[]>();
    expect(listed).toContainEqual(pushed);
    expect(pushed.data.message).not.toContain('Penicillin');

    // A second view within 15 minutes updates the same notification with the count, and the
    // update reaches the open stream too (issue 30). By then the other stream has had every chance
    // to hear of the views, and heard nothing.
    await owner.client.put('/api/user/wearable-qr/update-pin', { pin: '5937' });
    expect((await viewWithPin(shareId, '5937')).statusCode).toBe(200);
    const updated = await mine.waitFor((e) => e.event === 'notification' && /opened 2 times/.test(JSON.parse(e.data).data.message), 5_000);
    expect(JSON.parse(updated.data).notification_id).toBe(pushed.notification_id);
    expect(theirs.events).toEqual([]);
  });

  it('a stream whose session has signed out hears nothing more: the next notification ends it instead', async () => {
    const owner = await signedInUser(t.app);
    await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
    const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).json<{ share_id: string }>().share_id;
    const s = await stream(owner.client.cookie);
    expect(s.status).toBe(200);
    expect((await owner.client.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await viewWithPin(shareId, '4826')).statusCode).toBe(200);
    await s.ended;
    expect(s.events).toEqual([]);
  });

  // PostgreSQL only: the SQLite bus is in process and has no connection to lose. Collected only on
  // that dialect (like the multi-instance suite), so no run reports a skipped test.
  if (dialect === 'postgres') {
    it('listens again after losing its PostgreSQL connection, and open streams go on hearing', async () => {
      const owner = await signedInUser(t.app);
      await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
      const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).json<{ share_id: string }>().share_id;
      const s = await stream(owner.client.cookie);
      const listeners = async () =>
        (
          await sql<{
            pid: number;
          }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN kinchart_notifications'`.execute(
            t.database.db,
          )
        ).rows.map((r) => r.pid);
      const [first] = await listeners();
      expect(first).toBeTypeOf('number');
      await sql`SELECT pg_terminate_backend(${first})`.execute(t.database.db);
      const deadline = Date.now() + 15_000;
      for (;;) {
        const now = await listeners();
        if (now.length === 1 && now[0] !== first) break;
        if (Date.now() > deadline) throw new Error('the listener did not come back');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await viewWithPin(shareId, '4826')).statusCode).toBe(200);
      await s.waitFor((e) => e.event === 'notification', 5_000);
    });
  }

  it('ends open streams when the server closes, so shutdown is not held up', async () => {
    const other = await buildTestApp();
    await other.app.listen({ host: '127.0.0.1', port: 0 });
    const user = await signedInUser(other.app);
    const s = await openEventStream(`http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}/api/user/notifications/stream`, {
      cookie: user.client.cookie ?? '',
    });
    expect(s.status).toBe(200);
    await other.close();
    await s.ended;
  });
});
