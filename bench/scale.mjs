// `npm run bench scale`: Kinchart at 10,000 families (issue 31, docs/decisions/0041). Seeds 10,000
// accounts — and 10, for the comparison — into SQLite and PostgreSQL (apps/server/bench/scale-seed.ts:
// the product's schema and envelope, the same rows in both), then, against the production server on
// each database: start-up time, every list's throughput and p50/p99 under 50 connections spread over
// many signed-in accounts, login (also under 50 connections), one account's export (one at a time),
// 500 open notification streams (memory per stream, and
// the delay of one notice to all of them), the database size and the backup's time. Prints a table
// (SQLite and PostgreSQL side by side) and writes JSON to bench/results/. Reported, never asserted.
//
// Environment: TEST_DATABASE_URL (or BENCH_DATABASE_URL) names a PostgreSQL server where the bench may
// create and drop databases of its own (without one, SQLite only). BENCH_SCALE_ACCOUNTS (10000),
// BENCH_SCALE_SMALL (10), BENCH_SCALE_SECONDS (5, per measurement), BENCH_SCALE_STREAMS (500),
// BENCH_SKIP_BUILD=1 reuses the build.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import pg from 'pg';
import { bundleOptions } from '../apps/server/esbuild-options.mjs';
import { spawnServer } from './lib.mjs';

const PASSWORD = 'scale bench password 7';
const CONNECTIONS = 50;
/** Accounts the reads are spread over (each request goes to the next account's session). */
const SIGNED_IN = 200;
const READ_BUDGET_MS = 50;
const STARTUP_BUDGET_S = 5;
/** One account's export, measured one at a time this many times. */
const EXPORTS = 10;

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n, digits = 1) => Number(n.toFixed(digits));

/** Resident set size and CPU ticks (user + system) of a process, from /proc. */
function procStats(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { rss, ticks: Number(fields[11]) + Number(fields[12]) };
}

