import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app';
import { createLocalBlobStore } from '../src/storage/local-blob-store';
import { loadMasterKey } from '../src/storage/master-key';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinchartExportSchema } from '@kinchart/shared/export';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import type { FhirChecker } from './fhir-validator';
import { loadFhirChecker } from './fhir-validator';
import { addClinicalRecords, exportZip, makeRichAccount, readZip } from './export-helpers';
import { selfProfileId } from './factories';
import { blobPath, fixture, uploadRecord } from './files-helpers';

let t: TestApp;
let check: FhirChecker;
beforeAll(async () => {
  t = await buildTestApp();
  check = await loadFhirChecker();
});
afterAll(async () => {
  await t.close();
});

type Doc = ReturnType<typeof kinchartExportSchema.parse>;

describe('export', () => {
  it('asks for a session', async () => {
    const res = await new TestClient(t.app).get('/api/user/export');
    expect(res.statusCode).toBe(401);
  });

  it('streams a zip with README, a versioned kinchart.json holding every record, a FHIR bundle per person and the decrypted files', async () => {
    const { user, files } = await makeRichAccount(t);
    const res = await user.client.get('/api/user/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="kinchart-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);

    const zip = await readZip(res.rawPayload);
    const names = [...zip.keys()];
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'kinchart.json']));
    expect(zip.get('README.txt')!.toString()).toContain('kinchart.json');

    const doc: Doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString('utf8')));
    expect(doc).toMatchObject({ format: 'kinchart-export', version: 3, account: { username: 'Rich Example', email: user.email } });
    // Every profile and record.
    expect(doc.profiles.map((p) => [p.name, p.is_self, p.is_pet])).toEqual([
      ['Jordan Rivers', true, false],
      ['Alex Rivers', false, false],
      ['Rex', false, true],
      ['Rex', false, true],
    ]);
    const self = doc.profiles[0]!;
    expect(self).toMatchObject({
      blood_type: 'AB-',
      height: 180.34,
      weight: 74.8,
      mobility_details: 'kept although the flag is off',
      has_mobility_issues: false,
    });
    expect(self.emergency_contacts.map((c) => c.name)).toEqual(['Sam Rivers', 'Ana Ríos']);
    expect(self.healthcare_providers.map((h) => h.provider_name)).toEqual(['Dr. Chen']);
    expect(self.medications.map((m) => [m.medication_name, m.is_current])).toEqual([
      ['Warfarin', true],
      ['Amoxicillin', false],
      [null, true],
    ]);
    expect(doc.profiles[1]!.medications.map((m) => m.medication_name)).toEqual(['Ventolin']);
    expect(doc.appointments.map((a) => a.provider_name).sort()).toEqual(['Dentist', 'Dr. Chen', 'Lab']);
    expect(doc.notifications.map((n) => n.title)).toEqual(expect.arrayContaining(['Read one', 'Hidden one', 'Emergency QR code set up']));
    expect(doc.notifications.find((n) => n.title === 'Hidden one')).toMatchObject({ is_hidden: true, level: 'warning' });
    expect(doc.files).toHaveLength(4);

    // Files: byte-identical, under safe, unique names.
    const byName = new Map(doc.files.map((f) => [f.display_name + f.file_type, f]));
    const pdf = byName.get('Lab resultsapplication/pdf')!;
    const png = byName.get('Lab resultsimage/png')!;
    expect(pdf.path).toBe('files/Lab results.pdf');
    expect(png.path).toBe('files/Lab results.png');
    expect(zip.get(pdf.path)).toEqual(fixture('record.pdf'));
    expect(zip.get(png.path)).toEqual(fixture('pixel.png'));
    const docx = doc.files.find((f) => f.original_name === 'letter.docx')!;
    expect(docx.path).toBe('files/CON_.docx');
    expect(zip.get(docx.path)).toEqual(fixture('letter.docx'));
    const note = doc.files.find((f) => f.original_name === 'note.txt')!;
    expect(note.display_name).toBe('../../etc/passwd:*?');
    expect(note.path).toMatch(/^files\/[^/\\:*?]+\.txt$/);
    expect(zip.get(note.path)).toEqual(files[3]!.content);
    for (const f of doc.files) expect(zip.get(f.path)?.length, f.path).toBe(f.size);
    for (const name of names) expect(name).not.toMatch(/(^|\/)\.\.(\/|$)|\\|^\//);

    // One FHIR document per person, named after them, never colliding; beside it a collection for
    // those with appointments or files.
    const fhirNames = names.filter((n) => n.startsWith('fhir/')).sort();
    expect(fhirNames).toEqual([
      'fhir/Alex Rivers.json',
      'fhir/Jordan Rivers-other.json',
      'fhir/Jordan Rivers.json',
      'fhir/Rex (2).json',
      'fhir/Rex.json',
    ]);
    expect(doc.profiles.map((p) => [p.fhir, p.fhir_other])).toEqual([
      ['fhir/Jordan Rivers.json', 'fhir/Jordan Rivers-other.json'],
      ['fhir/Alex Rivers.json', undefined],
      ['fhir/Rex.json', undefined],
      ['fhir/Rex (2).json', undefined],
    ]);
    expect(zip.get('README.txt')!.toString()).toContain('fhir/Jordan Rivers-other.json  Jordan Rivers: appointments, files and doses');
  });

  it("writes each person's IPS document and collection with 0 errors, appointments and files in the account holder's collection", async () => {
    const { user, kidId, petId } = await makeRichAccount(t);
    await addClinicalRecords(t, user, { selfId: await selfProfileId(t.database.db, user.id), kidId, petId });
    const zip = await readZip(await exportZip(user.client));
    let documents = 0;
    for (const [name, content] of zip) {
      if (!name.startsWith('fhir/')) continue;
      const bundle = JSON.parse(content.toString('utf8')) as unknown;
      if (name.endsWith('-other.json')) expect(check.collection(bundle), name).toEqual([]);
      else {
        expect(check.ipsDocument(bundle), name).toEqual([]);
        documents += 1;
      }
    }
    expect(documents).toBe(4);
    type Bundle = { entry: { resource: Record<string, unknown> }[] };
    const read = (name: string) => JSON.parse(zip.get(name)!.toString()) as Bundle;
    const typesOf = (b: Bundle) => b.entry.map((e) => e.resource.resourceType);
    const self = read('fhir/Jordan Rivers.json');
    expect(typesOf(self)).not.toContain('Appointment');
    expect(typesOf(self)).not.toContain('DocumentReference');
    expect(typesOf(self).filter((x) => x === 'Immunization')).toHaveLength(2);
    const other = read('fhir/Jordan Rivers-other.json');
    expect(typesOf(other).filter((x) => x === 'Appointment')).toHaveLength(3);
    expect(typesOf(other).filter((x) => x === 'DocumentReference')).toHaveLength(4);
    const docRef = other.entry.find(
      (e) => e.resource.resourceType === 'DocumentReference' && JSON.stringify(e.resource).includes('application/pdf'),
    )!;
    expect(JSON.stringify(docRef)).toContain('files/Lab%20results.pdf');
    // Issue 34: an allergy line is coded when its entry has codings, and only then.
    const allergies = (b: Bundle) => b.entry.filter((e) => e.resource.resourceType === 'AllergyIntolerance').map((e) => e.resource.code);
    expect(allergies(read('fhir/Alex Rivers.json'))).toEqual([
      { coding: [{ system: 'http://snomed.info/sct', code: '424213003', display: 'Allergy to bee venom' }], text: 'Bee stings' },
    ]);
    expect(allergies(self)).toEqual([
      { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }], text: 'Penicillin; peanuts' },
      { text: 'Anesthesia reaction: Malignant hyperthermia' },
    ]);
    const pet = read('fhir/Rex.json');
    expect(JSON.stringify(pet)).toContain('patient-animal');
    expect(JSON.stringify(pet)).toContain('Rabies');
    expect(zip.has('fhir/Rex-other.json')).toBe(false);
  });

  it("kinchart.json (version 3) holds every person's clinical items with their codings and partial dates, and the medications' codings", async () => {
    const { user, kidId, petId } = await makeRichAccount(t);
    await addClinicalRecords(t, user, { selfId: await selfProfileId(t.database.db, user.id), kidId, petId });
    const zip = await readZip(await exportZip(user.client));
    const doc: Doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString('utf8')));
    expect(doc.version).toBe(3);
    const [self, kid, pet, otherPet] = doc.profiles;
    // Items added in the same millisecond may come in either order.
    const sorted = <T>(rows: T[]) =>
      rows
        .map((r) => JSON.stringify(r))
        .sort()
        .map((r) => JSON.parse(r) as T);
    expect(sorted(self!.immunizations.map((i) => [i.vaccine, i.date, i.codings]))).toEqual(
      sorted([
        ['MMR <live>', '2015-03', [{ system: 'http://hl7.org/fhir/sid/cvx', code: '03', display: 'MMR' }]],
        ['Tetanus', null, []],
      ]),
    );
    expect(sorted(self!.lab_results.map((r) => [r.name, r.category, r.value, r.value_text, r.date]))).toEqual(
      sorted([
        ['HbA1c', 'laboratory', 6.1, null, '2024-02-10'],
        ['Strep test', 'laboratory', null, 'negative', '2023'],
        ['Blood pressure systolic', 'vital-signs', 128, null, '2024-06'],
        ['Heart rate', 'vital-signs', 64, null, null],
      ]),
    );
    expect(self!.lab_results.find((r) => r.name === 'HbA1c')).toMatchObject({
      loinc_code: '4548-4',
      reference_low: 4,
      reference_high: 5.6,
      reference_range: '4-5.6',
      interpretation: 'H',
    });
    expect(sorted(self!.conditions.map((c) => [c.name, c.status, c.onset_date, c.abatement_date]))).toEqual(
      sorted([
        ['Type 2 diabetes', 'active', '2019-11', null],
        ['Fractured wrist', 'resolved', '2010', '2010-09'],
      ]),
    );
    expect(sorted(self!.procedures.map((x) => [x.name, x.performed_date, x.codings?.[0]?.code ?? null]))).toEqual(
      sorted([
        ['Appendectomy', '2001-07-03', '80146002'],
        ['Colonoscopy', null, null],
      ]),
    );
    expect(kid!.immunizations.map((i) => i.vaccine)).toEqual(['DTaP']);
    expect(kid!.conditions.map((c) => c.status)).toEqual(['remission']);
    expect(pet!.immunizations.map((i) => i.vaccine)).toEqual(['Rabies']);
    expect([otherPet!.immunizations, otherPet!.lab_results, otherPet!.conditions, otherPet!.procedures]).toEqual([[], [], [], []]);
    expect(self!.medications.map((m) => [m.medication_name, m.codings])).toEqual([
      [
        'Warfarin',
        [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '855332', display: 'Warfarin Sodium 5 MG Oral Tablet' }],
      ],
      ['Amoxicillin', null],
      [null, null],
    ]);
    // Issue 34: the allergies as entries, with what the details text cannot say.
    expect(doc.profiles.map((p) => p.allergy_codings)).toEqual([undefined, undefined, undefined, undefined]);
    expect(doc.profiles.map((p) => (p.allergies ?? []).map(({ created_at: _c, updated_at: _u, ...e }) => e))).toEqual([
      [
        {
          substance: 'Penicillin; peanuts',
          reactions: [],
          severity: 'severe',
          criticality: 'low',
          codings: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }],
        },
      ],
      [
        {
          substance: 'Bee stings',
          reactions: [],
          severity: 'severe',
          criticality: 'high',
          codings: [{ system: 'http://snomed.info/sct', code: '424213003', display: 'Allergy to bee venom' }],
        },
      ],
      [],
      [],
    ]);
    // What only ties the file together or only the API says is not written.
    const raw = JSON.parse(zip.get('kinchart.json')!.toString('utf8')) as {
      profiles: { immunizations: Record<string, unknown>[]; lab_results: Record<string, unknown>[] }[];
    };
    expect(Object.keys(raw.profiles[0]!.immunizations[0]!)).not.toContain('person_id');
    expect(Object.keys(raw.profiles[0]!.lab_results[0]!)).not.toContain('out_of_range');
    expect(Object.keys(raw.profiles[0]!.lab_results[0]!)).not.toContain('trend');
    expect(Object.keys(raw.profiles[0]!.lab_results[0]!)).toContain('codings');
  });

  it('reads unreadable allergy entry codings as none: the export still answers, with the allergies uncoded', async () => {
    const { user, kidId } = await makeRichAccount(t);
    const db = t.database.db;
    const bee = { system: 'http://snomed.info/sct', code: '424213003', display: 'Allergy to bee venom' };
    const allergyCodes = async () => {
      const zip = await readZip(await exportZip(user.client));
      const kid = JSON.parse(zip.get('fhir/Alex Rivers.json')!.toString()) as { entry: { resource: Record<string, unknown> }[] };
      const doc: Doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString('utf8')));
      return {
        fhir: kid.entry.filter((e) => e.resource.resourceType === 'AllergyIntolerance').map((e) => e.resource.code),
        kinchart: doc.profiles[1]!.allergies?.map((a) => a.codings),
      };
    };
    for (const odd of [
      '{"not": "a list"',
      '{"text": "Bee stings"}',
      JSON.stringify([1, null, 'Bee stings', { text: 5 }, { system: 5, code: '1' }, { system: 'http://snomed.info/sct' }]),
    ]) {
      await db.updateTable('allergies').set({ codings: odd }).where('profile_id', '=', kidId).execute();
      expect(await allergyCodes(), odd).toEqual({ fhir: [{ text: 'Bee stings' }], kinchart: [[]] });
      expect((await user.client.get(`/api/user/people/${kidId}/allergies`)).json()[0].codings).toEqual([]);
    }
    // Readable codings among unreadable ones still apply.
    await db
      .updateTable('allergies')
      .set({ codings: JSON.stringify([{ text: 5 }, bee]) })
      .where('profile_id', '=', kidId)
      .execute();
    expect(await allergyCodes()).toEqual({ fhir: [{ coding: [bee], text: 'Bee stings' }], kinchart: [[bee]] });
  });

  it("writes appointment times with the offset of the person's zone, else the browser's (?tz=), else UTC, and refuses a zone that does not exist", async () => {
    const { user } = await makeRichAccount(t);
    const startsOf = async (query: string) => {
      const res = await user.client.get(`/api/user/export${query}`);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const other = JSON.parse((await readZip(res.rawPayload)).get('fhir/Jordan Rivers-other.json')!.toString()) as {
        entry: { resource: { resourceType: string; start?: string; description?: string } }[];
      };
      return Object.fromEntries(
        other.entry.filter((e) => e.resource.resourceType === 'Appointment').map((e) => [e.resource.description, e.resource.start]),
      );
    };
    // 09:30 typed in Montréal in December is 09:30-05:00; a stored UTC instant is shown in the same zone.
    expect(await startsOf('?tz=America%2FMontreal')).toEqual({
      'Dr. Chen - Check-up': '2026-12-03T09:30:00-05:00',
      Lab: '2025-01-15T03:00:00-05:00',
      Dentist: '2026-02-01T00:00:00-05:00',
    });
    expect(await startsOf('')).toEqual({
      'Dr. Chen - Check-up': '2026-12-03T09:30:00+00:00',
      Lab: '2025-01-15T08:00:00+00:00',
      Dentist: '2026-02-01T00:00:00+00:00',
    });
    const bad = await user.client.get('/api/user/export?tz=Mars%2FOlympus');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'tz must be an IANA time zone such as Europe/London' });

    // Issue 32: once the account (or the person) has a zone, appointment times are read in it, whatever ?tz= says.
    expect((await user.client.put('/api/user/preferences', { time_zone: 'Europe/Madrid' })).statusCode).toBe(200);
    expect(await startsOf('?tz=America%2FMontreal')).toEqual({
      'Dr. Chen - Check-up': '2026-12-03T09:30:00+01:00',
      Lab: '2025-01-15T09:00:00+01:00',
      Dentist: '2026-02-01T00:00:00+01:00',
    });
  });

  it("dates the profile's height, weight and blood group when the profile was last saved, not when it was exported", async () => {
    const { user } = await makeRichAccount(t);
    const zip = await readZip(await exportZip(user.client));
    const doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString('utf8')));
    const self = JSON.parse(zip.get('fhir/Jordan Rivers.json')!.toString()) as {
      entry: { resource: { resourceType: string; code?: { coding?: { code: string }[] }; effectiveDateTime?: string } }[];
    };
    const observations = self.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation');
    expect(observations.map((o) => [o.code?.coding?.[0]?.code, o.effectiveDateTime])).toEqual([
      ['882-1', doc.profiles[0]!.updated_at.slice(0, 10)],
      ['8302-2', doc.profiles[0]!.updated_at.slice(0, 10)],
      ['29463-7', doc.profiles[0]!.updated_at.slice(0, 10)],
    ]);
    expect(doc.profiles[0]!.updated_at).not.toBe(doc.exported_at);
  });

  it('exports an empty account, and is audited', async () => {
    const user = await signedInUser(t.app);
    const zip = await readZip(await exportZip(user.client));
    const doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString()));
    expect(doc.profiles).toHaveLength(1);
    expect(doc.files).toEqual([]);
    expect([...zip.keys()].filter((n) => n.startsWith('files/'))).toEqual([]);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('user_id', '=', user.id)
      .where('action', '=', 'export')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).not.toContain(user.email);
  });

  it("never holds another user's records", async () => {
    const { user: other } = await makeRichAccount(t);
    const me = await signedInUser(t.app);
    const zip = await readZip(await exportZip(me.client));
    const all = [...zip.values()].map((b) => b.toString('latin1')).join('\n');
    expect(all).not.toContain('Jordan Rivers');
    expect(all).not.toContain(other.email);
  });

  it('streams: files are opened one at a time, only as the zip reaches them, after the first bytes have gone out', async () => {
    // The same database and files, with a blob store that reports when each blob is opened and closed.
    const events: string[] = [];
    let open = 0;
    let maxOpen = 0;
    const local = createLocalBlobStore(path.join(t.dataDir, 'files'));
    const blobs = {
      ...local,
      async get(key: string) {
        const stream = await local.get(key);
        open += 1;
        maxOpen = Math.max(maxOpen, open);
        events.push('open');
        stream.once('close', () => {
          open -= 1;
          events.push('close');
        });
        return stream;
      },
    };
    const app = await buildApp({
      config: t.config,
      database: t.database,
      webRoot: null,
      storage: { blobs, masterKey: loadMasterKey(t.config) },
      reminders: TEST_REMINDERS,
      text: TEST_TEXT,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { user } = await makeRichAccount(t);
      // A 20 MB record last: more than any socket buffer holds, so the zip cannot be finished
      // before the client has started reading it.
      const big = Buffer.alloc(20 * 1024 * 1024, 'health record line\n');
      expect((await uploadRecord(user.client, { filename: 'big.txt', content: big }, { customName: 'Big notes' })).statusCode).toBe(201);
      const { port } = app.server.address() as AddressInfo;
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.get(
          { host: '127.0.0.1', port, path: '/api/user/export', headers: { cookie: user.client.cookie ?? '' } },
          (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => {
              if (bytes === 0) events.push('first-byte');
              bytes += chunk.length;
            });
            res.on('end', () => resolve(bytes));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
      });
      expect(received).toBeGreaterThan(big.length);
      // One file open at a time, each closed before the next opens…
      expect(maxOpen).toBe(1);
      // Each of the 5 files is read twice: into its person's FHIR collection (base64, issue 30), and as itself.
      expect(events.filter((e) => e !== 'first-byte')).toEqual(Array.from({ length: 10 }, () => ['open', 'close']).flat());
      // …and the client had bytes long before the last file was read through.
      expect(events.indexOf('first-byte')).toBeLessThan(events.lastIndexOf('close'));
    } finally {
      await app.close();
    }
  });

  it('cuts the download short, rather than sending a zip that looks whole, when a stored file is damaged', async () => {
    const user = await signedInUser(t.app);
    const up = await uploadRecord(user.client, { filename: 'record.pdf', content: fixture('record.pdf') }, { customName: 'x' });
    expect(up.statusCode).toBe(201);
    const path = blobPath(t.dataDir, up.json().id as string);
    const bytes = fs.readFileSync(path);
    bytes[bytes.length - 5]! ^= 0xff;
    fs.writeFileSync(path, bytes);
    const res = await user.client.get('/api/user/export').then(
      (r) => r,
      (e: unknown) => e as Error,
    );
    if (res instanceof Error) {
      // The connection is cut mid-stream: the browser sees a failed download, not a smaller zip.
      expect(res.message).toMatch(/destroyed before completion/);
    } else {
      expect(res.rawPayload.length).toBeLessThan(Number(res.headers['content-length']));
    }
  });
});
