import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { importFile, snapshotAccount } from './export-helpers';
import { clinicalOf, rowOf, tallyOf } from './fhir-import-helpers';
import { selfProfileId } from '../src/common/person-access';

// Issue 34, decision 0050: HL7's published C-CDA examples (fixtures/ccda/README.md) through POST
// /api/user/import — converted to FHIR and imported on the FHIR path, with what the converter loses
// (negationInd, nullFlavor sections, partial dates) corrected; unsafe or malformed XML refused.

let t: TestApp;
let small: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp();
  // The size limit of a C-CDA document is the FHIR Bundle's (maxJsonBytes).
  small = await buildApp({
    config: t.config,
    database: t.database,
    webRoot: null,
    importLimits: { maxJsonBytes: 100_000 },
    reminders: TEST_REMINDERS,
    text: TEST_TEXT,
  });
  await small.ready();
});
afterAll(async () => {
  await small.close();
  await t.close();
});

type Json = Record<string, unknown>;
type User = Awaited<ReturnType<typeof signedInUser>>;

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'ccda');
const read = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const CCD = read('ccd-1.xml');
const BODY_START = CCD.indexOf('<structuredBody>') + '<structuredBody>'.length;
const BODY_END = CCD.indexOf('</structuredBody>');

/** CCD 1's header with the given section examples as its whole body (they are fragments; a bare section gets its component). */
const withBody = (...fragments: string[]) => {
  const sections = fragments.map((f) => (f.includes('<component>') ? f : `<component>${f}</component>`)).join('\n');
  return Buffer.from(CCD.slice(0, BODY_START) + sections + CCD.slice(BODY_END), 'utf8');
};
/** CCD 1 with the first occurrence of `from` changed. */
const replaced = (from: string, to: string) => {
  expect(CCD).toContain(from);
  return Buffer.from(CCD.replace(from, to), 'utf8');
};

async function lists(user: User) {
  const self = (await selfProfileId(t.database.db, user.id))!;
  const list = async (kind: string) => (await user.client.get(`/api/user/people/${self}/${kind}`)).json<Json[]>();
  return {
    profile: (await user.client.get('/api/user/getPatientProfile')).json(),
    immunizations: await list('immunizations'),
    conditions: await list('conditions'),
    procedures: await list('procedures'),
  };
}

