import { z } from 'zod';

// Validation of an imported FHIR R4 Bundle, resource by resource (DESIGN §12, decision 0022). Only
// a file that is not a Bundle at all is refused whole (decision 0004: a clear message, nothing
// changed). Every resource Kinchart reads is checked against the R4 rules that matter for reading
// it — required elements (cardinality 1..*), value sets of the status codes, and the formats of the
// primitive types (regular expressions from the R4 specification,
// http://hl7.org/fhir/R4/datatypes.html); one that fails is left out and reported with the element
// and the rule, and the rest of the bundle is read. Resources Kinchart does not read only need a
// resourceType. Unknown elements are tolerated (FHIR readers must ignore what they do not
// understand only for extensions, but leaving out a clinician's result over one is not what a
// patient wants) — except a bare `value`, which is always a misspelt value[x].
// A resource whose identity is valid (what it is about: its code, medication, status, subject,
// value) but with another element malformed — a dose written as text — is kept without that
// element, and the element is named as a part left out (issue 30; `IDENTITY` below).

const YEAR = '([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)';
const TIME = 'T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?(Z|(\\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))';
const DATE_RE = new RegExp(`^${YEAR}(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?$`);
const DATETIME_RE = new RegExp(`^${YEAR}(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(${TIME})?)?)?$`);
const INSTANT_RE = new RegExp(`^${YEAR}-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])${TIME}$`);
const CODE_RE = /^[^\s]+(\s[^\s]+)*$/;

const fstring = z.string().regex(/\S/, 'must not be empty');
const code = z.string().regex(CODE_RE, 'must be a FHIR code');
const uri = z.string().regex(/^\S*$/, 'must be a URI');
const date = z.string().regex(DATE_RE, 'must be a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD)');
const dateTime = z.string().regex(DATETIME_RE, 'must be a FHIR dateTime');
const instant = z.string().regex(INSTANT_RE, 'must be a FHIR instant (date, time and zone)');
// FHIR base64Binary: groups of four base64 characters, whitespace allowed between them. Checked in
// linear time on the text without whitespace: FHIR's own pattern, `(\s*([0-9a-zA-Z\+\=]){4}\s*)+`,
// backtracks exponentially on lines of whitespace-separated groups (DESIGN §3).
const BASE64_CHARS = /^[0-9a-zA-Z+/=]+$/;
export function isFhirBase64(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return compact.length > 0 && compact.length % 4 === 0 && BASE64_CHARS.test(compact);
}
const base64 = z.string().refine(isFhirBase64, 'must be base64');

const coding = z.object({ system: uri.optional(), code: code.optional(), display: fstring.optional() });
const codeableConcept = z.object({ coding: z.array(coding).optional(), text: fstring.optional() });
const reference = z.object({ reference: fstring.optional(), display: fstring.optional() });
const period = z.object({ start: dateTime.optional(), end: dateTime.optional() });
const annotation = z.object({ text: z.string() });
const quantity = z.object({
  value: z.number().optional(),
  comparator: z.enum(['<', '<=', '>=', '>']).optional(),
  unit: fstring.optional(),
  system: uri.optional(),
  code: code.optional(),
});
const range = z.object({ low: quantity.optional(), high: quantity.optional() });
const humanName = z.object({
  use: code.optional(),
  text: fstring.optional(),
  family: fstring.optional(),
  given: z.array(fstring).optional(),
  prefix: z.array(fstring).optional(),
  suffix: z.array(fstring).optional(),
});
const contactPoint = z.object({
  system: z.enum(['phone', 'fax', 'email', 'pager', 'url', 'sms', 'other']).optional(),
  value: fstring.optional(),
  use: code.optional(),
  rank: z.number().int().positive().optional(),
});
const address = z.object({
  text: fstring.optional(),
  line: z.array(fstring).optional(),
  city: fstring.optional(),
  district: fstring.optional(),
  state: fstring.optional(),
  postalCode: fstring.optional(),
  country: fstring.optional(),
});
const extension = z.object({ url: uri });
const attachment = z.object({
  contentType: code.optional(),
  data: base64.optional(),
  url: z.string().optional(),
  size: z.number().int().min(0).optional(),
  title: fstring.optional(),
  creation: dateTime.optional(),
});
/** Contained resources are read only where Kinchart looks for them (a contained Medication). */
const contained = z.array(z.object({ resourceType: z.string(), id: z.string().optional() }).loose());
/** R4 Dosage, as far as a medication list can say it: text, timing, dose, as needed. */
const dosage = z.object({
  text: fstring.optional(),
  timing: z
    .object({
      code: codeableConcept.optional(),
      repeat: z
        .object({
          boundsPeriod: period.optional(),
          count: z.number().int().positive().optional(),
          frequency: z.number().int().positive().optional(),
          frequencyMax: z.number().int().positive().optional(),
          period: z.number().positive().optional(),
          periodMax: z.number().positive().optional(),
          periodUnit: z.enum(['s', 'min', 'h', 'd', 'wk', 'mo', 'a']).optional(),
        })
        .optional(),
    })
    .optional(),
  asNeededBoolean: z.boolean().optional(),
  asNeededCodeableConcept: codeableConcept.optional(),
  doseAndRate: z.array(z.object({ doseQuantity: quantity.optional(), doseRange: range.optional() })).optional(),
});
/** A bare `value` is not an element of Observation: a sender meant one of the value[x] choices. */
const noBareValue = z
  .never({
    error: 'is not an element of Observation; a value goes in valueQuantity, valueString, valueCodeableConcept or another value[x]',
  })
  .optional();
