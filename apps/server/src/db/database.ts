import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely';
import type { Database } from './schema';
import { initial } from './migrations/0001-initial';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

// Migrations are listed here rather than read from disk so the bundled server carries them.
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// int8 (bigint, count(*)) arrives from pg as a string; every such value here fits a double.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
}

export function createDatabase(options: { databaseUrl?: string | undefined; sqliteFile: string }): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect: 'sqlite' };
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}
