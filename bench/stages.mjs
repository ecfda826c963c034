#!/usr/bin/env node
// `npm run bench:stages`: where a 200 MB upload's time goes (docs/decisions/0008). Measures, in one
// run, the raw disk write speed as `npm run bench` does, then the same uploads against each stage
// of apps/server/bench/upload-stages.ts (the production app plus routes that each add one step of
// the upload path to the stage before) and against the product's POST /api/user/files. Every
// stage gets a freshly started server and the bench's statistic (the median of its first three
// uploads), plus two more uploads to show it warm. Prints a table and writes JSON to
// bench/results/. Reported, never asserted.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from '../apps/server/esbuild-options.mjs';
import { median, postFile, rawDiskWrites, signUpAndLogIn, startServer } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const UPLOADS = 5;
const STAGES = [
  ['receive', 'Fastify reads the body and drops it'],
  ['encrypt', '+ AES-256-GCM segments (encryptStream), no multipart'],
  ['spool', '+ O_DIRECT spool and fsync (createTempSpool), no multipart'],
  ['parse', 'Fastify + @fastify/multipart, file part dropped'],
  ['parse-spool', '+ encryptStream + spool: the upload path without sniff, rename and row'],
];

if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build -w @kinchart/server', { cwd: root, stdio: 'inherit' });
// Next to dist/server.js, so the app finds the built web app as the product does.
const stageServer = path.join(root, 'apps/server/dist/upload-stages.js');
await build({ ...bundleOptions, entryPoints: [path.join(root, 'apps/server/bench/upload-stages.ts')], outfile: stageServer });

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-stages-file-'));
const file = path.join(work, 'big.pdf');

/** Sends UPLOADS uploads of `file` to `url`; returns the speeds in MB/s. */
async function uploads(url, headers) {
  const speeds = [];
  for (let run = 0; run < UPLOADS; run += 1) {
    const { status, mbs } = await postFile(url, file, headers);
    if (status !== 201) throw new Error(`${url} answered ${status}`);
    speeds.push(mbs);
  }
  return speeds;
}

/** Uploads to one stage (or the product's own route) of a freshly started server. */
async function measure(name) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-stages-'));
  const server = await startServer(root, dataDir, { MAX_UPLOAD_MB: '256' }, stageServer);
  let speeds;
  try {
    if (name === 'product') {
      const owner = await signUpAndLogIn(server.url, 0);
      speeds = await uploads(`${server.url}/api/user/files`, { origin: server.url, cookie: owner.client.cookie });
    } else {
      speeds = await uploads(`${server.url}/bench/stages/${name}`, { origin: server.url });
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  // The server's log is kept only when the stage failed.
  fs.rmSync(`${dataDir}.log`, { force: true });
  return speeds;
}

try {
  const diskRuns = rawDiskWrites(file);
  const disk = Math.max(...diskRuns);
  console.log(`Raw disk write: ${diskRuns.map((v) => v.toFixed(0)).join(', ')} MB/s (best ${disk.toFixed(0)})`);
  const rows = [];
  for (const [name, what] of [...STAGES, ['product', 'POST /api/user/files on the production server']]) {
    const speeds = await measure(name);
    const first3 = median(speeds.slice(0, 3));
    const warm = Math.max(...speeds.slice(3));
    rows.push({
      stage: name,
      what,
      speeds: speeds.map((v) => Math.round(v)),
      first3: Math.round(first3),
      warm: Math.round(warm),
      ratio: first3 / disk,
    });
    console.log(
      `  ${name.padEnd(12)} ${speeds.map((v) => v.toFixed(0).padStart(5)).join(' ')} MB/s · first three ${first3.toFixed(0)} MB/s = ${((first3 / disk) * 100).toFixed(1)} % of raw · ${what}`,
    );
  }
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results', `stages-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    out,
    JSON.stringify({ at: new Date().toISOString(), cpus: os.cpus().length, diskRuns: diskRuns.map(Math.round), rows }, null, 2),
  );
  console.log(`Written to ${path.relative(root, out)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
