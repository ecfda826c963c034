// Migration 0006 drops the unused emergency_shares.last_access_notified_at: in place on both
// dialects, keeping every row, and reversible.
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

    const rows = await t.database.db.selectFrom('emergency_shares').select(['share_id', 'is_active']).where('share_id', '=', shareId).execute();
    expect(rows).toEqual([{ share_id: shareId, is_active: 1 }]);
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ exists: true, share_id: shareId });
  });
});
