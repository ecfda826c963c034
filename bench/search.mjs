// `npm run bench search`: one search over everything at size (issue 33, DESIGN §9,
// docs/decisions/0048). One account holds 10,000 documents of about 2,000 words among 100,000 in
// the database (ten accounts); each document's text is written as the extraction worker writes it
// (file_text_pages rows), straight into the database, so the index fills through the same triggers
// as in use. Then, against the production server, a mix of queries — a rare word, a common word,
// prefixes, a phrase, two words, an accented word — is timed through GET /api/user/search, one
// request at a time, on SQLite and on PostgreSQL. Reported, never asserted: p95 ≤ 50 ms.
//
// Environment: TEST_DATABASE_URL (or BENCH_DATABASE_URL) names a PostgreSQL server where the bench
// may create and drop a database of its own (without one, SQLite only). BENCH_SEARCH_DOCS (10000,
// per account), BENCH_SEARCH_ACCOUNTS (10), BENCH_SEARCH_WORDS (2000, per document),
// BENCH_SEARCH_ROUNDS (40, requests per query), BENCH_SKIP_BUILD=1 reuses the build, BENCH_SEARCH_KEEP=1
// keeps the data directory and the PostgreSQL database (their names are printed) to look into.
import { execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { signUpAndLogIn, startServer } from './lib.mjs';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The queries timed, each as a user would type it. */
const QUERIES = [
  ['rare word', 'penicillin'],
  ['rare word', 'ferritin'],
  ['common word', 'patient'],
  ['common word', 'cholesterol'],
  ['prefix', 'ferrit'],
  ['prefix', 'chol'],
  ['prefix', 'hemo'],
  ['phrase', '"blood pressure"'],
  ['two words', 'hemoglobin cholesterol'],
  ['accented', 'Pénicilline'],
];

// ---------- the documents ----------

/** A small seeded PRNG (mulberry32): the same documents every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = `the of and to in a is was for on with as at by patient from this that be are were which an or has had
not no but all his her their there been have it its one two three four new more other into after before over
under during while report result results normal clinic hospital doctor nurse visit follow up review letter
date time daily dose tablet history examination plan advised noted reported stable mild moderate severe left
right blood pressure heart rate temperature weight height pain chest abdomen head back skin eye ear nose throat
test tests level levels sample serum urine range reference value values high low within limits repeat months
weeks days year years week month treatment medication therapy continue started stopped increase decrease
diagnosis symptoms signs history family social allergies none known referral appointment discharge summary
admitted ward department consultant registrar general practice surgery specialist imaging scan xray
ultrasound findings impression conclusion recommend recommended discussed explained understood agreed consent`.split(/\s+/);

/** About 8,000 made-up words of two to four syllables: the long tail of a real vocabulary. */
function vocabulary(random) {
  const syllables =
    'ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo fu ga ge gi go gu la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu tra tre tri pro pre cla cle ster nor men tal ion'.split(
      ' ',
    );
  const words = new Set(COMMON);
  while (words.size < COMMON.length + 8000) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i += 1) w += syllables[Math.floor(random() * syllables.length)];
    words.add(w);
  }
  return [...words];
}

/** A table of a million draws from a Zipf distribution over `words`: a word is one lookup. */
function zipfTable(words) {
  const weights = words.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const table = new Array(1_000_000);
  let at = 0;
  words.forEach((word, i) => {
    const n = Math.round((weights[i] / total) * table.length);
    for (let k = 0; k < n && at < table.length; k += 1) table[at++] = word;
  });
  while (at < table.length) table[at++] = words[words.length - 1];
  return table;
}

/** The medical terms, each in a share of the documents (by the document's number), at a random place. */
const TERMS = [
  [(i) => i % 1000 === 3, 'Allergy to penicillin documented.'],
  [(i) => i % 2000 === 11, 'Réaction à la pénicilline.'],
  [(i) => i % 100 === 7, 'Serum ferritin 45 ng/mL.'],
  [(i) => i % 10 === 1, 'Hemoglobin 13.5 g/dL.'],
  [(i) => i % 3 === 0, 'Total cholesterol 5.2 mmol/L.'],
  [(i) => i % 20 === 5, 'Blood pressure 128/82.'],
];

