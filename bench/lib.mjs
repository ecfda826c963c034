import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import net from 'node:net';
import os from 'node:os';

export const HOST = '127.0.0.1';

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export async function waitFor(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Spawns the production server (or another `entry` built from it) on a free port, its log beside
 * `dataDir`; answers { url, child } at once, before it listens.
 */
export async function spawnServer(repoRoot, dataDir, extraEnv = {}, entry = 'apps/server/dist/server.js') {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const log = fs.openSync(`${dataDir}.log`, 'a');
  // BENCH_SERVER_NODE_ARGS profiles the server under load, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST,
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      RATE_LIMIT_PER_MIN: '0',
      SIGNUP_LIMIT_PER_HOUR: '0',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', log, log],
  });
  return { url, child };
}

/** Starts the production server (or another `entry` built from it); returns { url, child, stop }. */
export async function startServer(repoRoot, dataDir, extraEnv = {}, entry = 'apps/server/dist/server.js') {
  const { url, child } = await spawnServer(repoRoot, dataDir, extraEnv, entry);
  await waitFor(`${url}/api/health`);
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of a process in bytes, from /proc. */
export function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** A small cookie-keeping client that sends our Origin, like the browser app. */
export class Client {
  constructor(base) {
    this.base = base;
    this.cookie = '';
  }

  async request(method, path, body, headers = {}) {
    const h = { origin: this.base, ...headers };
    if (this.cookie) h.cookie = this.cookie;
    let payload = body;
    if (body !== undefined && !(body instanceof FormData) && !(body instanceof Uint8Array)) {
      h['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(this.base + path, { method, headers: h, body: payload });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }
}

export async function signUpAndLogIn(base, n) {
  const client = new Client(base);
  const email = `bench${n}.${Date.now().toString(36)}@example.com`;
  const password = 'bench password 123';
  const s = await client.request('POST', '/api/auth/signup', { email, password, username: `Bench ${n}` });
  if (s.status !== 201) throw new Error(`signup ${s.status} ${s.text}`);
  const l = await client.request('POST', '/api/auth/login', { email, password });
  if (l.status !== 200) throw new Error(`login ${l.status} ${l.text}`);
  return { client, email, password, userId: l.json.user.id };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** A multipart body with the file part FIRST, as the spec's client sends it (DESIGN §6). */
export function multipartHead(boundary, filename, contentType) {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
}
export function multipartTail(boundary, fields) {
  let s = '\r\n';
  for (const [k, v] of Object.entries(fields)) s += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return Buffer.from(`${s}--${boundary}--\r\n`);
}

/**
 * The machine's raw disk write speed in MB/s, once per run: `mb` MB written to `file` in 1 MB
 * writes and fsynced. Leaves `file` behind (a PDF header and random bytes) for uploads to send.
 */
export function rawDiskWrites(file, mb = 200, runs = 3) {
  const chunk = randomBytes(1024 * 1024);
  const speeds = [];
  for (let run = 0; run < runs; run += 1) {
    const t0 = performance.now();
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, Buffer.from('%PDF-1.7\n'));
    for (let i = 0; i < mb; i += 1) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    speeds.push(mb / ((performance.now() - t0) / 1000));
  }
  return speeds;
}

/**
 * POSTs `file` as the file part of a multipart body (then the record's fields), streamed from disk
 * the way a browser sends it. Resolves { status, mbs }: the file's MB over the time from the
 * request's first byte to the end of the answer.
 */
export async function postFile(url, file, headers = {}) {
  const size = fs.statSync(file).size;
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = multipartHead(boundary, path.basename(file), 'application/pdf');
  const tail = multipartTail(boundary, { customName: 'Big file', customDate: '2026-01-01' });
  const t0 = performance.now();
  const status = await new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
  return { status, mbs: size / 1024 / 1024 / ((performance.now() - t0) / 1000) };
}

/**
 * Writes a benchmark's figures to bench/results/<name>-<time>.json with the machine's context
 * (Node.js, cores, load before and after) and says where; answers the file's path.
 */
export function writeResults(root, name, { loadBefore, ...figures }) {
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results', `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const context = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadavg: { before: loadBefore, after: os.loadavg() },
  };
  fs.writeFileSync(out, JSON.stringify({ ...context, ...figures }, null, 2));
  console.log(`Wrote ${path.relative(root, out)}`);
  return out;
}
