// The web app checks a file's size before sending it and states the limit on the upload screens
// (DESIGN §6: oversize → 413 naming the limit). MAX_UPLOAD_MB is configurable (DESIGN §1), so the
// limit comes from the server that enforces it, not from a constant built into the web app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { fixture, uploadRecord } from './files-helpers';

const PDF = fixture('record.pdf');

let standard: TestApp;
let small: TestApp;
beforeAll(async () => {
  standard = await buildTestApp();
  small = await buildTestApp({ MAX_UPLOAD_MB: '2' });
});
afterAll(async () => {
  await standard.close();
  await small.close();
});

describe('GET /api/config', () => {
  it('tells a signed-in user the largest file the server accepts (50 MB by default)', async () => {
    const { client } = await signedInUser(standard.app);
    const res = await client.get('/api/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      max_upload_bytes: 50 * 1024 * 1024,
      signup_mode: 'open',
      passkeys: true,
      sso: null,
      vapid_public_key: expect.stringMatching(/^B[\w-]{86}$/),
    });
  });

  it('follows MAX_UPLOAD_MB, and a file one byte over what it says is refused with 413', async () => {
    const { client } = await signedInUser(small.app);
    const res = await client.get('/api/config');
    expect(res.json()).toEqual({
      max_upload_bytes: 2 * 1024 * 1024,
      signup_mode: 'open',
      passkeys: true,
      sso: null,
      vapid_public_key: expect.stringMatching(/^B[\w-]{86}$/),
    });

    const limit = res.json<{ max_upload_bytes: number }>().max_upload_bytes;
    const over = Buffer.concat([PDF, Buffer.alloc(limit + 1 - PDF.length, 0x20)]);
    const refused = await uploadRecord(client, { filename: 'big.pdf', content: over }, { customName: 'Big' });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ message: 'File is larger than 2 MB' });
  });

  it('tells the same settings without a session, and nothing of any account (the sign-up page reads it)', async () => {
    const res = await new TestClient(standard.app).get('/api/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      max_upload_bytes: 50 * 1024 * 1024,
      signup_mode: 'open',
      passkeys: true,
      sso: null,
      vapid_public_key: expect.stringMatching(/^B[\w-]{86}$/),
    });
  });
});
