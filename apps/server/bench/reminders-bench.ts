// `npm run bench reminders` (bench/reminders.mjs; issue 32, docs/decisions/0044): the reminder
// scheduler at 10,000 people with 3 scheduled medications each, on one database per run.
//
// Seeds N accounts (the person is the account's own profile, zone UTC) through the product's schema;
// each has three current medications with schedules, most of their doses at a few busy minutes (all
// at 08:00, most at 20:00, the rest spread over the day) — about 60,000 doses a day, 22,000 of them
// at 08:00 — and one browser subscribed to Web Push. A push service on loopback (HTTPS with a
// certificate made here, in a worker thread of its own) takes every push and notes when it came.
// Then, with the product's scheduler and push sender (web-push: VAPID, aes128gcm):
// - quiet ticks (07:57–07:59, nothing due): CPU and wall time of a minute's work when idle;
// - the busy tick (08:00): how late each reminder is delivered, from the tick's start (the timer
//   fires at the minute) to its notification row's time (in-app) and to its arrival at the push
//   service (push) — p50, p99, max over the deliveries of each channel (email is only queued in a
//   tick, so it is not measured);
// - the timer armed between minutes: the process's CPU share over 10 s with no tick running.
//
// Usage (after bench/reminders.mjs bundled it): node dist/reminders-bench.js <json options>
//   { accounts, sqliteFile?, databaseUrl?, dataDir }
// Prints one JSON line of results.
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import https from 'node:https';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import webpush from 'web-push';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import { createDatabase, migrateToLatest } from '../src/db/database';
import type { Db } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { createReminderScheduler } from '../src/features/reminders/scheduler';
import { createPushSender } from '../src/features/reminders/push-sender';
import { pushEndpointAllowed } from '../src/features/reminders/push-subscriptions.service';
import { selfSignedCertificate } from '../test/push-helpers';

interface Options {
  accounts: number;
  sqliteFile?: string;
  databaseUrl?: string;
}

type Rows = { [T in keyof Database]?: Insertable<Database[T]>[] };
const BATCH = 500;
const PARAMETERS_PER_INSERT = 30_000;
const TABLES: (keyof Database)[] = ['users', 'profiles', 'medications', 'medication_schedules', 'push_subscriptions'];
const DAY = '2027-02-01';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const pad = (n: number) => String(n).padStart(2, '0');

/** The three medications' times for account `i`: most at the busy minutes. */
function timesOf(i: number): string[][] {
  return [
    ['08:00', '20:00'],
    i % 10 < 7 ? ['08:00', '20:00'] : ['09:15', '21:15'],
    i % 10 < 5 ? ['08:00'] : [`${pad(10 + (i % 14))}:${pad((i * 7) % 60)}`],
  ];
}

/** A browser's subscription keys (one key pair for all: web-push encrypts each message with a key of its own). */
interface Browser {
  origin: string;
  p256dh: string;
  auth: string;
}

function account(i: number, rows: Rows, browser: Browser): void {
  const push = <T extends keyof Database>(table: T, row: Insertable<Database[T]>) => {
    ((rows[table] ??= []) as Insertable<Database[T]>[]).push(row);
  };
  const at = '2027-01-01T00:00:00.000Z';
  const userId = randomUUID();
  const profileId = randomUUID();
  push('users', {
    id: userId,
    email: `reminders${i}@bench.example`,
    username: `Bench ${i}`,
    password_hash: 'x',
    created_at: at,
    updated_at: at,
  });
  push('profiles', { id: profileId, user_id: userId, is_self: 1, is_pet: 0, name: `Bench Person ${i}`, created_at: at, updated_at: at });
  push('push_subscriptions', {
    id: randomUUID(),
    user_id: userId,
    endpoint: `${browser.origin}/push/${i}`,
    p256dh: browser.p256dh,
    auth: browser.auth,
    created_at: at,
    updated_at: at,
  });
  timesOf(i).forEach((times, n) => {
    const medicationId = randomUUID();
    push('medications', {
      id: medicationId,
      user_id: userId,
      profile_id: profileId,
      medication_name: `Medication ${n}`,
      dosage: '5 mg',
      is_current: 1,
      created_at: at,
      updated_at: at,
    });
    push('medication_schedules', {
      medication_id: medicationId,
      user_id: userId,
      profile_id: profileId,
      times: JSON.stringify(times),
      days: JSON.stringify([1, 2, 3, 4, 5, 6, 7]),
      start_date: '2027-01-01',
      end_date: null,
      as_needed: 0,
      dose_units: 1,
      quantity_on_hand: null,
      refill_remind_days: null,
      reminders: 1,
      created_at: at,
      updated_at: at,
    });
  });
}

