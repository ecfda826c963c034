// Migration 0027 (issue 34, docs/decisions/0053): every line of an existing allergy_details text
// becomes an entry, in order, with the codings profiles.allergy_codings kept for exactly that line;
// the column then goes. Down brings the column back (empty) and drops the entries.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../src/db/database';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { insertMember, selfProfileId } from './factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await migrateToLatest(t.database.db);
  await t.close();
});

const PENICILLIN = { system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' };
const LATEX = { system: 'http://snomed.info/sct', code: '300916003', display: 'Latex allergy' };

async function profileColumns(): Promise<string[]> {
  const tables = await t.database.db.introspection.getTables();
  return (tables.find((table) => table.name === 'profiles')?.columns ?? []).map((c) => c.name);
}

describe('migration 0027: allergies as entries', () => {
  it('an older profile with details and allergy codings gets one entry per line, with the codings of its line', async () => {
    const owner = await signedInUser(t.app);
    const self = await selfProfileId(t.database.db, owner.id);
    const kid = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    const empty = await insertMember(t.database.db, owner.id, { name: 'Noah Rivera' });

    await migrateTo(t.database.db, '0026-search-index');
    expect(await profileColumns()).toContain('allergy_codings');
    const codings = JSON.stringify([
      { text: 'Allergy to penicillin', codings: [PENICILLIN] },
      // A line edited away since: its codings apply to nothing.
      { text: 'Latex', codings: [LATEX] },
    ]);
    await sql`update profiles set has_allergies = 1, allergy_details = ${'Allergy to penicillin\r\n  Latex; peanuts \n\nNKDA'},
      allergy_codings = ${codings} where id = ${self}`.execute(t.database.db);
    await sql`update profiles set has_allergies = 1, allergy_details = ${'Bee stings'}, allergy_codings = ${'{"not": "a list"'}
      where id = ${kid}`.execute(t.database.db);
    await sql`update profiles set has_allergies = 0, allergy_details = ${'   '} where id = ${empty}`.execute(t.database.db);

    await migrateToLatest(t.database.db);
    expect(await profileColumns()).not.toContain('allergy_codings');
    const list = async (person: string) => (await owner.client.get(`/api/user/people/${person}/allergies`)).json();
    const plain = { reactions: [], severity: null, criticality: null };
    expect(await list(self)).toEqual([
      { id: expect.any(String), substance: 'Allergy to penicillin', ...plain, codings: [PENICILLIN] },
      { id: expect.any(String), substance: 'Latex; peanuts', ...plain, codings: [] },
      { id: expect.any(String), substance: 'NKDA', ...plain, codings: [] },
    ]);
    // Unreadable codings are none; a blank text makes no entry.
    expect(await list(kid)).toEqual([{ id: expect.any(String), substance: 'Bee stings', ...plain, codings: [] }]);
    expect(await list(empty)).toEqual([]);
    // The text is left as it was.
    const row = await t.database.db.selectFrom('profiles').select('allergy_details').where('id', '=', self).executeTakeFirstOrThrow();
    expect(row.allergy_details).toBe('Allergy to penicillin\r\n  Latex; peanuts \n\nNKDA');

    // The entries keep step from here: the same text saved again keeps each entry (and its codings).
    const before = await list(self);
    const saved = await owner.client.put('/api/user/updateProfile', {
      name: 'Olivia Owner',
      has_allergies: true,
      allergy_details: 'Allergy to penicillin\nLatex; peanuts\nNKDA',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await list(self)).toEqual(before);

    // Down: the column is back (empty), the entries are gone.
    await migrateTo(t.database.db, '0026-search-index');
    expect(await profileColumns()).toContain('allergy_codings');
    expect((await t.database.db.introspection.getTables()).map((table) => table.name)).not.toContain('allergies');
    await migrateToLatest(t.database.db);
  });
});
