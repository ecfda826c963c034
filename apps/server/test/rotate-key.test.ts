import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { KeyRotationError, rotateMasterKey } from '../src/ops/rotate-master-key';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { blobPath, fixture, uploadRecord } from './files-helpers';

// MASTER_KEY rotation (DESIGN §6, decision 0005): every data key is re-wrapped in one transaction and no
// file byte is re-encrypted. Runs on both dialects; the command around it is in operations.test.ts.

const OLD_KEY = Buffer.alloc(32, 7); // buildTestApp's MASTER_KEY
let t: TestApp;
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await t.close();
});

/** A second app on the same database and file store, under another master key. */
async function appWithKey(key: Buffer): Promise<FastifyInstance> {
  const config = loadConfig({
    DATA_DIR: t.dataDir,
    PUBLIC_URL: ORIGIN,
    RATE_LIMIT_PER_MIN: '0',
    LOG_LEVEL: 'silent',
    MASTER_KEY: key.toString('base64'),
  });
  const app = await buildApp({ config, database: t.database, webRoot: null, reminders: TEST_REMINDERS, text: TEST_TEXT });
  await app.ready();
  extraApps.push(app);
  return app;
}

const wrappedKeys = async () =>
  Object.fromEntries(
    (await t.database.db.selectFrom('medical_files').select(['id', 'wrapped_key']).execute()).map((r) => [r.id, r.wrapped_key]),
  );

describe('master key rotation', () => {
  it('re-wraps every data key; files open with the new key, not the old, and their bytes are untouched', async () => {
    const owners = [await signedInUser(t.app), await signedInUser(t.app)];
    const uploads: { owner: number; id: string; url: string; content: Buffer }[] = [];
    for (const [i, owner] of owners.entries()) {
      for (const [name, content] of [
        ['a.pdf', Buffer.concat([fixture('record.pdf'), randomBytes(100_000)])],
        ['b.png', fixture('pixel.png')],
      ] as const) {
        const res = await uploadRecord(owner.client, { filename: name, content });
        expect(res.statusCode).toBe(201);
        uploads.push({ owner: i, id: res.json().id, url: res.json().url, content });
      }
    }
    const blobsBefore = uploads.map((u) => fs.readFileSync(blobPath(t.dataDir, u.id)));
    const keysBefore = await wrappedKeys();
    const newKey = randomBytes(32);

    expect(await rotateMasterKey({ db: t.database.db, oldKey: OLD_KEY, newKey })).toEqual({ rewrapped: 4, alreadyNew: 0 });

    const keysAfter = await wrappedKeys();
    for (const u of uploads) expect(keysAfter[u.id]).not.toBe(keysBefore[u.id]);
    expect(uploads.map((u) => fs.readFileSync(blobPath(t.dataDir, u.id)))).toEqual(blobsBefore);

    const rotated = await appWithKey(newKey);
    for (const u of uploads) {
      const client = new TestClient(rotated);
      client.cookie = owners[u.owner]!.client.cookie;
      const res = await client.get(u.url);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(u.content)).toBe(true);
      // The instance still on the old key can no longer open it.
      expect((await owners[u.owner]!.client.get(u.url)).statusCode).toBe(500);
    }

    // Running it again (after a crash before master.key was replaced, say) changes nothing.
    expect(await rotateMasterKey({ db: t.database.db, oldKey: OLD_KEY, newKey })).toEqual({ rewrapped: 0, alreadyNew: 4 });
    expect(await wrappedKeys()).toEqual(keysAfter);

    // And back, so later tests start from the test app's key.
    expect(await rotateMasterKey({ db: t.database.db, oldKey: newKey, newKey: OLD_KEY })).toEqual({ rewrapped: 4, alreadyNew: 0 });
    expect((await owners[0]!.client.get(uploads[0]!.url)).statusCode).toBe(200);
  });

  it('changes nothing when one data key opens under neither key — all keys move or none does', async () => {
    const { client } = await signedInUser(t.app);
    for (let i = 0; i < 3; i += 1)
      expect((await uploadRecord(client, { filename: `r${i}.pdf`, content: fixture('record.pdf') })).statusCode).toBe(201);
    const ids = Object.keys(await wrappedKeys()).sort();
    // A key wrapped for another row (its associated data names another file) opens nowhere else.
    const keys = await wrappedKeys();
    const middle = ids[Math.floor(ids.length / 2)]!;
    await t.database.db.updateTable('medical_files').set({ wrapped_key: keys[ids[0]!]! }).where('id', '=', middle).execute();
    const before = await wrappedKeys();

    await expect(rotateMasterKey({ db: t.database.db, oldKey: OLD_KEY, newKey: randomBytes(32) })).rejects.toThrow(KeyRotationError);
    expect(await wrappedKeys()).toEqual(before);
    await t.database.db.updateTable('medical_files').set({ wrapped_key: keys[middle]! }).where('id', '=', middle).execute();
  });

  it('refuses a new key equal to the old one', async () => {
    await expect(rotateMasterKey({ db: t.database.db, oldKey: OLD_KEY, newKey: Buffer.from(OLD_KEY) })).rejects.toThrow(
      /same as the current/,
    );
  });
});
