#!/usr/bin/env node
// Runs the browser end-to-end suite against the production build, the way `npm start` serves it:
// one stack per Vitest worker — a fresh server on a free port with a throwaway DATA_DIR, its own
// loopback SMTP server and OpenID Connect provider — then `vitest run --config e2e/vitest.config.ts`,
// whose workers each run their files, one at a time, against their own stack (e2e/lib/stack.ts).
// E2E_WORKERS sets how many (2 by default: journeys mostly wait on the browser and the server, so
// two keep both cores busy; docs/decisions/0042). Exit code is vitest's. Nothing is skipped: a
// missing Chromium or a missing build is a failure.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { startOidcProvider } from './lib/oidc-provider.mjs';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(e2eDir, '..');
const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');
const tmpDir = path.join(e2eDir, '.tmp');
const HOST = '127.0.0.1';

function fail(message) {
  console.error(`e2e: ${message}`);
  process.exit(1);
}

const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
if (!Number.isInteger(WORKERS) || WORKERS < 1) fail(`E2E_WORKERS=${process.env.E2E_WORKERS} is not a positive whole number`);

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function resolveChromium() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) fail(`CHROME_PATH=${fromEnv} is not an executable file.`);
    return fromEnv;
  }
  if (isExecutable('/usr/bin/chromium')) return '/usr/bin/chromium';
  fail('Chromium not found: install it with `apt-get install -y chromium` or set CHROME_PATH');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function tail(file, lines = 200) {
  if (!existsSync(file)) return '(no server log)';
  const all = readFileSync(file, 'utf8').trimEnd().split('\n');
  return all.slice(-lines).join('\n') || '(server log is empty)';
}

function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function waitForHealth(baseUrl, server, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`the server exited (code ${server.exitCode ?? server.signalCode}) before it became healthy`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) {
        const body = await res.json().catch(() => null);
        if (body?.status === 'ok') return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`GET ${baseUrl}/api/health did not answer {"status":"ok"} within ${timeoutMs / 1000} s`);
}

const chromePath = resolveChromium();
if (!existsSync(serverEntry)) {
  fail('apps/server/dist/server.js not found: run `npm run build` first (`npm test` builds before the e2e step).');
}
const vitestBin = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

mkdirSync(tmpDir, { recursive: true });
// Failure screenshots describe this run only.
await rm(path.join(e2eDir, 'screenshots/failures'), { recursive: true, force: true });
// Run a snapshot of the build, so a rebuild during the run (a developer's `npm run build` in
// another terminal) cannot swap the web app's hashed assets under the browser. The snapshot keeps
// the repository's layout below e2e/.tmp, so the server finds apps/web/dist beside it and its
// npm packages in the root node_modules, exactly as `node apps/server/dist/server.js` would.
const snapshotDir = path.join(tmpDir, 'build');
await rm(snapshotDir, { recursive: true, force: true });
for (const dir of ['apps/server/dist', 'apps/web/dist', 'apps/web/dist-ssr']) {
  if (existsSync(path.join(repoRoot, dir))) await cp(path.join(repoRoot, dir), path.join(snapshotDir, dir), { recursive: true });
}
// The server's package.json says how Node loads dist/server.js (ES module).
await cp(path.join(repoRoot, 'apps/server/package.json'), path.join(snapshotDir, 'apps/server/package.json'));
const snapshotEntry = path.join(snapshotDir, 'apps/server/dist/server.js');

/**
 * One stack for worker `n` (1-based): its loopback SMTP server, its OpenID Connect provider and a
 * production server on a fresh data directory, logging to e2e/.tmp/server-<n>.log. Resolves what a
 * journey needs to reach it, and `close()`.
 */
