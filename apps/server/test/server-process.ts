import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// Helpers for the tests that run the production build as real processes (faults, operations,
// multi-instance): start and stop `apps/server/dist/server.js`, talk to it over HTTP like a
// browser does, and run the operations CLI. test/global-build.ts makes the build first.

export const SERVER_ENTRY = fileURLToPath(new URL('../dist/server.js', import.meta.url));
export const CLI_ENTRY = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const HOST = '127.0.0.1';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Only what a server needs from the test's own environment; everything else is explicit. */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  return Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  exited: Promise<Exit>;
  /** The last 64 KB the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** Sends `signal` and waits for the exit (SIGKILL after `graceMs`). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<Exit>;
}

const running = new Set<ChildProcess>();
// A test that fails half-way must not leave servers behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startServer(env: Record<string, string>, options: { healthTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...baseEnv(), HOST, PORT: String(port), RATE_LIMIT_PER_MIN: '0', SIGNUP_LIMIT_PER_HOUR: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const server: ServerProcess = {
    url: `http://${HOST}:${port}`,
    port,
    child,
    exited,
    output: () => log,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
  const deadline = Date.now() + (options.healthTimeoutMs ?? 30_000);
  let exitedEarly: Exit | undefined;
  void exited.then((e) => (exitedEarly = e));
  for (;;) {
    if (exitedEarly) throw new Error(`server exited (${exitedEarly.code ?? exitedEarly.signal}) before it answered:\n${log}`);
    try {
      const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /api/health in time:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Buffer;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A browser-like client over real HTTP: keeps its session cookie (sent to whichever instance it
 * talks to — behind a load balancer every instance sees the same cookie) and sends `origin` on
 * writes (DESIGN §5 CSRF check).
 */
export class HttpClient {
  cookie: string | undefined;
  /** The browser's own token (docs/decisions/0028), kept beside the session cookie. */
  browserCookie: string | undefined;
  /** `headers` go with every request, e.g. an X-Forwarded-For naming the client's address behind a proxy. */
  constructor(
    readonly origin: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(
    base: string,
    method: Method,
    path: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; raw?: Buffer } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...this.headers, ...extra.headers };
    if (method !== 'GET') headers.origin = this.origin;
    const sent = [this.cookie, this.browserCookie].filter(Boolean).join('; ');
    if (sent) headers.cookie = sent;
    let payload: Buffer | string | undefined = extra.raw;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${base}${path}`, { method, headers, body: payload, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      if (!pair) continue;
      if (/^(__Host-)?browser=/.test(pair)) this.browserCookie = pair;
      // A cleared cookie ends only the one of that name (clearing a pending login's marker leaves the session).
      else if (/=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) {
        if (this.cookie?.split('=')[0] === pair.split('=')[0]) this.cookie = undefined;
      } else this.cookie = pair;
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      headers: res.headers,
      body: bytes,
      json: () => JSON.parse(bytes.toString('utf8')),
    };
  }

  get = (base: string, path: string) => this.request(base, 'GET', path);
  post = (base: string, path: string, body?: unknown) => this.request(base, 'POST', path, body);
  put = (base: string, path: string, body?: unknown) => this.request(base, 'PUT', path, body);
  delete = (base: string, path: string) => this.request(base, 'DELETE', path);

  /** POST multipart/form-data (already encoded, e.g. by files-helpers' multipartBody). */
  postMultipart = (base: string, path: string, form: { payload: Buffer; headers: Record<string, string> }) =>
    this.request(base, 'POST', path, undefined, { raw: form.payload, headers: form.headers });
}

let emailCounter = 0;
export const processEmail = (prefix: string) => `${prefix}${(emailCounter += 1)}.${Date.now().toString(36)}@example.com`;
export const PASSWORD = 'correct horse battery';

/** Signs up through `signupBase` and logs in through `loginBase`; the client then holds the session. */
export async function signUp(
  client: HttpClient,
  signupBase: string,
  loginBase = signupBase,
  email = processEmail('p'),
): Promise<{ id: string; email: string }> {
  const signup = await client.post(signupBase, '/api/auth/signup', { email, password: PASSWORD, username: 'Pat Example' });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.body.toString()}`);
  const login = await client.post(loginBase, '/api/auth/login', { email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body.toString()}`);
  return { id: login.json<{ user: { id: string } }>().user.id, email };
}

/** Runs the operations CLI (dist/cli.js) to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_ENTRY, ...args],
      { env: { ...baseEnv(), LOG_LEVEL: 'warn', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A new, empty PostgreSQL database next to TEST_DATABASE_URL's; `drop` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required');
  const name = `kinchart_mi_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface StreamingUpload {
  /** Resolves once the multipart head and the first `firstBytes` of the file have been written. */
  started: Promise<void>;
  /** Sends the rest, `chunkSize` bytes every `delayMs`, then the closing fields. */
  finish(options?: { chunkSize?: number; delayMs?: number }): void;
  /** The answer, or the connection error. */
  response: Promise<{ status: number; body: string }>;
  /** Closes the connection from this side (it is kept alive after the answer, as a browser would). */
  close(): void;
}

/**
 * POST /api/user/files written slowly over one connection (file part first, as the web app sends
 * it), so a test can act while the server is half-way through reading it.
 */
export function streamingUpload(
  base: string,
  client: HttpClient,
  content: Buffer,
  options: { firstBytes?: number; customName?: string } = {},
): StreamingUpload {
  const boundary = `----kinchart${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="customName"\r\n\r\n${options.customName ?? 'Slow upload'}\r\n--${boundary}--\r\n`,
  );
  const url = new URL('/api/user/files', base);
  // Like a browser: the connection stays open after the answer, idle, for minutes.
  const agent = new http.Agent({ keepAlive: true, timeout: 300_000 });
  const req = http.request(url, {
    agent,
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + content.length + tail.length),
      origin: client.origin,
      ...(client.cookie ? { cookie: client.cookie } : {}),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  response.catch(() => {}); // observed by whoever awaits it
  const first = Math.min(options.firstBytes ?? 64 * 1024, content.length);
  const started = new Promise<void>((resolve) => {
    req.write(head);
    req.write(content.subarray(0, first), () => resolve());
  });
  return {
    started,
    response,
    close: () => agent.destroy(),
    finish({ chunkSize = 64 * 1024, delayMs = 20 } = {}) {
      let offset = first;
      const next = () => {
        if (req.destroyed) return;
        if (offset >= content.length) {
          req.end(tail);
          return;
        }
        const end = Math.min(offset + chunkSize, content.length);
        req.write(content.subarray(offset, end));
        offset = end;
        setTimeout(next, delayMs);
      };
      next();
    },
  };
}
