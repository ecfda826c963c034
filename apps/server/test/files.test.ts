import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPTED_TYPES_LABEL } from '@kinchart/shared/files';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { blobPath, fixture, multipartBody, storedBlobs, upload, uploadRecord } from './files-helpers';
import { selfProfileId } from './factories';
import { SEGMENT_SIZE } from '../src/storage/envelope';
import { scheduleOrphanSweep, sweepOrphanBlobs } from '../src/features/files/file-orphans';
import { SNIFF_BYTES } from '../src/common/file-sniffer';
import { createLocalBlobStore } from '../src/storage/local-blob-store';
import { loadConfig } from '../src/config';
import { createDatabase, migrateToLatest } from '../src/db/database';
import { buildApp } from '../src/app';
import { loggerOptions } from '../src/plugins/logging';

const PDF = fixture('record.pdf');
const PNG = fixture('pixel.png');
const DOCX = fixture('letter.docx');
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const rowsOf = (userId: string) => t.database.db.selectFrom('medical_files').selectAll().where('user_id', '=', userId).execute();

describe('uploading a medical record file', () => {
  it('stores a PDF sent file-first with its record details and answers 201 with the record', async () => {
    const { client, id } = await signedInUser(t.app);
    const res = await uploadRecord(
      client,
      { filename: 'blood-test.pdf', content: PDF, contentType: 'application/pdf' },
      {
        customName: 'Blood test March',
        customDate: '2024-03-05',
        providerName: 'Dr. Lee',
        visitLocation: 'City Clinic',
        visitReason: 'Annual check',
      },
    );
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toEqual({
      id: expect.any(String),
      record_id: record.id,
      name: 'Blood test March',
      file_name: 'Blood test March',
      display_name: 'Blood test March',
      originalname: 'blood-test.pdf',
      file_type: 'application/pdf',
      url: `/api/user/files/${record.id}/content`,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      record_date: '2024-03-05',
      record_details: { provider_name: 'Dr. Lee', visit_location: 'City Clinic', visit_reason: 'Annual check' },
      provider_name: 'Dr. Lee',
      visit_location: 'City Clinic',
      visit_reason: 'Annual check',
      metadata: { size: PDF.length },
      // DESIGN §4: without a personId the file is the uploader's own profile's.
      person_id: await selfProfileId(t.database.db, id),
      person_name: null,
      // Issue 33: its text is read in the background; nothing is suggested yet.
      text_status: 'pending',
      text_pages: null,
      text_reason: null,
      suggestion: null,
    });
    const [row] = await rowsOf(id);
    expect(row?.storage_key).toBe(record.id);
    expect(row?.wrapped_key).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it('accepts the text fields before the file just as well', async () => {
    const { client } = await signedInUser(t.app);
    const res = await upload(client, '/api/user/files', [
      { name: 'customName', value: 'X-ray' },
      { name: 'providerName', value: 'Dr. Ray' },
      { name: 'file', filename: 'scan.png', content: PNG, contentType: 'image/png' },
      { name: 'visitReason', value: 'Wrist' },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'X-ray',
      provider_name: 'Dr. Ray',
      visit_reason: 'Wrist',
      visit_location: null,
      file_type: 'image/png',
    });
  });

  it('defaults the name to the file name and an empty visit date to now (ISO)', async () => {
    const { client } = await signedInUser(t.app);
    const before = new Date().toISOString();
    const res = await uploadRecord(client, { filename: 'letter.docx', content: DOCX }, { customName: '  ', customDate: '' });
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record.name).toBe('letter.docx');
    expect(record.file_type).toBe(DOCX_MIME);
    expect(record.record_date >= before && record.record_date <= new Date().toISOString()).toBe(true);
    expect(record.record_date).toBe(record.created_at);
  });

  it('keeps a visit date given as an ISO instant, and refuses one that is not a date', async () => {
    const { client } = await signedInUser(t.app);
    const iso = '2024-02-01T09:30:00.000Z';
    const ok = await uploadRecord(client, { filename: 'a.pdf', content: PDF }, { customDate: iso });
    expect(ok.json().record_date).toBe(iso);
    const bad = await uploadRecord(client, { filename: 'a.pdf', content: PDF }, { customDate: 'next tuesday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Visit Date/);
    const long = await uploadRecord(client, { filename: 'a.pdf', content: PDF }, { customName: 'n'.repeat(256) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/at most 255/);
  });

  it('POST /api/user/upload takes the file alone and names the record after it, without its extension', async () => {
    const { client } = await signedInUser(t.app);
    const res = await upload(client, '/api/user/upload', [{ name: 'file', filename: 'Résultats été.pdf', content: PDF }]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Résultats été',
      originalname: 'Résultats été.pdf',
      provider_name: null,
      metadata: { size: PDF.length },
    });
    // A name that is all extension keeps it, rather than becoming empty.
    const dotted = await upload(client, '/api/user/upload', [{ name: 'file', filename: '.pdf', content: PDF }]);
    expect(dotted.json().name).toBe('.pdf');
  });

  it('answers 400 without a file part, for a non-multipart body, and for two files', async () => {
    const { client, id } = await signedInUser(t.app);
    const none = await upload(client, '/api/user/files', [{ name: 'customName', value: 'x' }]);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: 'No file was uploaded' });
    const emptyInput = await upload(client, '/api/user/files', [{ name: 'file', filename: '', content: Buffer.alloc(0) }]);
    expect(emptyInput.statusCode).toBe(400);
    const json = await client.post('/api/user/files', { file: 'x' });
    expect(json.statusCode).toBe(400);
    const two = await upload(client, '/api/user/files', [
      { name: 'file', filename: 'a.pdf', content: PDF },
      { name: 'file', filename: 'b.pdf', content: PDF },
    ]);
    expect(two.statusCode).toBe(400);
    const noBoundary = await client.post('/api/user/files', Buffer.from('--x\r\n'), { headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ message: 'Malformed multipart body' });
    const truncated = multipartBody([{ name: 'file', filename: 'a.pdf', content: PDF }]);
    const cut = await client.post('/api/user/files', truncated.payload.subarray(0, truncated.payload.length - 20), {
      headers: truncated.headers,
    });
    expect(cut.statusCode).toBe(400);
    const empty = await upload(client, '/api/user/files', [{ name: 'file', filename: 'empty.txt', content: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'The file is empty' });
    expect(await rowsOf(id)).toEqual([]);
  });

  it('refuses HTML or an executable named .pdf with 415 listing the accepted types, and stores nothing', async () => {
    const { client, id } = await signedInUser(t.app);
    const before = storedBlobs(t.dataDir).committed.length;
    const html = Buffer.from('<!doctype html><html><body><script>document.cookie</script></body></html>');
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(SNIFF_BYTES * 2)]);
    const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(4000)]);
    for (const content of [html, elf, exe]) {
      const res = await uploadRecord(client, { filename: 'report.pdf', content, contentType: 'application/pdf' });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toContain(ACCEPTED_TYPES_LABEL);
    }
    expect(await rowsOf(id)).toEqual([]);
    expect(storedBlobs(t.dataDir).committed.length).toBe(before);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  });

  it('requires a session and our origin', async () => {
    const anonymous = new TestClient(t.app);
    expect((await uploadRecord(anonymous, { filename: 'a.pdf', content: PDF })).statusCode).toBe(401);
    expect((await upload(anonymous, '/api/user/upload', [{ name: 'file', filename: 'a.pdf', content: PDF }])).statusCode).toBe(401);
    expect((await anonymous.get('/api/user/files/00000000-0000-4000-8000-000000000000/content')).statusCode).toBe(401);
    expect((await anonymous.put('/api/user/files/00000000-0000-4000-8000-000000000000', { newName: 'x' })).statusCode).toBe(401);
    expect((await anonymous.delete('/api/user/files/x')).statusCode).toBe(401);
    const { client } = await signedInUser(t.app);
    const { payload, headers } = multipartBody([{ name: 'file', filename: 'a.pdf', content: PDF }]);
    const foreign = await client.post('/api/user/files', payload, { headers: { ...headers, origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
  });
});

describe('a database failure after the blob is committed', () => {
  it('deletes the committed blob, so no blob is left without its record', async () => {
    const failing = await buildTestApp();
    try {
      const { client } = await signedInUser(failing.app);
      const { db } = failing.database;
      await db.schema.alterTable('medical_files').renameTo('medical_files_away').execute();
      const res = await uploadRecord(client, { filename: 'a.pdf', content: PDF });
      await db.schema.alterTable('medical_files_away').renameTo('medical_files').execute();
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ message: 'Something went wrong. Please try again.' });
      expect(storedBlobs(failing.dataDir)).toEqual({ committed: [], temp: [] });
    } finally {
      await failing.close();
    }
  });
});

