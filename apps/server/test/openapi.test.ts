// The API reference (docs/decisions/0040): GET /api/openapi.json is an OpenAPI 3.1 document made
// from the routes' own schemas. It validates, it names every route the app answers (read from
// Fastify's route table, so a route added later is held to it the day it is added), it marks how
// each route is reached — and the marks agree with what the routes really do without a session —
// and /api/docs shows it from swagger-ui's own files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IMPORT_TARGET_FIELD } from '@kinchart/shared/export';
import { UPLOAD_FIELD_NAMES } from '@kinchart/shared/files';
import serverPackage from '../package.json' with { type: 'json' };
import { API_DOCS_PREFIX, OPENAPI_PATH, ROUTE_ACCESS, registerOpenApi } from '../src/plugins/openapi';
import { securityHeaders } from '../src/plugins/security';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, routeTable, signedInUser } from './helpers';

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-kinchart-access'?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

/** A built-like web root: the app's index.html, one asset, and the emergency page with a renderer in its place. */
function probeWebRoot(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-web-'));
  const dist = path.join(base, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(base, 'dist-ssr'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Kinchart</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app-probe.js'), 'console.log("app");');
  fs.writeFileSync(
    path.join(dist, 'emergency.html'),
    '<!doctype html><html lang="en"><head><title>Emergency</title></head><body><!--emergency-page--><!--/emergency-page--></body></html>',
  );
  fs.writeFileSync(
    path.join(base, 'dist-ssr', 'emergency-server.js'),
    'export function renderEmergencyPage() { return { lang: "en", title: "Emergency information", body: "<main id=\\"probe\\">page</main>" }; }\n',
  );
  return dist;
}

/** A route's path as the document spells it: `:id` → `{id}`, a trailing `*` → `{*}`. */
function documentPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
}

/** A URL that reaches a documented path: every parameter filled with a placeholder. */
function urlOf(documentedPath: string): string {
  return documentedPath.replace(/\{\*\}$/, 'some-name').replace(/\{\w+\}/g, 'some-id');
}

function operations(document: Document): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path: p, operation })),
  );
}

/**
 * Routes the document leaves out on purpose: HEAD (it answers GET's headers without a body;
 * @fastify/swagger documents the GET), the reference page itself with its files and its own copy
 * of the document (/api/docs/json, /api/docs/yaml), and the web build's files (@fastify/static
 * registers one route per file; the SPA fallback is Fastify's not-found handler, not a route).
 */
function leftOutOnPurpose(method: string, routePath: string, webFiles: ReadonlySet<string>): boolean {
  return method === 'HEAD' || routePath === API_DOCS_PREFIX || routePath.startsWith(`${API_DOCS_PREFIX}/`) || webFiles.has(routePath);
}

/** The routes of `app` that `document` does not describe, as "METHOD /path". */
function missingFromDocument(app: FastifyInstance, document: Document, webFiles: ReadonlySet<string> = new Set()): string[] {
  return routeTable(app)
    .filter(({ method, path: p }) => !leftOutOnPurpose(method, p, webFiles))
    .filter(({ method, path: p }) => !document.paths[documentPath(p)]?.[method.toLowerCase()])
    .map(({ method, path: p }) => `${method} ${p}`);
}

