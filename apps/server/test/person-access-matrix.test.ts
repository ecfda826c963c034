// DESIGN §4, §11: who may do what with a person's data, decided by the one access function. Every
// route that touches a person's data is walked here for the person's owner, a manager, an editor, a
// viewer, a holder whose share expired, one whose share was revoked, and a stranger: a viewer reads
// (200), a viewer or an editor who reaches too far gets 403, and an expired or revoked share or no
// share at all is the same 404 as a missing id. Only the owner deletes the person. The routes come
// from Fastify's own route table, so a route added later fails the coverage test until it has a case.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonRole } from '@kinchart/shared/people';
import { roleAllows } from '@kinchart/shared/people';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, registeredRoutes, signedInUser } from './helpers';
import type { Part } from './files-helpers';
import { fixture, multipartBody } from './files-helpers';
import { insertMember } from './factories';
import { daysAgo, insertShare } from './share-factories';
import { insertSuggestion } from './suggestion-factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const HOLDERS = ['manager', 'editor', 'viewer', 'expired', 'revoked', 'stranger'] as const;
type Holder = (typeof HOLDERS)[number];
type Who = 'owner' | Holder;
const WHO: Who[] = ['owner', ...HOLDERS];

const PDF = fixture('record.pdf');
const PIN = '4826';
const MISSING = '00000000-0000-4000-8000-000000000000';

/** What each one may do: the owner everything; a share its role; an ended share or none, nothing. */
function expected(who: Who, need: PersonRole, ok: number): number {
  if (who === 'owner') return ok;
  if (who === 'manager' || who === 'editor' || who === 'viewer') return roleAllows(who, need) ? ok : 403;
  return 404;
}

interface World {
  owner: User;
  holders: Record<Holder, User>;
  /** A family member shared with every holder; set up once with a file, an appointment and a code. */
  person: string;
}
let world: World;

/** A family member of the owner, shared with each holder as its name says (the ended ones as managers). */
async function sharedPerson(owner: User, holders: Record<Holder, User>, name = 'Mia Rivera'): Promise<string> {
  const db = t.database.db;
  const id = await insertMember(db, owner.id, { name });
  const share = (holder: Holder, role: 'manager' | 'editor' | 'viewer', extra: { endsAt?: string; revoked?: boolean } = {}) =>
    insertShare(db, { profileId: id, ownerId: owner.id, holderId: holders[holder].id, role, ...extra });
  await share('manager', 'manager');
  await share('editor', 'editor');
  await share('viewer', 'viewer');
  // The strongest role, ended: an expired or revoked share gives nothing at all.
  await share('expired', 'manager', { endsAt: daysAgo(1) });
  await share('revoked', 'manager', { revoked: true });
  return id;
}

beforeAll(async () => {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const holders = {} as Record<Holder, User>;
  for (const h of HOLDERS) holders[h] = await signedInUser(t.app, { username: `Holder ${h}` });
  const person = await sharedPerson(owner, holders);
  expect((await owner.client.post(`/api/user/family/members/${person}/qr`, { pin: PIN })).statusCode).toBe(201);
  world = { owner, holders, person };
});

const client = (who: Who): TestClient => (who === 'owner' ? world.owner.client : world.holders[who].client);

// ---------- the cases ----------

/** One request, as data, so the matrix can also send it with a missing id in place of `key`. */
interface Prepared {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  parts?: Part[];
  /** The id the request names (a person, a file, …): replaced by a missing one for the 404 check. */
  key: string;
}

interface Case {
  /** As the route table names it: `METHOD /path/:param`. */
  route: string;
  need: PersonRole;
  ok: number;
  /** Makes what the request needs (as the owner) and describes the request; `person` is the shared person. */
  prepare(person: string): Promise<Prepared>;
  /** Needs a person of its own each time (deleting the person). */
  freshPerson?: boolean;
}

const owner = () => world.owner.client;

async function created(res: Promise<LightMyRequestResponse>): Promise<{ id: string } & Record<string, unknown>> {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBeLessThan(300);
  return answer.json();
}