function autocannonRun(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** A cookie jar of one: every Set-Cookie the server sends, as one Cookie header. */
async function call(base, method, pathname, { cookie, body } = {}) {
  const headers = { origin: base };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, cookie: cookies.join('; ') };
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool(items, width, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

async function logIn(base, email) {
  const res = await call(base, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.text}`);
  return res.cookie;
}

/** Waits until a process goes quiet: less than 2 % of a core over half a second, twice in a row. */
async function settled(pid) {
  let last = procStats(pid).ticks;
  let quiet = 0;
  while (quiet < 2) {
    await new Promise((r) => setTimeout(r, 500));
    const { ticks } = procStats(pid);
    quiet = ticks - last <= 1 ? quiet + 1 : 0;
    last = ticks;
  }
}

/** Spawns the production server; answers when /api/health first says 200, with the time it took. */
export async function startServer(root, dataDir, extraEnv) {
  const t0 = performance.now();
  const { url, child } = await spawnServer(root, dataDir, extraEnv);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} (log ${dataDir}.log)`);
    try {
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startupMs = performance.now() - t0;
  // CPU seconds the server used to get there (ticks of 10 ms): on a busy machine the wall time
  // includes waiting for a core, this does not.
  const startupCpuS = procStats(child.pid).ticks / 100;
  // The start-up work that runs after listen (the orphan sweep over every blob, the reminders).
  await settled(child.pid);
  const settledMs = performance.now() - t0 - 1000;
  return {
    url,
    child,
    startupMs,
    startupCpuS,
    settledMs,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The reads the issue lists, each a path for one seeded account, with what its answer must hold
 * (checked once per signed-in account before measuring: the bench measures real answers).
 */
const READS = [
  ['profile read', () => '/api/user/getPatientProfile', (j) => j?.medications?.length === 5],
  ['people list', () => '/api/user/people', (j) => (j?.people ?? j)?.length === 4],
  ['family members', () => '/api/user/family/members', (j) => j?.length === 3],
  ['files list', () => '/api/user/files', (j) => (j?.files ?? j)?.length === 20],
  ['appointments list', () => '/api/user/appointments', (j) => j?.length === 10],
  ['lab results list', (a) => `/api/user/people/${a.selfId}/lab-results`, (j) => j?.length === 10],
  ['immunizations list', (a) => `/api/user/people/${a.selfId}/immunizations`, (j) => Array.isArray(j)],
  ['conditions list', (a) => `/api/user/people/${a.selfId}/conditions`, (j) => Array.isArray(j)],
  ['procedures list', (a) => `/api/user/people/${a.selfId}/procedures`, (j) => Array.isArray(j)],
  ['notifications', () => '/api/user/notifications', (j) => j?.length >= 10],
];

function summary(res, cpuTicks) {
  return {
    // The server process's CPU per answered request (on SQLite the database's work is in it too;
    // PostgreSQL's is not): unlike latency, it hardly depends on what else the machine runs.
    cpuMsPerRequest: round((cpuTicks * 10) / Math.max(1, res.requests.total), 2),
    rps: Math.round(res.requests.average),
    p50: res.latency.p50,
    p99: res.latency.p99,
    max: res.latency.max,
    requests: res.requests.total,
    non2xx: res.non2xx,
    errors: res.errors + res.timeouts,
  };
}

/** 50 connections for `seconds`, each request for the next signed-in account. */
async function measure(server, accounts, seconds, pathOf, extra = {}) {
  const base = server.url;
  let next = 0;
  const ticks = procStats(server.child.pid).ticks;
  const res = await autocannonRun({
    url: base,
    duration: seconds,
    requests: [
      {
        method: extra.method ?? 'GET',
        setupRequest: (req) => {
          const a = accounts[next++ % accounts.length];
          return {
            ...req,
            path: pathOf(a),
            headers: { ...req.headers, ...(a.cookie ? { cookie: a.cookie } : {}), ...(extra.headers ?? {}) },
            ...(extra.body ? { body: extra.body(a) } : {}),
          };
        },
      },
    ],
  });
  return summary(res, procStats(server.child.pid).ticks - ticks);
}

/**
 * `count` sessions of one account each open GET /api/user/notifications/stream; answers the server's
 * RSS growth per stream and, for one notice (a visitor opening the owner's share link, which tells
 * the owner), the delay from the visitor's request to the notice's arrival on every stream.
 */
export async function streams(server, owner, count) {
  const cookies = await pool(Array.from({ length: count }), 4, () => logIn(server.url, owner.email));
  const before = procStats(server.child.pid).rss;
  const arrivals = new Array(count).fill(undefined);
  const title = 'Shared records opened';
  let t0 = 0;
  let onAll;
  const all = new Promise((resolve) => {
    onAll = resolve;
  });
  let arrived = 0;
  const requests = [];
  await pool(
    cookies,
    50,
    (cookie, i) =>
      new Promise((resolve, reject) => {
        const req = http.get(
          `${server.url}/api/user/notifications/stream`,
          { agent: false, headers: { cookie, origin: server.url } },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
            let buffer = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              buffer += chunk;
              if (buffer.includes(': connected')) resolve();
              let end;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                const event = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const data = /^data: (.*)$/m.exec(event)?.[1];
                if (t0 && data && arrivals[i] === undefined && JSON.parse(data).title === title) {
                  arrivals[i] = performance.now() - t0;
                  arrived += 1;
                  if (arrived === count) onAll();
                }
              }
            });
            res.on('error', () => {});
          },
        );
        req.on('error', reject);
        requests.push(req);
      }),
  );
  const after = procStats(server.child.pid).rss;
  const link = await call(server.url, 'POST', '/api/user/files/share-links', { cookie: cookies[0], body: { fileIds: [owner.fileIds[0]] } });
  if (link.status !== 201) throw new Error(`share link ${link.status} ${link.text}`);
  const token = new URL(link.json.url).pathname.split('/').pop();
  t0 = performance.now();
  const opened = await call(server.url, 'GET', `/api/shared/${token}`);
  if (opened.status !== 200) throw new Error(`shared ${opened.status} ${opened.text}`);
  // A notice lost would leave this waiting: at most 30 s, then the count says so.
  const timer = new Promise((resolve) => setTimeout(resolve, 30_000).unref());
  await Promise.race([all, timer]);
  for (const req of requests) req.destroy();
  const delays = arrivals.filter((d) => d !== undefined).sort((a, b) => a - b);
  return {
    streams: count,
    rssBeforeMB: round(before / 1048576),
    rssAfterMB: round(after / 1048576),
    kbPerStream: round((after - before) / 1024 / count),
    received: delays.length,
    delayP50: round(percentile(delays, 50) ?? NaN),
    delayP99: round(percentile(delays, 99) ?? NaN),
    delayMax: round(delays.at(-1) ?? NaN),
  };
}

function dirBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** Everything measured on one database with one seed. */
export async function measureDatabase(root, { dialect, dataDir, databaseUrl, manifest, seconds, streamCount, plans, log }) {
  const server = await startServer(root, dataDir, dialect === 'postgres' ? { DATABASE_URL: databaseUrl } : {});
  const out = {
    startupS: round(server.startupMs / 1000, 2),
    startupCpuS: round(server.startupCpuS, 2),
    startupWorkDoneS: round(server.settledMs / 1000, 1),
  };
  log(`  ${dialect}: up in ${out.startupS} s (${out.startupCpuS} s of CPU), start-up work done after ${out.startupWorkDoneS} s`);
  try {
    const accounts = manifest.slice(0, SIGNED_IN);
    await pool(accounts, 2, async (a) => {
      a.cookie = await logIn(server.url, a.email);
    });
    // Every answer checked once per account (this also fills the per-account profile cache, as use would).
    for (const [name, pathOf, ok] of READS) {
      await pool(accounts, 4, async (a) => {
        const res = await call(server.url, 'GET', pathOf(a), { cookie: a.cookie });
        if (res.status !== 200 || !ok(res.json)) throw new Error(`${name} for ${a.email}: ${res.status} ${res.text.slice(0, 300)}`);
      });
    }
    out.reads = {};
    for (const [name, pathOf] of READS) {
      out.reads[name] = await measure(server, accounts, seconds, pathOf);
      log(`  ${dialect} ${name}: ${JSON.stringify(out.reads[name])}`);
    }
    // One account's export at a time (a zip of everything, files decrypted): EXPORTS runs, each for
    // the next signed-in account, timed to the last byte of the zip.
    const times = [];
    let bytes = 0;
    for (let i = 0; i < EXPORTS; i += 1) {
      const a = accounts[i % accounts.length];
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/user/export`, { headers: { cookie: a.cookie, origin: server.url } });
      const body = Buffer.from(await res.arrayBuffer());
      times.push(performance.now() - t0);
      if (res.status !== 200 || body.subarray(0, 2).toString() !== 'PK') throw new Error(`export for ${a.email}: ${res.status}`);
      bytes = body.length;
    }
    times.sort((x, y) => x - y);
    const total = times.reduce((n, t) => n + t, 0);
    out.export = {
      rps: round(EXPORTS / (total / 1000), 2),
      p50: round(percentile(times, 50)),
      p99: round(percentile(times, 99)),
      max: round(times.at(-1)),
      requests: EXPORTS,
      non2xx: 0,
      errors: 0,
      zipKB: round(bytes / 1024),
    };
    log(`  ${dialect} export: ${JSON.stringify(out.export)}`);
    // Logins spread over every seeded account the bench knows but the streams' owner (fresh
    // sessions, no cookie sent). Logins to one account at once count against its ceiling while
    // in flight (DESIGN §5), so this needs at least 10 accounts to stay under it at 50 connections.
    const streamsOwner = manifest.at(-1);
    out.login = await measure(server, manifest.slice(0, -1), seconds, () => '/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: (a) => JSON.stringify({ email: a.email, password: PASSWORD }),
    });
    log(`  ${dialect} login: ${JSON.stringify(out.login)}`);
    // Logins the run left in flight still count against the address's ceiling until they finish.
    await settled(server.child.pid);
    out.streams = await streams(server, streamsOwner, streamCount);
    log(`  ${dialect} streams: ${JSON.stringify(out.streams)}`);

    if (dialect === 'sqlite') {
      const db = path.join(dataDir, 'kinchart.db');
      out.databaseMB = round((fs.statSync(db).size + (fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0)) / 1048576);
      // The backup command as `npm run backup` runs it once built (its build step left out), online.
      const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-scale-backup-'));
      const t0 = performance.now();
      execSync(`${JSON.stringify(process.execPath)} apps/server/dist/cli.js backup --out ${JSON.stringify(path.join(backupDir, 'b'))}`, {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir },
        stdio: 'ignore',
      });
      out.backupS = round((performance.now() - t0) / 1000);
      out.backupMB = round(dirBytes(backupDir) / 1048576);
      fs.rmSync(backupDir, { recursive: true, force: true });
      log(`  sqlite backup: ${out.backupS} s, ${out.backupMB} MB`);
    } else {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query('select pg_database_size(current_database()) as size');
      await client.end();
      out.databaseMB = round(Number(rows[0].size) / 1048576);
    }
  } finally {
    await server.stop();
  }
  if (plans) {
    // Every statement the measured routes and a login run, explained on this database.
    const account = manifest[1] ?? manifest[0];
    const paths = [...READS.map(([name, pathOf]) => [name, 'GET', pathOf(account)]), ['export', 'GET', '/api/user/export']];
    const explained = JSON.parse(
      execSync(
        `${JSON.stringify(process.execPath)} apps/server/dist/scale-plans.js ${JSON.stringify(JSON.stringify({ dataDir, databaseUrl, email: account.email, password: PASSWORD, paths }))}`,
        {
          cwd: root,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      ),
    );
    out.plans = {
      statements: explained.length,
      fullScans: explained.filter((e) => e.fullScans.length).map((e) => ({ route: e.route, sql: e.sql, scans: e.fullScans })),
    };
    log(`  ${dialect} plans: ${explained.length} statements, ${out.plans.fullScans.length} with a full scan of a big table`);
    for (const f of out.plans.fullScans) log(`    ${f.route}: ${f.scans.join('; ')} — ${f.sql.slice(0, 120)}`);
  }
  return out;
}

/** One seed (N accounts) into SQLite and PostgreSQL, each measured in turn. */
async function runSize(root, { accounts, adminUrl, seconds, streamCount, plans, log }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kinchart-scale-${accounts}-`));
  const dbName = `kinchart_scale_${accounts}_${process.pid}`;
  let databaseUrl;
  const admin = adminUrl ? new pg.Client({ connectionString: adminUrl }) : undefined;
  try {
    if (admin) {
      await admin.connect();
      await admin.query(`drop database if exists ${dbName}`);
      await admin.query(`create database ${dbName}`);
      const url = new URL(adminUrl);
      url.pathname = `/${dbName}`;
      databaseUrl = url.toString();
    }
    const manifestFile = path.join(dataDir, '..', `${path.basename(dataDir)}-accounts.json`);
    const options = {
      accounts,
      dataDir,
      sqliteFile: path.join(dataDir, 'kinchart.db'),
      databaseUrl,
      password: PASSWORD,
      manifestAccounts: Math.max(SIGNED_IN, 1000),
      manifestFile,
    };
    log(`Seeding ${accounts} accounts…`);
    const t0 = performance.now();
    const seedOut = execSync(
      `${JSON.stringify(process.execPath)} apps/server/dist/scale-seed.js ${JSON.stringify(JSON.stringify(options))}`,
      { cwd: root, encoding: 'utf8' },
    );
    const seed = { ...JSON.parse(seedOut.trim().split('\n').pop()), wallS: round((performance.now() - t0) / 1000) };
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    fs.rmSync(manifestFile);
    const blobs = { count: 0, mb: round(dirBytes(path.join(dataDir, 'files')) / 1048576) };
    for (const shard of fs.readdirSync(path.join(dataDir, 'files')))
      blobs.count += fs.readdirSync(path.join(dataDir, 'files', shard)).length;
    log(`  seeded in ${seed.wallS} s: ${JSON.stringify(seed.seconds)}; ${blobs.count} blobs, ${blobs.mb} MB`);
    const result = { accounts, seed, blobs };
    result.sqlite = await measureDatabase(root, { dialect: 'sqlite', dataDir, manifest, seconds, streamCount, plans, log });
    if (databaseUrl)
      result.postgres = await measureDatabase(root, {
        dialect: 'postgres',
        dataDir,
        databaseUrl,
        manifest,
        seconds,
        streamCount,
        plans,
        log,
      });
    return result;
  } finally {
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
      await admin.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.log`, { force: true });
  }
}

/** The table: at N accounts, SQLite and PostgreSQL side by side, with the small run's figure and the budgets. */
function table(big, small) {
  const rows = [];
  const dialects = ['sqlite', 'postgres'].filter((d) => big[d]);
  const cell = (r) =>
    r ? `${r.rps} req/s, p50 ${r.p50} / p99 ${r.p99} ms${r.cpuMsPerRequest === undefined ? '' : `, ${r.cpuMsPerRequest} ms CPU`}` : '—';
  const checks = [];
  /** "Slower by more than 2×": p99 more than twice the small run's (under 1 ms counts as 1 ms), or under half its throughput. */
  const slower = (b, s) => b.p99 > 2 * Math.max(s.p99, 1) || b.rps < s.rps / 2;
  const line = (name, get, budget, okOf) => {
    const cells = dialects.map((d) => {
      const b = get(big[d]);
      const s = small?.[d] ? get(small[d]) : undefined;
      const ok = okOf(b, s);
      checks.push({ figure: name, dialect: d, ok });
      return `${cell(b)}${s ? ` (at ${small.accounts}: ${s.rps} req/s, p99 ${s.p99} ms)` : ''}${ok ? '' : ' **MISS**'}`;
    });
    rows.push(`| ${name} | ${cells.join(' | ')} | ${budget} |`);
  };
  const clean = (b) => b.requests > 0 && b.errors === 0 && b.non2xx === 0;
  for (const [name] of READS)
    line(
      name,
      (x) => x.reads[name],
      `p99 ≤ ${READ_BUDGET_MS} ms, ≤ 2× the ${small?.accounts ?? 10}-account run`,
      (b, s) => b.p99 <= READ_BUDGET_MS && clean(b) && (!s || !slower(b, s)),
    );
  line(
    'login',
    (x) => x.login,
    '≤ 2× the small run',
    (b, s) => clean(b) && (!s || !slower(b, s)),
  );
  line(
    `one account's export (zip; ${EXPORTS} runs, one at a time; p99 = the slowest)`,
    (x) => x.export,
    '≤ 2× the small run',
    (b, s) => clean(b) && (!s || !slower(b, s)),
  );
  const plain = (name, f, budget, okOf = () => true) => {
    const cells = dialects.map((d) => {
      const ok = okOf(big[d], small?.[d]);
      checks.push({ figure: name, dialect: d, ok });
      return `${f(big[d], small?.[d])}${ok ? '' : ' **MISS**'}`;
    });
    rows.push(`| ${name} | ${cells.join(' | ')} | ${budget} |`);
  };
  plain(
    'start-up (spawn → first 200 from /api/health)',
    (b, s) => `${b.startupS} s, ${b.startupCpuS} s of CPU${s ? ` (at ${small.accounts}: ${s.startupS} s)` : ''}`,
    `≤ ${STARTUP_BUDGET_S} s`,
    (b) => b.startupS <= STARTUP_BUDGET_S,
  );
  plain(
    'start-up work after listen (orphan sweep) done',
    (b, s) => `${b.startupWorkDoneS} s${s ? ` (at ${small.accounts}: ${s.startupWorkDoneS} s)` : ''}`,
    'reported',
  );
  plain(
    `${big.sqlite.streams.streams} notification streams: memory per stream`,
    (b) => `${b.streams.kbPerStream} KB (RSS ${b.streams.rssBeforeMB} → ${b.streams.rssAfterMB} MB)`,
    'reported',
  );
  plain(
    'one notice to all streams: delay p50 / p99 / max',
    (b, s) =>
      `${b.streams.delayP50} / ${b.streams.delayP99} / ${b.streams.delayMax} ms, ${b.streams.received} received${s ? ` (at ${small.accounts}: p99 ${s.streams.delayP99} ms)` : ''}`,
    `all received, ≤ 2× the small run`,
    (b, s) => b.streams.received === b.streams.streams && (!s || b.streams.delayP99 <= 2 * Math.max(s.streams.delayP99, 1)),
  );
  plain(
    'full scans of a big table (≥ 10,000 rows) in the statements of the routes above and a login',
    (b) => `${b.plans.fullScans.length} of ${b.plans.statements} statements`,
    'none',
    (b) => b.plans.fullScans.length === 0,
  );
  plain('database size', (b) => `${b.databaseMB} MB`, 'reported');
  plain('blob store (encrypted files)', () => `${big.blobs.count} blobs, ${big.blobs.mb} MB`, 'reported');
  plain(
    'backup (`npm run backup`, online, built)',
    (b) => (b.backupS === undefined ? 'n/a (pg_dump)' : `${b.backupS} s (${b.backupMB} MB)`),
    'reported',
  );
  const head = `| at ${big.accounts} accounts | ${dialects.map((d) => (d === 'sqlite' ? 'SQLite' : 'PostgreSQL')).join(' | ')} | budget |\n|---|${dialects.map(() => '---').join('|')}|---|`;
  return { text: `${head}\n${rows.join('\n')}`, checks };
}

