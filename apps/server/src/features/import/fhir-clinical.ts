import type { Coding } from '@kinchart/shared/clinical';
import { CONDITION_STATUSES, INTERPRETATIONS, SYSTEMS } from '@kinchart/shared/clinical';
import type { ClinicalTable } from '../clinical/clinical-kinds';
import { absentReason } from './absent-unknown';
import type { ResourceOf } from './fhir-bundle';
import type { ImportTally } from './import-report';
import type { CC, Ref, Resolver } from './fhir-values';
import { bestName, ccText, clean, clip, codingsOf, notesOf, partialDate } from './fhir-values';

// FHIR Immunization, Observation, Condition and Procedure → the person's structured clinical items
// (DESIGN §12): each keeps its codings (system, code, display) and its date as precise as given.
// What comes out are candidates for the kind's own input schema (clinical-kinds.ts); fhir-merge.ts
// checks them with it and leaves out what is already there. Observations of height, weight and
// blood group also say what the profile's fields become (the SPEC's screens read those).

export interface ClinicalCandidate {
  /** The bundle entry it came from. */
  from: number;
  table: ClinicalTable;
  /** What the kind's input schema reads. */
  input: Record<string, unknown> & { codings: Coding[] };
  /** One of several rows of one resource (an Observation's components). */
  component: boolean;
}

export interface ClinicalContext {
  tally: ImportTally;
  resolve: Resolver;
}

/** Who performed it: the reference's display, else the name of the Practitioner, PractitionerRole or Organization it names in the bundle. */
export function performerName(ctx: ClinicalContext, refs: Ref[], user: number): string | null {
  for (const ref of refs) {
    const display = clean(ref?.display);
    if (display) return clip(display, 200);
    const found = ctx.resolve(ref?.reference);
    if (!found) continue;
    let name: string | null = null;
    const r = found.resource as Record<string, unknown>;
    if (r.resourceType === 'Practitioner') name = bestName((found.resource as ResourceOf<'Practitioner'>).name);
    else if (r.resourceType === 'Organization') name = clean((found.resource as ResourceOf<'Organization'>).name);
    else if (r.resourceType === 'PractitionerRole') {
      const practitioner = ctx.resolve((found.resource as ResourceOf<'PractitionerRole'>).practitioner?.reference, 'Practitioner');
      name = bestName((practitioner?.resource as ResourceOf<'Practitioner'> | undefined)?.name);
      if (name && practitioner) ctx.tally.use(practitioner.index, user);
    }
    if (name) {
      ctx.tally.use(found.index, user);
      return clip(name, 200);
    }
  }
  return null;
}

/** Leaves entry `index` out for `reason`; nothing to add. */
const leaveOut = (ctx: ClinicalContext, index: number, reason: string): null => {
  ctx.tally.drop(index, reason);
  return null;
};

export function planImmunization(index: number, im: ResourceOf<'Immunization'>, ctx: ClinicalContext): ClinicalCandidate | null {
  if (im.status === 'entered-in-error') return leaveOut(ctx, index, 'entered in error');
  if (im.status === 'not-done') return leaveOut(ctx, index, 'not given (status not-done)');
  const absent = absentReason(im.vaccineCode);
  if (absent) return leaveOut(ctx, index, absent);
  const vaccine = clip(ccText(im.vaccineCode), 200);
  if (!vaccine) return leaveOut(ctx, index, 'without a vaccine code or text');
  const date = partialDate(im.occurrenceDateTime, im.occurrenceString);
  const doses = im.protocolApplied?.[0];
  const doseText = doses?.doseNumberString?.trim();
  const dose = doses?.doseNumberPositiveInt ?? (doseText && /^\d{1,2}$/.test(doseText) ? Number(doseText) : undefined);
  const notes = [notesOf(im.note), !date && im.occurrenceString ? `Given: ${im.occurrenceString.trim()}` : null].filter(Boolean).join('\n');
  return {
    from: index,
    table: 'immunizations',
    component: false,
    input: {
      vaccine,
      date,
      dose_number: dose !== undefined && dose <= 99 ? dose : null,
      lot_number: clip(im.lotNumber ?? null, 100),
      site: clip(ccText(im.site), 100),
      performer: performerName(
        ctx,
        (im.performer ?? []).map((p) => p.actor),
        index,
      ),
      notes: clip(notes || null, 2000),
      codings: codingsOf(im.vaccineCode),
    },
  };
}

