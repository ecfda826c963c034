import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { fixture, storedBlobs, uploadRecord } from './files-helpers';
import { sweepOrphanBlobs } from '../src/features/files/file-orphans';
import { createS3BlobStore } from '../src/storage/s3-blob-store';

// DESIGN §10: the S3 driver, against s3rver started here on loopback (random port, temporary directory).
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const BUCKET = 'kinchart-test';
const PDF = fixture('record.pdf');
const DOCX = fixture('letter.docx');

let s3rver: S3rverInstance;
let s3Dir: string;
let endpoint: string;
let t: TestApp;
let s3: S3Client;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-s3rver-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  const env = {
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  t = await buildTestApp(env);
  s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});
afterAll(async () => {
  await t?.close();
  s3?.destroy();
  await s3rver?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

async function objectKeys(): Promise<string[]> {
  const res = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (res.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const res = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

describe('S3 blob store', () => {
  it('round-trips PDF and DOCX byte for byte, keeping only ciphertext in the bucket', async () => {
    const { client } = await signedInUser(t.app);
    for (const [name, content] of [
      ['r.pdf', PDF],
      ['l.docx', DOCX],
    ] as const) {
      const record = (await uploadRecord(client, { filename: name, content })).json();
      expect(await objectKeys()).toContain(`files/${record.id}`);
      const stored = await objectBytes(`files/${record.id}`);
      expect(stored.includes(Buffer.from('%PDF'))).toBe(false);
      expect(stored.includes(content.subarray(0, 30))).toBe(false);
      const res = await client.get(record.url);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(content)).toBe(true);
    }
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  });

  it('refuses a changed object rather than serving altered bytes', async () => {
    const { client } = await signedInUser(t.app);
    const record = (await uploadRecord(client, { filename: 'r.pdf', content: PDF })).json();
    const stored = await objectBytes(`files/${record.id}`);
    stored[30] = (stored[30] ?? 0) ^ 1;
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `files/${record.id}`, Body: stored }));
    expect((await client.get(record.url)).statusCode).toBe(500);
  });

  it('stores nothing for a refused upload and removes the object when the record or account is deleted', async () => {
    const user = await signedInUser(t.app);
    const before = await objectKeys();
    const refused = await uploadRecord(user.client, { filename: 'x.pdf', content: Buffer.from('<html></html>') });
    expect(refused.statusCode).toBe(415);
    expect(await objectKeys()).toEqual(before);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);

    const a = (await uploadRecord(user.client, { filename: 'a.pdf', content: PDF })).json();
    const b = (await uploadRecord(user.client, { filename: 'b.pdf', content: PDF })).json();
    expect((await user.client.delete(`/api/user/files/${a.id}`)).statusCode).toBe(200);
    expect(await objectKeys()).not.toContain(`files/${a.id}`);
    expect((await user.client.delete('/api/auth/deleteAccount', { password: user.password })).statusCode).toBe(200);
    expect(await objectKeys()).not.toContain(`files/${b.id}`);
  });

  it('sweeps objects that have no record', async () => {
    const orphan = 'files/2d2d2d2d-0000-4000-8000-000000000000';
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: orphan, Body: Buffer.from('left behind') }));
    const { client } = await signedInUser(t.app);
    const kept = (await uploadRecord(client, { filename: 'k.pdf', content: PDF })).json();
    const blobs = createS3BlobStore({
      endpoint,
      bucket: BUCKET,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      spoolDir: path.join(t.dataDir, 'files', '.tmp'),
    });
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const result = await sweepOrphanBlobs({ db: t.database.db, blobs, log: log as never, graceMs: -60_000 });
    expect(result.removedBlobs).toBe(1);
    const keys = await objectKeys();
    expect(keys).not.toContain(orphan);
    expect(keys).toContain(`files/${kept.id}`);
    blobs.client.destroy();
  });
});