let t: TestApp;
let webRoot: string;
let webFiles: Set<string>;
let document: Document;
beforeAll(async () => {
  webRoot = probeWebRoot();
  webFiles = new Set(
    fs
      .readdirSync(webRoot, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${path.relative(webRoot, path.join(e.parentPath, e.name))}`),
  );
  t = await buildTestApp({}, { webRoot });
  const res = await new TestClient(t.app).get(OPENAPI_PATH);
  expect(res.statusCode).toBe(200);
  document = res.json<Document>();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(path.dirname(webRoot), { recursive: true, force: true });
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document that validates, public and briefly cacheable', async () => {
    const res = await new TestClient(t.app).get(OPENAPI_PATH);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // Validation, not just parsing: the OpenAPI 3.1 schema and the rules beyond it (unique
    // operation ids, every path parameter declared, …).
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Kinchart', version: serverPackage.version });
    expect(document.servers).toEqual([{ url: ORIGIN }]);
  });

  it('describes every route the app answers, but the reference page, HEAD and the web build’s files', () => {
    const table = routeTable(t.app);
    // The table is read whole: the web build's files, the emergency page and the reference page are in it.
    expect(table.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /assets/app-probe.js',
        'GET /emergency/:shareId',
        'GET /api/docs',
        'OPTIONS /shl/:manifestId',
        'DELETE /api/user/files/*',
      ]),
    );
    expect(missingFromDocument(t.app, document, webFiles)).toEqual([]);
    // …and nothing else: every operation in the document is a route the app answers.
    const answered = new Set(table.map((r) => `${r.method} ${documentPath(r.path)}`));
    expect(operations(document).filter((o) => !answered.has(`${o.method} ${o.path}`))).toEqual([]);
    expect(operations(document).length).toBeGreaterThan(140);
  });

  it('the check above finds a route left out of the document', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await registerOpenApi(app, t.config, securityHeaders(t.config));
    app.get('/api/user/listed', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    app.get('/api/user/left-out', { schema: { hide: true } }, async () => ({ ok: true }));
    await app.ready();
    expect(missingFromDocument(app, app.swagger() as unknown as Document)).toEqual(['GET /api/user/left-out']);
    await app.close();
  });

  it('marks public, session, emergency and SMART Health Link routes', () => {
    expect(document.security).toEqual([{ cookieAuth: [] }]);
    expect(document.components.securitySchemes).toEqual({ cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sid' } });
    const op = (method: string, p: string) => document.paths[p]?.[method];
    for (const [method, p] of [
      ['post', '/api/auth/signup'],
      ['post', '/api/auth/login'],
      ['get', '/api/config'],
      ['get', OPENAPI_PATH],
    ] as const) {
      expect(op(method, p), `${method} ${p}`).toMatchObject({ tags: ['public'], 'x-kinchart-access': 'public', security: [] });
    }
    // A session route takes the document's default: the session cookie.
    for (const [method, p] of [
      ['get', '/api/user/getPatientProfile'],
      ['put', '/api/user/family/members/{id}/qr/pin'],
      ['get', '/api/auth/check-auth'],
    ] as const) {
      expect(op(method, p), `${method} ${p}`).toMatchObject({ tags: ['session'], 'x-kinchart-access': 'session' });
      expect(op(method, p)?.security, `${method} ${p}`).toBeUndefined();
    }
    // The emergency page's lookup, with its PIN in the query (SPEC §4).
    const emergency = op('get', '/api/user/emergency/{shareId}');
    expect(emergency).toMatchObject({ tags: ['emergency'], 'x-kinchart-access': 'emergency', security: [] });
    expect(emergency?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'query', name: 'pin', required: false }),
        expect.objectContaining({ in: 'path', name: 'shareId' }),
      ]),
    );
    expect(op('get', '/family/emergency/{shareId}')).toMatchObject({ 'x-kinchart-access': 'emergency', security: [] });
    // The SMART Health Link manifest, and its files' location.
    for (const [method, p] of [
      ['post', '/shl/{manifestId}'],
      ['get', '/shl-files/{token}'],
    ] as const) {
      expect(op(method, p), `${method} ${p}`).toMatchObject({
        tags: ['smart-health-link'],
        'x-kinchart-access': 'smart-health-link',
        security: [],
      });
    }
    // Every operation carries exactly one of the four marks.
    for (const { method, path: p, operation } of operations(document)) {
      expect(ROUTE_ACCESS, `${method} ${p}`).toContain(operation['x-kinchart-access']);
      expect(operation.tags, `${method} ${p}`).toEqual([operation['x-kinchart-access']]);
    }
  });

  it('marks a route "session" exactly when it answers 401 without a session', async () => {
    const wrong: string[] = [];
    for (const { method, path: p, operation } of operations(document)) {
      const res = await t.app.inject({
        method: method as 'GET',
        url: urlOf(p),
        headers: { origin: ORIGIN },
        ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
      });
      const gated = res.statusCode === 401 && res.body === JSON.stringify({ message: 'Not authenticated', code: 'not_authenticated' });
      if (gated !== (operation['x-kinchart-access'] === 'session'))
        wrong.push(`${method} ${p} is marked ${operation['x-kinchart-access']} and answers ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('shows the schema of 2xx answers, and of request bodies and parameters', () => {
    const json = (method: string, p: string, status: string) =>
      document.paths[p]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    expect(json('get', '/api/user/getPatientProfile', '200')).toMatchObject({
      type: 'object',
      properties: expect.objectContaining({ emergency_contacts: expect.anything(), medications: expect.anything() }),
    });
    expect(json('post', '/api/auth/signup', '201')).toMatchObject({ type: 'object' });
    expect(json('get', '/api/user/emergency/{shareId}', '200')).toHaveProperty('anyOf');
    expect(json('post', '/shl/{manifestId}', '200')).toMatchObject({
      type: 'object',
      properties: expect.objectContaining({ files: expect.anything() }),
    });
    expect(json('get', '/api/user/people/{personId}/lab-results', '200')).toMatchObject({ type: 'array' });
    // An answer without a schema is named by its status, not swagger's "Default Response".
    expect(document.paths['/api/user/emergency/{shareId}']?.get?.responses['404']?.description).toBe('Not Found');
    expect(JSON.stringify(document)).not.toContain('Default Response');
    expect(document.paths['/api/auth/login']?.post?.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: expect.objectContaining({ email: expect.anything(), password: expect.anything() }),
    });
    // Most routes answer JSON, and none of their answers' schemas came out empty (a schema the
    // transform could not express would be `{}`).
    const answers = operations(document).flatMap(({ method, path: p, operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([status, response]) => {
          const schema = response.content?.['application/json']?.schema;
          return response.content && 'application/json' in response.content ? [{ at: `${method} ${p} ${status}`, schema }] : [];
        }),
    );
    expect(answers.length).toBeGreaterThan(110);
    expect(answers.filter((a) => !a.schema || Object.keys(a.schema).length === 0).map((a) => a.at)).toEqual([]);
  });

  it('shows every route of issue 32 with its body, its answer’s fields and its refusals', () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema; required?: string[] };
    const json = (r?: { content?: Record<string, { schema: object }> }) => r?.content?.['application/json']?.schema as Schema | undefined;
    const fields = (schema?: Schema) => Object.keys(schema?.properties ?? {});
    // [method, path, body fields (null: none), success status and its fields, refusals documented as JSON messages]
    const routes: [string, string, string[] | null, string, string[], string[]][] = [
      ['get', '/api/user/preferences', null, '200', ['time_zone', 'reminder_email', 'reminder_push', 'reminder_minimal'], []],
      ['put', '/api/user/preferences', ['time_zone', 'reminder_email', 'reminder_push', 'reminder_minimal'], '200', ['time_zone'], ['400']],
      ['get', '/api/user/people/{personId}/schedules', null, '200', ['schedules'], ['400', '403', '404']],
      [
        'put',
        '/api/user/people/{personId}/medications/{medicationId}/schedule',
        ['times', 'days', 'start_date', 'end_date', 'as_needed', 'dose_units', 'quantity_on_hand', 'refill_remind_days', 'reminders'],
        '200',
        ['times', 'days', 'start_date', 'end_date', 'as_needed', 'dose_units', 'quantity_on_hand', 'refill_remind_days', 'reminders'],
        ['400', '403', '404'],
      ],
      ['get', '/api/user/people/{personId}/medications/{medicationId}/schedule', null, '200', ['times', 'days'], ['400', '403', '404']],
      ['delete', '/api/user/people/{personId}/medications/{medicationId}/schedule', null, '200', ['message'], ['400', '403', '404']],
      ['get', '/api/user/people/{personId}/doses', null, '200', ['doses'], ['400', '403', '404']],
      ['post', '/api/user/people/{personId}/doses', ['medication_id', 'taken_at'], '201', ['dose_id', 'status'], ['400', '403', '404']],
      ['put', '/api/user/people/{personId}/doses/{doseId}', ['status', 'taken_at'], '200', ['dose_id', 'status'], ['400', '403', '404']],
      ['delete', '/api/user/people/{personId}/doses/{doseId}', null, '200', ['message'], ['400', '403', '404']],
      ['get', '/api/user/people/{personId}/adherence', null, '200', [], ['400', '403', '404']],
      [
        'get',
        '/api/user/people/{personId}/reminder-settings',
        null,
        '200',
        ['dose_reminders', 'missed_dose_alerts', 'appointment_reminders'],
        ['400', '404'],
      ],
      [
        'put',
        '/api/user/people/{personId}/reminder-settings',
        ['dose_reminders', 'missed_dose_alerts', 'appointment_reminders'],
        '200',
        ['dose_reminders', 'missed_dose_alerts', 'appointment_reminders'],
        ['400', '404'],
      ],
      ['post', '/api/user/push-subscriptions', ['endpoint', 'keys'], '201', ['id'], ['400']],
      ['get', '/api/user/push-subscriptions', null, '200', [], []],
      ['delete', '/api/user/push-subscriptions/{id}', null, '200', ['message'], ['404']],
      ['post', '/api/push-actions', ['token', 'action'], '200', ['message'], ['400', '404']],
      [
        'post',
        '/api/user/calendar-feeds',
        ['person_id', 'include_medications', 'minimal'],
        '201',
        ['id', 'url', 'webcal_url'],
        ['400', '404'],
      ],
      ['get', '/api/user/calendar-feeds', null, '200', ['feeds'], []],
      ['post', '/api/user/calendar-feeds/{id}/renew', null, '200', ['id', 'url', 'webcal_url'], ['400', '404']],
      ['delete', '/api/user/calendar-feeds/{id}', null, '200', ['message'], ['400', '404']],
      ['get', '/api/calendar/{file}', null, '200', [], ['404']],
    ];
    const wrong: string[] = [];
    for (const [method, p, body, ok, answer, refusals] of routes) {
      const operation = document.paths[p]?.[method];
      const at = `${method.toUpperCase()} ${p}`;
      if (!operation) {
        wrong.push(`${at}: not in the document`);
        continue;
      }
      const bodySchema = operation.requestBody?.content['application/json']?.schema as Schema | undefined;
      if (body === null ? bodySchema !== undefined : !body.every((f) => fields(bodySchema).includes(f)))
        wrong.push(`${at}: body ${JSON.stringify(fields(bodySchema))}`);
      const success = operation.responses[ok];
      if (!success) wrong.push(`${at}: no ${ok}`);
      else if (!answer.every((f) => fields(json(success)).includes(f)))
        wrong.push(`${at}: ${ok} answers ${JSON.stringify(fields(json(success)))}`);
      for (const status of refusals) {
        if (!fields(json(operation.responses[status])).includes('message')) wrong.push(`${at}: no ${status} { message }`);
      }
    }
    expect(wrong).toEqual([]);
    // The feed itself is iCalendar on success.
    expect(Object.keys(document.paths['/api/calendar/{file}']?.get?.responses['200']?.content ?? {})).toEqual(['text/calendar']);
    expect(document.paths['/api/calendar/{file}']?.get).toMatchObject({ 'x-kinchart-access': 'public', security: [] });
  });

  it('shows the uploads’ multipart bodies: the file and the fields the services read', () => {
    const body = (p: string) =>
      document.paths[p]?.post?.requestBody?.content['multipart/form-data']?.schema as
        { required: string[]; properties: Record<string, { type: string }> } | undefined;
    expect(body('/api/user/files')?.required).toEqual(['file']);
    expect(Object.keys(body('/api/user/files')?.properties ?? {}).sort()).toEqual(['file', ...UPLOAD_FIELD_NAMES].sort());
    expect(body('/api/user/files')?.properties.providerName).toMatchObject({ type: 'string', maxLength: 200 });
    expect(Object.keys(body('/api/user/upload')?.properties ?? {}).sort()).toEqual(['file', 'personId']);
    expect(Object.keys(body('/api/user/import')?.properties ?? {}).sort()).toEqual(['file', IMPORT_TARGET_FIELD]);
  });

  it('says what every operation answers on success: JSON with its schema, another media type, no body, or a redirect', () => {
    const undescribed = operations(document).filter(({ operation }) => {
      const success = Object.entries(operation.responses).filter(([status]) => /^[23]/.test(status));
      return success.length === 0 || success.some(([status, response]) => status.startsWith('2') && status !== '204' && !response.content);
    });
    expect(undescribed.map(({ method, path: p }) => `${method} ${p}`)).toEqual([]);
  });

  it('names the media types the answers that are not JSON really have', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.post('/api/user/wearable-qr', { pin: '4826' })).statusCode).toBe(201);
    const type = (method: string, p: string, status: string) => Object.keys(document.paths[p]?.[method]?.responses[status]?.content ?? {});
    for (const [p, status] of [
      ['/api/user/wearable-qr/qr.png', '200'],
      ['/api/user/wearable-qr/card.pdf', '200'],
      ['/api/user/appointments.ics', '200'],
    ] as const) {
      const res = await client.get(p);
      expect(res.statusCode, p).toBe(Number(status));
      expect(type('get', p, status), p).toEqual([res.headers['content-type']?.split(';')[0]]);
    }
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/shl/some-id', headers: { origin: 'https://viewer.example' } });
    expect(preflight.statusCode).toBe(204);
    expect(document.paths['/shl/{manifestId}']?.options?.responses).toEqual({
      '204': { description: 'CORS preflight: any origin may POST.' },
    });
  });
});