const observationValue = {
  value: noBareValue,
  valueQuantity: quantity.optional(),
  valueCodeableConcept: codeableConcept.optional(),
  valueString: z.string().optional(),
  valueBoolean: z.boolean().optional(),
  valueInteger: z.number().int().optional(),
  valueRange: range.optional(),
  valueRatio: z.object({}).loose().optional(),
  valueSampledData: z.object({}).loose().optional(),
  valueTime: z.string().optional(),
  valueDateTime: dateTime.optional(),
  valuePeriod: period.optional(),
  dataAbsentReason: codeableConcept.optional(),
  interpretation: z.array(codeableConcept).optional(),
  referenceRange: z.array(z.object({ low: quantity.optional(), high: quantity.optional(), text: z.string().optional() })).optional(),
};

const patientSchema = z.object({
  resourceType: z.literal('Patient'),
  id: z.string().optional(),
  name: z.array(humanName).optional(),
  birthDate: date.optional(),
  telecom: z.array(contactPoint).optional(),
  address: z.array(address).optional(),
  communication: z.array(z.object({ language: codeableConcept, preferred: z.boolean().optional() })).optional(),
  contact: z
    .array(
      z.object({
        relationship: z.array(codeableConcept).optional(),
        name: humanName.optional(),
        telecom: z.array(contactPoint).optional(),
      }),
    )
    .optional(),
  generalPractitioner: z.array(reference).optional(),
  extension: z.array(extension).optional(),
});

const enteredInError = (cc: { coding?: { code?: string | undefined }[] | undefined } | undefined) =>
  !!cc?.coding?.some((c) => c.code === 'entered-in-error');

const allergySchema = z
  .object({
    resourceType: z.literal('AllergyIntolerance'),
    clinicalStatus: codeableConcept.optional(),
    verificationStatus: codeableConcept.optional(),
    category: z.array(z.enum(['food', 'medication', 'environment', 'biologic'])).optional(),
    code: codeableConcept.optional(),
    patient: reference,
    criticality: z.enum(['low', 'high', 'unable-to-assess']).optional(),
    reaction: z
      .array(
        z.object({
          manifestation: z.array(codeableConcept).min(1, 'needs at least one manifestation'),
          severity: z.enum(['mild', 'moderate', 'severe']).optional(),
        }),
      )
      .optional(),
  })
  // Invariant ait-1.
  .refine((a) => !!a.clinicalStatus || enteredInError(a.verificationStatus), {
    message: 'is required unless verificationStatus is entered-in-error (ait-1)',
    path: ['clinicalStatus'],
  });

