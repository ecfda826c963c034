import { plural, t } from '@lingui/core/macro';
import type { LabResult } from '@kinchart/shared/clinical';
import { formatLabNumber, formatPartialDate, interpretationLabel, listWords, rangeLabel } from './clinical-text';

// Lab results and vital signs grouped by test, each group's trend, and how an out-of-range value
// is told (DESIGN §12). Pure functions, so the screen and its tests share them.

/** Newest first; undated last. Partial dates compare as text, which orders them (2019-05 after 2019-04). */
export function byDateDescending(a: { date: string | null }, b: { date: string | null }): number {
  if (a.date === b.date) return 0;
  if (a.date === null) return 1;
  if (b.date === null) return -1;
  return b.date.localeCompare(a.date);
}

export interface LabGroup {
  /** "loinc:4548-4", or "name:hba1c" for a test without a LOINC code. */
  key: string;
  /** The newest result's name. */
  name: string;
  loincCode: string | null;
  /** Newest first. */
  results: LabResult[];
}

/** Results of one test go together: by LOINC code when there is one, else by name (case and spaces aside). */
export function labGroupKey(result: Pick<LabResult, 'loinc_code' | 'name'>): string {
  return result.loinc_code ? `loinc:${result.loinc_code}` : `name:${result.name.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/** The results grouped by test, each newest first; the group with the newest result first. */
export function groupLabResults(results: readonly LabResult[]): LabGroup[] {
  const groups = new Map<string, LabResult[]>();
  for (const result of [...results].sort(byDateDescending)) {
    const key = labGroupKey(result);
    const list = groups.get(key);
    if (list) list.push(result);
    else groups.set(key, [result]);
  }
  return [...groups].map(([key, list]) => {
    const newest = list[0] as LabResult;
    // Named as written (trimmed), by its newest result: the key only decides what goes together.
    return { key, name: newest.name.trim(), loincCode: newest.loinc_code, results: list };
  });
}

/** Which way a value is out: the interpretation's word ("High", "Critically low"), else against the range. */
function outOfRangeDirection(result: LabResult): string | null {
  if (result.interpretation !== null) return interpretationLabel(result.interpretation);
  if (result.value === null) return null;
  if (result.reference_high !== null && result.value > result.reference_high) return interpretationLabel('H');
  if (result.reference_low !== null && result.value < result.reference_low) return interpretationLabel('L');
  return null;
}

/**
 * The words an out-of-range result carries, beside its icon and in the chart's table: "Out of
 * range (High)"; null for a result within range (the server's `out_of_range`, from the shared
 * `isOutOfRange`).
 */
export function outOfRangeText(result: LabResult): string | null {
  if (!result.out_of_range) return null;
  const direction = outOfRangeDirection(result);
  return direction ? t`Out of range (${direction})` : t`Out of range`;
}

/**
 * A partial date as a point in time for the chart, in seconds (uPlot's time scale): the middle of
 * the year or month it names, so "2019" sits between 2019's months rather than at New Year.
 */
export function chartTime(date: string): number {
  const [year = 1970, month, day] = date.split('-').map(Number);
  const ms =
    day !== undefined && month !== undefined
      ? Date.UTC(year, month - 1, day)
      : month !== undefined
        ? Date.UTC(year, month - 1, 15)
        : Date.UTC(year, 6, 1);
  return ms / 1000;
}

export interface TrendPoint {
  id: string;
  /** Seconds since 1970 (uPlot's time scale). */
  time: number;
  /** In the chart's unit (converted when it was reported in another unit of the same kind). */
  value: number;
  /** As it was given. */
  date: string;
  unit: string | null;
  /** "2.9 g/L" (in the reader's digits) when the value was converted for the chart; null when drawn as reported. */
  reported: string | null;
  range: string | null;
  /** The marker text, or null within range. */
  outOfRange: string | null;
  /** Issue 34: the report it was read from, and its page; null for a result typed or imported. */
  source: LabSource | null;
}

export interface Trend {
  /** Oldest first, as a chart draws them. */
  points: TrendPoint[];
  unit: string | null;
  /** The newest result's reference range, drawn behind the line. */
  low: number | null;
  high: number | null;
}

/*
 * Units that differ only by a factor of ten or a thousand: a concentration by mass (base g/L) or
 * by amount (base mol/L). Between the two kinds (mg/dL and mmol/L) there is no pure scale: it
 * takes the substance's molar mass, so those values get a chart each and are never converted.
 */
const UNIT_SCALES: Record<string, { kind: 'mass' | 'molar'; factor: number }> = {
  'g/l': { kind: 'mass', factor: 1 },
  'g/dl': { kind: 'mass', factor: 10 },
  'g/ml': { kind: 'mass', factor: 1000 },
  'mg/l': { kind: 'mass', factor: 1e-3 },
  'mg/dl': { kind: 'mass', factor: 1e-2 },
  'mg/ml': { kind: 'mass', factor: 1 },
  'µg/l': { kind: 'mass', factor: 1e-6 },
  'µg/dl': { kind: 'mass', factor: 1e-5 },
  'µg/ml': { kind: 'mass', factor: 1e-3 },
  'ng/l': { kind: 'mass', factor: 1e-9 },
  'ng/dl': { kind: 'mass', factor: 1e-8 },
  'ng/ml': { kind: 'mass', factor: 1e-6 },
  'pg/ml': { kind: 'mass', factor: 1e-9 },
  'mol/l': { kind: 'molar', factor: 1 },
  'mmol/l': { kind: 'molar', factor: 1e-3 },
  'µmol/l': { kind: 'molar', factor: 1e-6 },
  'nmol/l': { kind: 'molar', factor: 1e-9 },
  'pmol/l': { kind: 'molar', factor: 1e-12 },
};

/** A unit as the table above spells it: lower case, micro written one way ("ug", "mcg", "μg" → "µg"). */
function unitKey(unit: string | null): string {
  const plain = (unit ?? '').trim().toLowerCase().replaceAll('μ', 'µ');
  if (plain.startsWith('mcg')) return `µg${plain.slice(3)}`;
  if (plain.startsWith('ug') || plain.startsWith('umol')) return `µ${plain.slice(1)}`;
  return plain;
}

function scaleOf(unit: string | null) {
  return UNIT_SCALES[unitKey(unit)];
}

/** `value` in `from` as a number in `to`, when they differ only by a scale; null otherwise. */
function convert(value: number, from: string | null, to: string | null): number | null {
  const a = scaleOf(from);
  const b = scaleOf(to);
  if (!a || !b || a.kind !== b.kind) return null;
  // Rounded to 10 significant digits, so 2.9 g/L reads 290 mg/dL and not 290.00000000000006.
  return Number(((value * a.factor) / b.factor).toPrecision(10));
}

/** Issue 34: the file a result was read from and its page. */
export interface LabSource {
  fileId: string;
  page: number | null;
}

/** Where a result came from, when it was read from a file. */
export function sourceOf(result: LabResult): LabSource | null {
  return result.source_file_id ? { fileId: result.source_file_id, page: result.source_page ?? null } : null;
}

/**
 * A dated numeric result as the chart takes it: in the test's table unit when the server converted
 * it (`trend`, issue 34: with the analyte's molar mass where UCUM needs one), else as reported.
 * `original` is the result as reported, for the table's "reported as".
 */
type Charted = LabResult & { value: number; date: string; original: LabResult };

function chartedOf(r: LabResult): Charted | null {
  if (r.date === null) return null;
  if (r.trend) {
    const { value, unit, reference_low, reference_high } = r.trend;
    return { ...r, date: r.date, value, unit, reference_low, reference_high, original: r };
  }
  return r.value === null ? null : { ...r, date: r.date, value: r.value, original: r };
}

/** "2.9 g/L": a result's value as it was reported. */
function reportedText(r: LabResult): string {
  const value = r.value !== null ? formatLabNumber(r.value) : (r.value_text ?? '');
  return `${value}${r.unit ? ` ${r.unit}` : ''}`;
}

/**
 * The units a group's values are drawn in: one per unit, except that a unit convertible by a pure
 * scale joins the newest unit of its kind. Newest first; each with the results it draws.
 */
function unitBuckets(group: LabGroup): { unit: string | null; results: Charted[] }[] {
  const numeric = group.results.map(chartedOf).filter((r): r is Charted => r !== null);
  const buckets: { unit: string | null; results: Charted[] }[] = [];
  for (const result of numeric) {
    const bucket =
      buckets.find((b) => unitKey(b.unit) === unitKey(result.unit)) ?? buckets.find((b) => convert(1, result.unit, b.unit) !== null);
    if (bucket) bucket.results.push(result);
    else buckets.push({ unit: result.unit, results: [result] });
  }
  return buckets;
}

/**
 * What a group's charts draw (DESIGN §12): one line per unit — values in different units are never
 * on one line; a unit that differs only by a scale (g/L and mg/dL) is converted to the newest unit
 * of its kind. Each with its dated numeric results, oldest first, and the newest result's range
 * (converted as well). A unit with fewer than two values gets no chart: one point is no trend.
 */
export function trendsOf(group: LabGroup): Trend[] {
  const trends: Trend[] = [];
  for (const bucket of unitBuckets(group)) {
    if (bucket.results.length < 2) continue;
    const inUnit = (value: number | null, from: string | null): number | null =>
      value === null ? null : unitKey(from) === unitKey(bucket.unit) ? value : convert(value, from, bucket.unit);
    const points = bucket.results
      .map((r): TrendPoint => {
        const same = unitKey(r.original.unit) === unitKey(bucket.unit);
        return {
          id: r.id,
          time: chartTime(r.date),
          value: inUnit(r.value, r.unit) ?? r.value,
          date: r.date,
          unit: bucket.unit,
          reported: same ? null : reportedText(r.original),
          range: rangeLabel(r),
          outOfRange: outOfRangeText(r),
          source: sourceOf(r),
        };
      })
      .sort((a, b) => a.time - b.time);
    const newest = bucket.results[0] as Charted;
    trends.push({
      points,
      unit: bucket.unit,
      low: inUnit(newest.reference_low, newest.unit),
      high: inUnit(newest.reference_high, newest.unit),
    });
  }
  return trends;
}

/** The chart of the newest unit, or null (kept for callers that draw one). */
export function trendOf(group: LabGroup): Trend | null {
  const newestUnit = unitBuckets(group)[0]?.unit;
  return trendsOf(group).find((t) => t.unit === newestUnit) ?? null;
}

/**
 * A sentence for a group whose numeric values came in more than one unit: which units, and how
 * the charts treat them (converted onto one line, or a chart per unit). null with one unit.
 */
export function unitsNote(group: LabGroup): string | null {
  const units: string[] = [];
  for (const r of group.results) {
    if (r.value === null || !r.unit) continue;
    if (!units.some((u) => unitKey(u) === unitKey(r.unit))) units.push(r.unit.trim());
  }
  if (units.length < 2) return null;
  const unitList = listWords(units);
  const intro = t`These results were reported in different units (${unitList}).`;
  const converted: string[] = [];
  for (const bucket of unitBuckets(group)) {
    for (const { original } of bucket.results) {
      const unit = original.unit?.trim();
      if (unit && unitKey(unit) !== unitKey(bucket.unit) && !converted.includes(unit)) converted.push(unit);
    }
  }
  const buckets = unitBuckets(group).filter((b) => b.unit);
  const separate = buckets.length > 1;
  const parts = [intro];
  if (converted.length > 0) {
    const target = buckets.find((b) => b.results.some((r) => converted.includes((r.original.unit ?? '').trim())))?.unit ?? '';
    const convertedList = listWords(converted);
    parts.push(t`Values in ${convertedList} are shown converted to ${target}.`);
  }
  if (separate) parts.push(t`Values in different units cannot be compared on one line, so each unit is shown on its own.`);
  return parts.join(' ');
}

/** What the chart says to someone who cannot see it: the test, how many values over which dates, the latest, how many out of range. */
export function trendSummary(name: string, trend: Trend): string {
  const first = trend.points[0];
  const last = trend.points[trend.points.length - 1];
  if (!first || !last) return t`Trend of ${name}`;
  const latest = `${formatLabNumber(last.value)}${trend.unit ? ` ${trend.unit}` : ''}`;
  const out = trend.points.filter((p) => p.outOfRange).length;
  const count = trend.points.length;
  const from = formatPartialDate(first.date);
  const to = formatPartialDate(last.date);
  return out === 0
    ? t`Trend of ${name}: ${plural(count, { one: '# value', other: '# values' })} from ${from} to ${to}, latest ${latest}, none out of range.`
    : t`Trend of ${name}: ${plural(count, { one: '# value', other: '# values' })} from ${from} to ${to}, latest ${latest}, ${out} out of range.`;
}
