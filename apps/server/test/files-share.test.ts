import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_LINK_GONE_MESSAGE } from '@kinchart/shared/files';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser } from './helpers';
import { fixture, uploadRecord } from './files-helpers';

const PDF = fixture('record.pdf');
const PNG = fixture('pixel.png');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const tokenOf = (url: string) => url.slice(`${ORIGIN}/shared/`.length);

async function ownerWithFiles() {
  const owner = await signedInUser(t.app);
  const pdf = (await uploadRecord(owner.client, { filename: 'labs.pdf', content: PDF }, { customName: 'Lab results' })).json();
  const png = (await uploadRecord(owner.client, { filename: 'rash.png', content: PNG })).json();
  return { owner, pdf, png };
}

describe('time-limited share links', () => {
  it('creates a 24-hour link whose token is stored only as a hash', async () => {
    const { owner, pdf, png } = await ownerWithFiles();
    const before = Date.now();
    const res = await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id, png.id, pdf.id] });
    expect(res.statusCode).toBe(201);
    const link = res.json();
    expect(Object.keys(link).sort()).toEqual(['expires_at', 'id', 'url']);
    expect(link.url).toMatch(new RegExp(`^${ORIGIN}/shared/[A-Za-z0-9_-]{43}$`));
    const ttl = Date.parse(link.expires_at) - before;
    expect(ttl).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000 + 1000);
    const row = await t.database.db.selectFrom('file_share_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(tokenOf(link.url));
    expect(JSON.parse(row.file_ids)).toEqual([pdf.id, png.id]);
  });

  it('opens the selected files without signing in, and streams each one exactly', async () => {
    const { owner, pdf, png } = await ownerWithFiles();
    const link = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id, png.id] })).json();
    const token = tokenOf(link.url);
    const visitor = new TestClient(t.app);
    const res = await visitor.get(`/api/shared/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      expires_at: link.expires_at,
      files: [
        { id: pdf.id, name: 'Lab results', file_type: 'application/pdf', size: PDF.length, url: `/api/shared/${token}/files/${pdf.id}` },
        { id: png.id, name: 'rash.png', file_type: 'image/png', size: PNG.length, url: `/api/shared/${token}/files/${png.id}` },
      ],
    });
    const file = await visitor.get(`/api/shared/${token}/files/${pdf.id}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-security-policy']).toBe('sandbox');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="Lab results.pdf"/);
    expect(file.headers['cache-control']).toMatch(/no-store/);
    const audit = await t.database.db.selectFrom('audit_events').select(['action', 'detail']).where('user_id', '=', owner.id).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['file_share_create', 'file_share_open', 'file_download']));
    expect(audit.find((a) => a.action === 'file_download')?.detail).toBe(JSON.stringify({ fileId: pdf.id, via: 'share_link' }));
  });

  it('tells the owner the link was opened, at most once per link in five minutes', async () => {
    const { owner, pdf } = await ownerWithFiles();
    const link = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id] })).json();
    const visitor = new TestClient(t.app);
    await visitor.get(`/api/shared/${tokenOf(link.url)}`);
    await visitor.get(`/api/shared/${tokenOf(link.url)}`);
    const notes = await t.database.db.selectFrom('notifications').selectAll().where('user_id', '=', owner.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'info', level: 'info', title: 'Shared records opened' });
    expect(notes[0]?.data).not.toContain('Lab results');
    const listed = await owner.client.get('/api/user/notifications');
    expect(listed.json()[0].title).toBe('Shared records opened');
  });

  it('refuses a file that is not part of the link', async () => {
    const { owner, pdf, png } = await ownerWithFiles();
    const link = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id] })).json();
    const res = await new TestClient(t.app).get(`/api/shared/${tokenOf(link.url)}/files/${png.id}`);
    expect(res.statusCode).toBe(404);
  });

  it('answers one 404 for an expired, a revoked and an unknown link', async () => {
    const { owner, pdf } = await ownerWithFiles();
    const visitor = new TestClient(t.app);
    const expired = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id] })).json();
    await t.database.db
      .updateTable('file_share_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    const revoked = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id] })).json();
    expect((await visitor.get(`/api/shared/${tokenOf(revoked.url)}`)).statusCode).toBe(200);
    const revoke = await owner.client.delete(`/api/user/files/share-links/${revoked.id}`);
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toMatchObject({ message: 'Share link revoked' });

    for (const path of [
      `/api/shared/${tokenOf(expired.url)}`,
      `/api/shared/${tokenOf(expired.url)}/files/${pdf.id}`,
      `/api/shared/${tokenOf(revoked.url)}`,
      `/api/shared/${tokenOf(revoked.url)}/files/${pdf.id}`,
      `/api/shared/${'A'.repeat(43)}`,
      '/api/shared/not-a-token',
    ]) {
      const res = await visitor.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toMatchObject({ message: SHARE_LINK_GONE_MESSAGE });
    }
  });

  it('lets only the owner revoke a link', async () => {
    const { owner, pdf } = await ownerWithFiles();
    const other = await signedInUser(t.app);
    const link = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id] })).json();
    expect((await other.client.delete(`/api/user/files/share-links/${link.id}`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).delete(`/api/user/files/share-links/${link.id}`)).statusCode).toBe(401);
    expect((await new TestClient(t.app).get(`/api/shared/${tokenOf(link.url)}`)).statusCode).toBe(200);
  });

  it("refuses someone else's file, an empty selection and more than 20 files", async () => {
    const { owner, pdf } = await ownerWithFiles();
    const other = await ownerWithFiles();
    const mixed = await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id, other.pdf.id] });
    expect(mixed.statusCode).toBe(404);
    expect((await owner.client.post('/api/user/files/share-links', { fileIds: [] })).statusCode).toBe(400);
    const many = Array.from({ length: 21 }, () => pdf.id);
    expect((await owner.client.post('/api/user/files/share-links', { fileIds: many })).statusCode).toBe(400);
    expect((await new TestClient(t.app).post('/api/user/files/share-links', { fileIds: [pdf.id] })).statusCode).toBe(401);
  });

  it('leaves out a file deleted after the link was made', async () => {
    const { owner, pdf, png } = await ownerWithFiles();
    const link = (await owner.client.post('/api/user/files/share-links', { fileIds: [pdf.id, png.id] })).json();
    await owner.client.delete(`/api/user/files/${png.id}`);
    const visitor = new TestClient(t.app);
    const res = await visitor.get(`/api/shared/${tokenOf(link.url)}`);
    expect(res.json().files.map((f: { id: string }) => f.id)).toEqual([pdf.id]);
    expect((await visitor.get(`/api/shared/${tokenOf(link.url)}/files/${png.id}`)).statusCode).toBe(404);
  });
});
