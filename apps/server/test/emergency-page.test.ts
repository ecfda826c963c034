// DESIGN §7 "Fast on a phone": /emergency/{id} and /family/emergency/{id} are answered with the
// emergency entry point's own HTML, its stylesheet inlined and the server's PIN-less lookup handed
// to the web build's renderer. The real renderer (Preact) is exercised by the Playwright journeys
// after the build; here a probe renderer in its place shows exactly what the server hands it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { acceptedLanguages, acceptsGzip, loadEmergencyPage } from '../src/features/emergency/emergency-page';
import { TestClient, buildTestApp, signedInUser, type TestApp, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';

const SOURCE_TEMPLATE = fileText(path.resolve(import.meta.dirname, '../../web/emergency.html'));
const CSS = '.probe{color:#b00}';

function fileText(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

/** A built-like web root: emergency.html as Vite leaves it (script and stylesheet in the head), and a probe renderer. */
function probeWebRoot(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-web-'));
  const dist = path.join(base, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(base, 'dist-ssr'));
  const built = SOURCE_TEMPLATE.replace('<script type="module" src="/src/emergency/entry-client.tsx"></script>', '').replace(
    '</title>',
    '</title>\n    <script type="module" crossorigin src="/assets/emergency-probe.js"></script>\n    <link rel="stylesheet" crossorigin href="/assets/emergency-probe.css">',
  );
  fs.writeFileSync(path.join(dist, 'emergency.html'), built);
  fs.writeFileSync(path.join(dist, 'assets', 'emergency-probe.css'), CSS);
  fs.writeFileSync(
    path.join(base, 'dist-ssr', 'emergency-server.js'),
    `export function renderEmergencyPage(input) {
      const json = JSON.stringify(input).replace(/</g, '\\\\u003c');
      const first = (input.languages[0] ?? '').split('-')[0];
      const lang = ['es', 'ar'].includes(first) ? first : 'en';
      return { lang, dir: lang === 'ar' ? 'rtl' : 'ltr', title: 'Probe <title> & "more"', body: '<div id="root"></div><script type="application/json" id="probe">' + json + '</script>' };
    }\n`,
  );
  return dist;
}

function probeInput(html: string): { shareId: string; languages: string[]; lookup: unknown } {
  const start = html.indexOf('<script type="application/json" id="probe">');
  expect(start).toBeGreaterThan(-1);
  const from = html.indexOf('>', start) + 1;
  return JSON.parse(html.slice(from, html.indexOf('</script>', from))) as { shareId: string; languages: string[]; lookup: unknown };
}

let t: TestApp;
let webRoot: string;
let app: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp();
  webRoot = probeWebRoot();
  app = await buildApp({ config: t.config, database: t.database, webRoot, reminders: TEST_REMINDERS, text: TEST_TEXT });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
  fs.rmSync(path.dirname(webRoot), { recursive: true, force: true });
});

async function ownCode(essentials: boolean) {
  const owner = await signedInUser(t.app);
  const profileId = await selfProfileId(t.database.db, owner.id);
  await fillProfile(t.database.db, owner.id, profileId);
  const setUp = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
  expect(setUp.statusCode).toBe(201);
  if (essentials) expect((await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true })).statusCode).toBe(200);
  return { owner, shareId: setUp.json().share_id as string };
}

async function noticeCount(owner: { client: TestClient }): Promise<number> {
  return (await owner.client.get('/api/user/notifications')).json<unknown[]>().length;
}