async function seed(db: Db, accounts: number, browser: Browser): Promise<number> {
  const t0 = performance.now();
  for (let from = 0; from < accounts; from += BATCH) {
    const rows: Rows = {};
    for (let i = from; i < Math.min(accounts, from + BATCH); i += 1) account(i, rows, browser);
    await db.transaction().execute(async (trx) => {
      for (const table of TABLES) {
        const list = rows[table] ?? [];
        const perInsert = Math.floor(PARAMETERS_PER_INSERT / Object.keys(list[0] ?? { id: 1 }).length);
        for (let k = 0; k < list.length; k += perInsert)
          await trx
            .insertInto(table)
            .values(list.slice(k, k + perInsert))
            .execute();
      }
    });
  }
  return (performance.now() - t0) / 1000;
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

// The push service: a worker thread (its work does not wait on the scheduler's event loop) that
// answers 201 to each POST and notes the time it came; asked, it hands the times over.
const PUSH_SERVICE = `
const { parentPort, workerData } = require('node:worker_threads');
const https = require('node:https');
const arrivals = [];
const server = https.createServer({ key: workerData.key, cert: workerData.cert }, (req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    arrivals.push(Date.now());
    res.writeHead(201).end();
  });
});
server.keepAliveTimeout = 120000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'arrivals') parentPort.postMessage({ arrivals: arrivals.splice(0) });
});
`;

async function startPushService(): Promise<{ port: number; cert: string; arrivals(): Promise<number[]>; stop(): Promise<void> }> {
  // Strings, to cross into the worker thread as they are.
  const made = selfSignedCertificate();
  const tls = { key: made.key.toString('utf8'), cert: made.cert.toString('utf8') };
  const worker = new Worker(PUSH_SERVICE, { eval: true, workerData: tls });
  const next = () => new Promise<Record<string, unknown>>((resolve) => worker.once('message', resolve));
  const { port } = (await next()) as { port: number };
  return {
    port,
    cert: tls.cert,
    async arrivals() {
      const answer = next();
      worker.postMessage('arrivals');
      return ((await answer) as { arrivals: number[] }).arrivals;
    },
    async stop() {
      await worker.terminate();
    },
  };
}

async function main(options: Options): Promise<void> {
  const handle = options.databaseUrl
    ? createDatabase({ databaseUrl: options.databaseUrl, sqliteFile: '' })
    : createDatabase({ sqliteFile: options.sqliteFile ?? '' });
  const { db } = handle;
  await migrateToLatest(db);
  const service = await startPushService();
  const origin = `https://localhost:${service.port}`;
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const browser = { origin, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  const seedSeconds = await seed(db, options.accounts, browser);
  if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
  const doses = options.accounts * timesOf(0).length;

  let clock = new Date(`${DAY}T07:56:00Z`);
  const scheduler = createReminderScheduler({
    db,
    mailer: undefined,
    push: createPushSender({
      keys: webpush.generateVAPIDKeys(),
      subject: 'mailto:bench@example.invalid',
      allowed: (endpoint) => pushEndpointAllowed(endpoint, [`localhost:${service.port}`]),
      // As Node's global agent (keep-alive), trusting the service's certificate; localhost is 127.0.0.1.
      agent: new https.Agent({
        ca: service.cert,
        keepAlive: true,
        lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
      }),
    }),
    publicUrl: 'http://localhost:3000',
    log: pino({ level: 'silent' }),
    now: () => clock,
  });
  await scheduler.tick(clock);

  // Quiet minutes: a tick with nothing due.
  const quiet: { wallMs: number; cpuMs: number }[] = [];
  for (const minute of ['07:57', '07:58', '07:59']) {
    clock = new Date(`${DAY}T${minute}:00Z`);
    const cpu = process.cpuUsage();
    const t = performance.now();
    const report = await scheduler.tick(clock);
    if (report.sent + report.late !== 0) throw new Error(`a quiet minute sent ${report.sent}`);
    quiet.push({ wallMs: performance.now() - t, cpuMs: cpuMs(process.cpuUsage(cpu)) });
  }

  // The busy minute: the tick starts at 08:00 (the timer fires at the minute); each reminder's
  // delivery is its notification row's time, the real clock's.
  clock = new Date(`${DAY}T08:00:00Z`);
  const startedAt = Date.now();
  const cpu = process.cpuUsage();
  const report = await scheduler.tick(clock);
  const busyWallMs = Date.now() - startedAt;
  const busyCpuMs = cpuMs(process.cpuUsage(cpu));
  const rows = await db.selectFrom('notifications').select('created_at').execute();
  const late = rows.map((r) => Date.parse(r.created_at) - startedAt).sort((a, b) => a - b);
  if (late.length !== report.sent) throw new Error(`${late.length} notifications for ${report.sent} reminders`);
  const pushLate = (await service.arrivals()).map((at) => at - startedAt).sort((a, b) => a - b);
  if (pushLate.length !== report.sent) throw new Error(`${pushLate.length} pushes for ${report.sent} reminders`);
  await service.stop();

  // Between minutes: the timer armed (at a quiet time of day), no tick running.
  clock = new Date(`${DAY}T03:00:20Z`);
  const stop = scheduler.start((error) => console.error(error));
  await scheduler.idle();
  await new Promise((r) => setTimeout(r, 200));
  await scheduler.idle();
  const idleCpu = process.cpuUsage();
  const idleStart = performance.now();
  await new Promise((r) => setTimeout(r, 10_000));
  const idleShare = cpuMs(process.cpuUsage(idleCpu)) / (performance.now() - idleStart);
  stop();
  await scheduler.idle();
  await db.destroy();

  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify({
      dialect: handle.dialect,
      accounts: options.accounts,
      scheduledMedications: doses,
      dosesPerDay: Array.from({ length: options.accounts }, (_, i) => timesOf(i).flat().length).reduce((a, b) => a + b, 0),
      seedSeconds: round(seedSeconds),
      busy: {
        reminders: report.sent,
        deliveries: report.deliveries,
        wallMs: busyWallMs,
        cpuMs: round(busyCpuMs),
        lateMs: { p50: percentile(late, 50), p99: percentile(late, 99), max: late.at(-1) ?? 0 },
        pushes: pushLate.length,
        pushLateMs: { p50: percentile(pushLate, 50), p99: percentile(pushLate, 99), max: pushLate.at(-1) ?? 0 },
      },
      quietTick: {
        wallMs: round(quiet.reduce((a, q) => a + q.wallMs, 0) / quiet.length),
        cpuMs: round(quiet.reduce((a, q) => a + q.cpuMs, 0) / quiet.length),
      },
      idleCpuShare: Math.round(idleShare * 100_000) / 1000,
    }),
  );
}

main(JSON.parse(process.argv[2] ?? '{}') as Options).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
