// The built web app as the server sends it (DESIGN §1, §9): fingerprinted assets cached for a year
// and sent compressed from the build's .br/.gz copies; the app's HTML for client routes, never cached.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp } from './helpers';

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(200))};\n`;
const HTML = '<!doctype html><html lang="en"><head><title>Kinchart</title></head><body><div id="root"></div></body></html>\n';

let t: TestApp;
let webRoot: string;
beforeAll(async () => {
  // A tiny build, laid out as `npm run build -w @kinchart/web` leaves apps/web/dist.
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  const script = path.join(webRoot, 'assets', 'index-AbC123.js');
  fs.writeFileSync(script, SCRIPT);
  fs.writeFileSync(`${script}.gz`, zlib.gzipSync(SCRIPT));
  fs.writeFileSync(`${script}.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(webRoot, 'assets', 'plain-XyZ789.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(webRoot, 'index.html'), HTML);
  fs.writeFileSync(path.join(webRoot, 'index.html.gz'), zlib.gzipSync(HTML));
  t = await buildTestApp({}, { webRoot });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the web app’s files', () => {
  it('a browser that accepts brotli gets the brotli copy of a script, cached for a year', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('a browser that accepts only gzip (as over plain HTTP) gets the gzip copy', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip, deflate');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('a client that accepts no compression gets the file itself', async () => {
    const res = await get('/assets/index-AbC123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(SCRIPT);
  });

  it('a file the build did not compress is sent as it is, still cached for a year', async () => {
    const res = await get('/assets/plain-XyZ789.css', 'gzip, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('body{margin:0}');
  });

  it('a client route gets the app’s HTML, compressed when the build left a copy, and never cached', async () => {
    // An invitation link (DESIGN §11) is a client route too: its token is base64url, never a dot.
    for (const url of ['/', '/login', '/dashboard', '/invite/q-9_Zx0aQ9mZk3bT1yW8rN2cV5uH7sJ4dF6gA0eI9oP']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(HTML);
    }
    const plain = await get('/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(HTML);
  });

  it('a missing asset is a 404, not the app’s HTML', async () => {
    const res = await get('/assets/index-gone.js', 'gzip');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Not found' });
  });
});