/**
 * The note Kinchart's export writes for the end date of a condition that is still active (con-4
 * allows an abatement only on one that is over): read back as that end date (issue 30).
 */
const ACTIVE_END_NOTE = /^Resolved date given: (\d{4}(?:-\d{2}(?:-\d{2})?)?)$/;

export function planCondition(index: number, c: ResourceOf<'Condition'>): ClinicalCandidate | null {
  const name = clip(ccText(c.code), 200);
  if (!name) return null;
  const status = c.clinicalStatus?.coding
    ?.map((x) => x.code)
    .find((x): x is (typeof CONDITION_STATUSES)[number] => (CONDITION_STATUSES as readonly (string | undefined)[]).includes(x));
  const endNote = (c.note ?? []).map((n) => ACTIVE_END_NOTE.exec(n.text.trim())).find((m) => m !== null);
  const notes = endNote ? c.note?.filter((n) => !ACTIVE_END_NOTE.test(n.text.trim())) : c.note;
  return {
    from: index,
    table: 'conditions',
    component: false,
    input: {
      name,
      status: status ?? 'active',
      onset_date: partialDate(c.onsetDateTime, c.onsetPeriod?.start, c.onsetString),
      abatement_date: partialDate(c.abatementDateTime, c.abatementPeriod?.end, c.abatementPeriod?.start, c.abatementString, endNote?.[1]),
      notes: clip(notesOf(notes), 2000),
      codings: codingsOf(c.code),
    },
  };
}

export function planProcedure(index: number, p: ResourceOf<'Procedure'>, ctx: ClinicalContext): ClinicalCandidate | null {
  if (p.status === 'entered-in-error') return leaveOut(ctx, index, 'entered in error');
  // DESIGN §12: a procedure not done, or "no known procedures", is never one the person had.
  if (p.status === 'not-done') return leaveOut(ctx, index, 'not done (status not-done)');
  const absent = absentReason(p.code);
  if (absent) return leaveOut(ctx, index, absent);
  const name = clip(ccText(p.code), 200);
  if (!name) return leaveOut(ctx, index, 'without a code or text naming it');
  return {
    from: index,
    table: 'procedures',
    component: false,
    input: {
      name,
      status: p.status,
      performed_date: partialDate(p.performedDateTime, p.performedPeriod?.start, p.performedString),
      performer: performerName(
        ctx,
        (p.performer ?? []).map((x) => x.actor),
        index,
      ),
      notes: clip(notesOf(p.note), 2000),
      codings: codingsOf(p.code),
    },
  };
}

// ---------- observations ----------

const CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';
/** LOINC vital signs (the R4 vital signs profile): a result without a category is a vital sign when it is one of these. */
const VITAL_SIGNS = new Set([
  '85353-1',
  '9279-1',
  '8867-4',
  '2708-6',
  '59408-5',
  '8310-5',
  '8302-2',
  '9843-4',
  '29463-7',
  '39156-5',
  '85354-9',
  '8480-6',
  '8462-4',
  '55284-4',
]);
const LOINC_CODE = /^\d{1,7}-\d$/;

type ObservationValue = Omit<NonNullable<ResourceOf<'Observation'>['component']>[number], 'code'>;
type Value = { value: number | null; value_text: string | null; unit: string | null; note: string | null };