const conditionSchema = z.object({
  resourceType: z.literal('Condition'),
  clinicalStatus: codeableConcept.optional(),
  verificationStatus: codeableConcept.optional(),
  category: z.array(codeableConcept).optional(),
  code: codeableConcept.optional(),
  subject: reference,
  onsetDateTime: dateTime.optional(),
  onsetPeriod: period.optional(),
  onsetString: fstring.optional(),
  abatementDateTime: dateTime.optional(),
  abatementPeriod: period.optional(),
  abatementString: fstring.optional(),
  note: z.array(annotation).optional(),
});

const medicationSchema = z.object({ resourceType: z.literal('Medication'), id: z.string().optional(), code: codeableConcept.optional() });

const exactlyOneMedication = {
  check: (m: { medicationCodeableConcept?: unknown; medicationReference?: unknown }) =>
    !!m.medicationCodeableConcept !== !!m.medicationReference,
  message: { message: 'needs exactly one of medicationCodeableConcept and medicationReference', path: ['medication[x]'] },
};

const medicationStatementSchema = z
  .object({
    resourceType: z.literal('MedicationStatement'),
    status: z.enum(['active', 'completed', 'entered-in-error', 'intended', 'stopped', 'on-hold', 'unknown', 'not-taken']),
    contained: contained.optional(),
    medicationCodeableConcept: codeableConcept.optional(),
    medicationReference: reference.optional(),
    subject: reference,
    effectiveDateTime: dateTime.optional(),
    effectivePeriod: period.optional(),
    reasonCode: z.array(codeableConcept).optional(),
    reasonReference: z.array(reference).optional(),
    dosage: z.array(dosage).optional(),
  })
  .refine(exactlyOneMedication.check, exactlyOneMedication.message);

const medicationRequestSchema = z
  .object({
    resourceType: z.literal('MedicationRequest'),
    status: z.enum(['active', 'on-hold', 'cancelled', 'completed', 'entered-in-error', 'stopped', 'draft', 'unknown']),
    intent: z.enum(['proposal', 'plan', 'order', 'original-order', 'reflex-order', 'filler-order', 'instance-order', 'option']),
    contained: contained.optional(),
    medicationCodeableConcept: codeableConcept.optional(),
    medicationReference: reference.optional(),
    subject: reference,
    authoredOn: dateTime.optional(),
    reasonCode: z.array(codeableConcept).optional(),
    reasonReference: z.array(reference).optional(),
    dosageInstruction: z.array(dosage).optional(),
    dispenseRequest: z.object({ validityPeriod: period.optional() }).optional(),
  })
  .refine(exactlyOneMedication.check, exactlyOneMedication.message);

const observationSchema = z.object({
  resourceType: z.literal('Observation'),
  status: z.enum(['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown']),
  category: z.array(codeableConcept).optional(),
  code: codeableConcept,
  subject: reference.optional(),
  effectiveDateTime: dateTime.optional(),
  effectivePeriod: period.optional(),
  effectiveInstant: instant.optional(),
  issued: instant.optional(),
  note: z.array(annotation).optional(),
  hasMember: z.array(reference).optional(),
  ...observationValue,
  component: z.array(z.object({ code: codeableConcept, ...observationValue })).optional(),
});

const immunizationSchema = z
  .object({
    resourceType: z.literal('Immunization'),
    status: z.enum(['completed', 'entered-in-error', 'not-done']),
    vaccineCode: codeableConcept,
    patient: reference,
    occurrenceDateTime: dateTime.optional(),
    occurrenceString: fstring.optional(),
    /** A date said to be unknown: the element's extension (data-absent-reason) with no value. */
    _occurrenceDateTime: z.object({ extension: z.array(z.unknown()).min(1) }).optional(),
    lotNumber: fstring.optional(),
    site: codeableConcept.optional(),
    performer: z.array(z.object({ actor: reference })).optional(),
    note: z.array(annotation).optional(),
    protocolApplied: z
      .array(
        z.object({
          series: fstring.optional(),
          doseNumberPositiveInt: z.number().int().positive().optional(),
          doseNumberString: fstring.optional(),
        }),
      )
      .optional(),
  })
  // R4 requires occurrence[x]; IPS allows it to be absent with a reason (a date nobody knows).
  .refine((i) => i.occurrenceDateTime !== undefined || i.occurrenceString !== undefined || i._occurrenceDateTime !== undefined, {
    message: 'is required',
    path: ['occurrence[x]'],
  });