const member = (person: string, rest = '') => `/api/user/family/members/${person}${rest}`;
const contact = (n: string) => ({ name: n, relationship: 'Neighbour', phone_number: '+1 555 0200', is_primary: false });
const provider = (n: string) => ({ name: n, specialty: 'Paediatrics', phone_number: '+1 555 0201' });
const medication = (n: string) => ({ medication_name: n, dosage: '5 ml', frequency: 'Daily', is_current: true });
const appointment = (person: string) => ({
  appointment_date: '2027-03-04',
  start_time: '2027-03-04T10:00',
  end_time: '2027-03-04T10:30',
  provider_name: 'Dr Lee',
  person_id: person,
});
const editForm = {
  name: 'Mia Rivera',
  date_of_birth: '2015-09-03',
  relationship: 'daughter',
  is_pet: false,
  blood_type: 'A-',
  has_allergies: true,
  allergy_details: 'Peanuts',
};
const fileParts = (person: string): Part[] => [
  { name: 'personId', value: person },
  { name: 'file', filename: 'letter.pdf', content: PDF, contentType: 'application/pdf' },
  { name: 'customName', value: 'Letter' },
];
const fhirBundle = JSON.stringify({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    {
      fullUrl: 'urn:uuid:11111111-1111-4111-8111-111111111111',
      resource: { resourceType: 'Patient', id: 'p1', birthDate: '2015-09-03' },
    },
    {
      fullUrl: 'urn:uuid:a2',
      resource: {
        resourceType: 'Appointment',
        status: 'booked',
        description: 'Dentist',
        start: '2027-05-06T09:00:00Z',
        end: '2027-05-06T09:30:00Z',
        participant: [
          { actor: { reference: 'urn:uuid:11111111-1111-4111-8111-111111111111' }, status: 'accepted' },
          { actor: { display: 'Dr Tooth' }, status: 'accepted' },
        ],
      },
    },
  ],
});

async function ownerFile(person: string): Promise<string> {
  const { payload, headers } = multipartBody(fileParts(person));
  return (await created(owner().post('/api/user/files', payload, { headers }))).id;
}
async function ownerAppointment(person: string): Promise<string> {
  return (await created(owner().post('/api/user/appointments', appointment(person)))).id;
}

const clinicalExamples = {
  immunizations: { vaccine: 'MMR', date: '2019-05', dose_number: 1 },
  'lab-results': { name: 'HbA1c', value: 6.1, unit: '%', date: '2024-02-10' },
  conditions: { name: 'Asthma', onset_date: '2015' },
  procedures: { name: 'Appendectomy', performed_date: '2010-07-03' },
  // Issue 34: allergies as entries, under the same rules.
  allergies: { substance: 'Peanuts', reactions: ['Hives'], severity: 'moderate', criticality: 'high' },
};

