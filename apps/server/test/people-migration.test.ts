// Migration 0007 (people and sharing): every record file and appointment made before it belongs to
// its owner's own profile afterwards — on SQLite and PostgreSQL — and down takes the schema back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../src/db/database';
import { newId, nowIso } from '../src/lib/ids';
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

async function columnsOf(table: string): Promise<string[]> {
  const tables = await t.database.db.introspection.getTables();
  return (tables.find((x) => x.name === table)?.columns ?? []).map((c) => c.name);
}

describe('migration 0007', () => {
  it("files and appointments made before it move to their owner's own profile; down removes what it added", async () => {
    const db = t.database.db;
    const alice = await signedInUser(t.app);
    const bob = await signedInUser(t.app);
    const aliceSelf = await selfProfileId(db, alice.id);
    const bobSelf = await selfProfileId(db, bob.id);
    const aliceMember = await insertMember(db, alice.id);

    await migrateTo(db, '0006-drop-last-access-notified');
    expect(await columnsOf('appointments')).not.toContain('profile_id');
    expect((await db.introspection.getTables()).map((x) => x.name)).not.toContain('person_shares');

    // Rows as the app wrote them before 0007: appointments without a person, files with a null one
    // (and one file that an earlier path had already filed under a member: it stays there).
    const now = nowIso();
    const file = (userId: string, profileId: string | null) => ({
      id: newId(),
      user_id: userId,
      profile_id: profileId,
      display_name: 'Letter',
      original_name: 'letter.pdf',
      file_type: 'application/pdf',
      size: 10,
      storage_key: newId(),
      wrapped_key: 'x',
      created_at: now,
      updated_at: now,
    });
    const files = [file(alice.id, null), file(alice.id, null), file(bob.id, null), file(alice.id, aliceMember)];
    for (const f of files) {
      await sql`insert into medical_files (id, user_id, profile_id, display_name, original_name, file_type, size, storage_key, wrapped_key, created_at, updated_at)
        values (${f.id}, ${f.user_id}, ${f.profile_id}, ${f.display_name}, ${f.original_name}, ${f.file_type}, ${f.size}, ${f.storage_key}, ${f.wrapped_key}, ${f.created_at}, ${f.updated_at})`.execute(
        db,
      );
    }
    const appointments = [
      { id: newId(), user_id: alice.id },
      { id: newId(), user_id: bob.id },
      { id: newId(), user_id: bob.id },
    ];
    for (const a of appointments) {
      await sql`insert into appointments (id, user_id, uid, appointment_date, provider_name, created_at)
        values (${a.id}, ${a.user_id}, ${newId()}, ${'2026-05-01'}, ${'Dr Lee'}, ${now})`.execute(db);
    }

    await migrateToLatest(db);

    const fileRows = await db
      .selectFrom('medical_files')
      .select(['id', 'profile_id'])
      .where(
        'id',
        'in',
        files.map((f) => f.id),
      )
      .execute();
    const filed = new Map(fileRows.map((r) => [r.id, r.profile_id]));
    expect(files.map((f) => filed.get(f.id))).toEqual([aliceSelf, aliceSelf, bobSelf, aliceMember]);
    const apptRows = await db
      .selectFrom('appointments')
      .select(['id', 'profile_id'])
      .where(
        'id',
        'in',
        appointments.map((a) => a.id),
      )
      .execute();
    const booked = new Map(apptRows.map((r) => [r.id, r.profile_id]));
    expect(appointments.map((a) => booked.get(a.id))).toEqual([aliceSelf, bobSelf, bobSelf]);

    // And the answers say whose they are.
    const listed = (await bob.client.get('/api/user/appointments')).json();
    expect(listed).toHaveLength(2);
    expect(listed.every((a: { person_id: string }) => a.person_id === bobSelf)).toBe(true);
    expect(await columnsOf('person_shares')).toContain('holder_id');
    expect(await columnsOf('audit_events')).toEqual(expect.arrayContaining(['profile_id', 'actor_id']));
  });
});
