// Issue 35 (docs/decisions/0054): the API keeps its English `message` and adds a stable `code` (and
// `params`) for every error and success, from packages/shared/src/messages.ts. Three walls: the
// matcher itself; every text the server source passes as a message (read with the TypeScript
// compiler, so a new message is checked the day it is written) and every shared schema message has a
// code; and real answers — errors of each kind and successes of several features — carry a code
// whose text, filled with its params, is the message sent.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES, UNMATCHED_CODES, formatMessage, messageCode, parseTemplate } from '@kinchart/shared/messages';
import type { MessageCode } from '@kinchart/shared/messages';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import { HOLE, messageSources, sharedSchemaMessages } from './message-sources';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** An answer's message is coded, and its code's text with the params is the message, byte for byte. */
function expectCoded(res: LightMyRequestResponse): { code: string; params?: Record<string, string> } {
  const body = res.json<{ message?: unknown; code?: unknown; params?: Record<string, string> }>();
  expect(typeof body.message, res.body).toBe('string');
  expect(typeof body.code, res.body).toBe('string');
  const code = body.code as string;
  expect(code, res.body).not.toBe('unknown');
  expect(Object.keys(MESSAGES), res.body).toContain(code);
  expect(formatMessage(MESSAGES[code as MessageCode], body.params)).toBe(body.message);
  return { code, ...(body.params ? { params: body.params } : {}) };
}