const CASES: Case[] = [
  // The member routes (SPEC §7 Family): reads need a viewer, changes an editor, the code a manager.
  { route: 'GET /api/user/family/members/:id', need: 'viewer', ok: 200, prepare: async (p) => ({ method: 'GET', url: member(p), key: p }) },
  {
    route: 'PUT /api/user/family/members/:id',
    need: 'editor',
    ok: 200,
    prepare: async (p) => ({ method: 'PUT', url: member(p), body: editForm, key: p }),
  },
  {
    route: 'DELETE /api/user/family/members/:id',
    need: 'owner',
    ok: 200,
    freshPerson: true,
    prepare: async (p) => ({ method: 'DELETE', url: member(p), key: p }),
  },
  {
    route: 'GET /api/user/family/members/:id/emergency-contacts',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: member(p, '/emergency-contacts'), key: p }),
  },
  {
    route: 'POST /api/user/family/members/:id/emergency-contacts',
    need: 'editor',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: member(p, '/emergency-contacts'), body: contact('Sam'), key: p }),
  },
  {
    route: 'DELETE /api/user/family/members/:id/emergency-contacts/:contactId',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const c = await created(owner().post(member(p, '/emergency-contacts'), contact('Gone')));
      return { method: 'DELETE', url: member(p, `/emergency-contacts/${c.id}`), key: p };
    },
  },
  {
    route: 'GET /api/user/family/members/:id/medications',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: member(p, '/medications'), key: p }),
  },
  {
    route: 'POST /api/user/family/members/:id/medications',
    need: 'editor',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: member(p, '/medications'), body: medication('Amoxicillin'), key: p }),
  },
  {
    route: 'PUT /api/user/family/members/:id/medications/:medId',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const m = await created(owner().post(member(p, '/medications'), medication('Ibuprofen')));
      return { method: 'PUT', url: member(p, `/medications/${m.id}`), body: medication('Ibuprofen 200'), key: p };
    },
  },
  {
    route: 'DELETE /api/user/family/members/:id/medications/:medId',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const m = await created(owner().post(member(p, '/medications'), medication('Old')));
      return { method: 'DELETE', url: member(p, `/medications/${m.id}`), key: p };
    },
  },
  {
    route: 'POST /api/user/family/members/:id/healthcare-providers',
    need: 'editor',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: member(p, '/healthcare-providers'), body: provider('Dr Who'), key: p }),
  },
  {
    route: 'PUT /api/user/family/members/:id/healthcare-providers/:providerId',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const h = await created(owner().post(member(p, '/healthcare-providers'), provider('Dr A')));
      return { method: 'PUT', url: member(p, `/healthcare-providers/${h.id}`), body: provider('Dr B'), key: p };
    },
  },
  {
    route: 'DELETE /api/user/family/members/:id/healthcare-providers/:providerId',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const h = await created(owner().post(member(p, '/healthcare-providers'), provider('Dr Gone')));
      return { method: 'DELETE', url: member(p, `/healthcare-providers/${h.id}`), key: p };
    },
  },
  // The person's emergency code and what carries its link: the owner and managers (DESIGN §11).
  {
    route: 'GET /api/user/family/members/:id/qr',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: member(p, '/qr'), key: p }),
  },
  {
    route: 'POST /api/user/family/members/:id/qr',
    need: 'manager',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: member(p, '/qr'), body: { pin: PIN }, key: p }),
  },
  {
    route: 'PUT /api/user/family/members/:id/qr/toggle',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'PUT', url: member(p, '/qr/toggle'), body: { is_active: true }, key: p }),
  },
  {
    route: 'PUT /api/user/family/members/:id/qr/pin',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'PUT', url: member(p, '/qr/pin'), body: { pin: PIN }, key: p }),
  },
  {
    route: 'PUT /api/user/family/members/:id/qr/settings',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'PUT', url: member(p, '/qr/settings'), body: { essentials_without_pin: false }, key: p }),
  },
  {
    route: 'PUT /api/user/family/members/:id/qr/unlock',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'PUT', url: member(p, '/qr/unlock'), key: p }),
  },
  {
    route: 'GET /api/user/family/members/:id/qr/card.pdf',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: member(p, '/qr/card.pdf'), key: p }),
  },
  {
    route: 'GET /api/user/family/members/:id/qr/qr.png',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: member(p, '/qr/qr.png'), key: p }),
  },
  {
    route: 'GET /api/user/family/members/:id/qr/lockscreen.png',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: member(p, '/qr/lockscreen.png'), key: p }),
  },
  {
    route: 'POST /api/user/family/members/:id/qr/shl',
    need: 'manager',
    ok: 200,
    prepare: async (p) => {
      await created(owner().post(member(p, '/qr/shl')));
      return { method: 'POST', url: member(p, '/qr/shl'), key: p };
    },
  },
  {
    route: 'GET /api/user/family/members/:id/qr/shl',
    need: 'manager',
    ok: 200,
    prepare: async (p) => {
      await created(owner().post(member(p, '/qr/shl')));
      return { method: 'GET', url: member(p, '/qr/shl'), key: p };
    },
  },
  // Record files (DESIGN §6, §11): a viewer reads and downloads, an editor adds, renames and
  // deletes; a public link over them is handing out access, a manager's right.
  {
    route: 'GET /api/user/files',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/files?person=${p}`, key: p }),
  },
  // One search (issue 33): `person=` narrows to one person a viewer may read.
  {
    route: 'GET /api/user/search',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/search?q=letter&person=${p}`, key: p }),
  },
  {
    route: 'POST /api/user/files',
    need: 'editor',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: '/api/user/files', parts: fileParts(p), key: p }),
  },
  {
    route: 'POST /api/user/upload',
    need: 'editor',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: '/api/user/upload', parts: fileParts(p), key: p }),
  },
  {
    route: 'GET /api/user/files/:id/content',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerFile(p);
      return { method: 'GET', url: `/api/user/files/${id}/content`, key: id };
    },
  },
  // Issue 33: a file's text reads like its bytes (a viewer and up).
  {
    route: 'GET /api/user/files/:id/text',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerFile(p);
      return { method: 'GET', url: `/api/user/files/${id}/text`, key: id };
    },
  },
  {
    route: 'PUT /api/user/files/:id',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerFile(p);
      return { method: 'PUT', url: `/api/user/files/${id}`, body: { newName: 'Renamed' }, key: id };
    },
  },
  {
    route: 'DELETE /api/user/files/*',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerFile(p);
      return { method: 'DELETE', url: `/api/user/files/${id}`, key: id };
    },
  },
  {
    route: 'POST /api/user/files/share-links',
    need: 'manager',
    ok: 201,
    prepare: async (p) => {
      const id = await ownerFile(p);
      return { method: 'POST', url: '/api/user/files/share-links', body: { fileIds: [id] }, key: id };
    },
  },
  // Issue 33: what a file's text suggests is applied or dismissed by an editor (decision 0049).
  {
    route: 'POST /api/user/files/:id/suggestion/apply',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerFile(p);
      await insertSuggestion(t.database.db, id);
      return { method: 'POST', url: `/api/user/files/${id}/suggestion/apply`, body: {}, key: id };
    },
  },
  {
    route: 'DELETE /api/user/files/:id/suggestion',
    need: 'editor',
    ok: 204,
    prepare: async (p) => {
      const id = await ownerFile(p);
      await insertSuggestion(t.database.db, id);
      return { method: 'DELETE', url: `/api/user/files/${id}/suggestion`, key: id };
    },
  },
  // Issue 34 (decision 0052): a file's lab values read like its text; accepting them is an editor's.
  {
    route: 'GET /api/user/files/:id/lab-results',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerFile(p);
      return { method: 'GET', url: `/api/user/files/${id}/lab-results`, key: id };
    },
  },
  {
    route: 'POST /api/user/files/:id/lab-results/accept',
    need: 'editor',
    ok: 201,
    prepare: async (p) => {
      const id = await ownerFile(p);
      const row = {
        name: 'Ferritin',
        loinc: '2276-4',
        value: 12,
        unit: 'ng/mL',
        reference_low: 30,
        reference_high: 400,
        reference_text: '30-400',
        flag: 'L',
        date: '2026-03-14',
        page: 1,
      };
      return { method: 'POST', url: `/api/user/files/${id}/lab-results/accept`, body: { results: [row] }, key: id };
    },
  },
  // Appointments: a viewer reads, an editor adds, edits and deletes.
  {
    route: 'GET /api/user/appointments',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/appointments?person=${p}`, key: p }),
  },
  {
    route: 'POST /api/user/appointments',
    need: 'editor',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: '/api/user/appointments', body: appointment(p), key: p }),
  },
  {
    route: 'PUT /api/user/appointments/:appointment_id',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerAppointment(p);
      return {
        method: 'PUT',
        url: `/api/user/appointments/${id}`,
        body: { ...appointment(p), provider_name: 'Dr Moved', person_id: undefined },
        key: id,
      };
    },
  },
  {
    route: 'DELETE /api/user/appointments/:appointment_id',
    need: 'editor',
    ok: 200,
    prepare: async (p) => {
      const id = await ownerAppointment(p);
      return { method: 'DELETE', url: `/api/user/appointments/${id}`, key: id };
    },
  },
  // The Prescriptions screen's list for another person, and a FHIR Bundle imported for the person.
  {
    route: 'GET /api/user/medications',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/medications?person=${p}`, key: p }),
  },
  {
    route: 'POST /api/user/import',
    need: 'editor',
    ok: 200,
    prepare: async (p) => ({
      method: 'POST',
      url: '/api/user/import',
      parts: [
        { name: 'profileId', value: p },
        { name: 'file', filename: 'summary.json', content: Buffer.from(fhirBundle), contentType: 'application/json' },
      ],
      key: p,
    }),
  },
  // The people API (DESIGN §11): a person's chart, its shares and its access history.
  {
    route: 'GET /api/user/people/:personId',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/people/${p}`, key: p }),
  },
  {
    route: 'POST /api/user/people/:personId/shares',
    need: 'manager',
    ok: 201,
    prepare: async (p) => ({ method: 'POST', url: `/api/user/people/${p}/shares`, body: { role: 'viewer' }, key: p }),
  },
  {
    route: 'GET /api/user/people/:personId/shares',
    need: 'manager',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/people/${p}/shares`, key: p }),
  },
  {
    route: 'DELETE /api/user/people/:personId/shares/:shareId',
    need: 'manager',
    ok: 200,
    prepare: async (p) => {
      const other = await signedInUser(t.app);
      const shareId = await insertShare(t.database.db, { profileId: p, ownerId: world.owner.id, holderId: other.id, role: 'viewer' });
      return { method: 'DELETE', url: `/api/user/people/${p}/shares/${shareId}`, key: p };
    },
  },
  {
    route: 'PUT /api/user/people/:personId/shares/:shareId',
    need: 'manager',
    ok: 200,
    prepare: async (p) => {
      const other = await signedInUser(t.app);
      const shareId = await insertShare(t.database.db, { profileId: p, ownerId: world.owner.id, holderId: other.id, role: 'viewer' });
      return { method: 'PUT', url: `/api/user/people/${p}/shares/${shareId}`, body: { role: 'editor' }, key: p };
    },
  },
  {
    route: 'GET /api/user/people/:personId/access-history',
    need: 'owner',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/people/${p}/access-history`, key: p }),
  },
  // Reminder settings (issue 32): the reader's own choice of what they receive, so a viewer reads and sets it.
  {
    route: 'GET /api/user/people/:personId/reminder-settings',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/people/${p}/reminder-settings`, key: p }),
  },
  {
    route: 'PUT /api/user/people/:personId/reminder-settings',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'PUT', url: `/api/user/people/${p}/reminder-settings`, body: { dose_reminders: true }, key: p }),
  },
  // Clinical data (DESIGN §12): a viewer reads (and prints the vaccination record), an editor adds, edits and deletes.
  {
    route: 'GET /api/user/people/:personId/immunizations.pdf',
    need: 'viewer',
    ok: 200,
    prepare: async (p) => ({ method: 'GET', url: `/api/user/people/${p}/immunizations.pdf`, key: p }),
  },
  ...Object.entries(clinicalExamples).flatMap(([kind, body]): Case[] => {
    const base = (p: string) => `/api/user/people/${p}/${kind}`;
    const ownerItem = async (p: string) => (await created(owner().post(base(p), body))).id;
    return [
      {
        route: `GET /api/user/people/:personId/${kind}`,
        need: 'viewer',
        ok: 200,
        prepare: async (p) => ({ method: 'GET', url: base(p), key: p }),
      },
      {
        route: `POST /api/user/people/:personId/${kind}`,
        need: 'editor',
        ok: 201,
        prepare: async (p) => ({ method: 'POST', url: base(p), body, key: p }),
      },
      {
        route: `PUT /api/user/people/:personId/${kind}/:id`,
        need: 'editor',
        ok: 200,
        prepare: async (p) => {
          const id = await ownerItem(p);
          return { method: 'PUT', url: `${base(p)}/${id}`, body, key: id };
        },
      },
      {
        route: `DELETE /api/user/people/:personId/${kind}/:id`,
        need: 'editor',
        ok: 200,
        prepare: async (p) => {
          const id = await ownerItem(p);
          return { method: 'DELETE', url: `${base(p)}/${id}`, key: id };
        },
      },
    ];
  }),
  // Medication schedules, the dose log and adherence (issue 32): a viewer reads, an editor writes.
  ...careCases(),
  // A private calendar feed of one person (issue 32): whoever may read the person may subscribe to them.
  {
    route: 'POST /api/user/calendar-feeds',
    need: 'viewer',
    ok: 201,
    prepare: async (p) => ({
      method: 'POST',
      url: '/api/user/calendar-feeds',
      body: { person_id: p, include_medications: true, minimal: false },
      key: p,
    }),
  },
];

