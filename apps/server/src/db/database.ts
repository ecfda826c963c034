import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, NO_MIGRATIONS, PostgresDialect, SqliteDialect } from 'kysely';
import type { Migration, MigrationProvider, SqliteDatabase } from 'kysely';
import type { Database } from './schema';
import { initial } from './migrations/0001-initial';
import { shlLinks } from './migrations/0002-shl-links';
import { profileVersions } from './migrations/0003-profile-versions';
import { attemptLimits } from './migrations/0004-attempt-limits';
import { essentialsWithoutPin } from './migrations/0005-essentials-without-pin';
import { dropLastAccessNotified } from './migrations/0006-drop-last-access-notified';
import { peopleAndShares } from './migrations/0007-people-and-shares';
import { clinicalData } from './migrations/0008-clinical-data';
import { shlLocations } from './migrations/0009-shl-locations';
import { sessionIds } from './migrations/0010-session-ids';
import { passwordResets } from './migrations/0011-password-resets';
import { secondFactors } from './migrations/0012-second-factors';
import { passkeys } from './migrations/0013-passkeys';
import { knownBrowsers } from './migrations/0015-known-browsers';
import { oidcIdentities } from './migrations/0014-oidc-identities';
import { emailProof } from './migrations/0016-email-proof';
import { loginFailureFactors } from './migrations/0017-login-failure-factors';
import { endHandedOnOrphans } from './migrations/0018-end-handed-on-shares';
import { emergencyGuards } from './migrations/0019-emergency-guards';
import { petFields } from './migrations/0020-pet-fields';
import { ownerIndexes } from './migrations/0021-owner-indexes';
import { careSchedules } from './migrations/0022-care-schedules';
import { reminders } from './migrations/0023-reminders';
import { calendarFeeds } from './migrations/0024-calendar-feeds';
import { fileText } from './migrations/0025-file-text';
import { searchIndex } from './migrations/0026-search-index';
import { labSourcesAndAllergies } from './migrations/0027-lab-sources-and-allergies';
import { languageAndUnits } from './migrations/0028-language-and-units';
import { restoredCalendarFeeds } from './migrations/0029-restored-calendar-feeds';
import { pushSubscriptionSessions } from './migrations/0030-push-subscription-sessions';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

// Migrations are listed here rather than read from disk so the bundled server carries them.
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-shl-links': shlLinks,
  '0003-profile-versions': profileVersions,
  '0004-attempt-limits': attemptLimits,
  '0005-essentials-without-pin': essentialsWithoutPin,
  '0006-drop-last-access-notified': dropLastAccessNotified,
  '0007-people-and-shares': peopleAndShares,
  '0008-clinical-data': clinicalData,
  '0009-shl-locations': shlLocations,
  '0010-session-ids': sessionIds,
  '0011-password-resets': passwordResets,
  '0012-second-factors': secondFactors,
  '0013-passkeys': passkeys,
  '0014-oidc-identities': oidcIdentities,
  '0015-known-browsers': knownBrowsers,
  '0016-email-proof': emailProof,
  '0017-login-failure-factors': loginFailureFactors,
  '0018-end-handed-on-shares': endHandedOnOrphans,
  '0019-emergency-guards': emergencyGuards,
  '0020-pet-fields': petFields,
  '0021-owner-indexes': ownerIndexes,
  '0022-care-schedules': careSchedules,
  '0023-reminders': reminders,
  '0024-calendar-feeds': calendarFeeds,
  '0025-file-text': fileText,
  '0026-search-index': searchIndex,
  '0027-lab-sources-and-allergies': labSourcesAndAllergies,
  '0028-language-and-units': languageAndUnits,
  '0029-restored-calendar-feeds': restoredCalendarFeeds,
  '0030-push-subscription-sessions': pushSubscriptionSessions,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// int8 (bigint, count(*)) arrives from pg as a string; every such value here fits a double.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** PostgreSQL's connection string, for clients outside the pool (the notification LISTEN, DESIGN §10). */
  url?: string;
}

export function createDatabase(options: { databaseUrl?: string | undefined; sqliteFile: string }): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', url: options.databaseUrl };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), dialect: 'sqlite' };
}

/**
 * Kysely prepares every query afresh; on SQLite preparing costs more than running a small query.
 * Our queries are built from a fixed set of shapes (values are bound parameters), so prepared
 * statements are cached by their SQL text. Statements run synchronously, so reuse is safe.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(source: string) {
      let stmt = cache.get(source);
      if (!stmt) {
        stmt = sqlite.prepare(source);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(source, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  };
}

/** Moves the schema up or down to the named migration (`undefined`: before the first). */
export async function migrateTo(db: Db, name: string | undefined): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateTo(name ?? NO_MIGRATIONS);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}