function documentText(i, wordsPer, table, random) {
  const out = [];
  for (let w = 0; w < wordsPer; w += 1) {
    let word = table[Math.floor(random() * table.length)];
    if (w % 14 === 0) word = word[0].toUpperCase() + word.slice(1);
    out.push(w % 14 === 13 ? `${word}.` : word);
  }
  for (const [has, sentence] of TERMS) if (has(i)) out.splice(Math.floor(random() * out.length), 0, sentence);
  return out.join(' ');
}

// ---------- seeding, straight into the database ----------

/** The files of `accounts`, `docs` each, with their text; the extraction jobs the trigger queued marked done. */
async function seed({ dialect, file, databaseUrl, accounts, docs, wordsPer, log }) {
  const random = prng(20261127);
  const table = zipfTable(vocabulary(random));
  const started = performance.now();
  const now = new Date().toISOString();
  const rows = function* () {
    let n = 0;
    for (const account of accounts) {
      for (let i = 0; i < docs; i += 1) {
        const id = randomUUID();
        const person = account.people[i % account.people.length];
        const day = String(1 + (i % 28)).padStart(2, '0');
        const month = String(1 + (i % 12)).padStart(2, '0');
        yield {
          file: [
            id,
            account.userId,
            person,
            `Report ${i}`,
            `report-${i}.pdf`,
            'application/pdf',
            1000,
            `bench/${id}`,
            'x',
            `20${10 + (i % 15)}-${month}-${day}`,
            now,
            now,
          ],
          text: documentText(i, wordsPer, table, random),
        };
        n += 1;
        if (n % 10_000 === 0) log(`    ${n} documents (${round((performance.now() - started) / 1000)} s)`);
      }
    }
  };
  const fileColumns =
    'id, user_id, profile_id, display_name, original_name, file_type, size, storage_key, wrapped_key, record_date, created_at, updated_at';
  if (dialect === 'sqlite') {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const insertFile = db.prepare(`insert into medical_files (${fileColumns}) values (${Array(12).fill('?').join(', ')})`);
    const insertPage = db.prepare('insert into file_text_pages (file_id, page, text) values (?, 1, ?)');
    let batch = [];
    const flush = db.transaction((items) => {
      for (const item of items) {
        insertFile.run(...item.file);
        insertPage.run(item.file[0], item.text);
      }
    });
    for (const item of rows()) {
      batch.push(item);
      if (batch.length === 500) flush(batch.splice(0));
    }
    flush(batch);
    db.prepare(`update file_text_jobs set status = 'done', pages = 1`).run();
    db.pragma('optimize');
    db.close();
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    let batch = [];
    const flush = async (items) => {
      if (items.length === 0) return;
      await client.query('begin');
      const params = items.flatMap((item) => item.file);
      const values = items.map((_, r) => `(${Array.from({ length: 12 }, (_, c) => `$${r * 12 + c + 1}`).join(', ')})`).join(', ');
      await client.query(`insert into medical_files (${fileColumns}) values ${values}`, params);
      const pages = items.map((_, r) => `($${r * 2 + 1}, 1, $${r * 2 + 2})`).join(', ');
      await client.query(
        `insert into file_text_pages (file_id, page, text) values ${pages}`,
        items.flatMap((item) => [item.file[0], item.text]),
      );
      await client.query('commit');
    };
    for (const item of rows()) {
      batch.push(item);
      if (batch.length === 100) await flush(batch.splice(0));
    }
    await flush(batch);
    await client.query(`update file_text_jobs set status = 'done', pages = 1`);
    await client.query('vacuum analyze');
    await client.end();
  }
  return round((performance.now() - started) / 1000);
}

// ---------- one database ----------