describe('the message matcher', () => {
  it('finds an exact text, with no params', () => {
    expect(messageCode('Not authenticated')).toEqual({ code: 'not_authenticated' });
  });

  it('fills a template’s placeholders and rebuilds the text from them', () => {
    const text = 'Too many incorrect PINs. Please try again in 7 minutes.';
    const coded = messageCode(text);
    expect(coded?.params).toEqual({ minutes: '7' });
    expect(formatMessage(MESSAGES[coded!.code as MessageCode], coded!.params)).toBe(text);
  });

  it('prefers an exact text over a template that would also fit', () => {
    expect(messageCode('Password is required')?.code).not.toBe(messageCode('Nickname is required')?.code);
    expect(messageCode('Nickname is required')?.params).toEqual({ field: 'Nickname' });
  });

  it('keeps literal braces and apostrophes of a text', () => {
    expect(messageCode('codings must be a list of { system, code, display }')?.params).toBeUndefined();
    expect(parseTemplate("a '{' b '}' it's {x}")).toEqual({ pieces: ["a { b } it's ", ''], names: ['x'] });
  });

  it('answers undefined for a text it does not know, and never matches the catch-all codes', () => {
    expect(messageCode('Something nobody wrote')).toBeUndefined();
    expect(messageCode('')).toBeUndefined();
    for (const code of UNMATCHED_CODES) expect(MESSAGES).toHaveProperty(code);
  });

  it('reads a long text in linear time', () => {
    const long = `${'a: '.repeat(50_000)}b`;
    const started = performance.now();
    messageCode(long);
    messageCode(`Storage quota of ${'9'.repeat(100_000)}`);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('has a distinct text for every code, each a valid template', () => {
    const texts = Object.entries(MESSAGES).flatMap(([code, text]) => (UNMATCHED_CODES.has(code) ? [] : [text]));
    expect(new Set(texts).size).toBe(texts.length);
    for (const [code, text] of Object.entries(MESSAGES)) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
      const { names } = parseTemplate(text);
      for (const name of names) expect(name, code).toMatch(/^[a-z][a-z0-9]*$/);
    }
  });
});

/**
 * Sites whose text is built from values the compiler cannot follow, each read by hand: the codes
 * that cover it. Keep this list short; prefer a text the walker can read.
 */
const REVIEWED: Record<string, string[]> = {
  // `${what} ${size}`: `what` is one of two constants the callers pass.
  'features/files/storage-quota.ts': ['storage_quota_file', 'storage_quota_import'],
  // The first zod issue of the upload fields: a message of packages/shared/src/files.ts, checked with the schemas'.
  'features/files/medical-file.service.ts': [],
};

/**
 * Sites that pass on a text made elsewhere, whole (a text that is nothing but a value): an HttpError's
 * own message (checked where it is made), a zod issue's (checked with the schemas), or Fastify's own
 * 4xx text (sent as `request_error`). Any text of their own is still checked.
 */
const PASS_THROUGH = new Set(['plugins/errors.ts', 'features/shl/shl.service.ts']);

/** Non-answers that the walker meets (object literals that are not sent): stored notification texts. */
const NOT_ANSWERS = new Set([
  'features/export/kinchart-format.ts',
  'features/import/import.repository.ts',
  'features/reminders/scheduler.ts',
  'lib/http-errors.ts',
]);

/** Texts the shared walker meets that are not messages (string arguments of `.startsWith`, `.includes`, …). */
const NOT_MESSAGES = new Set(['', '!', '.', '/', '//', '<', '>', 'en', 'image/', 'q=', '(resolved)', HOLE]);

function covered(text: string): boolean {
  if (!text.includes(HOLE)) return messageCode(text) !== undefined;
  // A built text: any value in its holes still finds a code.
  return ['x', '12', 'name'].every((sample) => messageCode(text.split(HOLE).join(sample)) !== undefined);
}

describe('a code for every message', () => {
  it('every text the server source passes as a message has a code', { timeout: 120_000 }, () => {
    const sources = messageSources(ROOT, (file) => NOT_ANSWERS.has(file));
    expect(sources.length).toBeGreaterThan(200);
    const missing = sources.filter((s) => {
      if (covered(s.text)) return false;
      const file = s.at.slice(0, s.at.lastIndexOf(':'));
      return !(file in REVIEWED) && !(s.text === HOLE && PASS_THROUGH.has(file));
    });
    expect(missing.map((s) => `${s.at}: ${JSON.stringify(s.text.split(HOLE).join('{}'))}`)).toEqual([]);
    for (const codes of Object.values(REVIEWED)) for (const code of codes) expect(MESSAGES).toHaveProperty(code);
  });

  it('every message of the shared schemas has a code', { timeout: 120_000 }, () => {
    const sources = sharedSchemaMessages(ROOT).filter((s) => !NOT_MESSAGES.has(s.text) && /[A-Za-z]{3}/.test(s.text));
    expect(sources.length).toBeGreaterThan(100);
    const missing = sources.filter((s) => !covered(s.text));
    expect(missing.map((s) => `${s.at}: ${JSON.stringify(s.text.split(HOLE).join('{}'))}`)).toEqual([]);
  });
});

describe('answers carry their codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('validation failures: a field message, a body that is not an object, malformed JSON', async () => {
    const anonymous = new TestClient(t.app);
    const short = await anonymous.post('/api/auth/signup', { email: uniqueEmail(), password: 'short', username: 'Pat' });
    expect(short.statusCode).toBe(400);
    expect(expectCoded(short)).toEqual({ code: expect.any(String), params: { min: '8' } });

    const notObject = await anonymous.post('/api/auth/login', [1, 2]);
    expect(notObject.statusCode).toBe(400);
    expectCoded(notObject);

    const malformed = await anonymous.request('POST', '/api/auth/login', '{"email":', { headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    expect(expectCoded(malformed).code).toBe('malformed_json_in_request_body');
  });

  it('401, 403, 404 and 409 answers', async () => {
    const anonymous = new TestClient(t.app);
    const noSession = await anonymous.get('/api/user/getPatientProfile');
    expect(noSession.statusCode).toBe(401);
    expect(expectCoded(noSession).code).toBe('not_authenticated');

    const { client, email, password } = await signedInUser(t.app);
    const crossOrigin = await client.post(
      '/api/user/medications',
      { medication_name: 'X' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(crossOrigin.statusCode).toBe(403);
    expectCoded(crossOrigin);

    const missing = await client.delete('/api/user/medications/00000000-0000-0000-0000-000000000000');
    expect(missing.statusCode).toBe(404);
    expectCoded(missing);

    const noRoute = await client.get('/api/user/no-such-thing');
    expect(noRoute.statusCode).toBe(404);
    expectCoded(noRoute);

    const taken = await anonymous.post('/api/auth/signup', { email, password, username: 'Pat Again' });
    expect(taken.statusCode).toBe(409);
    expectCoded(taken);
  });

  it('429: too many failed logins', async () => {
    const { email } = await signedInUser(t.app);
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 30; i++) {
      last = await new TestClient(t.app).post('/api/auth/login', { email, password: 'not the password' });
      if (last.statusCode === 429) break;
      expect(last.statusCode).toBe(401);
      expectCoded(last);
    }
    expect(last?.statusCode).toBe(429);
    expectCoded(last!);
  });

  it('successes of several features', async () => {
    const { client } = await signedInUser(t.app);
    expectCoded(await client.put('/api/user/updateProfile', { first_name: 'Pat' }));

    const medication = await client.post('/api/user/medications', { medication_name: 'Inhaler', dosage: '2 puffs', is_current: true });
    expect(medication.statusCode).toBe(201);
    expect(expectCoded(medication).code).toBe('medication_added_successfully');
    expectCoded(await client.delete(`/api/user/medications/${medication.json<{ id: string }>().id}`));

    const appointment = await client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      end_time: '2026-12-03T10:15',
      provider_name: 'Dr. Chen',
    });
    expect(appointment.statusCode).toBe(201);
    expectCoded(appointment);

    const condition = await client.post('/api/user/people/self/conditions', { name: 'Asthma' });
    if (condition.json<{ message?: string }>().message) expectCoded(condition);

    const loggedOut = await client.post('/api/auth/logout');
    expect(loggedOut.statusCode).toBe(200);
    expectCoded(loggedOut);
  });

  it('the OpenAPI document shows code and params beside every message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { origin: ORIGIN } });
    const document = res.json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    let withMessage = 0;
    for (const operation of Object.values(document.paths).flatMap((methods) => Object.values(methods))) {
      for (const response of Object.values(operation.responses)) {
        const schema = (response as { content?: { 'application/json'?: { schema?: { properties?: Record<string, unknown> } } } }).content?.[
          'application/json'
        ]?.schema;
        if (!schema?.properties?.message) continue;
        withMessage += 1;
        expect(schema.properties).toHaveProperty('code');
        expect(schema.properties).toHaveProperty('params');
      }
    }
    expect(withMessage).toBeGreaterThan(50);
  });
});