/** A result's value as Kinchart keeps it, or why there is none it can keep. */
function valueOf(v: ObservationValue): Value | { none: string } {
  const q = v.valueQuantity;
  if (q) {
    if (q.value === undefined) return { none: 'without a value (valueQuantity has no value)' };
    const unit = clean(q.unit ?? q.code ?? null);
    // "< 5": the comparator is part of the result, so it stays text.
    if (q.comparator) return { value: null, value_text: `${q.comparator} ${q.value}`, unit, note: null };
    return { value: q.value, value_text: null, unit, note: null };
  }
  if (v.valueInteger !== undefined) return { value: v.valueInteger, value_text: null, unit: null, note: null };
  const text = (t: string | null): Value | { none: string } => {
    const full = clean(t);
    if (!full) return { none: 'without a value' };
    // A long text result is kept whole in the notes; the value shows its start.
    return { value: null, value_text: clip(full, 200), unit: null, note: full.length > 200 ? full : null };
  };
  if (v.valueString !== undefined) return text(v.valueString);
  if (v.valueCodeableConcept) return text(ccText(v.valueCodeableConcept));
  if (v.valueBoolean !== undefined) return text(v.valueBoolean ? 'Yes' : 'No');
  if (v.valueDateTime !== undefined) return text(v.valueDateTime);
  if (v.valueTime !== undefined) return text(v.valueTime);
  if (v.valuePeriod) return text([v.valuePeriod.start, v.valuePeriod.end].filter(Boolean).join(' – '));
  if (v.valueRange) {
    const { low, high } = v.valueRange;
    return text(`${low?.value ?? ''}–${high?.value ?? ''} ${high?.unit ?? low?.unit ?? ''}`.trim());
  }
  if (v.valueRatio) return { none: 'with a value Kinchart cannot keep (valueRatio)' };
  if (v.valueSampledData) return { none: 'with a value Kinchart cannot keep (valueSampledData)' };
  const absent = ccText(v.dataAbsentReason);
  return { none: absent ? `without a value (${absent})` : 'without a value' };
}

function resultColumns(v: ObservationValue, value: Value) {
  const interpretation = (v.interpretation ?? [])
    .flatMap((cc) => cc.coding ?? [])
    .map((c) => c.code)
    .find((c) => !!c && Object.hasOwn(INTERPRETATIONS, c));
  const range = v.referenceRange?.[0];
  let low = range?.low?.value ?? null;
  let high = range?.high?.value ?? null;
  // A range that runs backwards says nothing; its text (if any) stays.
  if (low !== null && high !== null && low > high) low = high = null;
  return {
    value: value.value,
    value_text: value.value_text,
    unit: clip(value.unit, 50),
    reference_low: low,
    reference_high: high,
    reference_range: clip(clean(range?.text ?? null), 100),
    interpretation: interpretation ?? null,
  };
}

/**
 * LOINC's own names for the vital signs and blood group codes, for a result that carries the code
 * alone (no text, no display): the code's meaning, not a guess.
 */
const LOINC_NAMES: Record<string, string> = {
  '8302-2': 'Body height',
  '8306-3': 'Body height (lying)',
  '3137-7': 'Body height (measured)',
  '29463-7': 'Body weight',
  '3141-9': 'Body weight (measured)',
  '39156-5': 'Body mass index',
  '9843-4': 'Head circumference',
  '8310-5': 'Body temperature',
  '8867-4': 'Heart rate',
  '9279-1': 'Respiratory rate',
  '2708-6': 'Oxygen saturation',
  '59408-5': 'Oxygen saturation (pulse oximetry)',
  '85354-9': 'Blood pressure panel',
  '55284-4': 'Blood pressure',
  '8480-6': 'Systolic blood pressure',
  '8462-4': 'Diastolic blood pressure',
  '882-1': 'ABO and Rh group',
  '883-9': 'ABO group',
};

/** A result's name: its text, a coding's display, LOINC's name for its code, else the code. */
function resultName(cc: CC): string | null {
  const loinc = loincOf(cc);
  const named = clean(cc.text) ?? clean(cc.coding?.find((c) => clean(c.display))?.display) ?? (loinc ? (LOINC_NAMES[loinc] ?? null) : null);
  return clip(named ?? ccText(cc), 200);
}

