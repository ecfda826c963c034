import { createECDH, createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_FIELD_NAMES } from '@kinchart/shared/files';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, registeredRoutes, signedInUser } from './helpers';
import type { Part } from './files-helpers';
import { fixture, multipartBody, uploadRecord } from './files-helpers';
import { readZip } from './export-helpers';
import { stripInvisible } from '@kinchart/shared/text';

// DESIGN §5, bad input at scale: generated bad payloads against every endpoint the app
// registers — wrong types, huge strings, deep nesting, unicode edge cases, path traversal, SQL,
// HTML and prototype-pollution keys. Whatever arrives, the answer is never a 5xx, a 4xx is a
// `{ message }` without internals, another user's data never changes, and text that is accepted
// comes back exactly as it was stored.
//
// Runs are seeded: a failure prints its seed and path. Reproduce with
//   FUZZ_SEED=<seed> npx vitest run --project server-sqlite test/fuzz
// FUZZ_RUNS=<n> runs each property n times, FUZZ_SHRINK=1 shrinks a counterexample (slow),
// FUZZ_LOG=1 lets the server log its errors.

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_517);
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
/** app.ts `bodyLimit`. */
const BODY_LIMIT = 1024 * 1024;
/** The fuzzer's own address (TEST-NET-2), so per-IP lockouts never reach the set-up requests. */
const FUZZ_IP = '198.51.100.23';
const PASSWORD = 'correct horse battery';
const WRONG_PASSWORD = 'not the password at all';
const PIN = '4826';
/** The only push service the fuzzed app allows: a name that never resolves (RFC 6761), so nothing is ever sent out. */
const PUSH_HOST = 'push.fuzz.invalid';

async function check<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, numRuns = RUNS): Promise<void> {
  try {
    await fc.assert(fc.asyncProperty(arbitrary, predicate), { seed: SEED, numRuns, endOnFailure: !process.env.FUZZ_SHRINK });
  } catch (error) {
    // fast-check's report names the seed and the failing path; this line says how to replay it.
    (error as Error).message = `Fuzz seed ${SEED}: rerun with FUZZ_SEED=${SEED} to replay.\n${(error as Error).message}`;
    throw error;
  }
}

// ---------- generated values ----------

/** A long string, built only when sent: a counterexample prints as Huge(…), not a megabyte. */
class Huge {
  constructor(
    readonly unit: string,
    readonly count: number,
  ) {}
  get text(): string {
    return this.unit.repeat(this.count);
  }
  [fc.toStringMethod](): string {
    return `Huge(${JSON.stringify(this.unit)} × ${this.count})`;
  }
}

/** JSON text spliced in as it is: nesting deeper than JSON.stringify allows, literals it cannot write. */
class Raw {
  constructor(
    readonly json: string,
    readonly label = json,
  ) {}
  [fc.toStringMethod](): string {
    return `Raw(${this.label})`;
  }
}

/** Our own JSON writer, so own `__proto__` keys, Huge and Raw values go out as written. */
function jsonText(value: unknown): string {
  if (value instanceof Raw) return value.json;
  if (value instanceof Huge) return JSON.stringify(value.text);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Text a person (or an attacker) might type: traversal, SQL, HTML, bidi, zero-width, emoji, NUL, lone surrogates. */
const NASTY_TEXT = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%252f..%252fetc%252fpasswd',
  '....//....//etc/passwd',
  '/etc/passwd',
  'file:///etc/passwd',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  "' UNION SELECT password_hash, email FROM users --",
  '1; SELECT pg_sleep(5)',
  "%' AND 1=0 UNION SELECT sql FROM sqlite_master --",
  '$$; DELETE FROM sessions; $$',
  '<img src=x onerror=alert(1)>',
  '<script>alert(document.cookie)</script>',
  '"><svg/onload=alert(1)>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
  '${7*7}',
  '&lt;b&gt;&amp;',
  '\u202Egnp.exe',
  '\u0645\u0631\u062D\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645',
  '\u05E9\u05DC\u05D5\u05DD \u200F\u05E2\u05D5\u05DC\u05DD',
  'zero\u200Bwidth\u200C\u200Djoin',
  '\uFEFFbom',
  '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}',
  '\u{1FA7A}\u{1F48A}',
  'e\u0301\u0301\u0301\u0301',
  '\u2028\u2029',
  '\t\r\n',
  '\u0000',
  'nul\u0000inside',
  '\uD800',
  'lone\uDC00low',
  '\uDBFF\uDFFF',
  '\uFFFE\uFFFF',
  '\u{1D573}\u{1D58A}\u{1D591}',
  '\u00A0\u3000 ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '0',
  '-1',
  'NaN',
  'null',
  'undefined',
  '',
  ' ',
];

const utf16Unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const nasty = fc.constantFrom(...NASTY_TEXT);
const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: utf16Unit, maxLength: 24 }) },
  { weight: 2, arbitrary: fc.tuple(nasty, fc.string({ unit: utf16Unit, maxLength: 8 }), nasty).map((parts) => parts.join('')) },
);

const hugeText = fc
  .tuple(
    fc.constantFrom('a', ' ', '\u20AC', '\u{1F600}', '\u0000', '<b>', '\uD800'),
    fc.constantFrom(201, 5_001, 70_000, 600_000, BODY_LIMIT + 1),
  )
  .map(([unit, length]) => new Huge(unit, Math.ceil(length / unit.length)));

const deepValue = fc.tuple(fc.constantFrom(32, 1_000, 100_000), fc.constantFrom('array', 'object', 'proto')).map(([depth, shape]) => {
  if (shape === 'array') return new Raw(`${'['.repeat(depth)}${']'.repeat(depth)}`, `[…] ${depth} deep`);
  const open = '{"a":'.repeat(depth);
  const close = '}'.repeat(depth);
  return shape === 'object'
    ? new Raw(`${open}1${close}`, `{"a":…} ${depth} deep`)
    : new Raw(`${open}{"__proto__":{"polluted":"yes"}}${close}`, `__proto__ ${depth} deep`);
});

const PROTO_VALUES = [
  new Raw('{"__proto__":{"polluted":"yes","isAdmin":true}}'),
  new Raw('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  new Raw('{"\\u005f_proto__":{"polluted":"yes"}}', 'escaped __proto__'),
  new Raw('{"prototype":{"polluted":"yes"}}'),
  new Raw('[{"__proto__":{"polluted":"yes"}}]'),
];

const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()), { maxKeys: 3 }),
  fc.constantFrom(
    new Raw('1e999'),
    new Raw('-1e999'),
    new Raw('-0'),
    new Raw('123456789012345678901234567890'),
    new Raw('1e-400'),
    new Raw('"\\ud800"'),
    new Raw('"\\u0000"'),
    new Raw('"\\udfff\\ud800"'),
  ),
);

/** Keys a mass-assignment or prototype-pollution attempt would add to any body. */
const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'id', 'user_id', 'userId', 'owner_id', 'profile_id', 'is_self', 'share_id'];