/** A medication of the person with a schedule at 08:00 every day since 2027-01-01 (as the owner); its id. */
async function scheduledMedication(person: string): Promise<string> {
  const m = await created(owner().post(member(person, '/medications'), medication('Scheduled')));
  const schedule = await owner().put(`/api/user/people/${person}/medications/${m.id}/schedule`, {
    times: ['08:00'],
    start_date: '2027-01-01',
  });
  expect(schedule.statusCode, schedule.body).toBe(200);
  return m.id;
}

function careCases(): Case[] {
  const schedule = (p: string, m: string) => `/api/user/people/${p}/medications/${m}/schedule`;
  const doses = (p: string, rest = '') => `/api/user/people/${p}/doses${rest}`;
  return [
    {
      route: 'GET /api/user/people/:personId/schedules',
      need: 'viewer',
      ok: 200,
      prepare: async (p) => {
        await scheduledMedication(p);
        return { method: 'GET', url: `/api/user/people/${p}/schedules`, key: p };
      },
    },
    {
      route: 'GET /api/user/people/:personId/medications/:medicationId/schedule',
      need: 'viewer',
      ok: 200,
      prepare: async (p) => ({ method: 'GET', url: schedule(p, await scheduledMedication(p)), key: p }),
    },
    {
      route: 'PUT /api/user/people/:personId/medications/:medicationId/schedule',
      need: 'editor',
      ok: 200,
      prepare: async (p) => {
        const m = await created(owner().post(member(p, '/medications'), medication('To schedule')));
        return { method: 'PUT', url: schedule(p, m.id), body: { times: ['09:00'] }, key: p };
      },
    },
    {
      route: 'DELETE /api/user/people/:personId/medications/:medicationId/schedule',
      need: 'editor',
      ok: 200,
      prepare: async (p) => ({ method: 'DELETE', url: schedule(p, await scheduledMedication(p)), key: p }),
    },
    {
      route: 'GET /api/user/people/:personId/doses',
      need: 'viewer',
      ok: 200,
      prepare: async (p) => ({ method: 'GET', url: doses(p, '?from=2027-01-01&to=2027-01-31'), key: p }),
    },
    {
      route: 'POST /api/user/people/:personId/doses',
      need: 'editor',
      ok: 201,
      prepare: async (p) => {
        const m = await created(owner().post(member(p, '/medications'), medication('As needed')));
        return { method: 'POST', url: doses(p), body: { medication_id: m.id }, key: p };
      },
    },
    {
      route: 'PUT /api/user/people/:personId/doses/:doseId',
      need: 'editor',
      ok: 200,
      prepare: async (p) => ({
        method: 'PUT',
        url: doses(p, `/${await scheduledMedication(p)}.202701020800`),
        body: { status: 'taken' },
        key: p,
      }),
    },
    {
      route: 'DELETE /api/user/people/:personId/doses/:doseId',
      need: 'editor',
      ok: 200,
      prepare: async (p) => {
        const dose = `${await scheduledMedication(p)}.202701020800`;
        expect((await owner().put(doses(p, `/${dose}`), { status: 'skipped' })).statusCode).toBe(200);
        return { method: 'DELETE', url: doses(p, `/${dose}`), key: p };
      },
    },
    {
      route: 'GET /api/user/people/:personId/adherence',
      need: 'viewer',
      ok: 200,
      prepare: async (p) => ({ method: 'GET', url: `/api/user/people/${p}/adherence?days=7`, key: p }),
    },
  ];
}

