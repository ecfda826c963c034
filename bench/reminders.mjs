// `npm run bench reminders` (issue 32, docs/decisions/0044): the reminder scheduler at 10,000 people
// with 3 scheduled medications each (apps/server/bench/reminders-bench.ts, bundled here and run in
// a process of its own per database): how late the last reminders of a busy minute (22,000 doses at
// 08:00) are delivered — in the app and by Web Push to a loopback push service, p99 budget 60 s each
// — and the scheduler's CPU while idle (a quiet minute's tick, and the timer armed between minutes). SQLite, and PostgreSQL when TEST_DATABASE_URL (or
// BENCH_DATABASE_URL) names a server where it may create a database. Writes JSON to bench/results/.
// BENCH_REMINDER_ACCOUNTS (10000). Reported, never asserted.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { bundleOptions } from '../apps/server/esbuild-options.mjs';
import { writeResults } from './lib.mjs';

const BUDGET_MS = 60_000;

async function withDatabase(adminUrl, work) {
  const name = `kinchart_reminders_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export async function runReminders(root) {
  const tool = path.join(root, 'apps/server/dist/reminders-bench.js');
  await build({ ...bundleOptions, entryPoints: [path.join(root, 'apps/server/bench/reminders-bench.ts')], outfile: tool });
  const accounts = Number(process.env.BENCH_REMINDER_ACCOUNTS ?? 10_000);
  const run = (options) =>
    JSON.parse(
      execFileSync(process.execPath, [tool, JSON.stringify({ accounts, ...options })], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1),
    );
  const loadBefore = os.loadavg();
  const results = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-reminders-bench-'));
  try {
    console.log(`SQLite, ${accounts} people…`);
    results.push(run({ sqliteFile: path.join(dir, 'kinchart.db') }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    console.log(`PostgreSQL, ${accounts} people…`);
    results.push(await withDatabase(adminUrl, (databaseUrl) => run({ databaseUrl })));
  } else console.log('No TEST_DATABASE_URL / BENCH_DATABASE_URL: SQLite only.');

  const checks = results.flatMap((r) => [
    {
      dialect: r.dialect,
      figure: 'busy minute, in-app reminders late (p99)',
      value: r.busy.lateMs.p99,
      budget: BUDGET_MS,
      ok: r.busy.lateMs.p99 <= BUDGET_MS,
    },
    {
      dialect: r.dialect,
      figure: 'busy minute, push reminders late (p99)',
      value: r.busy.pushLateMs.p99,
      budget: BUDGET_MS,
      ok: r.busy.pushLateMs.p99 <= BUDGET_MS,
    },
  ]);
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log('');
  for (const r of results) {
    const { busy } = r;
    console.log(
      `${r.dialect.padEnd(8)} ${busy.reminders} reminders at 08:00, tick done after ${s(busy.wallMs)}; ` +
        `in the app late p50 ${s(busy.lateMs.p50)}, p99 ${s(busy.lateMs.p99)}, max ${s(busy.lateMs.max)} (budget p99 ≤ 60 s: ${busy.lateMs.p99 <= BUDGET_MS ? 'ok' : 'MISS'}); ` +
        `${busy.pushes} pushes late p50 ${s(busy.pushLateMs.p50)}, p99 ${s(busy.pushLateMs.p99)}, max ${s(busy.pushLateMs.max)} (budget p99 ≤ 60 s: ${busy.pushLateMs.p99 <= BUDGET_MS ? 'ok' : 'MISS'}); ` +
        `quiet minute's tick ${r.quietTick.cpuMs} ms CPU (${((r.quietTick.cpuMs / 60_000) * 100).toFixed(2)} % of the minute); timer armed between minutes ${r.idleCpuShare} % CPU`,
    );
  }
  writeResults(root, 'reminders', { loadBefore, results, checks });
}