const MALFORMED_JSON = [
  '{',
  '{"a":}',
  "{'a':1}",
  '[1,]',
  '{"a":1}x',
  'undefined',
  'NaN',
  '\uFEFF{}',
  '{"a":1,"a":2}',
  '"',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"}',
  '\u0000',
  '{"a":01}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '[[[[[[[[[[[[',
  '   ',
  'null',
  '"just a string"',
  '12',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=zzz',
  'application/vnd.api+json',
  null,
];

/** A URL path segment exactly as a raw client could send it: lone surrogates go out as WTF-8. */
function encodeSegment(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

const RAW_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%252f..%252fetc%252fpasswd',
  '..%5C..%5Cwindows%5Cwin.ini',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%',
  '%zz',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '1%20OR%201%3D1',
  "'%3B--",
  '%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '0',
  '-1',
  '1e309',
  'null',
  'undefined',
  'x'.repeat(65),
  'x'.repeat(101),
  'x'.repeat(3_000),
  '%20',
  '~',
  '*',
];

// ---------- the endpoints ----------

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Endpoint {
  method: Method;
  /** `:name` and `*` segments are filled by the id generator, … */
  path: string;
  /** … which favours, for each of them in order, this kind of id: the attacker's own or the victim's. */
  slots?: Slot[];
  /** A plausible body whose fields the fuzzer replaces with bad values (ids in it may be another user's). */
  body?: (r: Refs) => Record<string, unknown>;
  /** Query parameters the route reads. */
  query?: string[];
  /** Signed out only (logging out the fuzzing user would end its session). */
  anonOnly?: boolean;
  runs?: number;
}

/** Ids of the victim (whose data must never change) and of the attacker (whose own data it may change). */
interface AccountIds {
  profileId: string;
  contactId: string;
  providerId: string;
  medicationId: string;
  memberId: string;
  memberContactId: string;
  memberMedicationId: string;
  appointmentId: string;
  fileId: string;
  fileName: string;
  shareLinkId: string;
  shareToken: string;
  shareId: string;
  memberShareId: string;
  notificationId: string;
  manifestId: string;
  /** Issue 32: a scheduled dose of the member's medication, logged taken. */
  doseId: string;
  calendarFeedId: string;
  /** The feed's address as its last path segment (`{token}.ics`): a bearer credential. */
  calendarFile: string;
  pushSubscriptionId: string;
}

type Slot = keyof AccountIds;
/** Bearer credentials: whoever holds one may use it by design (DESIGN §7), so only the attacker's are tried. */
const BEARER_SLOTS: Slot[] = ['shareId', 'memberShareId', 'shareToken', 'manifestId', 'calendarFile'];

interface Refs {
  victim: AccountIds;
  attacker: AccountIds;
  victimIds: string[];
  attackerIds: string[];
}

const profileBody = (r: Refs) => ({
  name: 'Fuzz Person',
  date_of_birth: '1990-01-01',
  blood_type: 'A+',
  height: 170,
  weight: 70,
  has_allergies: true,
  allergy_details: 'Peanuts',
  emergency_contacts: [{ contact_id: r.victim.contactId, name: 'Sam', phone_number: '555-0100' }],
  healthcare_providers: [{ provider_id: r.victim.providerId, provider_name: 'Dr. Who' }],
  medications: [{ medication_id: r.victim.medicationId, medication_name: 'Aspirin' }],
});
const contactBody = (r: Refs) => ({
  contact_id: r.victim.contactId,
  name: 'Sam',
  relationship: 'Sibling',
  phone_number: '555-0100',
  email: 'sam@example.com',
  is_primary: true,
  has_medical_power: false,
});
const medicationBody = (r: Refs) => ({
  medication_id: r.victim.medicationId,
  medication_name: 'Aspirin',
  dosage: '81 mg',
  frequency: 'daily',
  purpose: 'heart',
  start_date: '2020-01-01',
  is_current: true,
});
const providerBody = (r: Refs) => ({
  provider_id: r.victim.providerId,
  provider_name: 'Dr. Who',
  specialty: 'GP',
  facility: 'Clinic',
  phone_number: '555-0100',
  email: 'dr@example.com',
  address: '1 Main St',
  is_primary: false,
  notes: 'notes',
});
const memberBody = (r: Refs) => ({
  name: 'Kid',
  date_of_birth: '2015-05-05',
  relationship: 'child',
  is_pet: false,
  emergency_contacts: [{ contact_id: r.victim.memberContactId, name: 'Gran', phone_number: '555-0101' }],
  healthcare_providers: [{ name: 'Dr. Paws', phone_number: '555-0102' }],
  medications: [{ medication_id: r.victim.memberMedicationId, medication_name: 'Amoxicillin', dosage: '5 ml' }],
});

const scheduleBody = {
  times: ['08:00', '20:00'],
  days: [1, 2, 3, 4, 5, 6, 7],
  start_date: '2027-01-01',
  end_date: null,
  as_needed: false,
  dose_units: 1,
  quantity_on_hand: 30,
  refill_remind_days: 5,
  reminders: true,
};

/** A browser's push subscription: a P-256 public key and an auth secret (RFC 8291), to a push service the server allows. */
function pushSubscriptionBody() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://${PUSH_HOST}/send/${randomBytes(8).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

const appointmentBody = {
  appointment_date: '2031-02-03',
  start_time: '2031-02-03T09:00',
  end_time: '2031-02-03T10:00',
  provider_name: 'Dr. Lee',
  reason_for_visit: 'Checkup',
  location: 'Clinic',
};

// Writes first, then reads (which serialize whatever the writes stored), then deletes.
const ENDPOINTS: Endpoint[] = [
  // SPEC §7 Authentication (argon2 makes these slow: fewer runs).
  {
    method: 'POST',
    path: '/api/auth/signup',
    body: () => ({ username: 'Fuzz', email: 'fuzz.signup@example.com', password: PASSWORD }),
    runs: 10,
  },
  { method: 'POST', path: '/api/auth/login', body: () => ({ email: 'nobody.fuzz@example.com', password: WRONG_PASSWORD }), runs: 10 },
  {
    method: 'PUT',
    path: '/api/auth/changePassword',
    body: () => ({ currentPassword: WRONG_PASSWORD, newPassword: 'another fine passphrase' }),
    runs: 10,
  },
  { method: 'PUT', path: '/api/auth/change-email', body: () => ({ newEmail: 'new.fuzz@example.com', password: WRONG_PASSWORD }), runs: 10 },
  // Own profile.
  {
    method: 'POST',
    path: '/api/user/profile',
    body: () => ({ username: 'fuzzer', name: 'Fuzz Person', date_of_birth: '1990-01-01', address: '1 Main St', phone_number: '555' }),
  },
  { method: 'PUT', path: '/api/user/updateProfile', body: profileBody },
  { method: 'POST', path: '/api/user/emergency-contacts', body: contactBody },
  { method: 'POST', path: '/api/user/medications', body: medicationBody },
  { method: 'PUT', path: '/api/user/medications/:id', slots: ['medicationId'], body: medicationBody },
  { method: 'POST', path: '/api/user/healthcare-providers', body: providerBody },
  { method: 'PUT', path: '/api/user/healthcare-providers/:provider_id', slots: ['providerId'], body: providerBody },
  // Family.
  {
    method: 'POST',
    path: '/api/user/family/add',
    body: () => ({ name: 'Kid', date_of_birth: '2015-05-05', relationship: 'child', is_pet: false }),
  },
  { method: 'PUT', path: '/api/user/family/members/:id', slots: ['memberId'], body: memberBody },
  {
    method: 'POST',
    path: '/api/user/family/members/:id/emergency-contacts',
    slots: ['memberId'],
    body: (r) => ({ contact_id: r.victim.memberContactId, name: 'Gran', phone_number: '555' }),
  },
  {
    method: 'POST',
    path: '/api/user/family/members/:id/medications',
    slots: ['memberId'],
    body: (r) => ({ medication_id: r.victim.memberMedicationId, medication_name: 'Amoxicillin', dosage: '5 ml' }),
  },
  {
    method: 'PUT',
    path: '/api/user/family/members/:id/medications/:medId',
    slots: ['memberId', 'memberMedicationId'],
    body: () => ({ medication_name: 'Amoxicillin', dosage: '10 ml' }),
  },
  { method: 'POST', path: '/api/user/family/members/:id/healthcare-providers', slots: ['memberId'], body: providerBody },
  {
    method: 'PUT',
    path: '/api/user/family/members/:id/healthcare-providers/:providerId',
    slots: ['memberId', 'providerId'],
    body: providerBody,
  },
  // QR codes.
  { method: 'POST', path: '/api/user/wearable-qr', body: () => ({ pin: PIN }) },
  { method: 'PUT', path: '/api/user/wearable-qr/toggle', body: () => ({ is_active: true }) },
  { method: 'PUT', path: '/api/user/wearable-qr/update-pin', body: () => ({ pin: '5937' }) },
  { method: 'POST', path: '/api/user/family/members/:id/qr', slots: ['memberId'], body: () => ({ pin: PIN }) },
  { method: 'PUT', path: '/api/user/family/members/:id/qr/toggle', slots: ['memberId'], body: () => ({ is_active: true }) },
  { method: 'PUT', path: '/api/user/family/members/:id/qr/pin', slots: ['memberId'], body: () => ({ pin: '5937' }) },
  { method: 'PUT', path: '/api/user/wearable-qr/settings', body: () => ({ essentials_without_pin: true }) },
  { method: 'PUT', path: '/api/user/wearable-qr/unlock' },
  { method: 'PUT', path: '/api/user/family/members/:id/qr/settings', slots: ['memberId'], body: () => ({ essentials_without_pin: true }) },
  { method: 'PUT', path: '/api/user/family/members/:id/qr/unlock', slots: ['memberId'] },
  // Notifications.
  { method: 'PUT', path: '/api/user/notifications/mark-all-read' },
  { method: 'PUT', path: '/api/user/notifications/:id/toggle', slots: ['notificationId'] },
  { method: 'PUT', path: '/api/user/notifications/:id/hide', slots: ['notificationId'] },
  // Appointments.
  { method: 'POST', path: '/api/user/appointments', body: () => appointmentBody },
  { method: 'PUT', path: '/api/user/appointments/:appointment_id', slots: ['appointmentId'], body: () => appointmentBody },
  // Issue 32: schedules, the dose log, reminder settings, preferences, push subscriptions and calendar feeds.
  {
    method: 'PUT',
    path: '/api/user/people/:personId/medications/:medicationId/schedule',
    slots: ['memberId', 'memberMedicationId'],
    body: () => scheduleBody,
  },
  {
    method: 'PUT',
    path: '/api/user/people/:personId/doses/:doseId',
    slots: ['memberId', 'doseId'],
    body: () => ({ status: 'taken', taken_at: '2027-01-02T08:05:00Z' }),
  },
  {
    method: 'POST',
    path: '/api/user/people/:personId/doses',
    slots: ['memberId'],
    body: (r) => ({ medication_id: r.victim.memberMedicationId, taken_at: '2027-01-03T10:00:00Z' }),
  },
  {
    method: 'PUT',
    path: '/api/user/people/:personId/reminder-settings',
    slots: ['memberId'],
    body: () => ({ dose_reminders: true, missed_dose_alerts: true, appointment_reminders: false }),
  },
  {
    method: 'PUT',
    path: '/api/user/preferences',
    body: () => ({ time_zone: 'Europe/Madrid', reminder_email: false, reminder_push: true, reminder_minimal: true }),
  },
  { method: 'POST', path: '/api/user/push-subscriptions', body: () => pushSubscriptionBody() },
  {
    method: 'POST',
    path: '/api/user/calendar-feeds',
    body: (r) => ({ person_id: r.victim.memberId, include_medications: true, minimal: false }),
  },
  { method: 'POST', path: '/api/push-actions', body: () => ({ token: 'A'.repeat(43), action: 'taken' }) },
  // Files (JSON calls; multipart has its own properties below).
  { method: 'PUT', path: '/api/user/files/:id', slots: ['fileId'], body: () => ({ newName: 'renamed' }) },
  { method: 'POST', path: '/api/user/files/share-links', body: (r) => ({ fileIds: [r.victim.fileId, r.attacker.fileId] }) },
  { method: 'POST', path: '/api/user/files', body: () => ({ customName: 'x' }) },
  { method: 'POST', path: '/api/user/upload', body: () => ({ customName: 'x' }) },
  { method: 'POST', path: '/api/user/import', body: () => ({ profileId: 'self' }) },
  // Reads.
  { method: 'GET', path: '/api/health' },
  { method: 'GET', path: '/api/auth/check-auth' },
  { method: 'GET', path: '/api/user/getPatientProfile' },
  { method: 'GET', path: '/api/user/family/members' },
  { method: 'GET', path: '/api/user/family/members/:id', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/family/members/:id/emergency-contacts', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/family/members/:id/medications', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/wearable-qr' },
  { method: 'GET', path: '/api/user/family/members/:id/qr', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/emergency/:shareId', slots: ['shareId'], query: ['pin'] },
  { method: 'GET', path: '/api/user/family/emergency/:shareId', slots: ['memberShareId'], query: ['pin'] },
  { method: 'GET', path: '/api/user/notifications' },
  { method: 'GET', path: '/api/user/appointments' },
  { method: 'GET', path: '/api/user/appointments.ics', query: ['tz'] },
  { method: 'GET', path: '/api/user/files' },
  { method: 'GET', path: '/api/user/files/:id/content', slots: ['fileId'] },
  { method: 'GET', path: '/api/shared/:token', slots: ['shareToken'] },
  { method: 'GET', path: '/api/shared/:token/files/:fileId', slots: ['shareToken', 'fileId'] },
  { method: 'GET', path: '/api/user/export', query: ['tz'], runs: 5 },
  { method: 'GET', path: '/api/user/people/:personId/schedules', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/people/:personId/medications/:medicationId/schedule', slots: ['memberId', 'memberMedicationId'] },
  { method: 'GET', path: '/api/user/people/:personId/doses', slots: ['memberId'], query: ['from', 'to'] },
  { method: 'GET', path: '/api/user/people/:personId/adherence', slots: ['memberId'], query: ['days'] },
  { method: 'GET', path: '/api/user/people/:personId/reminder-settings', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/preferences' },
  { method: 'GET', path: '/api/user/push-subscriptions' },
  { method: 'GET', path: '/api/user/calendar-feeds' },
  { method: 'GET', path: '/api/calendar/:file', slots: ['calendarFile'] },
  // SMART Health Links and the clinicians' FHIR download (decision 0004).
  { method: 'GET', path: '/api/user/wearable-qr/shl' },
  { method: 'GET', path: '/api/user/family/members/:id/qr/shl', slots: ['memberId'] },
  { method: 'POST', path: '/api/user/wearable-qr/shl' },
  { method: 'POST', path: '/api/user/family/members/:id/qr/shl', slots: ['memberId'] },
  { method: 'GET', path: '/api/user/emergency/:shareId/fhir', slots: ['shareId'], query: ['pin'] },
  { method: 'GET', path: '/api/user/family/emergency/:shareId/fhir', slots: ['memberShareId'], query: ['pin'] },
  // The owner's downloads per code (DESIGN §7).
  ...['card.pdf', 'qr.png', 'lockscreen.png'].flatMap((file): Endpoint[] => [
    { method: 'GET', path: `/api/user/wearable-qr/${file}`, query: ['pin', 'paper'], runs: 5 },
    { method: 'GET', path: `/api/user/family/members/:id/qr/${file}`, slots: ['memberId'], query: ['pin', 'paper'], runs: 5 },
  ]),
  {
    method: 'POST',
    path: '/shl/:manifestId',
    slots: ['manifestId'],
    body: () => ({ recipient: 'Dr. Fuzz', passcode: '5937', embeddedLengthMax: 100_000 }),
  },
  // Deletes.
  { method: 'DELETE', path: '/api/user/emergency-contacts/:contact_id', slots: ['contactId'] },
  { method: 'DELETE', path: '/api/user/medications/:id', slots: ['medicationId'] },
  { method: 'DELETE', path: '/api/user/healthcare-providers/:provider_id', slots: ['providerId'] },
  { method: 'DELETE', path: '/api/user/family/members/:id/emergency-contacts/:contactId', slots: ['memberId', 'memberContactId'] },
  { method: 'DELETE', path: '/api/user/family/members/:id/medications/:medId', slots: ['memberId', 'memberMedicationId'] },
  { method: 'DELETE', path: '/api/user/family/members/:id/healthcare-providers/:providerId', slots: ['memberId', 'providerId'] },
  { method: 'DELETE', path: '/api/user/appointments/:appointment_id', slots: ['appointmentId'] },
  { method: 'DELETE', path: '/api/user/files/share-links/:id', slots: ['shareLinkId'] },
  { method: 'DELETE', path: '/api/user/files/*', slots: ['fileName'] },
  { method: 'DELETE', path: '/api/user/people/:personId/doses/:doseId', slots: ['memberId', 'doseId'] },
  {
    method: 'DELETE',
    path: '/api/user/people/:personId/medications/:medicationId/schedule',
    slots: ['memberId', 'memberMedicationId'],
  },
  { method: 'DELETE', path: '/api/user/push-subscriptions/:id', slots: ['pushSubscriptionId'] },
  { method: 'POST', path: '/api/user/calendar-feeds/:id/renew', slots: ['calendarFeedId'] },
  { method: 'DELETE', path: '/api/user/calendar-feeds/:id', slots: ['calendarFeedId'] },
  { method: 'DELETE', path: '/api/user/family/members/:id', slots: ['memberId'] },
  { method: 'DELETE', path: '/api/auth/deleteAccount', body: () => ({ password: WRONG_PASSWORD }), runs: 10 },
  { method: 'POST', path: '/api/auth/logout', anonOnly: true },
];

// ---------- requests ----------

interface FuzzRequest {
  method: Method;
  url: string;
  contentType: string | null;
  payload?: string | Buffer;
  anon: boolean;
}

type BodyCase = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string | null };

function preview(payload: string | Buffer | undefined): string {
  if (payload === undefined) return 'no body';
  const text = typeof payload === 'string' ? payload : payload.toString('latin1');
  const shown = text.length > 240 ? `${text.slice(0, 240)}… (${text.length} chars)` : text;
  return JSON.stringify(shown);
}

const describeRequest = (req: FuzzRequest) =>
  `${req.anon ? 'signed out ' : ''}${req.method} ${req.url.length > 200 ? `${req.url.slice(0, 200)}…` : req.url} [${req.contentType ?? 'no content-type'}] ${preview(req.payload)}`;

/** DESIGN §5: never a 5xx; a 4xx is `{ message }` and carries no stack trace or source path. */
function expectHandled(req: FuzzRequest, res: LightMyRequestResponse): void {
  const what = `${describeRequest(req)} answered ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500) throw new Error(what);
  if (res.statusCode >= 400) {
    let message: unknown;
    try {
      message = (JSON.parse(res.body) as { message?: unknown }).message;
    } catch {
      message = undefined;
    }
    if (typeof message !== 'string') throw new Error(`4xx without a { message } body — ${what}`);
    if (/\n[ \t]+at |node_modules|\/src\/|\.ts:\d+/.test(message)) throw new Error(`4xx message leaks internals — ${what}`);
  }
}

interface Harness {
  t: TestApp;
  victim: Awaited<ReturnType<typeof signedInUser>>;
  attacker: Awaited<ReturnType<typeof signedInUser>>;
  refs: Refs;
  before: Record<string, unknown>;
}

async function send(h: Harness, req: FuzzRequest): Promise<LightMyRequestResponse> {
  const client = req.anon ? new TestClient(h.t.app) : h.attacker.client;
  return client.request(req.method, req.url, req.payload, {
    headers: req.contentType === null ? {} : { 'content-type': req.contentType },
    remoteAddress: FUZZ_IP,
  });
}

function badValue(r: Refs): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: wrongType },
    { weight: 5, arbitrary: anyText },
    { weight: 2, arbitrary: fc.constantFrom(...r.victimIds) },
    { weight: 1, arbitrary: hugeText },
    { weight: 1, arbitrary: deepValue },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_VALUES) },
  );
}

function segmentArb(r: Refs): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...r.victimIds).map(encodeSegment) },
    { weight: 2, arbitrary: fc.constantFrom(...r.attackerIds).map(encodeSegment) },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: 2, arbitrary: anyText.map(encodeSegment) },
  );
}

function bodyArb(ep: Endpoint, r: Refs): fc.Arbitrary<BodyCase> {
  const base = ep.body?.(r);
  const bad = badValue(r);
  const keys = [...Object.keys(base ?? {}), ...EXTRA_KEYS];
  const fields = fc
    .record({ keepBase: fc.boolean(), overrides: fc.array(fc.tuple(fc.constantFrom(...keys), bad), { maxLength: 3 }) })
    // Object.fromEntries defines own properties, so `__proto__` goes out as a key, not a prototype.
    .map(({ keepBase, overrides }) => Object.fromEntries([...Object.entries(keepBase && base ? base : {}), ...overrides]));
  return fc.oneof(
    { weight: base ? 1 : 4, arbitrary: fc.constant<BodyCase>({ kind: 'none' }) },
    { weight: base ? 6 : 1, arbitrary: fields.map((value): BodyCase => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: bad.map((value): BodyCase => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ text: fc.constantFrom(...MALFORMED_JSON), contentType: fc.constantFrom(...CONTENT_TYPES) })
        .map((raw): BodyCase => ({ kind: 'raw', ...raw })),
    },
  );
}

function queryArb(ep: Endpoint, r: Refs): fc.Arbitrary<string> {
  const keys = [...(ep.query ?? []), '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c][d]', 'pin[]'];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...keys), segmentArb(r)).map(([k, v]) => `?${k}=${v}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?%',
        '?a=%ZZ',
        `?${'a=1&'.repeat(2_000)}`,
        `?pin=${'9'.repeat(5_000)}`,
        '?pin=%00',
        `?pin=${PIN}&pin=1234`,
        '?tz=%00',
        '?tz=..%2F..%2Fetc%2Fpasswd',
        '?tz=Europe%2F..%2F..%2Fetc',
        '?tz=%ED%A0%80',
        '?=&=&',
      ),
    },
  );
}

function requestArb(ep: Endpoint, r: Refs): fc.Arbitrary<FuzzRequest> {
  const slotCount = ep.path.split('/').filter((seg) => seg.startsWith(':') || seg === '*').length;
  const params = Array.from({ length: slotCount }, (_, i) => ep.slots?.[i]).map((slot) =>
    slot === undefined
      ? segmentArb(r)
      : fc.oneof(
          { weight: 3, arbitrary: fc.constant(encodeSegment(r.attacker[slot])) },
          ...(BEARER_SLOTS.includes(slot) ? [] : [{ weight: 3, arbitrary: fc.constant(encodeSegment(r.victim[slot])) }]),
          { weight: 4, arbitrary: segmentArb(r) },
          // The file-name wildcard also takes raw slashes: '../../etc/passwd' as the client typed it.
          ...(ep.path.endsWith('*')
            ? [
                {
                  weight: 2,
                  arbitrary: fc.constantFrom('../../etc/passwd', '..\\..\\etc\\passwd', 'a/b/../../c', '%2e%2e/%2e%2e/etc/passwd'),
                },
              ]
            : []),
        ),
  );
  return fc
    .record({
      params: fc.tuple(...params),
      query: queryArb(ep, r),
      body: bodyArb(ep, r),
      // One request in ten goes out signed out.
      anonRoll: fc.integer({ min: 0, max: 9 }),
    })
    .map(({ params, query, body, anonRoll }): FuzzRequest => {
      const queue = [...params];
      const path = ep.path
        .split('/')
        .map((s) => (s.startsWith(':') || s === '*' ? (queue.shift() ?? '') : s))
        .join('/');
      const req: FuzzRequest = {
        method: ep.method,
        url: `${path}${query}`,
        contentType: null,
        anon: ep.anonOnly === true || anonRoll === 0,
      };
      if (body.kind === 'json') {
        req.payload = jsonText(body.value);
        req.contentType = 'application/json';
      } else if (body.kind === 'raw') {
        req.payload = body.text;
        req.contentType = body.contentType;
      }
      return req;
    });
}

// ---------- the second user's view of their own data ----------

async function snapshotOf(h: Harness): Promise<Record<string, unknown>> {
  const { client } = h.victim;
  const v = h.refs.victim;
  const out: Record<string, unknown> = {};
  for (const path of [
    '/api/auth/check-auth',
    '/api/user/getPatientProfile',
    '/api/user/family/members',
    `/api/user/family/members/${v.memberId}`,
    `/api/user/family/members/${v.memberId}/emergency-contacts`,
    `/api/user/family/members/${v.memberId}/medications`,
    `/api/user/family/members/${v.memberId}/qr`,
    '/api/user/wearable-qr',
    '/api/user/notifications',
    '/api/user/appointments',
    '/api/user/files',
    // Issue 32.
    `/api/user/people/${v.memberId}/schedules`,
    `/api/user/people/${v.memberId}/doses?from=2027-01-01&to=2027-01-31`,
    `/api/user/people/${v.memberId}/reminder-settings`,
    '/api/user/preferences',
    '/api/user/push-subscriptions',
    '/api/user/calendar-feeds',
  ]) {
    const res = await client.get(path);
    let body = res.json();
    // Opening the share link below tells its owner (once per 5 minutes): that is this snapshot's own doing.
    if (path === '/api/user/notifications') body = (body as { title: string }[]).filter((n) => n.title !== 'Shared records opened');
    out[path] = { status: res.statusCode, body };
  }
  const content = await client.get(`/api/user/files/${v.fileId}/content`);
  out.content = { status: content.statusCode, sha256: createHash('sha256').update(content.rawPayload).digest('hex') };
  const anon = new TestClient(h.t.app);
  const shared = await anon.get(`/api/shared/${v.shareToken}`);
  out.shared = { status: shared.statusCode, body: shared.json() };
  for (const [kind, id] of [
    ['emergency', v.shareId],
    ['family/emergency', v.memberShareId],
  ] as const) {
    const res = await anon.get(`/api/user/${kind}/${id}`);
    out[kind] = { status: res.statusCode, body: res.json() };
  }
  return out;
}

async function seedAccount(t: TestApp, name: string) {
  const user = await signedInUser(t.app, { username: name });
  const { client } = user;
  const ok = (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };
  ok(
    await client.put('/api/user/updateProfile', {
      name,
      date_of_birth: '1980-03-04',
      blood_type: 'O-',
      has_allergies: true,
      allergy_details: 'Penicillin',
      emergency_contacts: [{ name: `${name} contact`, phone_number: '555-0199' }],
      healthcare_providers: [{ provider_name: `Dr. ${name}` }],
      medications: [{ medication_name: 'Warfarin', dosage: '5 mg' }],
    }),
    200,
  );
  const profile = ok(await client.get('/api/user/getPatientProfile'), 200);
  const member = ok(
    await client.post('/api/user/family/add', { name: `${name} junior`, date_of_birth: '2015-01-01', relationship: 'child' }),
    201,
  );
  const memberContact = ok(
    await client.post(`/api/user/family/members/${member.id}/emergency-contacts`, { name: 'Gran', phone_number: '555-0100' }),
    201,
  );
  const memberMedication = ok(
    await client.post(`/api/user/family/members/${member.id}/medications`, { medication_name: 'Amoxicillin', dosage: '5 ml' }),
    201,
  );
  const qr = ok(await client.post('/api/user/wearable-qr', { pin: PIN }), 201);
  const memberQr = ok(await client.post(`/api/user/family/members/${member.id}/qr`, { pin: PIN }), 201);
  const appointment = ok(
    await client.post('/api/user/appointments', {
      appointment_date: '2031-01-02',
      start_time: '2031-01-02T09:00',
      provider_name: 'Dr. Lee',
      reason_for_visit: 'Checkup',
    }),
    201,
  );
  const file = ok(
    await uploadRecord(
      client,
      { filename: 'record.pdf', content: fixture('record.pdf'), contentType: 'application/pdf' },
      { customName: `${name} record` },
    ),
    201,
  );
  const link = ok(await client.post('/api/user/files/share-links', { fileIds: [file.id] }), 201);
  // A notification to toggle and hide: someone opened the emergency page with the PIN.
  expect((await new TestClient(t.app).get(`/api/user/emergency/${qr.share_id}?pin=${PIN}`)).statusCode).toBe(200);
  const notifications = ok(await client.get('/api/user/notifications'), 200) as { notification_id: string }[];
  const shl = ok(await client.post('/api/user/wearable-qr/shl'), 201);
  // Issue 32: the member's medication scheduled, one dose logged, the account's choices, a browser and a feed.
  ok(await client.put(`/api/user/people/${member.id}/medications/${memberMedication.id}/schedule`, scheduleBody), 200);
  const dose = ok(
    await client.put(`/api/user/people/${member.id}/doses/${memberMedication.id}.202701020800`, { status: 'taken' }),
    200,
  ) as { dose_id: string };
  ok(await client.put(`/api/user/people/${member.id}/reminder-settings`, { missed_dose_alerts: true }), 200);
  ok(await client.put('/api/user/preferences', { time_zone: 'America/New_York', reminder_minimal: true }), 200);
  const push = ok(await client.post('/api/user/push-subscriptions', pushSubscriptionBody()), 201) as { id: string };
  const feed = ok(await client.post('/api/user/calendar-feeds', { person_id: member.id, include_medications: true }), 201) as {
    id: string;
    url: string;
  };
  return {
    user,
    ids: {
      profileId: profile.id as string,
      contactId: profile.emergency_contacts[0].id as string,
      providerId: profile.healthcare_providers[0].id as string,
      medicationId: profile.medications[0].id as string,
      memberId: member.id as string,
      memberContactId: memberContact.id as string,
      memberMedicationId: memberMedication.id as string,
      appointmentId: appointment.id as string,
      fileId: file.id as string,
      fileName: file.name as string,
      shareLinkId: link.id as string,
      shareToken: new URL(link.url as string).pathname.split('/').pop() ?? '',
      shareId: qr.share_id as string,
      memberShareId: memberQr.share_id as string,
      notificationId: notifications[0]?.notification_id ?? '',
      manifestId: new URL(shl.payload.url as string).pathname.split('/').pop() ?? '',
      doseId: dose.dose_id,
      calendarFeedId: feed.id,
      calendarFile: new URL(feed.url).pathname.split('/').pop() ?? '',
      pushSubscriptionId: push.id,
    },
  };
}

// ---------- multipart ----------

interface MultipartCase {
  label: string;
  contentType: string;
  payload: Buffer;
  /** False when no reading of the body is a valid upload: the answer must be a 4xx. */
  mayAccept: boolean;
  fields: { name: string; value: string }[];
  [fc.toStringMethod]?: () => string;
}

function fhirBundle(name: string, allergy: string) {
  const patient = 'urn:uuid:11111111-1111-4111-8111-111111111111';
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { fullUrl: patient, resource: { resourceType: 'Patient', name: [{ text: name }], birthDate: '1975-09-30' } },
      {
        fullUrl: 'urn:uuid:a1',
        resource: {
          resourceType: 'AllergyIntolerance',
          clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
          code: { text: allergy },
          patient: { reference: patient },
        },
      },
    ],
  };
}

function multipartArb(r: Refs, file: Buffer): fc.Arbitrary<MultipartCase> {
  const fieldValue = fc.oneof(
    { weight: 4, arbitrary: anyText },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'x'.repeat(8 * 1024 + 1),
        '2024-02-30',
        'not a date',
        '9999-12-31T99:99:99Z',
        '2024-03-05',
        r.victim.memberId,
      ),
    },
  );
  const fieldName = fc.constantFrom(...UPLOAD_FIELD_NAMES, 'profileId', '__proto__', 'constructor', 'other');
  const fields = fc.array(fc.record({ name: fieldName, value: fieldValue }), { maxLength: 4 });
  const fileName = fc.oneof(
    anyText,
    fc.constantFrom(
      '../../etc/passwd',
      '..\\..\\boot.ini',
      '/etc/shadow',
      'C:\\temp\\x.pdf',
      `${'x'.repeat(300)}.pdf`,
      '.pdf',
      '<img src=x onerror=alert(1)>.pdf',
    ),
  );
  const boundary = fc.constantFrom('kinchartFuzz', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'x'.repeat(70));
  const fileOf = (filename: string, content = file): Part => ({ name: 'file', filename, content, contentType: 'application/pdf' });
  const make = (
    label: string,
    parts: Part[],
    mayAccept: boolean,
    opts: { boundary?: string; contentType?: string; change?: (body: Buffer) => Buffer } = {},
  ): MultipartCase => {
    const built = multipartBody(parts, opts.boundary);
    const payload = opts.change ? opts.change(built.payload) : built.payload;
    const fieldParts = parts.filter((p): p is { name: string; value: string } => 'value' in p);
    const mp: MultipartCase = {
      label,
      contentType: opts.contentType ?? built.headers['content-type'],
      payload,
      mayAccept,
      fields: fieldParts,
    };
    mp[fc.toStringMethod] = () => `${label} [${mp.contentType}] ${preview(payload)}`;
    return mp;
  };
  const elf = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(64, 0x90)]);
  return fc.oneof(
    // Well-formed, with the file first or last: a 201 or a 4xx for the fields' sake.
    fc
      .record({ filename: fileName, fields, fileFirst: fc.boolean(), boundary })
      .map(({ filename, fields: f, fileFirst, boundary: b }) =>
        make('well-formed', fileFirst ? [fileOf(filename), ...f] : [...f, fileOf(filename)], true, { boundary: b }),
      ),
    fields.map((f) => make('no file part', f, false)),
    fields.map((f) => make('no boundary in the header', [fileOf('a.pdf'), ...f], false, { contentType: 'multipart/form-data' })),
    fields.map((f) =>
      make('another boundary in the header', [fileOf('a.pdf'), ...f], false, {
        contentType: 'multipart/form-data; boundary=somethingElse',
      }),
    ),
    fields.map((f) => make('empty boundary', [fileOf('a.pdf'), ...f], false, { contentType: 'multipart/form-data; boundary=' })),
    fc
      .record({ f: fields, cut: fc.integer({ min: 0, max: 95 }) })
      .map(({ f, cut }) =>
        make(`cut at ${cut}%`, [fileOf('a.pdf'), ...f], false, { change: (b) => b.subarray(0, Math.floor((b.length * cut) / 100)) }),
      ),
    fc
      .constantFrom(8 * 1024 + 1, 2 * BODY_LIMIT)
      .map((n) => make(`customName of ${n} bytes`, [fileOf('a.pdf'), { name: 'customName', value: 'n'.repeat(n) }], false)),
    fc.constant(make('13 fields', [fileOf('a.pdf'), ...Array.from({ length: 13 }, (_, i) => ({ name: `f${i}`, value: 'x' }))], false)),
    fc.constant(make('two files', [fileOf('a.pdf'), fileOf('b.pdf')], false)),
    fc.constant(
      make('file in another field', [{ name: 'document', filename: 'a.pdf', content: file, contentType: 'application/pdf' }], false),
    ),
    fc.constant(make('an executable', [fileOf('a.pdf', elf)], false)),
    fc.constant(make('over the size limit', [fileOf('big.pdf', Buffer.concat([file, Buffer.alloc(BODY_LIMIT + 1, 0x20)]))], false)),
    fc.constant(
      make('LF line endings', [fileOf('a.pdf')], false, {
        change: (b) => Buffer.from(b.toString('latin1').replaceAll('\r\n', '\n'), 'latin1'),
      }),
    ),
    fc
      .uint8Array({ maxLength: 256 })
      .map((bytes) => make('garbage', [], false, { contentType: 'multipart/form-data; boundary=zzz', change: () => Buffer.from(bytes) })),
    fc.constant(
      make('preamble before the first boundary', [fileOf('a.pdf')], true, {
        change: (b) => Buffer.concat([Buffer.from('junk before the body\r\n'), b]),
      }),
    ),
  );
}

/** Sends one multipart case and checks the answer; returns its status. */
async function expectUpload(h: Harness, url: string, mp: MultipartCase): Promise<number> {
  const req: FuzzRequest = { method: 'POST', url, contentType: mp.contentType, payload: mp.payload, anon: false };
  const res = await send(h, req);
  expectHandled(req, res);
  const what = `${mp.label}: ${describeRequest(req)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  if (!mp.mayAccept) expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
  if (res.statusCode !== 201) return res.statusCode;
  const record = res.json();
  // The uploader's name is metadata only: no path and no control characters survive.
  // eslint-disable-next-line no-control-regex
  expect(record.originalname, what).not.toMatch(/[/\\\u0000-\u001f]/);
  if (url === '/api/user/files') {
    // The record name is the last customName as it went over the wire (UTF-8), trimmed.
    const sent = mp.fields.filter((f) => f.name === 'customName').pop()?.value ?? '';
    const wire = Buffer.from(sent, 'utf8').toString('utf8').trim();
    expect(record.name, what).toBe(wire || record.originalname);
  }
  return res.statusCode;
}

// ---------- the suite ----------

describe('bad input at scale', () => {
  let h: Harness;
  // FUZZ_STATS=1 prints what each property's requests were answered, to see how deep they got.
  const stats = new Map<string, Record<number, number>>();
  const count = (key: string, status: number) => {
    const row = stats.get(key) ?? {};
    row[status] = (row[status] ?? 0) + 1;
    stats.set(key, row);
  };

  beforeAll(async () => {
    // MAX_UPLOAD_MB=1 so an oversize file is cheap to send.
    const t = await buildTestApp({
      MAX_UPLOAD_MB: '1',
      PUSH_ALLOWED_HOSTS: PUSH_HOST,
      ...(process.env.FUZZ_LOG ? { LOG_LEVEL: 'error' } : {}),
    });
    const victim = await seedAccount(t, 'Victim');
    const attacker = await seedAccount(t, 'Attacker');
    const v = victim.ids;
    const a = attacker.ids;
    const refs: Refs = {
      victim: v,
      attacker: a,
      // Not the victim's share ids or link token: whoever holds those may try PINs and open the
      // link by design (DESIGN §7), and the owner hears about it.
      victimIds: [
        v.profileId,
        v.contactId,
        v.providerId,
        v.medicationId,
        v.memberId,
        v.memberContactId,
        v.memberMedicationId,
        v.appointmentId,
        v.fileId,
        v.fileName,
        v.shareLinkId,
        victim.user.id,
        v.notificationId,
        v.doseId,
        v.calendarFeedId,
        v.pushSubscriptionId,
      ],
      attackerIds: [
        a.memberId,
        a.fileId,
        a.shareId,
        a.memberShareId,
        a.medicationId,
        a.providerId,
        a.contactId,
        a.memberContactId,
        a.memberMedicationId,
        a.appointmentId,
        a.shareLinkId,
        a.shareToken,
        a.notificationId,
        a.manifestId,
        a.doseId,
        a.calendarFeedId,
        a.calendarFile,
      ],
    };
    h = { t, victim: victim.user, attacker: attacker.user, refs, before: {} };
    h.before = await snapshotOf(h);
  }, 120_000);

  afterAll(async () => {
    await h?.t.close();
  });

  for (const ep of ENDPOINTS) {
    it(`${ep.method} ${ep.path} answers every bad request without a 5xx`, async () => {
      await check(
        requestArb(ep, h.refs),
        async (req) => {
          const res = await send(h, req);
          count(`${ep.method} ${ep.path}`, res.statusCode);
          expectHandled(req, res);
          // Beyond the 1 MiB body limit a JSON body is refused as too large, before any handler runs.
          const bytes = req.payload === undefined ? 0 : Buffer.byteLength(req.payload);
          if (!req.anon && req.method !== 'GET' && req.contentType === 'application/json' && bytes > BODY_LIMIT) {
            expect(res.statusCode, describeRequest(req)).toBe(413);
          }
        },
        ep.runs,
      );
    });
  }

  it('the list above names only routes the app registers, and the app registers every one of SPEC §7', () => {
    const registered = new Set(registeredRoutes(h.t.app).map((route) => `${route.method} ${route.path}`));
    for (const ep of ENDPOINTS) expect(registered, `${ep.method} ${ep.path}`).toContain(`${ep.method} ${ep.path}`);
  });

  it('routes added since the list above was written are fuzzed too, without a body to start from', async () => {
    const listed = new Set(ENDPOINTS.map((ep) => `${ep.method} ${ep.path}`));
    // The notification stream never ends by itself (server-sent events, DESIGN §7): it has its own
    // suite over a real connection (notifications-stream.test.ts).
    listed.add('GET /api/user/notifications/stream');
    for (const route of registeredRoutes(h.t.app).filter((r) => !listed.has(`${r.method} ${r.path}`))) {
      await check(
        requestArb(route, h.refs),
        async (req) => {
          const res = await send(h, req);
          count(`unlisted ${route.method} ${route.path}`, res.statusCode);
          expectHandled(req, res);
        },
        10,
      );
    }
  });

  it('POST /api/user/files answers malformed multipart (bad boundaries, no file part, huge fields) with a 4xx', async () => {
    await check(
      multipartArb(h.refs, fixture('record.pdf')),
      async (mp) => count('multipart POST /api/user/files', await expectUpload(h, '/api/user/files', mp)),
      25,
    );
  });

  it('POST /api/user/upload answers malformed multipart with a 4xx', async () => {
    await check(
      multipartArb(h.refs, fixture('pixel.png')),
      async (mp) => count('multipart POST /api/user/upload', await expectUpload(h, '/api/user/upload', mp)),
      10,
    );
  });

  it('POST /api/user/import answers malformed archives, bundles and multipart with a 4xx', async () => {
    const importable = fc.oneof(
      fc.constantFrom(
        Buffer.from('PK\u0003\u0004 not really a zip', 'latin1'),
        Buffer.from('{"resourceType":"Bundle"', 'utf8'),
        Buffer.from(`${'['.repeat(50_000)}${']'.repeat(50_000)}`, 'utf8'),
        Buffer.from('{"resourceType":"Bundle","type":"collection","entry":[{"__proto__":{"polluted":"yes"}}]}', 'utf8'),
        fixture('record.pdf'),
      ),
      fc.tuple(anyText, anyText).map(([name, allergy]) => Buffer.from(JSON.stringify(fhirBundle(name, allergy)), 'utf8')),
    );
    const arb = fc.record({
      content: importable,
      target: fc.oneof(
        fc.constantFrom('self', h.refs.victim.memberId, h.refs.attacker.memberId, 'nul\u0000inside', '../../etc/passwd'),
        anyText,
      ),
      broken: fc.boolean(),
      mp: multipartArb(h.refs, Buffer.alloc(0)),
    });
    await check(
      arb,
      async ({ content, target, broken, mp }) => {
        // Half the cases are the well-formed call with bad contents; the rest are broken multipart.
        const wellFormed = multipartBody([
          { name: 'profileId', value: target },
          { name: 'file', filename: 'import.json', content, contentType: 'application/json' },
        ]);
        const req: FuzzRequest = broken
          ? { method: 'POST', url: '/api/user/import', contentType: mp.contentType, payload: mp.payload, anon: false }
          : {
              method: 'POST',
              url: '/api/user/import',
              contentType: wellFormed.headers['content-type'],
              payload: wellFormed.payload,
              anon: false,
            };
        const res = await send(h, req);
        count('multipart POST /api/user/import', res.statusCode);
        expectHandled(req, res);
        if (broken && !mp.mayAccept) expect(res.statusCode, describeRequest(req)).toBeGreaterThanOrEqual(400);
        // A victim's family member is not a place the attacker can import into.
        if (!broken && target === h.refs.victim.memberId) expect(res.statusCode, describeRequest(req)).toBeGreaterThanOrEqual(400);
      },
      15,
    );
  });

  it('every endpoint that reads a body answers 413 to one over 1 MiB', async () => {
    const oversize = jsonText({ name: new Huge('a', BODY_LIMIT + 1) });
    for (const ep of ENDPOINTS.filter((e) => e.method !== 'GET')) {
      const url = ep.path.replace(/:[A-Za-z_]+|\*/g, h.refs.attacker.memberId);
      const req: FuzzRequest = { method: ep.method, url, contentType: 'application/json', payload: oversize, anon: false };
      const res = await send(h, req);
      expectHandled(req, res);
      expect(res.statusCode, describeRequest(req)).toBe(413);
    }
  });

  it('traversal and junk in the URL itself answer 4xx', async () => {
    const paths = fc.oneof(
      fc.constantFrom(
        '/api/../../etc/passwd',
        '/api/%2e%2e/%2e%2e/etc/passwd',
        '/..%2f..%2fetc%2fpasswd',
        '/api/user/files/..%2F..%2F..%2Fetc%2Fpasswd/content',
        '/api/user//files',
        '/api/user/files/%00/content',
        '/api/user/getPatientProfile%00',
        '/api/user/getPatientProfile/..',
        '/api/user/%ED%A0%80',
        '/api/shared/%2e%2e%2fuser%2ffiles',
        `/api/${'a/'.repeat(2_000)}`,
        '/api/__proto__/constructor',
      ),
      fc.array(segmentArb(h.refs), { minLength: 1, maxLength: 4 }).map((segs) => `/api/${segs.join('/')}`),
    );
    await check(
      fc.record({ path: paths, method: fc.constantFrom<Method>('GET', 'POST', 'PUT', 'DELETE'), anonRoll: fc.integer({ min: 0, max: 3 }) }),
      async ({ path, method, anonRoll }) => {
        const req: FuzzRequest = { method, url: path, contentType: null, anon: anonRoll === 0 };
        const res = await send(h, req);
        count('URL junk', res.statusCode);
        expectHandled(req, res);
        expect(res.statusCode, describeRequest(req)).toBeGreaterThanOrEqual(400);
      },
      25,
    );
  });

  it('everything the fuzzer managed to store reads back without a 5xx, and its export has safe names', async () => {
    const { client } = h.attacker;
    const member = await client.get('/api/user/family/members');
    expect(member.statusCode).toBe(200);
    const paths = [
      '/api/auth/check-auth',
      '/api/user/getPatientProfile',
      '/api/user/wearable-qr',
      '/api/user/notifications',
      '/api/user/appointments',
      '/api/user/appointments.ics',
      '/api/user/files',
      '/api/user/preferences',
      '/api/user/push-subscriptions',
      '/api/user/calendar-feeds',
      ...member
        .json<{ id: string }[]>()
        .flatMap((m) => [
          `/api/user/family/members/${m.id}`,
          `/api/user/family/members/${m.id}/qr`,
          `/api/user/people/${m.id}/schedules`,
          `/api/user/people/${m.id}/doses?from=2027-01-01&to=2027-01-31`,
          `/api/user/people/${m.id}/adherence?days=30`,
        ]),
    ];
    for (const path of paths) {
      const res = await client.get(path);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
    }
    const zip = await client.get('/api/user/export');
    expect(zip.statusCode, zip.body.slice(0, 300)).toBe(200);
    // yauzl's strictFileNames refuses absolute paths, backslashes and '..' segments.
    const entries = await readZip(zip.rawPayload);
    for (const name of entries.keys()) expect(name.split('/')).not.toContain('..');
  });

  it("another user's data is exactly as it was", async () => {
    expect(await snapshotOf(h)).toEqual(h.before);
  });

  it('no request polluted a prototype', () => {
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    expect(probe.isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Array.prototype).not.toHaveProperty('polluted');
  });

  it('a NUL or an unpaired surrogate in an id, a query, a JSON body or a form field is a 400 (PostgreSQL answered 500)', async () => {
    const { client } = h.attacker;
    const id = h.refs.attacker.memberId;
    const cases: [string, () => Promise<LightMyRequestResponse>][] = [
      ['id with NUL', () => client.get('/api/user/family/members/a%00b')],
      ['id with a lone surrogate', () => client.delete(`/api/user/appointments/x${encodeSegment('\uD800')}`)],
      ['file name with NUL', () => client.delete('/api/user/files/report%00.pdf')],
      ['query with NUL', () => client.get('/api/user/appointments.ics?tz=%00')],
      ['JSON text with NUL', () => client.post('/api/user/emergency-contacts', { name: 'Sam\u0000', phone_number: '555' })],
      ['JSON text with a lone surrogate', () => client.put('/api/user/updateProfile', { name: 'Sam\uD800' })],
      [
        'nested JSON with NUL',
        () =>
          client.put(`/api/user/family/members/${id}`, {
            ...memberBody(h.refs),
            medications: [{ medication_name: 'a\u0000', dosage: '1' }],
          }),
      ],
      ['a client id with NUL', () => client.post('/api/user/medications', { medication_id: '\u0000', medication_name: 'x' })],
      [
        'import target with NUL',
        () => {
          const { payload, headers } = multipartBody([
            { name: 'profileId', value: 'a\u0000b' },
            {
              name: 'file',
              filename: 'i.json',
              content: Buffer.from(JSON.stringify(fhirBundle('Sam', 'Latex'))),
              contentType: 'application/json',
            },
          ]);
          return client.post('/api/user/import', payload, { headers });
        },
      ],
      [
        'form field with NUL',
        () =>
          uploadRecord(
            client,
            { filename: 'r.pdf', content: fixture('record.pdf'), contentType: 'application/pdf' },
            { customName: 'nul\u0000name' },
          ),
      ],
    ];
    for (const [label, call] of cases) {
      const res = await call();
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      // The router itself refuses a URL that is not UTF-8 (a lone surrogate), with its own message.
      if (label !== 'id with a lone surrogate')
        expect(res.json().message, label).toBe('Text must not contain NUL characters or unpaired surrogates');
    }
  });

  afterAll(() => {
    if (!process.env.FUZZ_STATS) return;
    for (const [key, row] of stats) console.info(`${key.padEnd(70)} ${JSON.stringify(row)}`);
  });
});

// ---------- round trips ----------

/** Text near each field's limits, with the padding that trimming removes and the nasty cases above. */
const storedText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: anyText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'x'.repeat(200),
      'x'.repeat(201),
      ` ${'x'.repeat(199)} `,
      `${' '.repeat(5)}${'y'.repeat(200)}`,
      'z'.repeat(255),
      'z'.repeat(256),
      'r'.repeat(1_001),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(' ', '\t', '\n', '\u00A0', '\uFEFF', '\u3000'), anyText)
      .map(([pad, text]) => `${pad}${text}${pad}`),
  },
);

// What no database keeps as sent: NUL (PostgreSQL refuses it), unpaired surrogates (no UTF-8 form).
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What the server must keep of `text`, or undefined when it must refuse it (400). Schemas trim;
 * `optional` fields check their limit before trimming and store '' as null, `required` ones
 * trim first and refuse ''.
 */
function expectedStored(text: string, max: number, mode: 'optional' | 'required'): string | null | undefined {
  if (UNSTORABLE.test(text)) return undefined;
  const trimmed = text.trim();
  if (mode === 'optional') return text.length > max ? undefined : trimmed === '' ? null : trimmed;
  return trimmed === '' || trimmed.length > max ? undefined : trimmed;
}

/** The same for a name: stored without invisible format characters (decision 0013); a NUL is still refused first. */
function expectedName(text: string, max: number, mode: 'optional' | 'required'): string | null | undefined {
  if (UNSTORABLE.test(text)) return undefined;
  if (mode === 'optional' && text.length > max) return undefined;
  return expectedStored(stripInvisible(text), max, mode);
}

describe('text that is accepted comes back exactly as it was stored', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let fileId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await signedInUser(t.app);
    const file = await uploadRecord(user.client, {
      filename: 'record.pdf',
      content: fixture('record.pdf'),
      contentType: 'application/pdf',
    });
    expect(file.statusCode).toBe(201);
    fileId = file.json().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A 2xx exactly when every text is acceptable, else a 400; true when there is something to read back. */
  function accepted(res: LightMyRequestResponse, expectations: (string | null | undefined)[], what: string): boolean {
    const ok = expectations.every((e) => e !== undefined);
    if (ok) expect([200, 201], `${what} → ${res.body.slice(0, 300)}`).toContain(res.statusCode);
    else expect(res.statusCode, `${what} → ${res.body.slice(0, 300)}`).toBe(400);
    return ok;
  }

  it('profile name and details (PUT /api/user/updateProfile, POST /api/user/profile)', async () => {
    await check(
      fc.record({ name: storedText, details: storedText, via: fc.constantFrom('update', 'basic') }),
      async ({ name, details, via }) => {
        const { client } = user;
        if (via === 'update') {
          const body = { name, allergy_details: details, has_allergies: true, religious_restrictions: details };
          const want = [expectedName(name, 200, 'optional'), expectedStored(details, 5000, 'optional')];
          if (!accepted(await client.put('/api/user/updateProfile', body), want, JSON.stringify(body))) return;
          const profile = (await client.get('/api/user/getPatientProfile')).json();
          expect(profile.name).toBe(want[0]);
          expect(profile.allergy_details).toBe(want[1]);
          expect(profile.religious_restrictions).toBe(want[1]);
        } else {
          const body = { name, address: details };
          const want = [expectedName(name, 200, 'required'), expectedStored(details, 500, 'optional')];
          if (!accepted(await client.post('/api/user/profile', body), want, JSON.stringify(body))) return;
          const profile = (await client.get('/api/user/getPatientProfile')).json();
          expect(profile.name).toBe(want[0]);
          expect(profile.address).toBe(want[1]);
        }
      },
      25,
    );
  });

  it('emergency contact names (POST /api/user/emergency-contacts)', async () => {
    await check(
      fc.record({ name: storedText, relationship: storedText }),
      async ({ name, relationship }) => {
        const body = { name, relationship, phone_number: '555-0100' };
        const want = [expectedName(name, 200, 'required'), expectedStored(relationship, 100, 'optional')];
        const res = await user.client.post('/api/user/emergency-contacts', body);
        if (!accepted(res, want, JSON.stringify(body))) return;
        const created = res.json();
        expect(created.name).toBe(want[0]);
        const stored = (await user.client.get('/api/user/getPatientProfile'))
          .json()
          .emergency_contacts.find((c: { id: string }) => c.id === created.id);
        expect(stored?.name).toBe(want[0]);
        expect(stored?.relationship).toBe(want[1]);
      },
      25,
    );
  });

  it('appointment reasons (POST /api/user/appointments)', async () => {
    await check(
      fc.record({ reason: storedText, location: storedText }),
      async ({ reason, location }) => {
        const body = { appointment_date: '2031-04-05', provider_name: 'Dr. Lee', reason_for_visit: reason, location };
        const want = [expectedStored(reason, 1000, 'optional'), expectedStored(location, 500, 'optional')];
        const res = await user.client.post('/api/user/appointments', body);
        if (!accepted(res, want, JSON.stringify(body))) return;
        const stored = (await user.client.get('/api/user/appointments')).json().find((a: { id: string }) => a.id === res.json().id);
        expect(stored?.reason_for_visit).toBe(want[0]);
        expect(stored?.location).toBe(want[1]);
      },
      25,
    );
  });

  it('file names (PUT /api/user/files/{id} newName)', async () => {
    await check(
      storedText,
      async (newName) => {
        const want = [expectedName(newName, 255, 'required')];
        const res = await user.client.put(`/api/user/files/${fileId}`, { newName });
        if (!accepted(res, want, JSON.stringify({ newName }))) return;
        expect(res.json().name).toBe(want[0]);
        const stored = (await user.client.get('/api/user/files')).json().find((f: { id: string }) => f.id === fileId);
        expect(stored?.name).toBe(want[0]);
        expect(stored?.display_name).toBe(want[0]);
      },
      25,
    );
  });
});