/** Routes that read or change one person's data by the person's (or a record's) id. */
function touchesAPerson(method: string, path: string): boolean {
  if (path.startsWith('/api/user/family/members/:id') || path.startsWith('/api/user/people/:personId')) return true;
  const routes = [
    'GET /api/user/files',
    'POST /api/user/files',
    'POST /api/user/upload',
    'GET /api/user/files/:id/content',
    'GET /api/user/files/:id/text',
    'PUT /api/user/files/:id',
    'DELETE /api/user/files/*',
    'POST /api/user/files/share-links',
    'POST /api/user/files/:id/suggestion/apply',
    'DELETE /api/user/files/:id/suggestion',
    'GET /api/user/files/:id/lab-results',
    'POST /api/user/files/:id/lab-results/accept',
    'GET /api/user/appointments',
    'POST /api/user/appointments',
    'PUT /api/user/appointments/:appointment_id',
    'DELETE /api/user/appointments/:appointment_id',
    'GET /api/user/medications',
    'POST /api/user/calendar-feeds',
    'POST /api/user/import',
    'GET /api/user/search',
  ];
  return routes.includes(`${method} ${path}`);
}

function send(who: Who, request: Prepared): Promise<LightMyRequestResponse> {
  if (request.parts) {
    const { payload, headers } = multipartBody(request.parts);
    return client(who).request(request.method, request.url, payload, { headers });
  }
  return client(who).request(request.method, request.url, request.body);
}