const procedureSchema = z.object({
  resourceType: z.literal('Procedure'),
  status: z.enum(['preparation', 'in-progress', 'not-done', 'on-hold', 'stopped', 'completed', 'entered-in-error', 'unknown']),
  code: codeableConcept.optional(),
  subject: reference,
  performedDateTime: dateTime.optional(),
  performedPeriod: period.optional(),
  performedString: fstring.optional(),
  performer: z.array(z.object({ actor: reference })).optional(),
  note: z.array(annotation).optional(),
});

const encounterSchema = z.object({
  resourceType: z.literal('Encounter'),
  status: z.enum(['planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished', 'cancelled', 'entered-in-error', 'unknown']),
  class: coding,
  type: z.array(codeableConcept).optional(),
  subject: reference.optional(),
  period: period.optional(),
  reasonCode: z.array(codeableConcept).optional(),
  location: z.array(z.object({ location: reference })).optional(),
  serviceProvider: reference.optional(),
});

const diagnosticReportSchema = z.object({
  resourceType: z.literal('DiagnosticReport'),
  status: z.enum([
    'registered',
    'partial',
    'preliminary',
    'final',
    'amended',
    'corrected',
    'appended',
    'cancelled',
    'entered-in-error',
    'unknown',
  ]),
  code: codeableConcept,
  subject: reference.optional(),
  encounter: reference.optional(),
  effectiveDateTime: dateTime.optional(),
  effectivePeriod: period.optional(),
  issued: instant.optional(),
  performer: z.array(reference).optional(),
  conclusion: z.string().optional(),
  presentedForm: z.array(attachment).optional(),
});

const appointmentSchema = z
  .object({
    resourceType: z.literal('Appointment'),
    status: z.enum([
      'proposed',
      'pending',
      'booked',
      'arrived',
      'fulfilled',
      'cancelled',
      'noshow',
      'entered-in-error',
      'checked-in',
      'waitlist',
    ]),
    description: fstring.optional(),
    reasonCode: z.array(codeableConcept).optional(),
    start: instant.optional(),
    end: instant.optional(),
    comment: fstring.optional(),
    participant: z
      .array(z.object({ actor: reference.optional(), status: z.enum(['accepted', 'declined', 'tentative', 'needs-action']) }))
      .min(1, 'needs at least one participant'),
  })
  // Invariants app-2 and app-3.
  .refine((a) => !!a.start === !!a.end, { message: 'start and end must both be given, or neither (app-2)', path: ['end'] })
  .refine((a) => !!a.start || ['proposed', 'cancelled', 'waitlist'].includes(a.status), {
    message: 'is required unless the appointment is proposed, cancelled or on the waitlist (app-3)',
    path: ['start'],
  });

const documentReferenceSchema = z.object({
  resourceType: z.literal('DocumentReference'),
  status: z.enum(['current', 'superseded', 'entered-in-error']),
  subject: reference.optional(),
  date: instant.optional(),
  description: fstring.optional(),
  author: z.array(reference).optional(),
  content: z.array(z.object({ attachment })).min(1, 'needs at least one content attachment'),
  context: z.object({ related: z.array(reference.extend({ type: uri.optional() })).optional(), period: period.optional() }).optional(),
});

const practitionerSchema = z.object({
  resourceType: z.literal('Practitioner'),
  id: z.string().optional(),
  name: z.array(humanName).optional(),
  telecom: z.array(contactPoint).optional(),
  address: z.array(address).optional(),
});

const practitionerRoleSchema = z.object({
  resourceType: z.literal('PractitionerRole'),
  practitioner: reference.optional(),
  organization: reference.optional(),
  location: z.array(reference).optional(),
  specialty: z.array(codeableConcept).optional(),
  code: z.array(codeableConcept).optional(),
  telecom: z.array(contactPoint).optional(),
});

