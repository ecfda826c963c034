import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../src/config';
import type { Config } from '../src/config';
import { createDatabase, migrateToLatest } from '../src/db/database';
import type { DatabaseHandle } from '../src/db/database';
import { buildApp } from '../src/app';
import { createMailer } from '../src/common/mailer';
import type { RemindersDeps } from '../src/features/reminders/reminders';

export const dialect = (process.env.KINCHART_TEST_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres';
export const ORIGIN = 'http://localhost:3000';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  dataDir: string;
  /** Resolves once every email the app has queued so far is handed to the SMTP server (or has failed); at once without SMTP_URL. */
  mailSettled(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh database per call: a temporary SQLite file, or a new PostgreSQL database. */
async function freshDatabase(dataDir: string): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const handle = createDatabase({ sqliteFile: path.join(dataDir, 'kinchart.db') });
    return { handle, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
  const name = `kinchart_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = createDatabase({ databaseUrl: url.toString(), sqliteFile: '' });
  return {
    handle,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // pool.end() resolves before its sockets have closed; killing a connection that is still
      // saying goodbye makes pg emit an uncaught error, so wait (briefly) for them to go first.
      for (let i = 0; i < 40; i += 1) {
        const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (!rows[0]?.n) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A second app on `t`'s database and configuration whose log is kept in memory, to check what the
 * log carries. `logger` holds Fastify's logger options (level, redaction); the stream is added.
 */
export async function appWithCapturedLog(t: TestApp, logger: object = { level: 'trace' }) {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const app = await buildApp({
    config: t.config,
    database: t.database,
    webRoot: null,
    logger: { ...logger, stream },
    reminders: TEST_REMINDERS,
    text: TEST_TEXT,
  });
  await app.ready();
  return { app, log: () => lines.join('\n') };
}

/** Apps the tests build: the reminder scheduler is driven by the tests that need it, never by a timer on the real clock. */
export const TEST_REMINDERS = { timer: false } as const;
/** Apps the tests build read files' text only when a test calls `app.textJobs.runOnce()` / `drain()` (issue 33). */
export const TEST_TEXT = { timer: false } as const;

/** `webRoot`: a built web app to serve, as apps/web/dist; none by default. `now`: the app's clock (issue 32), for tests that drive time. */
export async function buildTestApp(
  env: Record<string, string> = {},
  { webRoot = null, now, reminders = {} }: { webRoot?: string | null; now?: () => Date; reminders?: RemindersDeps } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    RATE_LIMIT_PER_MIN: '0',
    // Suites sign up many accounts from one address; the sign-up limit's own tests turn it back on.
    SIGNUP_LIMIT_PER_HOUR: '0',
    LOG_LEVEL: 'silent',
    MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...env,
  });
  const { handle, drop } = await freshDatabase(dataDir);
  await migrateToLatest(handle.db);
  // The app's email transport, made here so a test can wait for what the app queued instead of for time.
  const mailer = config.mail ? createMailer({ mail: config.mail, log: pino({ level: config.logLevel }) }) : undefined;
  // The reminder scheduler is driven by the tests that need it (reminder-scheduler.test.ts), never by a timer.
  const app = await buildApp({
    config,
    database: handle,
    webRoot,
    ...(mailer ? { mailer } : {}),
    ...(now ? { now } : {}),
    reminders: { ...TEST_REMINDERS, ...reminders },
    text: TEST_TEXT,
  });
  await app.ready();
  return {
    app,
    database: handle,
    config,
    dataDir,
    mailSettled: async () => mailer?.settled(),
    async close() {
      await app.close();
      await handle.db.destroy();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** The cookie that tells this browser apart from others (docs/decisions/0028): kept beside the session's. */
const BROWSER_COOKIE = /^(__Host-)?browser=/;

/**
 * A client that keeps its session cookie and sends our Origin on writes, like the browser app.
 * `cookie` is the session's (or pending login's) cookie; `browserCookie` the browser's own token.
 */
export class TestClient {
  cookie: string | undefined;
  browserCookie: string | undefined;
  constructor(private readonly app: FastifyInstance) {}

  async request(method: Method, url: string, body?: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { origin: ORIGIN, ...(extra.headers as Record<string, string> | undefined) };
    const sent = [this.cookie, this.browserCookie].filter(Boolean).join('; ');
    if (sent) headers.cookie = sent;
    const res = await this.app.inject({
      method,
      url,
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      ...extra,
      headers,
    });
    const setCookie = res.headers['set-cookie'];
    const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
    for (const c of cookies) {
      const [pair] = c.split(';');
      if (!pair) continue;
      if (BROWSER_COOKIE.test(pair)) this.browserCookie = pair;
      // A cleared cookie ends only the one of that name (clearing a pending login's marker leaves the session).
      else if (/=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) {
        if (this.cookie?.split('=')[0] === pair.split('=')[0]) this.cookie = undefined;
      } else this.cookie = pair;
    }
    return res;
  }

  get = (url: string, extra?: Partial<InjectOptions>) => this.request('GET', url, undefined, extra);
  post = (url: string, body?: unknown, extra?: Partial<InjectOptions>) => this.request('POST', url, body, extra);
  put = (url: string, body?: unknown, extra?: Partial<InjectOptions>) => this.request('PUT', url, body, extra);
  delete = (url: string, body?: unknown, extra?: Partial<InjectOptions>) => this.request('DELETE', url, body, extra);
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}.${Date.now().toString(36)}@example.com`;
}

export const GOOD_PASSWORD = 'correct horse battery';

/** Signs up and logs in a new user; returns a client holding their session. */
export async function signedInUser(
  app: FastifyInstance,
  overrides: Partial<{ email: string; username: string; password: string }> = {},
): Promise<{ client: TestClient; email: string; password: string; username: string; id: string }> {
  const client = new TestClient(app);
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? GOOD_PASSWORD;
  const username = overrides.username ?? 'Pat Example';
  const signup = await client.post('/api/auth/signup', { email, password, username });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
  const login = await client.post('/api/auth/login', { email, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const id = login.json<{ user: { id: string } }>().user.id;
  return { client, email, password, username, id };
}

/** Methods a route table lists that a test sends (HEAD mirrors GET; OPTIONS is CORS plumbing). */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
const ROUTE_METHODS = new Set<string>(['GET', 'POST', 'PUT', 'DELETE']);

/** Every (method, path) the app answers, read from Fastify's route tree. */
export function registeredRoutes(app: FastifyInstance): { method: RouteMethod; path: string }[] {
  return routeTable(app).filter((route): route is { method: RouteMethod; path: string } => ROUTE_METHODS.has(route.method));
}

/** Every (method, path) in Fastify's route tree, HEAD and OPTIONS included. */
export function routeTable(app: FastifyInstance): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods = ''] = match;
    const depth = indent.length / 4;
    const parent = parents[depth - 1] ?? '';
    const path = segment === '*' && !parent.endsWith('/') ? `${parent}/*` : `${parent}${segment}`;
    parents.length = depth;
    parents[depth] = path;
    if (methods) for (const method of methods.split(', ')) routes.push({ method, path });
  }
  return routes;
}
