import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, multipartBody } from './files-helpers';
import type { ServerProcess } from './server-process';
import type { EventStream } from './sse-helpers';
import { openEventStream } from './sse-helpers';
import { HttpClient, PASSWORD, createPostgresDatabase, processEmail, signUp, startServer } from './server-process';

// DESIGN §10: N stateless instances on one PostgreSQL database and one S3 endpoint. Two production
// server processes share a fresh database, an s3rver bucket and MASTER_KEY — and nothing else
// (each has its own DATA_DIR, port and memory). Every request names the instance it goes to, the
// way a load balancer might send it. Collected only when TEST_DATABASE_URL is set (vitest.config.ts).

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

// Both instances stand behind one public origin, as behind a load balancer; the browser's Origin is that.
const PUBLIC_URL = 'http://kinchart.test';
// The load balancer names the host the browser asked for (DESIGN §5 Host check; TRUST_PROXY is set).
const FORWARDED_HOST = { 'x-forwarded-host': 'kinchart.test' };

let s3rver: S3rverInstance;
let s3Dir: string;
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
const dataDirs: string[] = [];
let A: ServerProcess;
let B: ServerProcess;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-mi-s3-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true });
  const { port } = await s3rver.run();
  database = await createPostgresDatabase();
  const shared = {
    DATABASE_URL: database.url,
    PUBLIC_URL,
    MASTER_KEY: randomBytes(32).toString('base64'),
    STORAGE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: 'kinchart-multi',
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    // Behind the load balancer the client address comes from X-Forwarded-For, so each test can
    // speak from its own address and the per-address limits stay per test.
    TRUST_PROXY: 'true',
    SIGNUP_LIMIT_PER_HOUR: '10',
  };
  const instance = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-mi-'));
    dataDirs.push(dir);
    return startServer({ ...shared, DATA_DIR: dir });
  };
  // Started together on an empty database and bucket: both migrate and both find (or make) the bucket.
  [A, B] = await Promise.all([instance(), instance()]);
});