describe('C-CDA import', () => {
  it('imports HL7 CCD 1: its medications, problems and given immunizations, the two refused vaccines left out; again adds nothing', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, Buffer.from(CCD, 'utf8'), 'CCD.xml');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.format).toBe('ccda');
    // [imported, merged, already present, dropped] per resource type of the converted Bundle.
    expect(tallyOf(body)).toEqual({
      Composition: [0, 1, 0, 0],
      Patient: [0, 1, 0, 0],
      RelatedPerson: [0, 0, 0, 2],
      Practitioner: [2, 0, 4, 30],
      Observation: [20, 0, 0, 14],
      AllergyIntolerance: [0, 2, 0, 0],
      Organization: [0, 1, 4, 2],
      PractitionerRole: [0, 1, 4, 1],
      Condition: [4, 0, 0, 0],
      Encounter: [0, 0, 0, 1],
      Immunization: [3, 0, 0, 2],
      Procedure: [3, 0, 0, 1],
      MedicationRequest: [2, 0, 0, 0],
    });
    expect(body.imported).toMatchObject({ allergies: 2, conditions: 4, immunizations: 3, lab_results: 20, procedures: 3, medications: 2 });
    // The two substanceAdministrations with negationInd="true" were refused: not given, so not imported as given.
    expect(rowOf(body, 'Immunization').dropped).toEqual([{ reason: 'not given (status not-done)', count: 2 }]);
    const got = await lists(user);
    // 199911 is November 1999 (the converter alone makes it 1999-01-01).
    expect(got.immunizations.map((i) => [i.vaccine, i.date])).toEqual([
      ['hepatitis B vaccine, unspecified formulation', '2013-08-01'],
      ['influenza virus vaccine, unspecified formulation', '1999-11'],
      ['pneumococcal polysaccharide vaccine, 23 valent', '1998-12-15'],
    ]);
    expect(got.conditions.map((c) => [c.name, c.status, c.onset_date])).toEqual([
      ['Pneumonia', 'active', '2013-07-03'],
      ['Pneumonia', 'active', '2012-09-25'],
      ['Chest pain', 'active', '2007-04-14'],
      ['Pneumonia', 'active', '1998-03-10'],
    ]);
    expect(got.profile.medications.map((m: Json) => [m.medication_name, m.frequency, m.is_current])).toEqual([
      ['albuterol 0.09 MG/ACTUAT [Proventil]', 'every 6 hours', true],
      ['atenolol 25 MG Oral Tablet', 'every 12 hours', true],
    ]);
    // Issue 34: each allergy an entry with its reaction and the reaction's severity (CCD 1 gives no
    // criticality; its allergy-level "Moderate to severe" observation is one the converter drops).
    expect([got.profile.has_allergies, got.profile.allergy_details]).toEqual([true, 'Penicillin — Nausea\ncodeine — Wheezing']);
    const self = got.profile.id as string;
    expect((await user.client.get(`/api/user/people/${self}/allergies`)).json()).toEqual([
      {
        id: expect.any(String),
        substance: 'Penicillin',
        reactions: ['Nausea'],
        severity: 'mild',
        criticality: null,
        codings: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '70618', display: 'Penicillin' }],
      },
      {
        id: expect.any(String),
        substance: 'codeine',
        reactions: ['Wheezing'],
        severity: 'moderate',
        criticality: null,
        codings: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '2670', display: 'codeine' }],
      },
    ]);
    // A procedure's single effectiveTime value keeps its date (the converter alone drops it); the
    // planned colonoscopy (moodCode RQO) is not one done.
    expect(got.procedures.map((p) => [p.name, p.performed_date]).sort()).toEqual([
      ['Colonic polypectomy', '2011-02-03'],
      ['Colonoscopy', '2012-05-12'],
      ['Placement of stent', '2013-05-12'],
    ]);
    expect(rowOf(body, 'Procedure').dropped).toEqual([{ reason: 'that the document plans or orders, not one done (moodCode)', count: 1 }]);
    // No stand-in date (decision 0050) is left anywhere.
    expect(JSON.stringify(await clinicalOf(t.database.db, user.id))).not.toContain('0001-01');

    const once = { data: await snapshotAccount(t.database.db, user.id, user.client), clinical: await clinicalOf(t.database.db, user.id) };
    const again = await importFile(user.client, Buffer.from(CCD, 'utf8'), 'CCD.xml');
    expect(again.statusCode, again.body).toBe(200);
    for (const row of again.json().report) expect([row.resource_type, row.imported, row.merged]).toEqual([row.resource_type, 0, 0]);
    expect({
      data: await snapshotAccount(t.database.db, user.id, user.client),
      clinical: await clinicalOf(t.database.db, user.id),
    }).toEqual(once);
  });

  it('"No known allergies" (negationInd on the allergy observation) is not an allergy', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, withBody(read('no-known-allergies-section.xml')), 'nka.xml');
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'AllergyIntolerance')).toMatchObject({
      imported: 0,
      merged: 0,
      dropped: [{ reason: 'entered in error or refuted', count: 1 }],
    });
    expect(res.json().imported.allergies).toBe(0);
    const { profile } = await lists(user);
    expect([profile.has_allergies, profile.allergy_details]).toEqual([false, null]);
  });

  it('A "no information" section (nullFlavor="NI") adds nothing, and neither does the same allergy negated', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, withBody(read('no-information-allergies-section.xml')), 'ni.xml');
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .report.map((r: Json) => r.resource_type)
        .sort(),
    ).toEqual(['Composition', 'Organization', 'Patient', 'Practitioner', 'RelatedPerson']);
    expect(res.json().imported.allergies).toBe(0);
    expect((await lists(user)).profile).toMatchObject({ has_allergies: false, allergy_details: null });

    // CCD 1's penicillin allergy observation with negationInd="true": "not allergic to penicillin".
    const negated = replaced(
      '<observation classCode="OBS" moodCode="EVN">\n                  <!-- ** Allergy observation ** -->',
      '<observation classCode="OBS" moodCode="EVN" negationInd="true">\n                  <!-- ** Allergy observation ** -->',
    );
    const again = await importFile(user.client, negated, 'negated.xml');
    expect(again.statusCode, again.body).toBe(200);
    expect(rowOf(again.json(), 'AllergyIntolerance')).toMatchObject({
      imported: 0,
      merged: 1,
      dropped: [{ reason: 'entered in error or refuted', count: 1 }],
    });
    expect((await lists(user)).profile.allergy_details).toBe('codeine — Wheezing');
  });

  it('refuses an XXE attempt (a DOCTYPE with an external entity) before anything reads it, and changes nothing', async () => {
    const user = await signedInUser(t.app);
    const before = await snapshotAccount(t.database.db, user.id, user.client);
    const xxe = CCD.replace(
      '<ClinicalDocument',
      '<!DOCTYPE ClinicalDocument [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<ClinicalDocument',
    ).replace('<title>', '<title>&xxe;');
    const res = await importFile(user.client, Buffer.from(xxe, 'utf8'), 'xxe.xml');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The file declares a DOCTYPE or an ENTITY: documents with a DTD are not accepted.');
    expect(res.body).not.toContain('root:');
    expect(await snapshotAccount(t.database.db, user.id, user.client)).toEqual(before);
  });

  it('refuses malformed XML, an XML file that is not a ClinicalDocument, and nesting past the limit, each with a message', async () => {
    const user = await signedInUser(t.app);
    const refused = async (xml: string, message: string | RegExp) => {
      const res = await importFile(user.client, Buffer.from(xml, 'utf8'), 'x.xml');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    };
    await refused(CCD.slice(0, BODY_END), /^The file is not well-formed XML: <structuredBody> is not closed\.$/);
    await refused(
      CCD.replace('</structuredBody>', '</structuredbody>'),
      /^The file is not well-formed XML: <\/structuredbody> closes <structuredBody>\.$/,
    );
    await refused(
      '<ClinicalDocument xmlns="urn:hl7-org:v3"><title a="1></ClinicalDocument>',
      /^The file is not well-formed XML: a tag is not closed\.$/,
    );
    await refused(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>',
      'This XML file is not a C-CDA document: its root is not a ClinicalDocument in the urn:hl7-org:v3 namespace.',
    );
    await refused(
      '<ClinicalDocument xmlns="urn:hl7-org:v2"></ClinicalDocument>',
      'This XML file is not a C-CDA document: its root is not a ClinicalDocument in the urn:hl7-org:v3 namespace.',
    );
    await refused(
      `<ClinicalDocument xmlns="urn:hl7-org:v3">${'<a>'.repeat(300)}${'</a>'.repeat(300)}</ClinicalDocument>`,
      'The XML nests deeper than 256 elements.',
    );
    const self = (await selfProfileId(t.database.db, user.id))!;
    expect((await user.client.get(`/api/user/people/${self}/immunizations`)).json()).toEqual([]);
  });

  it('A refused medication and "no known problems" add nothing, each counted in the report under its type', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(
      user.client,
      withBody(read('medication-refused-section.xml'), read('no-known-problems-section.xml')),
      'refused.xml',
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(rowOf(body, 'MedicationRequest')).toMatchObject({
      imported: 0,
      merged: 0,
      dropped: [{ reason: 'that the document says did not happen (negationInd)', count: 1 }],
    });
    expect(rowOf(body, 'Condition')).toMatchObject({
      imported: 0,
      merged: 0,
      dropped: [{ reason: 'entered in error or refuted', count: 1 }],
    });
    expect(body.skipped).toContain('1 MedicationRequest that the document says did not happen (negationInd)');
    expect(body.imported).toMatchObject({ medications: 0, conditions: 0 });
    const got = await lists(user);
    expect([got.profile.medications, got.conditions, got.profile.has_chronic_conditions]).toEqual([[], [], false]);
  });

  it('the entries of a section marked "no information" (nullFlavor on the section) are left out, reported under their type', async () => {
    const user = await signedInUser(t.app);
    const opening = '<section>\n          <!-- *** Immunizations Section (entries required) (V2) *** -->';
    const res = await importFile(user.client, replaced(opening, opening.replace('<section>', '<section nullFlavor="NI">')), 'ni.xml');
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'Immunization')).toMatchObject({
      imported: 0,
      dropped: [{ reason: 'in a section that says there is no information (nullFlavor)', count: 5 }],
    });
    expect((await lists(user)).immunizations).toEqual([]);
  });

  it("goes to a chosen family member (profileId, as a FHIR Bundle does); another user's member is a 404 and nothing changes", async () => {
    const owner = await signedInUser(t.app);
    const member = (
      await owner.client.post('/api/user/family/add', { name: 'Eve', date_of_birth: '1975-05-01', relationship: 'spouse' })
    ).json();
    const stranger = await signedInUser(t.app);
    const before = await snapshotAccount(t.database.db, owner.id, owner.client);
    const refused = await importFile(stranger.client, Buffer.from(CCD, 'utf8'), 'CCD.xml', { profileId: member.id });
    expect(refused.statusCode).toBe(404);
    expect(await snapshotAccount(t.database.db, owner.id, owner.client)).toEqual(before);

    const res = await importFile(owner.client, Buffer.from(CCD, 'utf8'), 'CCD.xml', { profileId: member.id });
    expect(res.statusCode, res.body).toBe(200);
    const immunizations = (await owner.client.get(`/api/user/people/${member.id}/immunizations`)).json<Json[]>();
    expect(immunizations).toHaveLength(3);
    expect((await lists(owner)).immunizations).toEqual([]);
  });

  it('refuses a document past the import size limit (413) and a ClinicalDocument that names no patient (400)', async () => {
    const user = await signedInUser(small);
    const big = await importFile(user.client, Buffer.from(CCD, 'utf8'), 'CCD.xml');
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('An XML document may be at most 0.1 MB.');

    const other = await signedInUser(t.app);
    const empty = await importFile(other.client, Buffer.from('<ClinicalDocument xmlns="urn:hl7-org:v3"/>', 'utf8'), 'empty.xml');
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().message).toBe('The C-CDA document names no patient (recordTarget).');
  });

  it('answers any mangled ClinicalDocument with 200 or a 4xx with a message, never a 500', async () => {
    const user = await signedInUser(t.app);
    // Pieces of CCD 1 cut and joined at random, with XML-ish noise: tags left open, stray closers, entities.
    const piece = fc.oneof(
      fc.tuple(fc.nat(CCD.length), fc.integer({ min: 1, max: 4000 })).map(([at, n]) => CCD.slice(at, at + n)),
      fc.constantFrom(
        '<',
        '>',
        '</section>',
        '<entry>',
        '&amp;',
        '&xxe;',
        '<![CDATA[',
        ']]>',
        '<!--',
        '-->',
        '"',
        '<?x',
        '?>',
        'negationInd="true"',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 6 }), async (pieces) => {
        const xml = CCD.slice(0, BODY_START) + pieces.join('') + CCD.slice(BODY_END);
        const res = await importFile(user.client, Buffer.from(xml, 'utf8'), 'x.xml');
        expect([200, 400, 413], res.body).toContain(res.statusCode);
        if (res.statusCode !== 200) expect(typeof res.json().message).toBe('string');
      }),
      { numRuns: 40, seed: 34 },
    );
  });
});