async function measureOn(root, { dialect, adminUrl, log }) {
  const docs = env('BENCH_SEARCH_DOCS', 10_000);
  const accountCount = env('BENCH_SEARCH_ACCOUNTS', 10);
  const wordsPer = env('BENCH_SEARCH_WORDS', 2000);
  const rounds = env('BENCH_SEARCH_ROUNDS', 40);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-bench-search-'));
  let databaseUrl;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    const name = `kinchart_bench_search_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const serverEnv = dialect === 'postgres' ? { DATABASE_URL: databaseUrl } : {};
  try {
    // The accounts through the product (sign-up makes each one's own profile), two family members each.
    let server = await startServer(root, dataDir, serverEnv);
    const accounts = [];
    for (let n = 0; n < accountCount; n += 1) {
      const a = await signUpAndLogIn(server.url, n);
      const people = [(await a.client.request('GET', '/api/user/getPatientProfile')).json.id];
      for (const name of ['Mia', 'Leo']) {
        const res = await a.client.request('POST', '/api/user/family/add', { name, relationship: 'child', date_of_birth: '2015-04-02' });
        if (res.status !== 201) throw new Error(`member ${res.status} ${res.text}`);
        people.push(res.json.id);
      }
      accounts.push({ ...a, people });
    }
    await server.stop();

    log(`  ${dialect}: seeding ${accountCount} × ${docs} documents of ${wordsPer} words…`);
    const seedS = await seed({ dialect, file: path.join(dataDir, 'kinchart.db'), databaseUrl, accounts, docs, wordsPer, log });
    log(`  ${dialect}: seeded in ${seedS} s`);

    server = await startServer(root, dataDir, serverEnv);
    try {
      const reader = accounts[0];
      reader.client.base = server.url;
      await reader.client.request('POST', '/api/auth/login', { email: reader.email, password: reader.password });
      const url = (q) => `/api/user/search?q=${encodeURIComponent(q)}&limit=20`;
      const byQuery = [];
      const all = [];
      for (const [kind, q] of QUERIES) {
        const first = await reader.client.request('GET', url(q));
        if (first.status !== 200) throw new Error(`search ${q}: ${first.status} ${first.text.slice(0, 200)}`);
        const hits = first.json.results.length;
        const times = [];
        for (let i = 0; i < rounds; i += 1) {
          const t0 = performance.now();
          const res = await fetch(server.url + url(q), { headers: { cookie: reader.client.cookie } });
          await res.arrayBuffer();
          times.push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`search ${q}: ${res.status}`);
        }
        times.sort((x, y) => x - y);
        all.push(...times);
        const row = { kind, q, hits, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(times.at(-1)) };
        byQuery.push(row);
        log(`  ${dialect} ${kind} ${q}: ${JSON.stringify(row)}`);
      }
      all.sort((x, y) => x - y);
      let bytes;
      if (dialect === 'sqlite') bytes = fs.statSync(path.join(dataDir, 'kinchart.db')).size;
      else {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        bytes = Number((await c.query('select pg_database_size(current_database()) as n')).rows[0].n);
        await c.end();
      }
      return {
        documents: docs * accountCount,
        readerDocuments: docs,
        wordsPerDocument: wordsPer,
        seedS,
        databaseMB: round(bytes / 1048576),
        p50: round(percentile(all, 50)),
        p95: round(percentile(all, 95)),
        p99: round(percentile(all, 99)),
        byQuery,
      };
    } finally {
      await server.stop();
    }
  } finally {
    if (process.env.BENCH_SEARCH_KEEP) log(`  ${dialect}: kept ${dialect === 'sqlite' ? dataDir : databaseUrl}`);
    else {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}.log`, { force: true });
      await dropDatabase();
    }
  }
}

export async function runSearch(root) {
  const started = performance.now();
  const log = (line) => console.log(line);
  if (!process.env.BENCH_SKIP_BUILD) {
    log('Building…');
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) log('No TEST_DATABASE_URL / BENCH_DATABASE_URL: SQLite only.');
  const result = { at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadavg: { before: os.loadavg() } };
  for (const dialect of adminUrl ? ['sqlite', 'postgres'] : ['sqlite']) {
    result[dialect] = await measureOn(root, { dialect, adminUrl, log });
  }
  result.loadavg.after = os.loadavg();
  result.minutes = round((performance.now() - started) / 60_000);
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results', `search-${result.at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log('');
  for (const dialect of ['sqlite', 'postgres']) {
    const r = result[dialect];
    if (!r) continue;
    const ok = r.p95 <= 50;
    console.log(
      `  ${ok ? 'ok  ' : 'MISS'} search p95, ${dialect}, ${r.readerDocuments} documents of ${r.documents}: ${r.p95} ms (p50 ${r.p50}, p99 ${r.p99}; budget ≤ 50 ms)`,
    );
  }
  console.log(`Took ${result.minutes} min. Wrote ${path.relative(root, out)}`);
}
