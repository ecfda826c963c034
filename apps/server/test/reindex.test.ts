// Issue 33: `npm run reindex` makes the search index again from the database and queues every file
// to be read again (docs/decisions/0047, 0048). Run on SQLite and PostgreSQL like every API test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PATH, searchResponseSchema } from '@kinchart/shared/search';
import { reindexDatabase } from '../src/ops/text-jobs';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { uploadRecord } from './files-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('npm run reindex', () => {
  it('rebuilds a lost index from the source tables and queues every file to be read again', async () => {
    const user = await signedInUser(t.app);
    const upload = await uploadRecord(user.client, {
      filename: 'letter.txt',
      content: Buffer.from('Discharge letter: ferritin was low, iron tablets for three months.'),
      contentType: 'text/plain',
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const medication = await user.client.post('/api/user/medications', { medication_name: 'Ferrous sulfate', dosage: '325 mg' });
    expect(medication.statusCode, medication.body).toBe(201);
    expect(await t.app.textJobs.drain()).toBe(1);

    const kinds = async (q: string) => {
      const res = await user.client.get(`${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, res.body).toBe(200);
      return searchResponseSchema
        .parse(res.json())
        .results.map((r) => r.kind)
        .sort();
    };
    expect(await kinds('ferr')).toEqual(['file', 'medication']);

    // An index lost or damaged (restored from an old backup, say): nothing is found.
    await t.database.db.deleteFrom('search_entries').execute();
    expect(await kinds('ferr')).toEqual([]);

    const said: string[] = [];
    const queued = await reindexDatabase(t.database.db, { info: (m) => said.push(m), warn: (m) => said.push(m) });
    expect(queued).toBe(1);
    expect(said).toContain('Search index rebuilt.');
    // The index holds what the database holds, the file's text included, before the file is read again.
    expect(await kinds('ferr')).toEqual(['file', 'medication']);
    const listed = await user.client.get('/api/user/files');
    expect(listed.json().map((f: { text_status: string }) => f.text_status)).toEqual(['pending']);

    expect(await t.app.textJobs.drain()).toBe(1);
    const again = await user.client.get('/api/user/files');
    expect(again.json().map((f: { text_status: string }) => f.text_status)).toEqual(['done']);
    expect(await kinds('"iron tablets"')).toEqual(['file']);
  });
});
