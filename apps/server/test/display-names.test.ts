import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripInvisible } from '@kinchart/shared/text';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { exportZip, importFile, makeZip, readZip } from './export-helpers';
import { fixture, uploadRecord } from './files-helpers';

// A record's name is shown to its owner, in shared-file pages and in downloads. Unicode format
// characters are invisible but reorder what is shown: U+202E (right-to-left override) makes
// `invoice\u202Efdp.exe` read as "invoiceexe.pdf". Every stored name is kept without them.

const RLO = '\u202E';
const SPOOF = `invoice${RLO}fdp.exe`;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const listed = async (user: User) =>
  (await user.client.get('/api/user/files')).json<{ id: string; display_name: string; originalname: string }[]>();

describe('stored display names carry no bidi or other invisible format characters', () => {
  it('an uploaded file keeps its name without the right-to-left override, in the original name and the record name', async () => {
    const user = await signedInUser(t.app);
    const res = await uploadRecord(user.client, { filename: SPOOF, content: fixture('record.pdf'), contentType: 'application/pdf' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ display_name: 'invoicefdp.exe', originalname: 'invoicefdp.exe' });
    const named = await uploadRecord(
      user.client,
      { filename: 'scan.pdf', content: fixture('record.pdf'), contentType: 'application/pdf' },
      { customName: `\u2066Lab\u2069 results\u200B ${RLO}fdp.exe\u200E` },
    );
    expect(named.json()).toMatchObject({ display_name: 'Lab results fdp.exe', originalname: 'scan.pdf' });
    expect((await listed(user)).map((f) => f.display_name).sort()).toEqual(['Lab results fdp.exe', 'invoicefdp.exe']);
  });

  it('a rename drops format characters, and a name made only of them is refused as empty', async () => {
    const user = await signedInUser(t.app);
    const file = (
      await uploadRecord(user.client, { filename: 'scan.pdf', content: fixture('record.pdf'), contentType: 'application/pdf' })
    ).json<{ id: string }>();
    const renamed = await user.client.put(`/api/user/files/${file.id}`, { newName: `Blood${RLO}fdp.exe` });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().display_name).toBe('Bloodfdp.exe');
    const empty = await user.client.put(`/api/user/files/${file.id}`, { newName: `${RLO}\u200B\u2066 ` });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'File name cannot be empty' });
    expect((await listed(user))[0]?.display_name).toBe('Bloodfdp.exe');
  });

  it('imports store names without them too: a Kinchart export edited by hand and a FHIR document title', async () => {
    const source = await signedInUser(t.app);
    await uploadRecord(
      source.client,
      { filename: 'scan.pdf', content: fixture('record.pdf'), contentType: 'application/pdf' },
      { customName: 'Scan' },
    );
    const entries = await readZip(await exportZip(source.client));
    const doc = JSON.parse(entries.get('kinchart.json')!.toString('utf8')) as { files: { display_name: string; original_name: string }[] };
    doc.files[0]!.display_name = `Scan${RLO}fdp.exe`;
    doc.files[0]!.original_name = `scan${RLO}fdp.exe`;
    entries.set('kinchart.json', Buffer.from(JSON.stringify(doc)));
    const zip = await makeZip([...entries].map(([name, content]) => ({ name, content })));

    const target = await signedInUser(t.app);
    const imported = await importFile(target.client, zip, 'export.zip');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await listed(target)).toMatchObject([{ display_name: 'Scanfdp.exe', originalname: 'scanfdp.exe' }]);

    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Patient', name: [{ text: 'Probe' }] } },
        {
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            content: [
              {
                attachment: {
                  contentType: 'application/pdf',
                  title: `Report${RLO}fdp.exe`,
                  data: fixture('record.pdf').toString('base64'),
                },
              },
            ],
          },
        },
      ],
    };
    const fhirUser = await signedInUser(t.app);
    const fhir = await importFile(fhirUser.client, Buffer.from(JSON.stringify(bundle)), 'bundle.json');
    expect(fhir.statusCode, fhir.body).toBe(200);
    expect((await listed(fhirUser)).map((f) => f.display_name)).toEqual(['Reportfdp.exe']);
  });

  it("a person's, a contact's, a provider's and a medication's name is kept without them too", async () => {
    const user = await signedInUser(t.app);
    const saved = await user.client.put('/api/user/updateProfile', { name: `Ann${RLO}a Lee` });
    expect(saved.statusCode, saved.body).toBe(200);
    const contact = await user.client.post('/api/user/emergency-contacts', { name: `Bo${RLO}b`, phone_number: '555-0100' });
    expect(contact.statusCode, contact.body).toBe(201);
    expect((await user.client.post('/api/user/healthcare-providers', { provider_name: `\u2067Dr. Kim\u2069` })).statusCode).toBe(201);
    expect((await user.client.post('/api/user/medications', { medication_name: `Warfarin${RLO} 5` })).statusCode).toBe(201);
    const member = await user.client.post('/api/user/family/add', {
      name: `Ki${RLO}d`,
      date_of_birth: '2015-02-03',
      relationship: 'child',
      is_pet: false,
    });
    expect(member.statusCode, member.body).toBe(201);
    const profile = (await user.client.get('/api/user/getPatientProfile')).json();
    expect(profile.name).toBe('Anna Lee');
    expect(profile.emergency_contacts.map((c: { name: string }) => c.name)).toEqual(['Bob']);
    expect(profile.healthcare_providers.map((p: { provider_name: string }) => p.provider_name)).toEqual(['Dr. Kim']);
    expect(profile.medications.map((m: { medication_name: string }) => m.medication_name)).toEqual(['Warfarin 5']);
    expect((await user.client.get('/api/user/family/members')).json().map((m: { name: string }) => m.name)).toEqual(['Kid']);
    const blank = await user.client.post('/api/user/emergency-contacts', { name: `${RLO}\u200B`, phone_number: '555-0101' });
    expect(blank.statusCode).toBe(400);
  });

  it('strips bidi controls, marks, zero-width spaces, the BOM and line separators, and keeps the joiners scripts and emoji need', () => {
    expect(stripInvisible('a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j')).toBe('abcdefghij');
    expect(stripInvisible('\u200Ex\u200F\u061C\u200B\uFEFF\u2028\u2029\u00AD\u0007y')).toBe('xy');
    expect(stripInvisible('می\u200Cخواهم 👨\u200D👩\u200D👧')).toBe('می\u200Cخواهم 👨\u200D👩\u200D👧');
    expect(stripInvisible('Résultats été.pdf')).toBe('Résultats été.pdf');
  });
});