describe('size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await buildTestApp({ MAX_UPLOAD_MB: '1' });
  });
  afterAll(async () => {
    await small.close();
  });

  it('answers 413 naming the limit for a file over MAX_UPLOAD_MB and stores nothing; exactly the limit is fine', async () => {
    const { client, id } = await signedInUser(small.app);
    const over = Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 1 - PDF.length, 0x20)]);
    const res = await uploadRecord(client, { filename: 'big.pdf', content: over }, { customName: 'Big' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ message: 'File is larger than 1 MB' });
    expect(await small.database.db.selectFrom('medical_files').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect(storedBlobs(small.dataDir)).toEqual({ committed: [], temp: [] });

    const exact = Buffer.concat([PDF, Buffer.alloc(1024 * 1024 - PDF.length, 0x20)]);
    const ok = await uploadRecord(client, { filename: 'limit.pdf', content: exact });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().metadata.size).toBe(1024 * 1024);
  });
});

describe('reading a file back', () => {
  it.each([
    ['record.pdf', PDF, 'application/pdf', 'inline'],
    ['pixel.png', PNG, 'image/png', 'inline'],
    ['letter.docx', DOCX, DOCX_MIME, 'attachment'],
  ])('%s round-trips byte for byte with safe headers', async (name, content, mime, disposition) => {
    const { client, id } = await signedInUser(t.app);
    const record = (await uploadRecord(client, { filename: name, content })).json();
    const res = await client.get(record.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(content)).toBe(true);
    expect(res.headers['content-type']).toBe(mime);
    expect(res.headers['content-length']).toBe(String(content.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.headers['content-disposition']).toBe(`${disposition}; filename="${name}"; filename*=UTF-8''${name}`);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('user_id', '=', id)
      .where('action', '=', 'file_download')
      .execute();
    expect(audit).toEqual([{ action: 'file_download', detail: JSON.stringify({ fileId: record.id }) }]);
  });

  it('names a download with an RFC 6266 UTF-8 filename and an ASCII fallback, adding the extension', async () => {
    const { client } = await signedInUser(t.app);
    const record = (await uploadRecord(client, { filename: 'x.pdf', content: PDF }, { customName: 'Ergebnis "Müller" 100%' })).json();
    const res = await client.get(record.url);
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Ergebnis _Muller_ 100_.pdf"; filename*=UTF-8''Ergebnis%20%22M%C3%BCller%22%20100%25.pdf`,
    );
    const text = (await uploadRecord(client, { filename: 'notes.txt', content: Buffer.from('BP 120/80\n') })).json();
    const t2 = await client.get(text.url);
    expect(t2.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(t2.headers['content-disposition']).toMatch(/^attachment; /);
    expect(t2.body).toBe('BP 120/80\n');
  });

  it('keeps the bytes encrypted at rest: neither the plaintext nor %PDF is on disk', async () => {
    const { client } = await signedInUser(t.app);
    const marker = Buffer.from('PATIENT-SECRET-MARKER');
    const content = Buffer.concat([PDF.subarray(0, PDF.length - 6), marker, Buffer.from('\n%%EOF\n')]);
    const record = (await uploadRecord(client, { filename: 'secret.pdf', content })).json();
    const blob = fs.readFileSync(blobPath(t.dataDir, record.id));
    expect(blob.includes(Buffer.from('%PDF'))).toBe(false);
    expect(blob.includes(marker)).toBe(false);
    expect(blob.includes(PDF.subarray(20, 60))).toBe(false);
    expect(blob.length).toBeGreaterThan(content.length);
  });

  it('fails rather than return altered bytes when one stored byte is flipped', async () => {
    const { client } = await signedInUser(t.app);
    const record = (await uploadRecord(client, { filename: 'r.pdf', content: PDF })).json();
    const file = blobPath(t.dataDir, record.id);
    const blob = fs.readFileSync(file);
    blob[40] = (blob[40] ?? 0) ^ 0x01;
    fs.writeFileSync(file, blob);
    const res = await client.get(record.url);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ message: 'Something went wrong. Please try again.' });
    expect(res.rawPayload.includes(Buffer.from('%PDF'))).toBe(false);
  });
});

