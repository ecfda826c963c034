// Issue 33's "Done when": a mother types "ferritin" and sees the three scanned lab reports that
// mention it across her own and her daughter's records, with the line that matched; a carer who was
// only shared the daughter sees only the daughter's. Real uploads, read by the real runner with
// Tesseract, found through GET /api/user/search — on SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PATH, searchResponseSchema } from '@kinchart/shared/search';
import type { SearchResult } from '@kinchart/shared/search';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import { uploadRecord } from './files-helpers';
import { scanOf } from './text-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

async function search(user: User, q: string): Promise<SearchResult[]> {
  const res = await user.client.get(`${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return searchResponseSchema.parse(res.json()).results;
}

async function uploadScan(user: User, personId: string, name: string, lines: string[]): Promise<string> {
  const res = await uploadRecord(
    user.client,
    { filename: `${name}.pdf`, content: await scanOf(lines), contentType: 'application/pdf' },
    { personId },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

describe('searching scanned lab reports across a family', () => {
  it('finds the three scans that mention ferritin with the matching line; a carer of the daughter sees only hers', async () => {
    const mother = await signedInUser(t.app, { username: 'Olivia Rivera' });
    const self = await selfProfileId(t.database.db, mother.id);
    expect((await mother.client.put('/api/user/updateProfile', { name: 'Olivia Rivera' })).statusCode).toBe(200);
    const daughter = await insertMember(t.database.db, mother.id, { name: 'Mia Rivera' });
    const march = await uploadScan(mother, self, 'labs-march', ['Iron studies', 'Ferritin 9 ng/mL (low)', 'Transferrin saturation 12 %']);
    const june = await uploadScan(mother, self, 'labs-june', ['Follow-up blood test', 'Ferritin 31 ng/mL', 'Haemoglobin 12.9 g/dL']);
    const mias = await uploadScan(mother, daughter, 'mia-bloods', ['Paediatric panel', 'Ferritin 22 ng/mL', 'Vitamin D 48 nmol/L']);
    await uploadScan(mother, self, 'thyroid', ['Thyroid panel', 'TSH 2.1 mIU/L', 'Free T4 14 pmol/L']);
    expect(await t.app.textJobs.drain()).toBe(4);

    const found = await search(mother, 'ferritin');
    expect(found.map((r) => r.id).sort()).toEqual([march, june, mias].sort());
    for (const result of found) {
      expect(result.kind).toBe('file');
      expect(result.page).toBe(1);
      // The line that matched, with the word marked where it stands in the snippet.
      expect(result.snippet).toMatch(/Ferritin \d+ ng\/mL/);
      expect(result.highlights.map(([start, end]) => result.snippet.slice(start, end).toLowerCase())).toContain('ferritin');
    }
    expect(Object.fromEntries(found.map((r) => [r.id, r.person_name]))).toEqual({
      [march]: 'Olivia Rivera',
      [june]: 'Olivia Rivera',
      [mias]: 'Mia Rivera',
    });

    const carer = await signedInUser(t.app, { username: 'Grace Carer' });
    await insertShare(t.database.db, { profileId: daughter, ownerId: mother.id, holderId: carer.id, role: 'viewer' });
    const carerFound = await search(carer, 'ferritin');
    expect(carerFound.map((r) => [r.id, r.person_id])).toEqual([[mias, daughter]]);
    // Nothing of the mother's own records, whatever the carer types.
    expect(await search(carer, 'transferrin')).toEqual([]);
    expect(await search(carer, 'thyroid')).toEqual([]);

    const stranger = await signedInUser(t.app);
    expect(await search(stranger, 'ferritin')).toEqual([]);
  });
});