/** The same request naming an id that does not exist. */
function withMissingId(request: Prepared): Prepared {
  const swap = (text: string) => text.split(request.key).join(MISSING);
  return {
    ...request,
    url: swap(request.url),
    body: request.body === undefined ? undefined : (JSON.parse(swap(JSON.stringify(request.body))) as unknown),
    parts: request.parts?.map((part) => ('value' in part ? { ...part, value: swap(part.value) } : part)),
    key: MISSING,
  };
}

describe('the access matrix', () => {
  it('has a case for every route that touches a person (read from the route table)', () => {
    const mounted = registeredRoutes(t.app)
      .filter(({ method, path }) => touchesAPerson(method, path))
      .map(({ method, path }) => `${method} ${path}`);
    const covered = new Set(CASES.map((c) => c.route));
    expect(mounted.filter((route) => !covered.has(route))).toEqual([]);
    expect([...covered].filter((route) => !mounted.includes(route))).toEqual([]);
    expect(mounted.length).toBeGreaterThanOrEqual(35);
  });

  for (const c of CASES) {
    it(`${c.route}: ${c.need} and up (${c.ok}); weaker roles 403; ended shares and strangers 404 like a missing id`, async () => {
      const answers: Partial<Record<Who, LightMyRequestResponse>> = {};
      for (const who of WHO) {
        const person = c.freshPerson ? await sharedPerson(world.owner, world.holders) : world.person;
        const request = await c.prepare(person);
        const res = await send(who, request);
        expect(res.statusCode, `${who}: ${res.body.slice(0, 200)}`).toBe(expected(who, c.need, c.ok));
        answers[who] = res;
        if (who === 'stranger') {
          // No access is the very answer a missing id gets.
          const missing = await send('owner', withMissingId(request));
          expect(missing.statusCode).toBe(404);
          expect(res.json()).toEqual(missing.json());
        }
      }
      for (const who of ['expired', 'revoked', 'stranger'] as const) expect(answers[who]?.json()).toEqual(answers.stranger?.json());
    });
  }
});