describe('the emergency page’s own entry point', () => {
  it('answers with the built page: stylesheet inlined, language and title set, never cached or indexed', async () => {
    const { shareId } = await ownCode(false);
    const res = await new TestClient(app).get(`/emergency/${shareId}`, {
      headers: { 'accept-language': 'es-ES;q=0.5, es;q=0.9, en;q=0.1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const html = res.body;
    expect(html).toContain(`<style>${CSS}</style>`);
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain('<script type="module" crossorigin src="/assets/emergency-probe.js"></script>');
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<title>Probe &lt;title&gt; &amp; &quot;more&quot;</title>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(probeInput(html)).toEqual({
      shareId,
      languages: ['es', 'es-ES', 'en'],
      lookup: { kind: 'self', answer: { body: { requirePin: true } } },
    });
  });

  it('mirrors the whole page for Arabic: <html lang="ar" dir="rtl"> (issue 35)', async () => {
    const { shareId } = await ownCode(false);
    const arabic = await new TestClient(app).get(`/emergency/${shareId}`, { headers: { 'accept-language': 'ar-EG' } });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    const english = await new TestClient(app).get(`/emergency/${shareId}`, { headers: { 'accept-language': 'en' } });
    expect(english.body).toContain('<html lang="en">');
  });

  it('hands the renderer an opted-in code’s essentials and PIN status, and the owner hears of the page load once', async () => {
    const { owner, shareId } = await ownCode(true);
    const before = await noticeCount(owner);
    const res = await new TestClient(app).get(`/emergency/${shareId}`);
    const input = probeInput(res.body);
    expect(input.lookup).toMatchObject({
      kind: 'self',
      answer: {
        body: { requirePin: true, essentials: { name: 'Jordan Rivers', blood_type: 'O-', medications: ['Warfarin'] } },
        pinStatus: 'ok',
      },
    });
    expect(JSON.stringify(input.lookup)).not.toContain('12 Secret Lane');
    expect(await noticeCount(owner)).toBe(before + 1);
  });

  it('looks a family member’s code up through the family route, from either path', async () => {
    const owner = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Rex', is_pet: 1 });
    const setUp = await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '1357' });
    expect(setUp.statusCode).toBe(201);
    const shareId = setUp.json().share_id as string;
    for (const route of ['/emergency/', '/family/emergency/']) {
      const input = probeInput((await new TestClient(app).get(`${route}${shareId}`)).body);
      expect(input.lookup).toEqual({ kind: 'family', answer: { body: { requirePin: true } } });
    }
  });

  it('hands over a lookup of null for an unknown, malformed or switched-off code', async () => {
    const { owner, shareId } = await ownCode(false);
    expect((await owner.client.put('/api/user/wearable-qr/toggle', { is_active: false })).statusCode).toBe(200);
    for (const id of [shareId, 'A'.repeat(43), 'not-a-share-id', '%3Cscript%3E']) {
      const res = await new TestClient(app).get(`/emergency/${id}`);
      expect(res.statusCode).toBe(200);
      expect(probeInput(res.body).lookup).toBeNull();
    }
  });

  it('a HEAD (a link checker, a preview) gets the headers only, and the owner is not told of a view that did not happen', async () => {
    const { owner, shareId } = await ownCode(true);
    const before = await noticeCount(owner);
    const res = await app.inject({ method: 'HEAD', url: `/emergency/${shareId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe('');
    expect(await noticeCount(owner)).toBe(before);
  });

  it('is not served when the web app was built without it, so the app’s own route answers as before', async () => {
    expect(await loadEmergencyPage(null)).toBeNull();
    expect(await loadEmergencyPage(fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-empty-')))).toBeNull();
    const res = await t.app.inject({ method: 'GET', url: `/emergency/${'A'.repeat(43)}` });
    expect(res.statusCode).toBe(404);
  });
});

describe('compression', () => {
  it('gzips the page for a browser that takes gzip, and sends it plain otherwise', async () => {
    const { shareId } = await ownCode(false);
    const zipped = await app.inject({ method: 'GET', url: `/emergency/${shareId}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    const html = zlib.gunzipSync(zipped.rawPayload).toString('utf8');
    expect(html).toContain(`<style>${CSS}</style>`);
    expect(zipped.rawPayload.length).toBeLessThan(html.length);
    const plain = await app.inject({ method: 'GET', url: `/emergency/${shareId}`, headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain(`<style>${CSS}</style>`);
  });

  it('reads Accept-Encoding as RFC 9110 has it', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('GZIP')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
  });
});

describe('Accept-Language', () => {
  it('orders the tags by weight, keeps ties in order, and drops q=0, * and nonsense', () => {
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages('fr-CA, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CA', 'fr', 'en', 'de']);
    expect(acceptedLanguages('en;q=0.2, zh-Hans, es;q=0, de;q=abc')).toEqual(['zh-Hans', 'en']);
  });

  it('reads at most 20 tags of a huge header at once', () => {
    const header = Array.from({ length: 5000 }, (_, i) => `x${i};q=0.${(i % 9) + 1}`).join(',');
    expect(acceptedLanguages(header).length).toBeLessThanOrEqual(20);
  });
});
