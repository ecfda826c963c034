// Issue 33, docs/decisions/0048: search is accent- and case-insensitive however the database was set
// up. On PostgreSQL the index folds through `unaccent` when the migration may create it, and through
// its own translate() table when the role running it may not (a managed database, a restricted
// owner): both must fold alike. On SQLite the FTS5 tokenizer folds (remove_diacritics 2). Letters
// with no decomposition (Polish ł, Danish ø) are not folded by SQLite or the fallback table.
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../src/db/database';
import { dialect } from './helpers';
import { buildTestApp, signedInUser } from './helpers';

const WORDS = ['Pénicilline', 'ÜBEREMPFINDLICHKEIT', 'Čeština', 'naïve', 'Ñandú'];

describe('the search fold', () => {
  if (dialect === 'postgres') {
    it('a role that may not create unaccent still migrates, and its own fold table takes accents off', async () => {
      const adminUrl = process.env.TEST_DATABASE_URL;
      if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
      const suffix = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      const role = `kinchart_limited_${suffix}`;
      const name = `kinchart_test_fold_${suffix}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      // Owned by the administrator: the limited role may build tables in public but not add extensions.
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query(`CREATE DATABASE ${name}`);
      const inDb = new pg.Client({ connectionString: withDatabase(adminUrl, name) });
      await inDb.connect();
      await inDb.query(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
      await inDb.end();
      const limited = new URL(withDatabase(adminUrl, name));
      limited.username = role;
      const handle = createDatabase({ databaseUrl: limited.toString(), sqliteFile: '' });
      try {
        await migrateToLatest(handle.db);
        const installed = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'unaccent'`.execute(
          handle.db,
        );
        expect(installed.rows[0]?.n).toBe(0);
        const folded = await Promise.all(
          WORDS.map(async (w) => (await sql<{ f: string }>`select kinchart_search_fold(${w}) as f`.execute(handle.db)).rows[0]?.f),
        );
        expect(folded).toEqual(['penicilline', 'uberempfindlichkeit', 'cestina', 'naive', 'nandu']);
      } finally {
        await handle.db.destroy();
        // The pool's sockets may still be saying goodbye: wait for them before the database goes.
        for (let i = 0; i < 40; i += 1) {
          const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (!rows[0]?.n) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    });
  }

  it('finds a word whatever its accents and case, both ways', async () => {
    const t = await buildTestApp();
    try {
      const user = await signedInUser(t.app);
      for (const word of WORDS) {
        const res = await user.client.post('/api/user/medications', { medication_name: word, dosage: '1' });
        expect(res.statusCode, res.body).toBe(201);
      }
      for (const [stored, typed] of <[string, string][]>[
        ['Pénicilline', 'PENICILLINE'],
        ['ÜBEREMPFINDLICHKEIT', 'überempfindlichkeit'],
        ['Čeština', 'CESTINA'],
        ['naïve', 'NAIVE'],
        ['Ñandú', 'ñandu'],
      ]) {
        const res = await user.client.get(`/api/user/search?q=${encodeURIComponent(typed)}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(
          res.json().results.map((r: { title: string }) => r.title),
          `${typed} finds ${stored}`,
        ).toEqual([stored]);
      }
    } finally {
      await t.close();
    }
  });
});

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