const organizationSchema = z.object({ resourceType: z.literal('Organization'), id: z.string().optional(), name: fstring.optional() });
const locationSchema = z.object({ resourceType: z.literal('Location'), id: z.string().optional(), name: fstring.optional() });

/** R4 Consent, as far as an advance directive or organ donation answer needs it. */
const consentSchema = z.object({
  resourceType: z.literal('Consent'),
  status: z.enum(['draft', 'proposed', 'active', 'rejected', 'inactive', 'entered-in-error']),
  scope: codeableConcept,
  category: z.array(codeableConcept).min(1, 'needs at least one category'),
  patient: reference.optional(),
  provision: z.object({ type: z.enum(['deny', 'permit']).optional() }).optional(),
});

const flagSchema = z.object({
  resourceType: z.literal('Flag'),
  status: z.enum(['active', 'inactive', 'entered-in-error']),
  category: z.array(codeableConcept).optional(),
  code: codeableConcept,
  subject: reference,
});

const compositionSchema = z.object({
  resourceType: z.literal('Composition'),
  subject: reference.optional(),
  author: z.array(reference).optional(),
});

const READ = {
  Patient: patientSchema,
  AllergyIntolerance: allergySchema,
  Condition: conditionSchema,
  Medication: medicationSchema,
  MedicationStatement: medicationStatementSchema,
  MedicationRequest: medicationRequestSchema,
  Observation: observationSchema,
  Immunization: immunizationSchema,
  Procedure: procedureSchema,
  Encounter: encounterSchema,
  DiagnosticReport: diagnosticReportSchema,
  Organization: organizationSchema,
  Location: locationSchema,
  Consent: consentSchema,
  Flag: flagSchema,
  Appointment: appointmentSchema,
  DocumentReference: documentReferenceSchema,
  Practitioner: practitionerSchema,
  PractitionerRole: practitionerRoleSchema,
  Composition: compositionSchema,
} as const;
export type ReadType = keyof typeof READ;
export type ResourceOf<T extends ReadType> = z.output<(typeof READ)[T]>;

const BUNDLE_TYPES = [
  'document',
  'message',
  'transaction',
  'transaction-response',
  'batch',
  'batch-response',
  'history',
  'searchset',
  'collection',
] as const;

const bundleSchema = z.object({
  resourceType: z.literal('Bundle'),
  type: z.enum(BUNDLE_TYPES, { message: `type must be one of ${BUNDLE_TYPES.join(', ')}` }),
  // Each entry is checked on its own (validateBundle): a bad one is left out, not the bundle.
  entry: z.array(z.unknown()).optional(),
});

const entrySchema = z.object({
  fullUrl: uri.optional(),
  resource: z
    .object({ resourceType: z.string().regex(/^[A-Z][A-Za-z]+$/, 'must be a FHIR resource type'), id: z.string().optional() })
    .loose(),
});

export interface ParsedEntry {
  /** Where the entry is in the bundle (the import report counts by it). */
  index: number;
  fullUrl: string | undefined;
  /** For a type Kinchart reads (ReadType), its schema's output: already validated. Other types as sent. */
  resource: { resourceType: string; id?: string | undefined } & Record<string, unknown>;
}

/** An entry left out because it is not valid FHIR, with what is wrong ("birthDate: must be a FHIR date …"). */
export interface RejectedEntry {
  index: number;
  reason: string;
}

/** An entry left out whole: the medication it names, if any (a Medication it names then fares as it does). */
export interface RefusedEntry extends RejectedEntry {
  medicationReference: string | undefined;
}

export interface ValidatedBundle {
  /** The valid entries, in bundle order. */
  entries: ParsedEntry[];
  rejected: RefusedEntry[];
  /** Elements left out of entries that were kept (not valid FHIR, and not what the resource is about). */
  repaired: RejectedEntry[];
  /** Every entry's resource type by index, valid or not ("(unknown)" when it has none). */
  types: string[];
}