describe('over a real connection', () => {
  let net: TestApp;
  let port: number;
  beforeAll(async () => {
    net = await buildTestApp();
    await net.app.listen({ port: 0, host: '127.0.0.1' });
    port = (net.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await net.close();
  });

  it('cuts a download short, never altering it, when a later segment is damaged', async () => {
    const { client } = await signedInUser(net.app);
    const content = Buffer.concat([PDF, randomBytes(3 * SEGMENT_SIZE)]);
    const record = (await uploadRecord(client, { filename: 'big.pdf', content })).json();
    expect((await client.get(record.url)).rawPayload.equals(content)).toBe(true);

    const file = blobPath(net.dataDir, record.id);
    const blob = fs.readFileSync(file);
    const inThirdSegment = 16 + 2 * (SEGMENT_SIZE + 16) + 100;
    blob[inThirdSegment] = (blob[inThirdSegment] ?? 0) ^ 0x80;
    fs.writeFileSync(file, blob);

    // Headers and the authentic first segments go out; then the connection is cut, so the client
    // sees a short, failed response — never a complete one with altered bytes.
    const received = await new Promise<{ body: Buffer; failed: boolean }>((resolve) => {
      const chunks: Buffer[] = [];
      const done = (failed: boolean) => resolve({ body: Buffer.concat(chunks), failed });
      const req = http.get({ host: '127.0.0.1', port, path: record.url, headers: { cookie: client.cookie } }, (res) => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(false));
        res.on('aborted', () => done(true));
        res.on('error', () => done(true));
      });
      req.on('error', () => done(true));
    });
    expect(received.failed).toBe(true);
    expect(received.body.length).toBeLessThan(content.length);
    expect(received.body.equals(content.subarray(0, received.body.length))).toBe(true);
  });

  it('leaves no row and no blob when the client disconnects mid-upload (file part first)', async () => {
    const { client, id } = await signedInUser(net.app);
    const committedBefore = storedBlobs(net.dataDir).committed;
    const boundary = '----kinchartAbort';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/user/files',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: client.cookie,
        origin: ORIGIN,
        'transfer-encoding': 'chunked',
      },
    });
    req.on('error', () => {});
    req.write(head);
    req.write(PDF);
    for (let i = 0; i < 8; i += 1) req.write(randomBytes(64 * 1024));
    // Wait until the server is spooling this upload, then vanish mid-body.
    await expect.poll(() => storedBlobs(net.dataDir).temp.length, { timeout: 15_000 }).toBeGreaterThan(0);
    req.destroy();
    await expect.poll(() => storedBlobs(net.dataDir).temp.length, { timeout: 15_000 }).toBe(0);
    expect(storedBlobs(net.dataDir).committed).toEqual(committedBefore);
    expect(await net.database.db.selectFrom('medical_files').select('id').where('user_id', '=', id).execute()).toEqual([]);
  });

  it('leaves nothing when the client disconnects after the file but before the text fields', async () => {
    const { client, id } = await signedInUser(net.app);
    const committedBefore = storedBlobs(net.dataDir).committed;
    const boundary = '----kinchartAbort2';
    const { payload } = multipartBody([{ name: 'file', filename: 'scan.pdf', content: PDF }], boundary);
    const withoutEnd = payload.subarray(0, payload.length - `--${boundary}--\r\n`.length);
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/user/files',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: client.cookie,
        origin: ORIGIN,
        'transfer-encoding': 'chunked',
      },
    });
    req.on('error', () => {});
    req.write(withoutEnd);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="customName"\r\n\r\nhalf`);
    // The file has been spooled (encrypted) and the server is waiting for the remaining fields.
    await expect.poll(() => storedBlobs(net.dataDir).temp.length, { timeout: 15_000 }).toBeGreaterThan(0);
    req.destroy();
    await expect.poll(() => storedBlobs(net.dataDir).temp.length, { timeout: 15_000 }).toBe(0);
    expect(await net.database.db.selectFrom('medical_files').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect(storedBlobs(net.dataDir).committed).toEqual(committedBefore);
  });
});

describe('listing', () => {
  it("lists only the signed-in user's files, newest first, with every SPEC §3 field", async () => {
    const { client } = await signedInUser(t.app);
    const first = (await uploadRecord(client, { filename: 'one.pdf', content: PDF })).json();
    const second = (await uploadRecord(client, { filename: 'two.png', content: PNG }, { providerName: 'Dr. B' })).json();
    const res = await client.get('/api/user/files');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = res.json();
    expect(list.map((f: { id: string }) => f.id)).toEqual([second.id, first.id]);
    expect(list[0]).toEqual(second);
    expect(Object.keys(list[1]).sort()).toEqual(
      [
        'id',
        'record_id',
        'name',
        'file_name',
        'display_name',
        'originalname',
        'file_type',
        'url',
        'created_at',
        'record_date',
        'record_details',
        'provider_name',
        'visit_location',
        'visit_reason',
        'metadata',
        'person_id',
        'person_name',
        'text_status',
        'text_pages',
        'text_reason',
        'suggestion',
      ].sort(),
    );
    expect(JSON.stringify(list)).not.toMatch(/storage_key|wrapped_key|user_id/);
  });

  it('answers 401 without a session', async () => {
    expect((await new TestClient(t.app).get('/api/user/files')).statusCode).toBe(401);
  });
});

describe('renaming and deleting', () => {
  it('renames with a trimmed non-empty name of at most 255 characters', async () => {
    const { client } = await signedInUser(t.app);
    const record = (await uploadRecord(client, { filename: 'a.pdf', content: PDF })).json();
    const res = await client.put(`/api/user/files/${record.id}`, { newName: '  Cardiology letter  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: record.id,
      name: 'Cardiology letter',
      display_name: 'Cardiology letter',
      originalname: 'a.pdf',
    });
    const empty = await client.put(`/api/user/files/${record.id}`, { newName: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'File name cannot be empty' });
    expect((await client.put(`/api/user/files/${record.id}`, { newName: 'x'.repeat(256) })).statusCode).toBe(400);
    expect((await client.put(`/api/user/files/${record.id}`, {})).statusCode).toBe(400);
    expect((await client.put('/api/user/files/00000000-0000-4000-8000-000000000000', { newName: 'x' })).statusCode).toBe(404);
    expect((await client.get('/api/user/files')).json()[0].name).toBe('Cardiology letter');
  });

  it('deletes by URL-encoded name (the newest of that name) or by id, removing the blob', async () => {
    const { client } = await signedInUser(t.app);
    const name = 'Résumé / scan 100% #1.pdf';
    const older = (await uploadRecord(client, { filename: 'x.pdf', content: PDF }, { customName: name })).json();
    const newer = (await uploadRecord(client, { filename: 'y.pdf', content: PDF }, { customName: name })).json();
    const res = await client.delete(`/api/user/files/${encodeURIComponent(name)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'File deleted successfully' });
    expect((await client.get('/api/user/files')).json().map((f: { id: string }) => f.id)).toEqual([older.id]);
    expect(fs.existsSync(blobPath(t.dataDir, newer.id))).toBe(false);
    expect(fs.existsSync(blobPath(t.dataDir, older.id))).toBe(true);

    expect((await client.delete(`/api/user/files/${older.id}`)).statusCode).toBe(200);
    expect(fs.existsSync(blobPath(t.dataDir, older.id))).toBe(false);
    expect((await client.get(older.url)).statusCode).toBe(404);
    const again = await client.delete(`/api/user/files/${older.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'File not found' });
  });

  it('deletes a file whose name is longer than 100 characters', async () => {
    const { client } = await signedInUser(t.app);
    const name = `${'Very long name '.repeat(12)}é`;
    await uploadRecord(client, { filename: 'x.pdf', content: PDF }, { customName: name });
    expect((await client.delete(`/api/user/files/${encodeURIComponent(name)}`)).statusCode).toBe(200);
  });
});

describe('another account', () => {
  it("gets 404 for someone else's file on every route, and cannot see it in its list", async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const record = (await uploadRecord(owner.client, { filename: 'private.pdf', content: PDF }, { customName: 'Private' })).json();

    expect((await other.client.get('/api/user/files')).json()).toEqual([]);
    expect((await other.client.get(record.url)).statusCode).toBe(404);
    expect((await other.client.put(`/api/user/files/${record.id}`, { newName: 'Mine now' })).statusCode).toBe(404);
    expect((await other.client.delete(`/api/user/files/${record.id}`)).statusCode).toBe(404);
    expect((await other.client.delete('/api/user/files/Private')).statusCode).toBe(404);
    const share = await other.client.post('/api/user/files/share-links', { fileIds: [record.id] });
    expect(share.statusCode).toBe(404);

    const still = await owner.client.get(record.url);
    expect(still.statusCode).toBe(200);
    expect(still.rawPayload.equals(PDF)).toBe(true);
    expect((await owner.client.get('/api/user/files')).json()[0].name).toBe('Private');
  });
});

describe('account deletion and the start-up sweep', () => {
  it('removes every blob of a deleted account', async () => {
    const user = await signedInUser(t.app);
    const a = (await uploadRecord(user.client, { filename: 'a.pdf', content: PDF })).json();
    const b = (await uploadRecord(user.client, { filename: 'b.png', content: PNG })).json();
    expect(fs.existsSync(blobPath(t.dataDir, a.id))).toBe(true);
    const res = await user.client.delete('/api/auth/deleteAccount', { password: user.password });
    expect(res.statusCode).toBe(200);
    expect(fs.existsSync(blobPath(t.dataDir, a.id))).toBe(false);
    expect(fs.existsSync(blobPath(t.dataDir, b.id))).toBe(false);
  });

  it('removes old blobs that have no record, spares young ones, and counts records without a blob', async () => {
    const sweepApp = await buildTestApp();
    try {
      const { client } = await signedInUser(sweepApp.app);
      const kept = (await uploadRecord(client, { filename: 'kept.pdf', content: PDF })).json();
      const lost = (await uploadRecord(client, { filename: 'lost.pdf', content: PDF })).json();
      fs.rmSync(blobPath(sweepApp.dataDir, lost.id));
      const orphan = '0f0f0f0f-0000-4000-8000-000000000000';
      const young = '1e1e1e1e-0000-4000-8000-000000000000';
      for (const key of [orphan, young]) {
        fs.mkdirSync(path.dirname(blobPath(sweepApp.dataDir, key)), { recursive: true });
        fs.writeFileSync(blobPath(sweepApp.dataDir, key), 'x');
      }
      const old = new Date(Date.now() - 2 * 3_600_000);
      fs.utimesSync(blobPath(sweepApp.dataDir, orphan), old, old);
      fs.mkdirSync(`${sweepApp.dataDir}/files/.tmp`, { recursive: true });
      fs.writeFileSync(`${sweepApp.dataDir}/files/.tmp/crashed.part`, 'x');
      fs.utimesSync(`${sweepApp.dataDir}/files/.tmp/crashed.part`, old, old);

      const logs: unknown[] = [];
      const log = { info: (o: unknown) => logs.push(o), warn: (o: unknown) => logs.push(o), error: (o: unknown) => logs.push(o) };
      const result = await sweepOrphanBlobs({
        db: sweepApp.database.db,
        blobs: createLocalBlobStore(path.join(sweepApp.dataDir, 'files')),
        log: log as never,
      });
      expect(result).toEqual({ removedBlobs: 1, removedTemp: 1, rowsWithoutBlob: 1 });
      expect(fs.existsSync(blobPath(sweepApp.dataDir, orphan))).toBe(false);
      expect(fs.existsSync(blobPath(sweepApp.dataDir, young))).toBe(true);
      expect(fs.existsSync(blobPath(sweepApp.dataDir, kept.id))).toBe(true);
      expect(JSON.stringify(logs)).not.toMatch(/kept|lost|\.pdf/);
      expect(logs).toContainEqual({ count: 1 });
    } finally {
      await sweepApp.close();
    }
  });

  it('a running server sweeps again on its own: a blob orphaned after start-up goes at a later sweep, without a restart', async () => {
    const sweepApp = await buildTestApp();
    const blobs = createLocalBlobStore(path.join(sweepApp.dataDir, 'files'));
    const sweeps: { removedBlobs: number }[] = [];
    const waiters: (() => void)[] = [];
    const nextSweep = () => new Promise<void>((resolve) => waiters.push(resolve));
    let stop = () => {};
    try {
      let swept = nextSweep();
      stop = scheduleOrphanSweep({
        db: sweepApp.database.db,
        blobs,
        log: { info: () => {}, warn: () => {}, error: () => {} } as never,
        everyMs: 20,
        onError: (error) => {
          throw error;
        },
        onSwept: (result) => {
          sweeps.push(result);
          for (const wake of waiters.splice(0)) wake();
        },
      });
      await swept;
      // A crash-left blob, old enough, appears after the first sweep (as one left by another instance).
      const orphan = '2d2d2d2d-0000-4000-8000-000000000000';
      fs.mkdirSync(path.dirname(blobPath(sweepApp.dataDir, orphan)), { recursive: true });
      fs.writeFileSync(blobPath(sweepApp.dataDir, orphan), 'x');
      const old = new Date(Date.now() - 2 * 3_600_000);
      fs.utimesSync(blobPath(sweepApp.dataDir, orphan), old, old);
      while (fs.existsSync(blobPath(sweepApp.dataDir, orphan))) {
        swept = nextSweep();
        await swept;
      }
      expect(sweeps.some((s) => s.removedBlobs === 1)).toBe(true);
    } finally {
      stop();
      await sweepApp.close();
    }
  });
});

describe('logs', () => {
  it('never carry a file name, a share token or file contents', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-logs-'));
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const config = loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: ORIGIN,
      RATE_LIMIT_PER_MIN: '0',
      MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
    });
    const database = createDatabase({ sqliteFile: path.join(dataDir, 'kinchart.db') });
    await migrateToLatest(database.db);
    const options = loggerOptions('info') as Record<string, unknown>;
    const app = await buildApp({
      config,
      database,
      webRoot: null,
      logger: { ...options, stream },
      reminders: TEST_REMINDERS,
      text: TEST_TEXT,
    });
    try {
      const { client } = await signedInUser(app);
      const name = 'HIV-test-Jordan.pdf';
      const record = (
        await uploadRecord(client, { filename: name, content: PDF }, { customName: name, visitReason: 'Confidential reason' })
      ).json();
      await client.get(record.url);
      const link = (await client.post('/api/user/files/share-links', { fileIds: [record.id] })).json();
      const token = link.url.split('/shared/')[1] as string;
      await new TestClient(app).get(`/api/shared/${token}`);
      await new TestClient(app).get(`/api/shared/${token}/files/${record.id}`);
      await uploadRecord(client, { filename: 'HIV-evil.pdf', content: Buffer.from('<html>') });
      expect((await client.delete(`/api/user/files/${encodeURIComponent(name)}`)).statusCode).toBe(200);

      const log = lines.join('');
      expect(log).toContain('/api/user/files/[redacted]');
      expect(log).toContain('/api/shared/[redacted]');
      expect(log).not.toMatch(/HIV|Jordan|Confidential/);
      expect(log).not.toContain(token);
      expect(log).not.toContain('%PDF');
    } finally {
      await app.close();
      await database.db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
