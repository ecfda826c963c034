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
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { loadFhirValidator } from './fhir-validator';
import { exportZip, makeRichAccount, readZip } from './export-helpers';
import { blobPath, fixture, uploadRecord } from './files-helpers';

let t: TestApp;
let fhirErrors: (resource: unknown) => string[];
beforeAll(async () => {
  t = await buildTestApp();
  fhirErrors = await loadFhirValidator();
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
    expect(doc).toMatchObject({ format: 'kinchart-export', version: 1, account: { username: 'Rich Example', email: user.email } });
    // Every profile and record.
    expect(doc.profiles.map((p) => [p.name, p.is_self, p.is_pet])).toEqual([
      ['Jordan Rivers', true, false],
      ['Alex Rivers', false, false],
      ['Rex', false, true],
      ['Rex', false, true],
    ]);
    const self = doc.profiles[0]!;
    expect(self).toMatchObject({ blood_type: 'AB-', height: 180.34, weight: 74.8, mobility_details: 'kept although the flag is off', has_mobility_issues: false });
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

    // One FHIR bundle per person, named after them, never colliding.
    const fhirNames = names.filter((n) => n.startsWith('fhir/')).sort();
    expect(fhirNames).toEqual(['fhir/Alex Rivers.json', 'fhir/Jordan Rivers.json', 'fhir/Rex (2).json', 'fhir/Rex.json']);
    expect(doc.profiles.map((p) => p.fhir)).toEqual(['fhir/Jordan Rivers.json', 'fhir/Alex Rivers.json', 'fhir/Rex.json', 'fhir/Rex (2).json']);
  });

  it('writes FHIR R4 IPS bundles that validate with zero errors, with appointments and documents in the account holder\'s', async () => {
    const { user } = await makeRichAccount(t);
    const zip = await readZip(await exportZip(user.client));
    for (const [name, content] of zip) {
      if (!name.startsWith('fhir/')) continue;
      const bundle = JSON.parse(content.toString('utf8')) as { resourceType: string; type: string; entry: { resource: { resourceType: string } }[] };
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' });
      expect(fhirErrors(bundle), name).toEqual([]);
      for (const e of bundle.entry) expect(fhirErrors(e.resource), `${name} ${e.resource.resourceType}`).toEqual([]);
    }
    const self = JSON.parse(zip.get('fhir/Jordan Rivers.json')!.toString()) as { entry: { resource: Record<string, unknown> }[] };
    const types = self.entry.map((e) => e.resource.resourceType);
    expect(types.filter((x) => x === 'Appointment')).toHaveLength(3);
    expect(types.filter((x) => x === 'DocumentReference')).toHaveLength(4);
    const docRef = self.entry.find((e) => e.resource.resourceType === 'DocumentReference' && JSON.stringify(e.resource).includes('application/pdf'))!;
    expect(JSON.stringify(docRef)).toContain('files/Lab%20results.pdf');
    const pet = JSON.parse(zip.get('fhir/Rex.json')!.toString()) as { entry: { resource: Record<string, unknown> }[] };
    expect(pet.entry.map((e) => e.resource.resourceType)).not.toContain('Appointment');
    expect(JSON.stringify(pet)).toContain('patient-animal');
  });

  it('exports an empty account, and is audited', async () => {
    const user = await signedInUser(t.app);
    const zip = await readZip(await exportZip(user.client));
    const doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString()));
    expect(doc.profiles).toHaveLength(1);
    expect(doc.files).toEqual([]);
    expect([...zip.keys()].filter((n) => n.startsWith('files/'))).toEqual([]);
    const audit = await t.database.db.selectFrom('audit_events').select(['action', 'detail']).where('user_id', '=', user.id).where('action', '=', 'export').execute();
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
    const app = await buildApp({ config: t.config, database: t.database, webRoot: null, storage: { blobs, masterKey: loadMasterKey(t.config) } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { user } = await makeRichAccount(t);
      // A 20 MB record last: more than any socket buffer holds, so the zip cannot be finished
      // before the client has started reading it.
      const big = Buffer.alloc(20 * 1024 * 1024, 'health record line\n');
      expect((await uploadRecord(user.client, { filename: 'big.txt', content: big }, { customName: 'Big notes' })).statusCode).toBe(201);
      const { port } = app.server.address() as AddressInfo;
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/api/user/export', headers: { cookie: user.client.cookie ?? '' } }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            if (bytes === 0) events.push('first-byte');
            bytes += chunk.length;
          });
          res.on('end', () => resolve(bytes));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
      expect(received).toBeGreaterThan(big.length);
      // One file open at a time, each closed before the next opens…
      expect(maxOpen).toBe(1);
      expect(events.filter((e) => e !== 'first-byte')).toEqual(Array.from({ length: 5 }, () => ['open', 'close']).flat());
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