/**
 * The elements that make each resource what it is: when one of them is malformed (or missing), the
 * resource is left out whole. Any other malformed element is left out on its own and the rest is
 * read. A choice of value ([x]) counts with its element: an Observation's value is its result.
 */
const IDENTITY: Record<ReadType, readonly string[]> = {
  Patient: [],
  AllergyIntolerance: ['code', 'patient', 'clinicalStatus', 'verificationStatus'],
  Condition: ['code', 'subject', 'clinicalStatus', 'verificationStatus'],
  Medication: ['code'],
  MedicationStatement: ['status', 'medicationCodeableConcept', 'medicationReference', 'contained', 'subject'],
  MedicationRequest: ['status', 'intent', 'medicationCodeableConcept', 'medicationReference', 'contained', 'subject'],
  Observation: [
    'status',
    'code',
    'subject',
    'component',
    'hasMember',
    'dataAbsentReason',
    ...Object.keys(observationValue).filter((k) => k.startsWith('value')),
  ],
  Immunization: ['status', 'vaccineCode', 'patient', 'occurrenceDateTime', 'occurrenceString', '_occurrenceDateTime'],
  Procedure: ['status', 'code', 'subject'],
  Encounter: ['status', 'class', 'subject'],
  DiagnosticReport: ['status', 'code', 'subject', 'presentedForm'],
  Organization: ['name'],
  Location: ['name'],
  Consent: ['status', 'scope', 'category', 'patient', 'provision'],
  Flag: ['status', 'code', 'subject'],
  Appointment: ['status', 'start', 'end', 'participant'],
  DocumentReference: ['status', 'subject', 'content'],
  Practitioner: ['name'],
  PractitionerRole: ['practitioner'],
  Composition: ['subject', 'author'],
};

/** The element to leave out for an issue at `path`: the data type around a bad primitive, or the list item it is in. */
function elementAt(path: readonly PropertyKey[]): PropertyKey[] {
  return path.length > 1 ? path.slice(0, -1) : [...path];
}

