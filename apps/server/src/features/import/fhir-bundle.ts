import { z } from 'zod';

// Validation of an imported FHIR R4 Bundle (decision 0004: "a bundle that fails validation … gets a clear
// message and changes nothing"). Every resource Kinchart reads is checked against the R4 rules
// that matter for reading it — required elements (cardinality 1..*), value sets of the status
// codes, and the formats of the primitive types (regular expressions from the R4 specification,
// http://hl7.org/fhir/R4/datatypes.html). Resources Kinchart does not read only need a resourceType.
// Unknown elements are tolerated (FHIR readers must ignore what they do not understand only for
// extensions, but refusing a clinician's whole summary over one is not what a patient wants).

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

const patientSchema = z.object({
  resourceType: z.literal('Patient'),
  id: z.string().optional(),
  name: z.array(humanName).optional(),
  birthDate: date.optional(),
  telecom: z.array(contactPoint).optional(),
  address: z.array(address).optional(),
  communication: z.array(z.object({ language: codeableConcept, preferred: z.boolean().optional() })).optional(),
  contact: z
    .array(z.object({ relationship: z.array(codeableConcept).optional(), name: humanName.optional(), telecom: z.array(contactPoint).optional() }))
    .optional(),
  extension: z.array(extension).optional(),
});

const enteredInError = (cc: { coding?: { code?: string | undefined }[] | undefined } | undefined) => !!cc?.coding?.some((c) => c.code === 'entered-in-error');

const allergySchema = z
  .object({
    resourceType: z.literal('AllergyIntolerance'),
    clinicalStatus: codeableConcept.optional(),
    verificationStatus: codeableConcept.optional(),
    category: z.array(z.enum(['food', 'medication', 'environment', 'biologic'])).optional(),
    code: codeableConcept.optional(),
    patient: reference,
    reaction: z.array(z.object({ manifestation: z.array(codeableConcept).min(1, 'needs at least one manifestation') })).optional(),
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
});

const medicationSchema = z.object({ resourceType: z.literal('Medication'), id: z.string().optional(), code: codeableConcept.optional() });

const medicationStatementSchema = z
  .object({
    resourceType: z.literal('MedicationStatement'),
    status: z.enum(['active', 'completed', 'entered-in-error', 'intended', 'stopped', 'on-hold', 'unknown', 'not-taken']),
    medicationCodeableConcept: codeableConcept.optional(),
    medicationReference: reference.optional(),
    subject: reference,
    effectiveDateTime: dateTime.optional(),
    effectivePeriod: period.optional(),
    reasonCode: z.array(codeableConcept).optional(),
    dosage: z.array(z.object({ text: fstring.optional(), timing: z.object({ code: codeableConcept.optional() }).optional() })).optional(),
  })
  .refine((m) => !!m.medicationCodeableConcept !== !!m.medicationReference, {
    message: 'needs exactly one of medicationCodeableConcept and medicationReference',
    path: ['medication[x]'],
  });

const observationSchema = z.object({
  resourceType: z.literal('Observation'),
  status: z.enum(['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown']),
  code: codeableConcept,
  subject: reference.optional(),
  valueQuantity: z.object({ value: z.number().optional(), unit: fstring.optional(), system: uri.optional(), code: code.optional() }).optional(),
  valueCodeableConcept: codeableConcept.optional(),
  valueString: fstring.optional(),
});

