// Migrations that change tables in place, on both dialects, keeping every row, and reversible:
// 0006 drops the unused emergency_shares.last_access_notified_at; 0010 adds the sessions' public id
// and last password proof (docs/decisions/0024); 0014 adds single sign-on's tables (docs/decisions/0029).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../src/db/database';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await migrateToLatest(t.database.db);
  await t.close();
});

async function shareColumns(): Promise<string[]> {
  const tables = await t.database.db.introspection.getTables();
  return (tables.find((table) => table.name === 'emergency_shares')?.columns ?? []).map((c) => c.name);
}

describe('migration 0006', () => {
  it('drops last_access_notified_at and keeps the codes; down brings the column back', async () => {
    const owner = await signedInUser(t.app);
    const setUp = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    expect(setUp.statusCode).toBe(201);
    const shareId = setUp.json().share_id as string;
    expect(await shareColumns()).not.toContain('last_access_notified_at');

    await migrateTo(t.database.db, '0005-essentials-without-pin');
    expect(await shareColumns()).toContain('last_access_notified_at');
    await migrateToLatest(t.database.db);
    expect(await shareColumns()).not.toContain('last_access_notified_at');

    const rows = await t.database.db
      .selectFrom('emergency_shares')
      .select(['share_id', 'is_active'])
      .where('share_id', '=', shareId)
      .execute();
    expect(rows).toEqual([{ share_id: shareId, is_active: 1 }]);
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ exists: true, share_id: shareId });
  });
});

describe('migration 0010', () => {
  it('gives existing sessions a public id and their sign-in time as their last password proof; down removes both', async () => {
    const owner = await signedInUser(t.app);
    const columns = async () =>
      ((await t.database.db.introspection.getTables()).find((table) => table.name === 'sessions')?.columns ?? []).map((c) => c.name);

    await migrateTo(t.database.db, '0009-shl-locations');
    expect(await columns()).not.toContain('public_id');
    expect(await columns()).not.toContain('authenticated_at');
    await migrateToLatest(t.database.db);

    const rows = await t.database.db
      .selectFrom('sessions')
      .select(['id', 'public_id', 'created_at', 'authenticated_at'])
      .where('user_id', '=', owner.id)
      .execute();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.public_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.public_id).not.toBe(row?.id);
    expect(row?.authenticated_at).toBe(row?.created_at);
    // The session goes on and is listed by its new id.
    const listed = await owner.client.get('/api/auth/sessions');
    expect(listed.json()).toEqual([expect.objectContaining({ id: row?.public_id, current: true })]);
  });
});

describe('migration 0014', () => {
  it('adds the single sign-on tables: one link per (issuer, subject), gone with its user; down removes them', async () => {
    const names = async () => (await t.database.db.introspection.getTables()).map((table) => table.name);
    await migrateTo(t.database.db, '0012-second-factors');
    expect(await names()).not.toContain('oidc_identities');
    expect(await names()).not.toContain('oidc_requests');
    await migrateToLatest(t.database.db);
    expect(await names()).toEqual(expect.arrayContaining(['oidc_identities', 'oidc_requests', 'oidc_attempts']));

    const user = await signedInUser(t.app);
    const row = (id: string, userId: string) => ({
      id,
      user_id: userId,
      issuer: 'https://id.example.org',
      subject: 'abc',
      created_at: new Date().toISOString(),
    });
    await t.database.db.insertInto('oidc_identities').values(row('link-1', user.id)).execute();
    await expect(t.database.db.insertInto('oidc_identities').values(row('link-2', user.id)).execute()).rejects.toThrow();
    expect(await user.client.delete('/api/auth/deleteAccount', { password: user.password })).toMatchObject({ statusCode: 200 });
    expect(await t.database.db.selectFrom('oidc_identities').selectAll().execute()).toEqual([]);
  });
});

describe('migration 0029', () => {
  it('marks calendar feeds restored by an import: every feed already there is one made in Settings; down removes the column', async () => {
    const columns = async () =>
      ((await t.database.db.introspection.getTables()).find((table) => table.name === 'calendar_feeds')?.columns ?? []).map((c) => c.name);
    await migrateTo(t.database.db, '0028-language-and-units');
    expect(await columns()).not.toContain('restored');
    const user = await signedInUser(t.app);
    await t.database.db
      .insertInto('calendar_feeds')
      // The table as it was before 0029: no `restored` to write.
      .values({
        id: 'feed-before',
        user_id: user.id,
        person_id: null,
        token_hash: 'f'.repeat(64),
        created_at: new Date().toISOString(),
      })
      .execute();
    await migrateToLatest(t.database.db);
    expect(await columns()).toContain('restored');
    const listed = await user.client.get('/api/user/calendar-feeds');
    expect(listed.json().feeds).toEqual([expect.objectContaining({ id: 'feed-before', restored: false, include_medications: false })]);
  });
});
