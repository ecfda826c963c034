// The per-account storage quota (DESIGN §5, STORAGE_QUOTA_MB; docs/decisions/0012-reimport-and-quota.md):
// uploads and imports that would take an account past it are refused with 413 naming the quota, and
// leave nothing behind; Settings reads the space used from GET /api/user/storage.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, dialect, signedInUser } from './helpers';
import { exportZip, importFile, snapshotAccount } from './export-helpers';
import { storedBlobs, upload, uploadRecord } from './files-helpers';

const MiB = 1024 * 1024;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ STORAGE_QUOTA_MB: '1' });
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Plain text of `kib` KiB (an allowed type; text is sniffed, not trusted). */
const text = (kib: number, fill = 'a') => Buffer.alloc(kib * 1024, fill);

async function state(user: User) {
  return { data: await snapshotAccount(t.database.db, user.id, user.client), blobs: storedBlobs(t.dataDir).committed.sort() };
}

describe('storage quota on uploads', () => {
  it('a user cannot upload past the quota: 413 naming it, and neither a row nor a blob is left', async () => {
    const user = await signedInUser(t.app);
    expect((await uploadRecord(user.client, { filename: 'first.txt', content: text(700) })).statusCode).toBe(201);
    const before = await state(user);

    const record = await uploadRecord(user.client, { filename: 'second.txt', content: text(400, 'b') }, { customName: 'Second' });
    expect(record.statusCode, record.body).toBe(413);
    expect(record.json().message).toMatch(/^Storage quota of 1 MB reached: /);

    const quick = await upload(user.client, '/api/user/upload', [{ name: 'file', filename: 'third.txt', content: text(400, 'c') }]);
    expect(quick.statusCode, quick.body).toBe(413);
    expect(quick.json().message).toMatch(/^Storage quota of 1 MB reached: /);

    expect(await state(user)).toEqual(before);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  });

  it('a user can fill the quota exactly, and each account has its own', async () => {
    const a = await signedInUser(t.app);
    const b = await signedInUser(t.app);
    expect((await uploadRecord(a.client, { filename: 'half.txt', content: text(512) })).statusCode).toBe(201);
    expect((await uploadRecord(a.client, { filename: 'other-half.txt', content: text(512, 'b') })).statusCode).toBe(201);
    expect((await uploadRecord(b.client, { filename: 'b.txt', content: text(900) })).statusCode).toBe(201);
  });

  it('two parallel uploads that only one of fits: exactly one is stored', async () => {
    const user = await signedInUser(t.app);
    // Make the two inserting transactions overlap: each, once its work is done, holds its commit until
    // the other's work is done too. A check that takes no lock then sees neither row and lets both in.
    // With the lock the second waits for the first, which goes on after a while (the only wait here,
    // not an assertion). SQLite has one connection and one writer: there the second cannot begin
    // before the first ends, so nothing is held.
    const db = t.database.db;
    const original = db.transaction.bind(db);
    let done = 0;
    let bothDone: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (bothDone = resolve));
    const spy = vi.spyOn(db, 'transaction').mockImplementation(() => {
      const real = original();
      return {
        execute: <T>(fn: (trx: Parameters<Parameters<typeof real.execute>[0]>[0]) => Promise<T>) =>
          real.execute(async (trx) => {
            const result = await fn(trx);
            done += 1;
            if (done === 2) bothDone();
            if (dialect === 'postgres') await Promise.race([together, new Promise((resolve) => setTimeout(resolve, 1500))]);
            return result;
          }),
      } as unknown as ReturnType<typeof db.transaction>;
    });
    let answers;
    try {
      answers = await Promise.all(
        ['a', 'b'].map((fill) => uploadRecord(user.client, { filename: `${fill}.txt`, content: text(600, fill) })),
      );
    } finally {
      spy.mockRestore();
    }
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 413]);
    const rows = await db.selectFrom('medical_files').select('size').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => Number(r.size))).toEqual([600 * 1024]);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  });
});

describe('storage quota on imports', () => {
  it('a user cannot import files past the quota: 413 naming it, and the account is as it was', async () => {
    const source = await signedInUser(t.app);
    expect((await uploadRecord(source.client, { filename: 'scan.txt', content: text(600) }, { customName: 'Scan' })).statusCode).toBe(201);
    const zip = await exportZip(source.client);

    const target = await signedInUser(t.app);
    expect((await uploadRecord(target.client, { filename: 'mine.txt', content: text(600, 'm') })).statusCode).toBe(201);
    const before = await state(target);
    const res = await importFile(target.client, zip, 'export.zip');
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toMatch(/^Storage quota of 1 MB reached: /);
    expect(await state(target)).toEqual(before);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  });

  it('a FHIR Bundle whose documents do not fit is refused the same way', async () => {
    const user = await signedInUser(t.app);
    expect((await uploadRecord(user.client, { filename: 'mine.txt', content: text(600) })).statusCode).toBe(201);
    const before = await state(user);
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: 'urn:uuid:d1',
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            content: [{ attachment: { contentType: 'text/plain', title: 'notes.txt', data: text(600, 'n').toString('base64') } }],
          },
        },
      ],
    };
    const res = await importFile(user.client, Buffer.from(JSON.stringify(bundle)), 'bundle.json');
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toMatch(/^Storage quota of 1 MB reached: /);
    expect(await state(user)).toEqual(before);
  });

  it('files already in the account are not counted again when a user re-imports an export', async () => {
    const user = await signedInUser(t.app);
    expect((await uploadRecord(user.client, { filename: 'scan.txt', content: text(600) }, { customName: 'Scan' })).statusCode).toBe(201);
    const res = await importFile(user.client, await exportZip(user.client), 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported.files).toBe(0);
  });
});

describe('GET /api/user/storage', () => {
  it('a user sees the space their files take and the quota, in bytes', async () => {
    const user = await signedInUser(t.app);
    expect((await user.client.get('/api/user/storage')).json()).toEqual({ used_bytes: 0, quota_bytes: MiB });
    expect((await uploadRecord(user.client, { filename: 'a.txt', content: text(300) })).statusCode).toBe(201);
    const res = await user.client.get('/api/user/storage');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ used_bytes: 300 * 1024, quota_bytes: MiB });
  });

  it('needs a session', async () => {
    expect((await new TestClient(t.app).get('/api/user/storage')).statusCode).toBe(401);
  });
});