afterAll(async () => {
  const instances = [A, B].filter(Boolean);
  const exits = await Promise.all(instances.map((i) => i.stop()));
  await database?.drop();
  await s3rver?.close();
  for (const dir of [s3Dir, ...dataDirs]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  // A clean SIGTERM exit on both, or the logs say why not.
  for (const [i, exit] of exits.entries()) expect(exit, instances[i]?.output()).toEqual({ code: 0, signal: null });
});

/** A client speaking from its own address (X-Forwarded-For, read because TRUST_PROXY is set). */
let addressCounter = 0;
function clientAt(address?: string): HttpClient {
  addressCounter += 1;
  return new HttpClient(PUBLIC_URL, {
    ...FORWARDED_HOST,
    'x-forwarded-for': address ?? `10.60.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`,
  });
}

const statusCounts = (codes: number[]) => codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

describe('two instances on one database and one bucket', () => {
  it('a session made through A works on B, and logging out on B ends it on A', async () => {
    const client = new HttpClient(PUBLIC_URL, FORWARDED_HOST);
    await signUp(client, A.url, A.url);
    expect((await client.get(B.url, '/api/auth/check-auth')).status).toBe(200);
    expect((await client.get(B.url, '/api/user/getPatientProfile')).status).toBe(200);
    const cookie = client.cookie;
    expect((await client.post(B.url, '/api/auth/logout')).status).toBe(200);
    client.cookie = cookie; // the stolen-cookie view: the old token must be dead everywhere
    expect((await client.get(A.url, '/api/auth/check-auth')).status).toBe(401);
    expect((await client.get(B.url, '/api/auth/check-auth')).status).toBe(401);
  });

  it('a file uploaded through A downloads byte-identical through B, and deleting it through B removes it for A', async () => {
    const client = new HttpClient(PUBLIC_URL, FORWARDED_HOST);
    await signUp(client, A.url, B.url);
    const content = Buffer.concat([fixture('record.pdf'), randomBytes(300_000)]);
    const form = multipartBody([
      { name: 'file', filename: 'scan.pdf', content, contentType: 'application/pdf' },
      { name: 'customName', value: 'Knee MRI' },
    ]);
    const created = await client.postMultipart(A.url, '/api/user/files', form);
    expect(created.status, created.body.toString()).toBe(201);
    const record = created.json();
    const listed = (await client.get(B.url, '/api/user/files')).json<{ id: string; name: string }[]>();
    expect(listed.map((f) => [f.id, f.name])).toEqual([[record.id, 'Knee MRI']]);
    const download = await client.get(B.url, record.url as string);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(download.body.equals(content)).toBe(true);

    expect((await client.delete(B.url, `/api/user/files/${record.id as string}`)).status).toBe(200);
    expect((await client.get(A.url, record.url as string)).status).toBe(404);
    expect((await client.get(A.url, '/api/user/files')).json()).toEqual([]);
  });

  it('a PIN view through A reaches the owner’s notification stream on B (LISTEN/NOTIFY), and no one else’s', async () => {
    const owner = clientAt();
    await signUp(owner, A.url);
    const other = clientAt();
    await signUp(other, B.url);
    const setUp = await owner.post(A.url, '/api/user/wearable-qr', { pin: '4826' });
    expect(setUp.status).toBe(201);
    const shareId = setUp.json().share_id as string;
    const streams: EventStream[] = [];
    try {
      const onB = await openEventStream(`${B.url}/api/user/notifications/stream`, { ...FORWARDED_HOST, cookie: owner.cookie ?? '' });
      const otherOnB = await openEventStream(`${B.url}/api/user/notifications/stream`, { ...FORWARDED_HOST, cookie: other.cookie ?? '' });
      const otherOnA = await openEventStream(`${A.url}/api/user/notifications/stream`, { ...FORWARDED_HOST, cookie: other.cookie ?? '' });
      streams.push(onB, otherOnB, otherOnA);
      for (const s of streams) expect(s.status).toBe(200);
      expect((await clientAt().get(A.url, `/api/user/emergency/${shareId}?pin=4826`)).status).toBe(200);
      const event = await onB.waitFor((e) => e.event === 'notification', 10_000);
      const pushed = JSON.parse(event.data) as { notification_id: string; type: string };
      expect(pushed.type).toBe('qr_access');
      const listed = (await owner.get(B.url, '/api/user/notifications')).json<{ notification_id: string }[]>();
      expect(listed.map((n) => n.notification_id)).toContain(pushed.notification_id);
      // A later notification of the other user's own arrives on their streams: by then the view's
      // NOTIFY has reached every listener, and theirs carried nothing of it.
      const theirs = await other.post(B.url, '/api/user/wearable-qr', { pin: '4826' });
      expect(theirs.status).toBe(201);
      for (const s of [otherOnB, otherOnA]) {
        await s.waitFor((e) => e.event === 'notification', 10_000);
        expect(s.events.map((e) => (JSON.parse(e.data) as { type: string }).type)).toEqual(['qr_setup']);
      }
    } finally {
      // One stream stays open on purpose: SIGTERM in afterAll must still exit cleanly (code 0).
      for (const s of streams.slice(1)) s.close();
    }
  });

  it('wrong PINs spread across A and B lock the code after the same 5 as on one instance', async () => {
    /** Wrong PINs sent round-robin to `instances` until the code answers 429; returns the 401 count. */
    async function wrongPinsUntilLocked(instances: ServerProcess[]): Promise<{ wrong: number; remaining: number[] }> {
      const owner = new HttpClient(PUBLIC_URL, FORWARDED_HOST);
      await signUp(owner, instances[0]!.url);
      const setUp = await owner.post(instances[0]!.url, '/api/user/wearable-qr', { pin: '4826' });
      expect(setUp.status).toBe(201);
      const shareId = setUp.json().share_id as string;
      const stranger = new HttpClient(PUBLIC_URL, FORWARDED_HOST);
      const remaining: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const res = await stranger.get(instances[i % instances.length]!.url, `/api/user/emergency/${shareId}?pin=135${i % 10}`);
        if (res.status === 429) {
          // Locked everywhere, even for the right PIN.
          for (const other of instances)
            expect((await stranger.get(other.url, `/api/user/emergency/${shareId}?pin=4826`)).status).toBe(429);
          return { wrong: i, remaining };
        }
        expect(res.status).toBe(401);
        remaining.push(res.json().remainingAttempts as number);
      }
      throw new Error('the code never locked');
    }
    const one = await wrongPinsUntilLocked([A]);
    const two = await wrongPinsUntilLocked([A, B]);
    expect(one).toEqual({ wrong: 5, remaining: [4, 3, 2, 1, 0] });
    expect(two).toEqual(one);
  });

  it('concurrent writes through both instances lose nothing', async () => {
    const client = new HttpClient(PUBLIC_URL, FORWARDED_HOST);
    await signUp(client, A.url);
    const via = (i: number) => (i % 2 === 0 ? A : B).url;
    const writes = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        client.post(via(i), '/api/user/appointments', {
          appointment_date: `2026-11-${String(i + 1).padStart(2, '0')}`,
          start_time: null,
          end_time: null,
          provider_name: `Dr. Parallel ${i}`,
          reason_for_visit: null,
          location: null,
        }),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        client.post(via(i + 1), '/api/user/emergency-contacts', {
          name: `Contact ${i}`,
          relationship: 'Friend',
          phone_number: '555-0100',
          is_primary: false,
          has_medical_power: false,
        }),
      ),
    ]);
    expect(writes.map((w) => w.status)).toEqual(Array(40).fill(201));

    const expectedProviders = Array.from({ length: 20 }, (_, i) => `Dr. Parallel ${i}`).sort();
    const expectedContacts = Array.from({ length: 20 }, (_, i) => `Contact ${i}`).sort();
    for (const instance of [A, B]) {
      const appointments = (await client.get(instance.url, '/api/user/appointments')).json<{ provider_name: string }[]>();
      expect(appointments.map((a) => a.provider_name).sort()).toEqual(expectedProviders);
      const profile = (await client.get(instance.url, '/api/user/getPatientProfile')).json();
      const contacts = profile.emergency_contacts as { name: string }[];
      expect(contacts.map((c) => c.name).sort()).toEqual(expectedContacts);
    }
  });

  it('100 parallel wrong logins for one account spread across A and B get at most 10 answers of 401, the rest 429', async () => {
    const owner = clientAt();
    const { email } = await signUp(owner, A.url);
    const guesser = clientAt();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        guesser.post((i % 2 === 0 ? A : B).url, '/api/auth/login', { email, password: `wrong-${i}-password` }),
      ),
    );
    expect(statusCounts(results.map((r) => r.status))).toEqual({ 401: 10, 429: 90 });
  });

  it('parallel wrong logins for one account from 10 addresses, spread across A and B, stop at the account ceiling of 30', async () => {
    const owner = clientAt();
    const { email } = await signUp(owner, A.url);
    const guessers = Array.from({ length: 10 }, () => clientAt());
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        guessers[i % 10]!.post((i % 2 === 0 ? A : B).url, '/api/auth/login', { email, password: `wrong-${i}-password` }),
      ),
    );
    expect(statusCounts(results.map((r) => r.status))).toEqual({ 401: 30, 429: 30 });
  });

  it('100 parallel wrong logins across accounts from one address spread across A and B stop at the per-address ceiling of 50', async () => {
    const guesser = clientAt();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        guesser.post((i % 2 === 0 ? A : B).url, '/api/auth/login', { email: processEmail(`nobody${i}-`), password: 'wrong password!' }),
      ),
    );
    expect(statusCounts(results.map((r) => r.status))).toEqual({ 401: 50, 429: 50 });
  });

  it('parallel wrong PINs across several codes from one address, spread across A and B, are held to 30 an hour', async () => {
    const shareIds = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const owner = clientAt();
        await signUp(owner, A.url);
        const setUp = await owner.post(A.url, '/api/user/wearable-qr', { pin: '4826' });
        expect(setUp.status).toBe(201);
        return setUp.json().share_id as string;
      }),
    );
    const stranger = clientAt();
    // Four wrong PINs per code stay under each code's own lock; 48 in all are over the address limit.
    const results = await Promise.all(
      shareIds.flatMap((shareId, n) =>
        Array.from({ length: 4 }, (_, i) => stranger.get((n + i) % 2 === 0 ? A.url : B.url, `/api/user/emergency/${shareId}?pin=135${i}`)),
      ),
    );
    expect(statusCounts(results.map((r) => r.status))).toEqual({ 401: 30, 429: 18 });
    const limited = results.find((r) => r.status === 429);
    expect(limited?.json().message).toMatch(/this network/);
  });

  it('sign-ups from one address spread across A and B stop at 10 an hour', async () => {
    const address = '10.61.0.1';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        clientAt(address).post((i % 2 === 0 ? A : B).url, '/api/auth/signup', {
          email: processEmail('many'),
          password: PASSWORD,
          username: 'Pat Example',
        }),
      ),
    );
    expect(statusCounts(results.map((r) => r.status))).toEqual({ 201: 10, 429: 10 });
  });
});