const loincOf = (cc: CC | undefined): string | null =>
  cc?.coding?.find((c) => c.system === SYSTEMS.loinc && !!c.code && LOINC_CODE.test(c.code))?.code ?? null;

/** A measurement an Observation gives the profile (DESIGN §4 units), with the date that picks the latest. */
export interface Measurement {
  field: 'height' | 'weight' | 'blood_type';
  value: number | string;
  date: string | null;
  from: number;
}

export interface ObservationPlan {
  rows: ClinicalCandidate[];
  measurement: Measurement | null;
}

/**
 * An Observation → a lab result or vital sign, one row per component when it has them ("Blood
 * pressure" → systolic and diastolic rows); `readMeasurement` reads height, weight or blood group
 * for the profile. Categories other than laboratory and vital signs are left out, said so.
 */
export function planObservation(
  index: number,
  o: ResourceOf<'Observation'>,
  ctx: ClinicalContext,
  readMeasurement: (o: ResourceOf<'Observation'>, date: string | null) => Measurement | null,
): ObservationPlan {
  if (o.status === 'entered-in-error' || o.status === 'cancelled') {
    ctx.tally.drop(index, o.status === 'cancelled' ? 'cancelled' : 'entered in error');
    return { rows: [], measurement: null };
  }
  const absent = absentReason(o.code);
  if (absent) {
    ctx.tally.drop(index, absent);
    return { rows: [], measurement: null };
  }
  const date = partialDate(o.effectiveDateTime, o.effectivePeriod?.start, o.effectiveInstant, o.issued);
  const measurement = readMeasurement(o, date);

  const categories = (o.category ?? [])
    .flatMap((cc) => cc.coding ?? [])
    .filter((c) => !c.system || c.system === CATEGORY_SYSTEM)
    .map((c) => c.code);
  const loinc = loincOf(o.code);
  const category = categories.includes('vital-signs')
    ? 'vital-signs'
    : categories.includes('laboratory')
      ? 'laboratory'
      : categories.length === 0
        ? loinc && VITAL_SIGNS.has(loinc)
          ? 'vital-signs'
          : 'laboratory'
        : null;
  if (!category) {
    ctx.tally.drop(
      index,
      `in category ${categories.filter(Boolean).join(', ') || 'unknown'} (Kinchart keeps laboratory results and vital signs)`,
    );
    return { rows: [], measurement };
  }
  const name = resultName(o.code);
  if (!name) {
    ctx.tally.drop(index, 'without a code or text naming it');
    return { rows: [], measurement };
  }
  const notes = notesOf(o.note);
  const row = (v: ObservationValue, value: Value, rowName: string, cc: CC, component: boolean): ClinicalCandidate => ({
    from: index,
    table: 'lab_results',
    component,
    input: {
      name: rowName,
      category,
      loinc_code: loincOf(cc),
      ...resultColumns(v, value),
      date,
      notes: clip([value.note, notes].filter(Boolean).join('\n') || null, 2000),
      codings: codingsOf(cc),
    },
  });

  const rows: ClinicalCandidate[] = [];
  const own = valueOf(o);
  if (!('none' in own)) rows.push(row(o, own, name, o.code, false));
  for (const c of o.component ?? []) {
    const value = valueOf(c);
    const part = resultName(c.code);
    if ('none' in value || !part) {
      ctx.tally.part(index, `component ${'none' in value ? value.none : 'without a code or text naming it'}`);
      continue;
    }
    // "Systolic blood pressure" already says what it is part of; "Systolic" alone gets the parent's name first.
    const rowName = part.toLowerCase().includes(name.toLowerCase()) ? part : clip(`${name} ${part.toLowerCase()}`, 200)!;
    rows.push(row(c, value, rowName, c.code, true));
  }
  if (rows.length === 0 && 'none' in own) {
    if (o.hasMember?.length) ctx.tally.drop(index, 'a panel without a value of its own (its results are read one by one)');
    else if (!o.component?.length) ctx.tally.drop(index, own.none);
    else ctx.tally.drop(index, 'without a value in any component');
  }
  return { rows, measurement };
}
