import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { buildApp } from '../src/app';

// The built web app as the server hands it out (DESIGN §1), installable PWA included: hashed
// assets are cached for good, while index.html, the service worker and the manifest — same names
// in every build — are asked for again, so a device never stays on an old build.
let t: TestApp;
let web: FastifyInstance;
let webRoot: string;
beforeAll(async () => {
  t = await buildTestApp();
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Kinchart</title><div id="root"></div>');
  fs.writeFileSync(path.join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(webRoot, 'manifest.webmanifest'), JSON.stringify({ name: 'Kinchart' }));
  fs.writeFileSync(path.join(webRoot, 'assets', 'index-AbC123.js'), 'console.log(1);');
  web = await buildApp({ config: t.config, database: t.database, webRoot, logger: false, reminders: TEST_REMINDERS, text: TEST_TEXT });
  await web.ready();
});
afterAll(async () => {
  await web.close();
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('the service worker is served as JavaScript and revalidated on every check, never cached for long', async () => {
    const res = await web.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('the web app manifest is served with its own type and revalidated', async () => {
    const res = await web.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('fingerprinted assets are cached for a year, and a client route gets index.html revalidated on every visit', async () => {
    const asset = await web.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await web.inject({ method: 'GET', url: '/emergency-cards' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // Revalidated on every visit (@fastify/static's sendFile answers `public, max-age=0`).
    expect(page.headers['cache-control']).toMatch(/no-cache|max-age=0/);
  });
});