const takenPorts = new Set();
async function startStack(n) {
  const logFile = path.join(tmpDir, `server-${n}.log`);
  // Email as it really goes out (DESIGN §1: SMTP_URL): a loopback SMTP server keeps every message
  // the server sends as a file in the mailbox folder, where journeys read them (e2e/lib/mailbox.ts),
  // e.g. the link of a password reset.
  const mailboxDir = path.join(tmpDir, `mailbox-${n}`);
  await rm(mailboxDir, { recursive: true, force: true });
  mkdirSync(mailboxDir, { recursive: true });
  let mailCount = 0;
  const smtp = new SMTPServer({
    secure: false,
    hideSTARTTLS: true,
    authOptional: true,
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        mailCount += 1;
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        // Written whole, then renamed, so a reader never sees half a message.
        const file = path.join(mailboxDir, `${String(mailCount).padStart(5, '0')}.eml`);
        void writeFile(`${file}.part`, Buffer.concat([Buffer.from(`X-Envelope-To: ${to}\r\n`), ...chunks]))
          .then(() => rename(`${file}.part`, file))
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise((resolve) => smtp.listen(0, HOST, resolve));
  const smtpPort = smtp.server.address().port;

  // Two stacks' servers bind at about the same time: never hand both the same free port.
  let port = await freePort();
  while (takenPorts.has(port)) port = await freePort();
  takenPorts.add(port);
  // The browser uses the very origin the server is told it lives at, so the CSRF Origin check
  // (DESIGN §5) sees the same origin the page sends.
  // `localhost`, not the address: browsers refuse passkeys on an IP address (WebAuthn §5.1.4.1).
  const baseUrl = `http://localhost:${port}`;

  // Single sign-on (docs/decisions/0029): a real OpenID Connect provider on loopback, started before
  // the server, whose one client returns to this server's callback (e2e/lib/oidc-provider.mjs).
  const oidcProvider = await startOidcProvider(HOST, `${baseUrl}/api/auth/oidc/callback`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kinchart-e2e-'));

  // Hermetic: the suite always gets a fresh SQLite database and local file store, whatever the
  // caller's environment points DATABASE_URL, STORAGE or MASTER_KEY at.
  const serverEnv = { ...process.env };
  for (const name of Object.keys(serverEnv)) {
    if (name === 'DATABASE_URL' || name === 'MASTER_KEY' || name === 'STORAGE' || name.startsWith('S3_')) delete serverEnv[name];
  }
  Object.assign(serverEnv, {
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    RATE_LIMIT_PER_MIN: '0',
    // The journeys sign up many accounts from one address.
    SIGNUP_LIMIT_PER_HOUR: '0',
    // Each browser context is its own phone: lib/browser.ts gives it an X-Forwarded-For address of
    // its own, so the per-address PIN ceiling (30 an hour, DESIGN §7) counts per journey, as it would
    // for real responders, instead of adding up over the whole suite on 127.0.0.1.
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    SMTP_URL: `smtp://${HOST}:${smtpPort}`,
    MAIL_FROM: 'Kinchart <kinchart@e2e.test>',
    OIDC_ISSUER: oidcProvider.issuer,
    OIDC_CLIENT_ID: oidcProvider.clientId,
    OIDC_CLIENT_SECRET: oidcProvider.clientSecret,
    OIDC_NAME: 'Acme ID',
  });

  const logFd = openSync(logFile, 'w');
  const server = spawn(process.execPath, [snapshotEntry], { cwd: repoRoot, env: serverEnv, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);

  let closing = null;
  const close = () =>
    (closing ??= (async () => {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGTERM');
        if (!(await waitForExit(server, 10_000))) {
          server.kill('SIGKILL');
          await waitForExit(server, 5_000);
        }
      }
      await new Promise((resolve) => smtp.close(resolve));
      await oidcProvider.close();
      await rm(dataDir, { recursive: true, force: true });
    })());
  // What a journey in this stack's worker reads (e2e/lib/stack.ts): E2E_BASE_URL, E2E_MAILBOX,
  // E2E_DATA_DIR — the server's SQLite database, which a journey may read or change the way the
  // API tests do (e2e/lib/database.ts), e.g. to let time pass, never through the product — and
  // E2E_OIDC_ISSUER, where a single sign-on journey expects to find itself.
  const journeyEnv = { E2E_BASE_URL: baseUrl, E2E_MAILBOX: mailboxDir, E2E_DATA_DIR: dataDir, E2E_OIDC_ISSUER: oidcProvider.issuer };
  return { n, baseUrl, logFile, server, journeyEnv, close };
}

const stacks = [];
let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    await Promise.all(stacks.map((stack) => stack.close()));
    await rm(snapshotDir, { recursive: true, force: true });
  })();
  return cleaning;
}

let vitest = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    vitest?.kill(signal);
    void cleanup().then(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  for (let n = 1; n <= WORKERS; n += 1) stacks.push(await startStack(n));
  for (const stack of stacks) console.log(`e2e: server ${stack.n} on ${stack.baseUrl} (log: ${path.relative(repoRoot, stack.logFile)})`);
  console.log(`e2e: ${WORKERS} worker(s), Chromium at ${chromePath}`);
  await Promise.all(stacks.map((stack) => waitForHealth(stack.baseUrl, stack.server, 60_000)));
  // Fail fast, rather than one timeout per test, when the server has no web app to serve.
  const home = await fetch(`${stacks[0].baseUrl}/`);
  if (!home.ok || !(home.headers.get('content-type') ?? '').includes('text/html')) {
    throw new Error(
      `GET / answered ${home.status} ${home.headers.get('content-type') ?? ''}, not the web app: is apps/web built (npm run build)?`,
    );
  }
  vitest = spawn(process.execPath, [vitestBin, 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], {
    cwd: repoRoot,
    stdio: 'inherit',
    // E2E_STACKS: one entry per worker, in worker order (VITEST_POOL_ID 1, 2, …); E2E_WORKERS tells
    // e2e/vitest.config.ts how many workers to run.
    env: {
      ...process.env,
      CHROME_PATH: chromePath,
      E2E_WORKERS: String(WORKERS),
      E2E_STACKS: JSON.stringify(stacks.map((stack) => stack.journeyEnv)),
    },
  });
  exitCode = await new Promise((resolve) => {
    vitest.on('error', (err) => {
      console.error(`e2e: could not start vitest: ${err.message}`);
      resolve(1);
    });
    vitest.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  for (const stack of stacks) {
    if (stack.server.exitCode !== null || stack.server.signalCode !== null) {
      console.error(`e2e: server ${stack.n} stopped during the run (code ${stack.server.exitCode ?? stack.server.signalCode}).`);
      exitCode ||= 1;
    }
  }
} catch (err) {
  console.error(`e2e: ${err instanceof Error ? err.message : String(err)}`);
  exitCode = 1;
} finally {
  await cleanup();
}

if (exitCode !== 0) {
  for (const stack of stacks) {
    console.error(
      `\n----- server ${stack.n} log (${path.relative(repoRoot, stack.logFile)}, last 200 lines) -----\n${tail(stack.logFile)}\n-----`,
    );
  }
}
process.exit(exitCode);
