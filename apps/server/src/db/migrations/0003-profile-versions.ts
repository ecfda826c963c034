import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

// A per-account counter that moves whenever anything GET /api/user/getPatientProfile shows changes
// (docs/decisions/0007-request-path-and-upload-speed.md). The database keeps it, through triggers,
// so no write path can forget it and every app instance sees the same value.
//
// It lives in its own table, touched only by these triggers. On PostgreSQL they are deferred to
// commit, so a transaction takes the counter's row lock last and holds it only while committing:
// the counter can never be one side of a deadlock. SQLite has a single writer; plain AFTER
// triggers run inside the writing transaction there.

const WATCHED = ['profiles', 'emergency_contacts', 'healthcare_providers', 'medications'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

/** Counts a change for `userExpr`'s account; nothing for an account that is being deleted. */
const bumpSql = (userExpr: string) =>
  `insert into profile_versions (user_id, version) select id, 1 from users where id = ${userExpr} ` +
  `on conflict (user_id) do update set version = profile_versions.version + 1`;

export const profileVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('profile_versions')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();

    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql
        .raw(
          `create function kinchart_bump_profile_version() returns trigger language plpgsql as $$
           begin
             if tg_op = 'DELETE' then ${bumpSql('old.user_id')}; else ${bumpSql('new.user_id')}; end if;
             return null;
           end $$`,
        )
        .execute(db);
      for (const table of WATCHED) {
        await sql
          .raw(
            `create constraint trigger ${table}_profile_version after insert or update or delete on ${table}
             deferrable initially deferred for each row execute function kinchart_bump_profile_version()`,
          )
          .execute(db);
      }
      return;
    }
    for (const table of WATCHED) {
      for (const event of EVENTS) {
        const row = event === 'delete' ? 'old' : 'new';
        await sql
          .raw(`create trigger ${table}_profile_version_${event} after ${event} on ${table} begin ${bumpSql(`${row}.user_id`)}; end`)
          .execute(db);
      }
    }
  },

  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const table of WATCHED) await sql.raw(`drop trigger if exists ${table}_profile_version on ${table}`).execute(db);
      await sql.raw('drop function if exists kinchart_bump_profile_version()').execute(db);
    } else {
      for (const table of WATCHED) {
        for (const event of EVENTS) await sql.raw(`drop trigger if exists ${table}_profile_version_${event}`).execute(db);
      }
    }
    await db.schema.dropTable('profile_versions').ifExists().execute();
  },
};