const appointmentSchema = z
  .object({
  resourceType: z.literal('Appointment'),
  status: z.enum(['proposed', 'pending', 'booked', 'arrived', 'fulfilled', 'cancelled', 'noshow', 'entered-in-error', 'checked-in', 'waitlist']),
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
  context: z.object({ related: z.array(reference).optional(), period: period.optional() }).optional(),
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
  specialty: z.array(codeableConcept).optional(),
  code: z.array(codeableConcept).optional(),
  telecom: z.array(contactPoint).optional(),
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
  Observation: observationSchema,
  Appointment: appointmentSchema,
  DocumentReference: documentReferenceSchema,
  Practitioner: practitionerSchema,
  PractitionerRole: practitionerRoleSchema,
  Composition: compositionSchema,
} as const;
export type ReadType = keyof typeof READ;
export type ResourceOf<T extends ReadType> = z.output<(typeof READ)[T]>;

const BUNDLE_TYPES = ['document', 'message', 'transaction', 'transaction-response', 'batch', 'batch-response', 'history', 'searchset', 'collection'] as const;

const bundleSchema = z.object({
  resourceType: z.literal('Bundle'),
  type: z.enum(BUNDLE_TYPES, { message: `type must be one of ${BUNDLE_TYPES.join(', ')}` }),
  entry: z
    .array(
      z.object({
        fullUrl: uri.optional(),
        resource: z.object({ resourceType: z.string().regex(/^[A-Z][A-Za-z]+$/, 'must be a FHIR resource type'), id: z.string().optional() }).loose(),
      }),
    )
    .optional(),
});

export interface ParsedEntry {
  fullUrl: string | undefined;
  /** For a type Kinchart reads (ReadType), its schema's output: already validated. Other types as sent. */
  resource: { resourceType: string; id?: string | undefined } & Record<string, unknown>;
}

export class FhirValidationError extends Error {}

function describe(issue: z.core.$ZodIssue | undefined, where: string): string {
  if (!issue) return `${where} is not valid`;
  const path = issue.path.map(String).join('.');
  const message = issue.message.startsWith('Invalid input: expected')
    ? `must be ${issue.message.replace('Invalid input: expected ', '').replace(/, received .*$/, '')}`
    : issue.message.startsWith('Invalid option: expected one of')
      ? `must be one of ${issue.message.replace('Invalid option: expected one of ', '').replace(/"/g, '').split('|').join(', ')}`
      : issue.message;
  const required = 'input' in issue && issue.input === undefined && issue.code !== 'custom';
  return `${where}${path ? ` ${path}` : ''}: ${required ? 'is required' : message}`;
}

/** The bundle's entries after validation; throws FhirValidationError with a message naming the entry and element. */
export function validateBundle(value: unknown): ParsedEntry[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new FhirValidationError('The file is not a FHIR resource (a JSON object was expected).');
  const resourceType = (value as { resourceType?: unknown }).resourceType;
  if (resourceType !== 'Bundle') {
    throw new FhirValidationError(
      typeof resourceType === 'string' ? `Only a FHIR Bundle can be imported; this file is a ${resourceType.slice(0, 40)}.` : 'The file is not a FHIR resource (resourceType is missing).',
    );
  }
  // reportInput: tells a missing element ("is required") from a wrong one.
  const bundle = bundleSchema.safeParse(value, { reportInput: true });
  if (!bundle.success) throw new FhirValidationError(describe(bundle.error.issues[0], 'Bundle'));
  return ((bundle.data.entry ?? []) as ParsedEntry[]).map((entry, i) => {
    const schema = (READ as Record<string, z.ZodType>)[entry.resource.resourceType];
    if (!schema) return entry;
    const parsed = schema.safeParse(entry.resource, { reportInput: true });
    if (!parsed.success) throw new FhirValidationError(describe(parsed.error.issues[0], `entry[${i}] ${entry.resource.resourceType}`));
    return { fullUrl: entry.fullUrl, resource: parsed.data as ParsedEntry['resource'] };
  });
}

/** The entries of one type Kinchart reads, typed by its schema (validateBundle parsed them). */
export function entriesOfType<T extends ReadType>(entries: ParsedEntry[], type: T): { fullUrl: string | undefined; resource: ResourceOf<T> }[] {
  return entries.filter((e) => e.resource.resourceType === type).map((e) => ({ fullUrl: e.fullUrl, resource: e.resource as ResourceOf<T> }));
}

export function isReadType(t: string): t is ReadType {
  return Object.hasOwn(READ, t);
}