/** Removes the element at `path` from `value` (a list item is taken out of its list); false when it is not there. */
function removeAt(value: unknown, path: readonly PropertyKey[]): boolean {
  let node: unknown = value;
  for (const key of path.slice(0, -1)) {
    if (!node || typeof node !== 'object') return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const last = path[path.length - 1];
  if (last === undefined || !node || typeof node !== 'object') return false;
  if (Array.isArray(node) && typeof last === 'number') {
    if (last >= node.length) return false;
    node.splice(last, 1);
    return true;
  }
  if (!Object.hasOwn(node, last)) return false;
  delete (node as Record<PropertyKey, unknown>)[last];
  return true;
}

/**
 * A resource of a type Kinchart reads, checked; when it fails only on elements outside its identity,
 * those elements are left out (each named) and the rest is kept. A custom rule (an invariant) or an
 * element that cannot go leaves the whole resource out, for the first thing wrong with it.
 */
function checkResource(
  type: ReadType,
  resource: Record<string, unknown>,
): { ok: ParsedEntry['resource']; removed: string[] } | { reason: string } {
  const schema = READ[type] as z.ZodType;
  const first = schema.safeParse(resource, { reportInput: true });
  if (first.success) return { ok: first.data as ParsedEntry['resource'], removed: [] };
  const whole = { reason: describe(first.error.issues[0]) };
  const copy = structuredClone(resource);
  const removed: string[] = [];
  let issue = first.error.issues[0];
  // Each pass removes one element, so this ends; the bound keeps a pathological resource cheap.
  for (let pass = 0; issue && pass < 50; pass += 1) {
    const target = elementAt(issue.path);
    const top = target[0];
    if (issue.code === 'custom' || typeof top !== 'string' || IDENTITY[type].includes(top) || !removeAt(copy, target)) return whole;
    removed.push(describe(issue));
    const next = schema.safeParse(copy, { reportInput: true });
    if (next.success) return { ok: next.data as ParsedEntry['resource'], removed };
    issue = next.error.issues[0];
  }
  return whole;
}

/** The file as a whole cannot be imported: it is not a FHIR Bundle. */
export class FhirValidationError extends Error {}

export const UNKNOWN_TYPE = '(unknown)';

function describe(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'is not valid';
  const path = issue.path.map(String).join('.');
  const message = issue.message.startsWith('Invalid input: expected')
    ? `must be ${issue.message.replace('Invalid input: expected ', '').replace(/, received .*$/, '')}`
    : issue.message.startsWith('Invalid option: expected one of')
      ? `must be one of ${issue.message.replace('Invalid option: expected one of ', '').replace(/"/g, '').split('|').join(', ')}`
      : issue.message;
  const required = 'input' in issue && issue.input === undefined && issue.code !== 'custom';
  return `${path ? `${path}: ` : ''}${required ? 'is required' : message}`;
}

/**
 * The bundle's entries, each checked on its own: the valid ones, and the others with what is wrong.
 * Throws FhirValidationError only when the file is not a FHIR Bundle at all.
 */
export function validateBundle(value: unknown): ValidatedBundle {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new FhirValidationError('The file is not a FHIR resource (a JSON object was expected).');
  const resourceType = (value as { resourceType?: unknown }).resourceType;
  if (resourceType !== 'Bundle') {
    throw new FhirValidationError(
      typeof resourceType === 'string'
        ? `Only a FHIR Bundle can be imported; this file is a ${resourceType.slice(0, 40)}.`
        : 'The file is not a FHIR resource (resourceType is missing).',
    );
  }
  // reportInput: tells a missing element ("is required") from a wrong one.
  const bundle = bundleSchema.safeParse(value, { reportInput: true });
  if (!bundle.success) throw new FhirValidationError(`Bundle ${describe(bundle.error.issues[0])}`);
  const result: ValidatedBundle = { entries: [], rejected: [], repaired: [], types: [] };
  (bundle.data.entry ?? []).forEach((raw, index) => {
    const declared = (raw as { resource?: { resourceType?: unknown } } | null)?.resource?.resourceType;
    result.types.push(typeof declared === 'string' && /^[A-Z][A-Za-z]{0,63}$/.test(declared) ? declared : UNKNOWN_TYPE);
    const entry = entrySchema.safeParse(raw, { reportInput: true });
    if (!entry.success) {
      result.rejected.push({ index, reason: describe(entry.error.issues[0]), medicationReference: undefined });
      return;
    }
    const type = entry.data.resource.resourceType;
    if (!isReadType(type)) {
      result.entries.push({ index, fullUrl: entry.data.fullUrl, resource: entry.data.resource });
      return;
    }
    const checked = checkResource(type, entry.data.resource);
    if ('reason' in checked) {
      const named = (entry.data.resource as { medicationReference?: { reference?: unknown } }).medicationReference?.reference;
      result.rejected.push({ index, reason: checked.reason, medicationReference: typeof named === 'string' ? named : undefined });
      return;
    }
    result.entries.push({ index, fullUrl: entry.data.fullUrl, resource: checked.ok });
    for (const reason of checked.removed) result.repaired.push({ index, reason });
  });
  return result;
}

/** The entries of one type Kinchart reads, typed by its schema (validateBundle parsed them). */
export function entriesOfType<T extends ReadType>(
  entries: ParsedEntry[],
  type: T,
): { index: number; fullUrl: string | undefined; resource: ResourceOf<T> }[] {
  return entries
    .filter((e) => e.resource.resourceType === type)
    .map((e) => ({ index: e.index, fullUrl: e.fullUrl, resource: e.resource as ResourceOf<T> }));
}

/** A contained Medication, checked like one in the bundle; undefined when there is none or it is not valid. */
export function containedMedication(
  list: { resourceType: string; id?: string | undefined }[] | undefined,
  ref: string,
): ResourceOf<'Medication'> | undefined {
  const found = list?.find((r) => r.resourceType === 'Medication' && `#${r.id ?? ''}` === ref);
  const parsed = found ? medicationSchema.safeParse(found) : undefined;
  return parsed?.success ? parsed.data : undefined;
}

function isReadType(t: string): t is ReadType {
  return Object.hasOwn(READ, t);
}