describe('/api/docs', () => {
  it('is the reference page from swagger-ui’s own files, with the pages’ headers and nothing from another site', async () => {
    const client = new TestClient(t.app);
    const res = await client.get(API_DOCS_PREFIX);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const headers = securityHeaders(t.config).document;
    for (const [name, value] of Object.entries(headers)) expect(res.headers[name], name).toBe(value);
    expect(res.body).toContain('<title>Kinchart API reference</title>');
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(sources).toContain(`${API_DOCS_PREFIX}/static/swagger-ui-bundle.js`);
    for (const source of sources) {
      expect(source, source).toMatch(/^\/api\/docs\/static\//);
      const asset = await client.get(source);
      expect(asset.statusCode, source).toBe(200);
    }
    // No inline script for the CSP to refuse: each <script> has a src and nothing in it.
    expect(
      [...res.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].every(
        ([, attributes = '', body = '']) => attributes.includes('src=') && body.trim() === '',
      ),
    ).toBe(true);
    // The page reads the same document.
    const own = await client.get(`${API_DOCS_PREFIX}/json`);
    expect(own.json()).toEqual(document);
  });

  it('leaves the web app’s fallback and the emergency page as they were', async () => {
    const client = new TestClient(t.app);
    const page = await client.get('/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    const emergency = await client.get(`/emergency/${'A'.repeat(43)}`);
    expect(emergency.statusCode).toBe(200);
    expect(emergency.body).toContain('<main id="probe">page</main>');
    const unknown = await client.get('/api/docs-nothing-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Not found' });
  });
});