describe('lists of every visible person', () => {
  it("files, appointments and the calendar hold a shared person's records for its viewers and up, and nobody else's", async () => {
    const fileId = await ownerFile(world.person);
    const appointmentId = await ownerAppointment(world.person);
    for (const who of WHO) {
      const sees = who === 'owner' || who === 'manager' || who === 'editor' || who === 'viewer';
      const files = await client(who).get('/api/user/files');
      expect(files.statusCode).toBe(200);
      const file = files.json().find((f: { id: string }) => f.id === fileId);
      expect(Boolean(file), who).toBe(sees);
      if (sees) expect(file).toMatchObject({ person_id: world.person, person_name: 'Mia Rivera' });
      const appointments = await client(who).get('/api/user/appointments');
      const appt = appointments.json().find((a: { id: string }) => a.id === appointmentId);
      expect(Boolean(appt), who).toBe(sees);
      if (sees) expect(appt).toMatchObject({ person_id: world.person, person_name: 'Mia Rivera' });
      const ics = await client(who).get('/api/user/appointments.ics');
      expect(ics.statusCode).toBe(200);
      expect(ics.body.includes('Mia Rivera: Dr Lee'), who).toBe(sees);
      // A private calendar feed of everyone the account sees (issue 32), read without a session.
      const feed = await client(who).post('/api/user/calendar-feeds', {});
      expect(feed.statusCode, feed.body).toBe(201);
      const read = await new TestClient(t.app).get(new URL(feed.json<{ url: string }>().url).pathname);
      expect(read.statusCode).toBe(200);
      expect(read.body.includes('Mia Rivera: Dr Lee'), who).toBe(sees);
    }
  });
});
