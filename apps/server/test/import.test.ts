import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLINICAL_CAP } from '@kinchart/shared/clinical';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import type { TestApp } from './helpers';
import { TestClient, appWithCapturedLog, buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { addClinicalRecords, exportZip, importFile, makeRichAccount, makeZip, readZip, snapshotAccount } from './export-helpers';
import { selfProfileId } from './factories';
import { fixture, storedBlobs } from './files-helpers';

let t: TestApp;
/** The same database and storage, with import caps small enough to reach in a test. */
let small: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp();
  small = await buildApp({
    config: t.config,
    database: t.database,
    webRoot: null,
    importLimits: { maxImportBytes: 300_000, maxUncompressedBytes: 2_000_000, maxEntries: 50, maxJsonBytes: 200_000 },
    reminders: TEST_REMINDERS,
    text: TEST_TEXT,
  });
  await small.ready();
});
afterAll(async () => {
  await small.close();
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

/** The rich account with clinical items for its people (DESIGN §12). */
async function makeClinicalAccount() {
  const rich = await makeRichAccount(t);
  await addClinicalRecords(t, rich.user, {
    selfId: await selfProfileId(t.database.db, rich.user.id),
    kidId: rich.kidId,
    petId: rich.petId,
  });
  return rich;
}

/** Everything the account holds plus the blobs on disk: what "nothing changed" is checked against. */
async function state(user: User) {
  return { data: await snapshotAccount(t.database.db, user.id, user.client), blobs: storedBlobs(t.dataDir).committed.sort() };
}

describe('import of a Kinchart export', () => {
  it('round trip: export → new account → import reproduces the data exactly, files byte for byte', async () => {
    const { user: source } = await makeClinicalAccount();
    const zip = await exportZip(source.client);

    const target = await signedInUser(t.app, { username: 'Fresh Account' });
    const res = await importFile(target.client, zip, 'kinchart-export.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      format: 'kinchart',
      imported: {
        family_members: 3,
        emergency_contacts: 3,
        healthcare_providers: 2,
        medications: 4,
        appointments: 3,
        files: 4,
        immunizations: 4,
        lab_results: 4,
        conditions: 3,
        procedures: 2,
      },
      skipped: [],
    });

    // Every profile field, list item, clinical item, codings and dates (stamps included) equal.
    const before = await snapshotAccount(t.database.db, source.id, source.client);
    const after = await snapshotAccount(t.database.db, target.id, target.client);
    expect(before.immunizations).toHaveLength(4);
    expect(before.medications.filter((m) => m.codings !== null)).toHaveLength(1);
    // Issue 34: the allergy entries come back whole (codings, severity, criticality, stamps).
    expect(before.allergies.filter((a) => a.criticality !== null && (a.codings as unknown[]).length > 0)).toHaveLength(2);
    expect(after).toEqual(before);
    // The account itself is not the export's: username and email stay.
    const account = await t.database.db
      .selectFrom('users')
      .select(['username', 'email'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ username: 'Fresh Account', email: target.email });

    // And what the API shows matches too.
    const [a, b] = await Promise.all([source.client.get('/api/user/getPatientProfile'), target.client.get('/api/user/getPatientProfile')]);
    const strip = (p: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(p, (k, v: unknown) => (/(^|_)id$/.test(k) || k === 'username' || k === 'account_email' ? undefined : v)));
    expect(strip(b.json())).toEqual(strip(a.json()));

    // A second export of the new account holds the same kinchart.json apart from ids, the own
    // profile's stamps and the export time: nothing was lost on the way.
    const again = await readZip(await exportZip(target.client));
    const first = await readZip(zip);
    expect([...again.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [name, bytes] of first) if (name.startsWith('files/')) expect(again.get(name), name).toEqual(bytes);
    // Ids only tie a file together (people are named by who they are instead), and records made in
    // the same millisecond may come in either order: lists are compared as sets.
    const comparable = (entries: Map<string, Buffer>) => {
      const doc = JSON.parse(entries.get('kinchart.json')!.toString('utf8')) as { profiles: Record<string, unknown>[] } & Record<
        string,
        unknown
      >;
      const person = new Map(doc.profiles.map((p) => [p.id, `${String(p.name)}|${String(p.date_of_birth)}|${String(p.relationship)}`]));
      delete doc.profiles[0]!.created_at;
      delete doc.profiles[0]!.updated_at;
      const plain = JSON.parse(
        JSON.stringify({ ...doc, account: undefined, exported_at: undefined }, (key, value: unknown) =>
          key === 'id' || key === 'uid' ? undefined : key === 'profile_id' && typeof value === 'string' ? person.get(value) : value,
        ),
      ) as Record<string, unknown[]>;
      for (const key of ['profiles', 'appointments', 'notifications', 'files'])
        plain[key] = plain[key]!.map((x) => JSON.stringify(x)).sort();
      return plain;
    };
    expect(comparable(again)).toEqual(comparable(first));
  });

  it('round trip of a version 1 export (before clinical items): restores it, adding no clinical items and taking none away', async () => {
    const { user: source } = await makeRichAccount(t);
    const entries = await readZip(await exportZip(source.client));
    const doc = JSON.parse(entries.get('kinchart.json')!.toString()) as { version: number; profiles: Record<string, unknown>[] };
    doc.version = 1;
    for (const p of doc.profiles) {
      for (const key of ['immunizations', 'lab_results', 'conditions', 'procedures', 'fhir_other', 'allergy_codings', 'allergies'])
        delete p[key];
      for (const m of p.medications as Record<string, unknown>[]) delete m.codings;
    }
    const v1 = await makeZip(
      [...entries].map(([name, content]) => ({ name, content: name === 'kinchart.json' ? JSON.stringify(doc) : content })),
    );
    const target = await signedInUser(t.app);
    const self = await selfProfileId(t.database.db, target.id);
    expect((await target.client.post(`/api/user/people/${self}/immunizations`, { vaccine: 'Flu', date: '2026-10' })).statusCode).toBe(201);
    const res = await importFile(target.client, v1, 'v1.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toMatchObject({
      family_members: 3,
      medications: 4,
      immunizations: 0,
      lab_results: 0,
      conditions: 0,
      procedures: 0,
    });
    expect((await target.client.get(`/api/user/people/${self}/immunizations`)).json().map((i: { vaccine: string }) => i.vaccine)).toEqual([
      'Flu',
    ]);
    const before = await snapshotAccount(t.database.db, source.id, source.client);
    const after = await snapshotAccount(t.database.db, target.id, target.client);
    // The allergies come back from the details lines, without what only the entries said.
    const plain = (list: Record<string, unknown>[]) => list.map((a) => [a.profile_id, a.substance, a.reactions, a.codings, a.severity]);
    expect(plain(after.allergies)).toEqual(before.allergies.map((a) => [a.profile_id, a.substance, a.reactions, [], null]));
    expect({ ...after, immunizations: [], allergies: [] }).toEqual({ ...before, allergies: [] });
  });

  it('restores a version 2 export (allergy lines with their codings, no entries): each line becomes an entry with its codes', async () => {
    const { user: source } = await makeClinicalAccount();
    const entries = await readZip(await exportZip(source.client));
    const doc = JSON.parse(entries.get('kinchart.json')!.toString()) as {
      version: number;
      profiles: (Record<string, unknown> & {
        medications: Record<string, unknown>[];
        allergies?: { substance: string; codings: unknown[] }[];
      })[];
    };
    expect(doc.version).toBe(3);
    expect(doc.profiles.filter((p) => p.allergies?.some((a) => a.codings.length > 0))).toHaveLength(2);
    // Version 2, as an older Kinchart wrote it: the lines' codings beside the details, no entries
    // (and none of version 3's schedules and doses).
    doc.version = 2;
    for (const p of doc.profiles) {
      const coded = (p.allergies ?? []).filter((a) => a.codings.length > 0).map((a) => ({ text: a.substance, codings: a.codings }));
      p.allergy_codings = coded.length ? coded : null;
      delete p.allergies;
      for (const m of p.medications) {
        delete m.schedule;
        delete m.doses;
      }
    }
    const older = await makeZip(
      [...entries].map(([name, content]) => ({ name, content: name === 'kinchart.json' ? JSON.stringify(doc) : content })),
    );
    const target = await signedInUser(t.app);
    // The own profile becomes the export's: its allergies too.
    const self = await selfProfileId(t.database.db, target.id);
    expect((await target.client.post(`/api/user/people/${self}/allergies`, { substance: 'Cats' })).statusCode).toBe(201);
    const res = await importFile(target.client, older, 'older.zip');
    expect(res.statusCode, res.body).toBe(200);
    const before = await snapshotAccount(t.database.db, source.id, source.client);
    const after = await snapshotAccount(t.database.db, target.id, target.client);
    const plain = (list: Record<string, unknown>[]) => list.map((a) => [a.profile_id, a.substance, a.reactions, a.codings, a.severity]);
    expect(plain(after.allergies)).toEqual(before.allergies.map((a) => [a.profile_id, a.substance, a.reactions, a.codings, null]));
    expect({ ...after, allergies: [] }).toEqual({ ...before, allergies: [] });
  });

  it("restores into an account that already has data: its own profile becomes the export's, the rest is added", async () => {
    const { user: source } = await makeRichAccount(t);
    const zip = await exportZip(source.client);
    const target = await signedInUser(t.app);
    await target.client.put('/api/user/updateProfile', { name: 'Someone Else', medications: [{ medication_name: 'Aspirin' }] });
    await target.client.post('/api/user/family/add', { name: 'Existing Kid', date_of_birth: '2010-01-01', relationship: 'child' });
    const res = await importFile(target.client, zip, 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    const profile = (await target.client.get('/api/user/getPatientProfile')).json();
    expect(profile.name).toBe('Jordan Rivers');
    expect(profile.medications.map((m: { medication_name: string }) => m.medication_name)).toEqual(['Warfarin', 'Amoxicillin', null]);
    // Members keep their own creation times, so they list in the order they were first added.
    expect(profile.family_members.map((m: { name: string }) => m.name)).toEqual(['Alex Rivers', 'Rex', 'Rex', 'Existing Kid']);
  });

  it('accepts an export that was unzipped and zipped again inside one folder', async () => {
    const { user: source } = await makeRichAccount(t);
    const entries = await readZip(await exportZip(source.client));
    const rezipped = await makeZip([...entries].map(([name, content]) => ({ name: `kinchart-export-2026/${name}`, content })));
    const target = await signedInUser(t.app);
    const res = await importFile(target.client, rezipped, 'again.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported.files).toBe(4);
  });
});

describe('bad input changes nothing', () => {
  let victim: User;
  let zipEntries: Map<string, Buffer>;
  beforeAll(async () => {
    const rich = await makeRichAccount(t);
    zipEntries = await readZip(await exportZip(rich.user.client));
    victim = await signedInUser(t.app);
    await victim.client.put('/api/user/updateProfile', { name: 'Victim', allergy_details: 'Latex', has_allergies: true });
  });

  const withManifest = async (edit: (doc: Record<string, unknown>) => void, extra: { name: string; content: Buffer }[] = []) => {
    const doc = JSON.parse(zipEntries.get('kinchart.json')!.toString()) as Record<string, unknown>;
    edit(doc);
    return makeZip([
      ...[...zipEntries].filter(([n]) => n !== 'kinchart.json').map(([name, content]) => ({ name, content })),
      { name: 'kinchart.json', content: JSON.stringify(doc) },
      ...extra,
    ]);
  };

  async function expectRefused(body: Buffer, filename: string, status: number, message: RegExp, client = victim.client) {
    const before = await state(victim);
    const res = await importFile(client, body, filename);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await state(victim)).toEqual(before);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  }

  it('refuses a file that is neither a zip nor JSON', async () => {
    await expectRefused(
      fixture('record.pdf'),
      'record.pdf',
      415,
      /neither a Kinchart export \(\.zip\), a FHIR R4 Bundle \(\.json\) nor a C-CDA document/,
    );
    await expectRefused(Buffer.from('hello'), 'x.zip', 415, /neither a Kinchart export/);
  });

  it('refuses an empty file and a request without one', async () => {
    await expectRefused(Buffer.alloc(0), 'empty.zip', 400, /Choose a file|empty/);
    const res = await victim.client.post('/api/user/import', { a: 1 });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a damaged or truncated zip', async () => {
    const zip = await makeZip([...zipEntries].map(([name, content]) => ({ name, content })));
    await expectRefused(zip.subarray(0, zip.length - 200), 'cut.zip', 400, /damaged or incomplete/);
    // Flip a byte inside a file's data: the CRC-32 check catches it.
    const flipped = Buffer.from(await makeZip([...zipEntries].map(([name, content]) => ({ name, content, compress: false }))));
    const at = flipped.indexOf(fixture('record.pdf').subarray(100, 140));
    expect(at).toBeGreaterThan(0);
    flipped[at + 5]! ^= 0xff;
    await expectRefused(flipped, 'flipped.zip', 400, /damaged or incomplete/);
  });

  it('refuses a zip without kinchart.json, with a wrong format or a wrong version', async () => {
    await expectRefused(
      await makeZip([{ name: 'notes.txt', content: 'hi' }]),
      'other.zip',
      400,
      /not a Kinchart export: kinchart\.json is missing/,
    );
    await expectRefused(
      await withManifest((d) => (d.version = 4)),
      'v4.zip',
      400,
      /format version 4, newer than this Kinchart can read \(version 3\)/,
    );
    await expectRefused(await withManifest((d) => (d.version = 0)), 'v0.zip', 400, /format version 0; this Kinchart reads versions 1 to 3/);
    await expectRefused(await withManifest((d) => delete d.version), 'nov.zip', 400, /does not say which format version/);
    await expectRefused(await withManifest((d) => (d.format = 'other')), 'fmt.zip', 400, /not a Kinchart export/);
    await expectRefused(
      await makeZip([
        ...[...zipEntries].filter(([n]) => n !== 'kinchart.json').map(([name, content]) => ({ name, content })),
        { name: 'kinchart.json', content: '{not json' },
      ]),
      'bad.zip',
      400,
      /kinchart\.json is not valid JSON/,
    );
  });

  it('refuses a kinchart.json that breaks the rules, naming the field', async () => {
    await expectRefused(
      await withManifest((d) => ((d.profiles as Record<string, unknown>[])[0]!.blood_type = 'Z+')),
      'blood.zip',
      400,
      /kinchart\.json profiles\.0\.blood_type: Blood type must be one of/,
    );
    await expectRefused(
      await withManifest((d) => ((d.profiles as Record<string, unknown>[])[1]!.name = 'x'.repeat(201))),
      'long.zip',
      400,
      /kinchart\.json profiles\.1\.name: must be at most 200 characters/,
    );
    await expectRefused(await withManifest((d) => (d.profiles = [])), 'none.zip', 400, /kinchart\.json profiles/);
    // Text no database can keep as sent: NUL (PostgreSQL refuses it) and an unpaired surrogate.
    await expectRefused(
      await withManifest((d) => ((d.profiles as Record<string, unknown>[])[1]!.name = 'A\u0000B')),
      'nul.zip',
      400,
      /kinchart\.json holds text with a NUL/,
    );
    await expectRefused(
      await withManifest((d) => ((d.notifications as Record<string, unknown>[])[0]!.title = 'x\ud800')),
      'sur.zip',
      400,
      /broken Unicode/,
    );
    // Clinical items follow the API's own rules.
    await expectRefused(
      await withManifest(
        (d) =>
          ((d.profiles as Record<string, unknown>[])[0]!.immunizations = [
            { id: 'i', vaccine: 'MMR', date: '2015-13', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
          ]),
      ),
      'date.zip',
      400,
      /kinchart\.json profiles\.0\.immunizations\.0\.date: Date must be a date as YYYY, YYYY-MM or YYYY-MM-DD/,
    );
    await expectRefused(
      await withManifest(
        (d) =>
          ((d.profiles as Record<string, unknown>[])[0]!.lab_results = [
            { id: 'l', name: 'HbA1c', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
          ]),
      ),
      'value.zip',
      400,
      /kinchart\.json profiles\.0\.lab_results\.0\.value: Value is required/,
    );
  });

  it('refuses an export that would give a person more clinical items than the cap, changing nothing', async () => {
    const doc = JSON.parse(zipEntries.get('kinchart.json')!.toString()) as { profiles: Record<string, unknown>[] };
    const self = await selfProfileId(t.database.db, victim.id);
    expect((await victim.client.post(`/api/user/people/${self}/procedures`, { name: 'Already here' })).statusCode).toBe(201);
    doc.profiles[0]!.procedures = Array.from({ length: CLINICAL_CAP }, (_, i) => ({
      id: `x${i}`,
      name: `Procedure ${i}`,
      status: 'completed',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    }));
    const zip = await makeZip([
      ...[...zipEntries].filter(([n]) => n !== 'kinchart.json').map(([name, content]) => ({ name, content })),
      { name: 'kinchart.json', content: JSON.stringify(doc) },
    ]);
    await expectRefused(zip, 'many.zip', 400, new RegExp(`would give Jordan Rivers more than ${CLINICAL_CAP} procedures`));
  });

  it('refuses a zip whose files do not match kinchart.json, removing any blob already written', async () => {
    await expectRefused(
      await withManifest((d) => ((d.files as Record<string, unknown>[])[3]!.path = 'files/missing.pdf')),
      'missing.zip',
      400,
      /lists files\/missing\.pdf, which is not in the zip/,
    );
    await expectRefused(
      await withManifest((d) => ((d.files as Record<string, unknown>[])[0]!.size = 1)),
      'size.zip',
      400,
      /bytes, but kinchart\.json says 1/,
    );
    // The last file is not a type Kinchart keeps: the three before it were already written as blobs.
    const doc = JSON.parse(zipEntries.get('kinchart.json')!.toString()) as { files: { path: string; size: number }[] };
    const last = doc.files[doc.files.length - 1]!;
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(last.size - 2, 0x90)]);
    await expectRefused(
      await makeZip([...zipEntries].map(([name, content]) => ({ name, content: name === last.path ? exe : content }))),
      'exe.zip',
      415,
      new RegExp(`${last.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: This file type is not supported`),
    );
  });

  it('rolls back every row and removes every written blob when the database fails mid-import', async () => {
    const zip = await withManifest(() => undefined);
    const db = t.database.db;
    const original = db.transaction.bind(db);
    const spy = vi.spyOn(db, 'transaction').mockImplementationOnce(() => {
      const real = original();
      return {
        execute: <T>(fn: (trx: Parameters<Parameters<typeof real.execute>[0]>[0]) => Promise<T>) =>
          real.execute(async (trx) => {
            await fn(trx);
            throw new Error('disk full');
          }),
      } as unknown as ReturnType<typeof db.transaction>;
    });
    const before = await state(victim);
    const res = await importFile(victim.client, zip, 'export.zip');
    spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('Something went wrong. Please try again.');
    expect(await state(victim)).toEqual(before);
  });

  it('refuses a zip bomb before inflating it: an entry that expands too far', async () => {
    const bomb = await makeZip([{ name: 'kinchart.json', content: Buffer.alloc(20 * 1024 * 1024, 0x20) }]);
    expect(bomb.length).toBeLessThan(100_000);
    await expectRefused(bomb, 'bomb.zip', 413, /expands \d+ times; Kinchart refuses zip bombs/);
  });

  it('refuses a zip whose entries together expand too far, though none alone is over 1 MiB', async () => {
    // Forty 1 MiB files of spaces, each just at the per-entry floor: ~40 KiB that would write 40 MiB.
    const doc = JSON.parse(zipEntries.get('kinchart.json')!.toString()) as { files: Record<string, unknown>[] };
    const spaces = Buffer.alloc(1024 * 1024, 0x20);
    doc.files = Array.from({ length: 40 }, (_, i) => ({
      ...doc.files[0],
      id: `spaces-${i}`,
      profile_id: null,
      path: `files/spaces-${i}.txt`,
      display_name: `Spaces ${i}`,
      original_name: `spaces-${i}.txt`,
      file_type: 'text/plain',
      size: spaces.length,
    }));
    const zip = await makeZip([
      { name: 'kinchart.json', content: JSON.stringify(doc) },
      ...doc.files.map((f) => ({ name: String(f.path), content: spaces })),
    ]);
    expect(zip.length).toBeLessThan(100_000);
    await expectRefused(zip, 'amplify.zip', 413, /The zip expands \d+ times in total; Kinchart refuses zip bombs/);
  });

  it('refuses a small zip that would store many times its size: 15 entries of 1 MiB from about 16 KB', async () => {
    // Below the old 16 MiB floor, this stored 15 MiB for a 16 KB upload; now no archive may expand past
    // max(20 × its size, 4 MiB).
    const doc = JSON.parse(zipEntries.get('kinchart.json')!.toString()) as { files: Record<string, unknown>[] };
    const spaces = Buffer.alloc(1024 * 1024 - 1, 0x20);
    doc.files = Array.from({ length: 15 }, (_, i) => ({
      ...doc.files[0],
      id: `small-${i}`,
      profile_id: null,
      path: `files/small-${i}.txt`,
      display_name: `Small ${i}`,
      original_name: `small-${i}.txt`,
      file_type: 'text/plain',
      size: spaces.length,
    }));
    const zip = await makeZip([
      { name: 'kinchart.json', content: JSON.stringify(doc) },
      ...doc.files.map((f) => ({ name: String(f.path), content: spaces })),
    ]);
    expect(zip.length).toBeLessThan(40_000);
    await expectRefused(zip, 'amplify-small.zip', 413, /The zip expands \d+ times in total; Kinchart refuses zip bombs/);
  });

  it('a re-zipped small export that expands less than 4 MiB in all is still imported', async () => {
    const user = await signedInUser(t.app);
    const doc = JSON.parse(zipEntries.get('kinchart.json')!.toString()) as { files: Record<string, unknown>[] };
    const text = Buffer.alloc(600_000, 0x41);
    doc.files = Array.from({ length: 5 }, (_, i) => ({
      ...doc.files[0],
      id: `fits-${i}`,
      profile_id: null,
      path: `files/fits-${i}.txt`,
      display_name: `Fits ${i}`,
      original_name: `fits-${i}.txt`,
      file_type: 'text/plain',
      size: text.length,
    }));
    const zip = await makeZip([
      { name: 'kinchart.json', content: JSON.stringify(doc) },
      ...doc.files.map((f) => ({ name: String(f.path), content: text })),
    ]);
    expect(zip.length).toBeLessThan(40_000);
    const res = await importFile(user.client, zip, 'fits.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported.files).toBe(5);
  });

  it('refuses a zip with too many entries, or that expands too far in total, or too large an upload (small caps)', async () => {
    const user = await signedInUser(small);
    const many = await makeZip(Array.from({ length: 60 }, (_, i) => ({ name: `f${i}.txt`, content: 'x' })));
    let res = await importFile(user.client, many, 'many.zip');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/60 entries; an import may hold at most 50/);

    const random = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + (i >> 3) * 104729) % 251));
    const wide = await makeZip([
      { name: 'a.bin', content: Buffer.alloc(900_000, 1), compress: true },
      { name: 'b.bin', content: Buffer.alloc(900_000, 2), compress: true },
      { name: 'c.bin', content: Buffer.alloc(900_000, 3), compress: true },
    ]);
    res = await importFile(user.client, wide, 'wide.zip');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/expands to more than 1\.9 MB/);

    res = await importFile(user.client, await makeZip([{ name: 'big.bin', content: random(400_000), compress: false }]), 'big.zip');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/larger than 0\.3 MB/);
    expect(storedBlobs(t.dataDir).temp).toEqual([]);
  });

  it('refuses a kinchart.json alone, pointing at the zip', async () => {
    await expectRefused(zipEntries.get('kinchart.json')!, 'kinchart.json', 400, /kinchart\.json on its own/);
  });

  it('asks for a session and a same-origin request', async () => {
    const zip = await makeZip([{ name: 'x.txt', content: 'x' }]);
    const anon = await importFile(new TestClient(t.app), zip, 'x.zip');
    expect(anon.statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/import',
      headers: { cookie: victim.client.cookie ?? '', origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('importing what is already there', () => {
  const NOTHING = {
    family_members: 0,
    allergies: 0,
    conditions: 0,
    immunizations: 0,
    lab_results: 0,
    procedures: 0,
    emergency_contacts: 0,
    healthcare_providers: 0,
    medications: 0,
    appointments: 0,
    notifications: 0,
    files: 0,
  };
  const NONE_PRESENT = {
    family_members: 0,
    emergency_contacts: 0,
    healthcare_providers: 0,
    medications: 0,
    immunizations: 0,
    lab_results: 0,
    conditions: 0,
    procedures: 0,
    appointments: 0,
    notifications: 0,
    files: 0,
  };
  const EVERYTHING_PRESENT = {
    family_members: 3,
    emergency_contacts: 3,
    healthcare_providers: 2,
    medications: 4,
    immunizations: 4,
    lab_results: 4,
    conditions: 3,
    procedures: 2,
    appointments: 3,
    notifications: 3,
    files: 4,
  };

  it('a user who imports the same export twice gets nothing added the second time, clinical items included, and is told what was already there', async () => {
    const { user: source } = await makeClinicalAccount();
    const zip = await exportZip(source.client);
    const target = await signedInUser(t.app);
    const first = await importFile(target.client, zip, 'export.zip');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().already_present).toEqual(NONE_PRESENT);
    const once = await state(target);

    const again = await importFile(target.client, zip, 'export.zip');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().imported).toEqual(NOTHING);
    expect(again.json().already_present).toEqual(EVERYTHING_PRESENT);
    expect(await state(target)).toEqual(once);
  });

  it('a user who restores their own export into the same account gets nothing added', async () => {
    const { user } = await makeClinicalAccount();
    const before = await state(user);
    const res = await importFile(user.client, await exportZip(user.client), 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toEqual(NOTHING);
    expect(res.json().already_present).toEqual(EVERYTHING_PRESENT);
    expect(await state(user)).toEqual(before);
  });

  it('a user who imports an export holding a few new records gets only those added', async () => {
    const { user } = await makeClinicalAccount();
    const entries = await readZip(await exportZip(user.client));
    const doc = JSON.parse(entries.get('kinchart.json')!.toString()) as {
      profiles: {
        name: string;
        medications: Record<string, unknown>[];
        immunizations: Record<string, unknown>[];
        lab_results: Record<string, unknown>[];
      }[];
      appointments: Record<string, unknown>[];
    };
    const alex = doc.profiles.find((p) => p.name === 'Alex Rivers')!;
    alex.medications.push({ ...alex.medications[0], id: 'new-med', medication_name: 'Cetirizine', dosage: '5 mg', position: 1 });
    // A second DTaP dose is a new item; the same HbA1c on another day is too.
    alex.immunizations.push({ ...alex.immunizations[0], id: 'new-dose', date: '2015-08', dose_number: 2 });
    const own = doc.profiles[0]!;
    own.lab_results.push({ ...own.lab_results[0], id: 'new-lab', date: '2025-02-10' });
    doc.appointments.push({
      ...doc.appointments[0],
      id: 'new-appt',
      uid: 'new-appt-uid',
      appointment_date: '2027-05-05',
      start_time: '2027-05-05T10:00',
      end_time: null,
    });
    const zip = await makeZip([
      ...[...entries].filter(([n]) => n !== 'kinchart.json').map(([name, content]) => ({ name, content })),
      { name: 'kinchart.json', content: JSON.stringify(doc) },
    ]);

    const res = await importFile(user.client, zip, 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toEqual({ ...NOTHING, medications: 1, appointments: 1, immunizations: 1, lab_results: 1 });
    expect(res.json().already_present).toEqual(EVERYTHING_PRESENT);
    const kidId = (await user.client.get('/api/user/getPatientProfile')).json().family_members[0].id as string;
    expect((await user.client.get(`/api/user/people/${kidId}/immunizations`)).json().map((i: { date: string }) => i.date)).toEqual([
      '2015-08',
      '2015-06-02',
    ]);
    const members = (await user.client.get('/api/user/getPatientProfile')).json().family_members as { name: string; id: string }[];
    expect(members.map((m) => m.name)).toEqual(['Alex Rivers', 'Rex', 'Rex']);
    const kid = (await user.client.get(`/api/user/family/members/${members[0]!.id}`)).json();
    expect(kid.medications.map((m: { medication_name: string }) => m.medication_name)).toEqual(['Ventolin', 'Cetirizine']);
  });
});

describe('logs', () => {
  it('carry no health data through an export, an import, a refused import and a FHIR import', async () => {
    const { app: logged, log } = await appWithCapturedLog(t);
    try {
      const { user } = await makeRichAccount(t);
      const source = new TestClient(logged);
      source.cookie = user.client.cookie;
      const zip = await exportZip(source);
      const target = await signedInUser(t.app);
      const client = new TestClient(logged);
      client.cookie = target.client.cookie;
      expect((await importFile(client, zip, 'export.zip')).statusCode).toBe(200);
      const entries = await readZip(zip);
      const doc = JSON.parse(entries.get('kinchart.json')!.toString()) as Record<string, unknown>;
      doc.version = 7;
      const bad = await makeZip([
        ...[...entries].filter(([n]) => n !== 'kinchart.json').map(([name, content]) => ({ name, content })),
        { name: 'kinchart.json', content: JSON.stringify(doc) },
      ]);
      expect((await importFile(client, bad, 'bad.zip')).statusCode).toBe(400);
      expect((await importFile(client, entries.get('fhir/Jordan Rivers.json')!, 'fhir.json')).statusCode).toBe(200);
    } finally {
      await logged.close();
    }
    const all = log();
    expect(all).toContain('/api/user/import');
    for (const secret of ['Jordan Rivers', 'Penicillin', 'Warfarin', 'Lab results', 'Hemophilia', 'Appendectomy', '555-0199'])
      expect(all, secret).not.toContain(secret);
  });
});