export async function runScale(root) {
  const started = performance.now();
  const log = (line) => console.log(line);
  if (!process.env.BENCH_SKIP_BUILD) {
    log('Building…');
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
  for (const tool of ['scale-seed', 'scale-plans']) {
    await build({
      ...bundleOptions,
      entryPoints: [path.join(root, `apps/server/bench/${tool}.ts`)],
      outfile: path.join(root, `apps/server/dist/${tool}.js`),
    });
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) log('No TEST_DATABASE_URL / BENCH_DATABASE_URL: SQLite only.');
  const seconds = env('BENCH_SCALE_SECONDS', 5);
  const streamCount = env('BENCH_SCALE_STREAMS', 500);
  const loadBefore = os.loadavg();
  const small = await runSize(root, { accounts: env('BENCH_SCALE_SMALL', 10), adminUrl, seconds, streamCount, plans: false, log });
  const big = await runSize(root, { accounts: env('BENCH_SCALE_ACCOUNTS', 10_000), adminUrl, seconds, streamCount, plans: true, log });
  const { text, checks } = table(big, small);
  const minutes = round((performance.now() - started) / 60_000);
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results', `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const at = new Date().toISOString();
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        at,
        node: process.version,
        cpus: os.cpus().length,
        loadavg: { before: loadBefore, after: os.loadavg() },
        connections: CONNECTIONS,
        seconds,
        signedIn: SIGNED_IN,
        minutes,
        small,
        big,
        checks,
      },
      null,
      2,
    ),
  );
  console.log(`\n${text}\n`);
  const missed = checks.filter((c) => !c.ok);
  console.log(missed.length ? `Missed: ${missed.map((c) => `${c.figure} (${c.dialect})`).join('; ')}` : 'Every figure within budget.');
  console.log(
    `Took ${minutes} min; load average before ${loadBefore.map((l) => l.toFixed(1)).join(' ')}, after ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}. Wrote ${path.relative(root, out)}`,
  );
}
