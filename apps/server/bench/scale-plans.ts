// The query plans behind `npm run bench scale`'s reads (bench/scale.mjs; docs/decisions/0041).
//
// Builds the production app on a seeded data directory (SQLite, or PostgreSQL with databaseUrl),
// signs one account in, calls each measured route once, and explains every statement the route
// ran: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN ANALYZE for reads (EXPLAIN for writes,
// which are not made twice). A full scan of a table of 10,000 rows or more — SQLite "SCAN t",
// PostgreSQL "Seq Scan on t" — is flagged: its cost grows with every account, not with this one's
// data. (A scan of a small table is what a planner should choose.)
//
// Usage (bundled by bench/scale.mjs): node dist/scale-plans.js <json { dataDir, databaseUrl?, email, password, paths }>
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { CompiledQuery } from 'kysely';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { DatabaseHandle } from '../src/db/database';
import type { Database } from '../src/db/schema';

interface Options {
  dataDir: string;
  databaseUrl?: string;
  email: string;
  password: string;
  /** [name, method, path] */
  paths: [string, string, string][];
}

export interface Explained {
  route: string;
  sql: string;
  plan: string[];
  fullScans: string[];
}

const ORIGIN = 'http://localhost:3000';
/** A table this large holds many accounts' rows (10,000 families: 40,000 people, 200,000 lab results). */
const BIG_TABLE_ROWS = 10_000;

async function main(options: Options): Promise<void> {
  const seen: CompiledQuery[] = [];
  // Transaction control ("begin", "commit") and the like have no plan.
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query' && /^\s*(select|insert|update|delete|with)\b/i.test(event.query.sql)) seen.push(event.query);
  };
  let database: DatabaseHandle;
  let sqlite: SQLite.Database | undefined;
  let pool: pg.Pool | undefined;
  if (options.databaseUrl) {
    pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
    database = { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log }), dialect: 'postgres', url: options.databaseUrl };
  } else {
    sqlite = new SQLite(path.join(options.dataDir, 'kinchart.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    database = { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log }), dialect: 'sqlite' };
  }
  /** Rows in a table, once per table: a scan is flagged only where it reads many accounts' rows. */
  const sizes = new Map<string, number>();
  async function rowsIn(table: string): Promise<number> {
    let n = sizes.get(table);
    if (n === undefined) {
      try {
        if (sqlite) n = (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
        else n = Number((await pool!.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`)).rows[0]?.n ?? 0);
      } catch {
        n = 0; // not a table ("SCAN CONSTANT ROW", a CTE)
      }
      sizes.set(table, n);
    }
    return n;
  }
  const big = async (scans: { line: string; table: string }[]) => {
    const out: string[] = [];
    for (const s of scans) if ((await rowsIn(s.table)) >= BIG_TABLE_ROWS) out.push(`${s.line} (${await rowsIn(s.table)} rows)`);
    return out;
  };

  const config = loadConfig({
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MIN: '0',
  });
  const app = await buildApp({ config, database, webRoot: null });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin: ORIGIN },
    payload: { email: options.email, password: options.password },
  });
  if (login.statusCode !== 200) throw new Error(`login ${login.statusCode} ${login.body}`);
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

  const out: Explained[] = [];
  for (const q of [...seen]) out.push({ route: 'login', sql: q.sql, ...(await explain(q)) });
  for (const [route, method, url] of options.paths) {
    seen.length = 0;
    const res = await app.inject({ method: method as 'GET', url, headers: { origin: ORIGIN, cookie } });
    if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    const statements = [...seen];
    for (const q of statements) out.push({ route, sql: q.sql, ...(await explain(q)) });
  }
  await app.close();
  await database.db.destroy();
  console.log(JSON.stringify(out));

  async function explain(q: CompiledQuery): Promise<{ plan: string[]; fullScans: string[] }> {
    if (sqlite) {
      const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[];
      const plan = rows.map((r) => r.detail);
      // "SCAN t" reads the whole table; "SCAN t USING (COVERING) INDEX" reads an index in full, as bad.
      const scans = plan.flatMap((line) => {
        const table = /^SCAN (\w+)/.exec(line)?.[1];
        return table ? [{ line, table }] : [];
      });
      return { plan, fullScans: await big(scans) };
    }
    const client = await pool!.connect();
    try {
      await client.query('begin');
      // A write made again would trip its own unique keys: it is explained, not run.
      const analyze = /^\s*(select|with)\b/i.test(q.sql) ? 'ANALYZE, ' : '';
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (${analyze}COSTS OFF) ${q.sql}`, q.parameters as unknown[]);
      const plan = rows.map((r) => r['QUERY PLAN']);
      const scans = plan.flatMap((line) => {
        const table = /Seq Scan on (\w+)/.exec(line)?.[1];
        return table ? [{ line: line.trim(), table }] : [];
      });
      return { plan, fullScans: await big(scans) };
    } finally {
      await client.query('rollback').catch(() => {});
      client.release();
    }
  }
}

main(JSON.parse(process.argv[2] ?? '{}') as Options).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
