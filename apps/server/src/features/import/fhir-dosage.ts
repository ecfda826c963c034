import type { CC } from './fhir-values';
import { ccText, clean } from './fhir-values';

// R4 Dosage (MedicationStatement.dosage, MedicationRequest.dosageInstruction) → Kinchart's two
// medication texts: `dosage` (the text as written, else the dose: "1 tablet") and `frequency`
// (Timing.code, else the repeat said in words: "twice a day", "every 8 hours", "as needed").
// Only what the sender stated; nothing is guessed.

type Quantity = { value?: number | undefined; unit?: string | undefined; code?: string | undefined } | undefined;

export interface Dosage {
  text?: string | undefined;
  timing?:
    | {
        code?: CC | undefined;
        repeat?:
          | {
              frequency?: number | undefined;
              frequencyMax?: number | undefined;
              period?: number | undefined;
              periodMax?: number | undefined;
              periodUnit?: 's' | 'min' | 'h' | 'd' | 'wk' | 'mo' | 'a' | undefined;
              boundsPeriod?: { start?: string | undefined; end?: string | undefined } | undefined;
            }
          | undefined;
      }
    | undefined;
  asNeededBoolean?: boolean | undefined;
  asNeededCodeableConcept?: CC | undefined;
  doseAndRate?: { doseQuantity?: Quantity; doseRange?: { low?: Quantity; high?: Quantity } | undefined }[] | undefined;
}

const UNIT: Record<string, [string, string]> = {
  s: ['second', 'seconds'],
  min: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  d: ['day', 'days'],
  wk: ['week', 'weeks'],
  mo: ['month', 'months'],
  a: ['year', 'years'],
};

const quantityText = (q: Quantity): string | null =>
  q?.value === undefined ? null : clean(`${q.value} ${q.unit ?? (q.code && q.code !== '1' ? q.code : '')}`);

/** "once a day", "twice a day", "3 times a day", "every 8 hours", "1–2 times every 2 days". */
export function repeatText(repeat: NonNullable<Dosage['timing']>['repeat']): string | null {
  if (!repeat?.periodUnit) return null;
  const [one, many] = UNIT[repeat.periodUnit] ?? ['', ''];
  const f = repeat.frequency ?? 1;
  const times = repeat.frequencyMax ? `${f}–${repeat.frequencyMax} times` : f === 1 ? 'once' : f === 2 ? 'twice' : `${f} times`;
  const p = repeat.period ?? 1;
  const per = repeat.periodMax
    ? `every ${p}–${repeat.periodMax} ${many}`
    : p === 1
      ? `${one === 'hour' ? 'an' : 'a'} ${one}`
      : `every ${p} ${many}`;
  if (f === 1 && !repeat.frequencyMax && p !== 1) return per;
  return `${times} ${per}`;
}

/** Kinchart's dosage and frequency texts of a FHIR Dosage. */
export function dosageOf(d: Dosage | undefined): { dosage: string | null; frequency: string | null } {
  if (!d) return { dosage: null, frequency: null };
  const asNeeded = d.asNeededBoolean
    ? 'as needed'
    : d.asNeededCodeableConcept
      ? `as needed for ${ccText(d.asNeededCodeableConcept) ?? 'symptoms'}`
      : null;
  const timing = ccText(d.timing?.code) ?? repeatText(d.timing?.repeat);
  const frequency = timing && asNeeded ? `${timing}, ${asNeeded}` : (timing ?? asNeeded);
  const dr = d.doseAndRate?.[0];
  const range = dr?.doseRange;
  const dose =
    quantityText(dr?.doseQuantity) ??
    (range?.low?.value !== undefined && range.high?.value !== undefined
      ? clean(`${range.low.value}–${range.high.value} ${range.high.unit ?? ''}`)
      : null);
  let dosage = clean(d.text) ?? dose;
  // Kinchart's own export writes "dose, frequency" as the text and the frequency as timing.code.
  if (dosage && frequency && dosage.endsWith(`, ${frequency}`)) dosage = dosage.slice(0, -`, ${frequency}`.length) || null;
  else if (dosage && frequency && dosage === frequency) dosage = null;
  return { dosage, frequency };
}
