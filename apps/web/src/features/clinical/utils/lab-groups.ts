import { INTERPRETATIONS, rangeText, type LabResult } from '@kinchart/shared/clinical';

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
    return { key, name: newest.name, loincCode: newest.loinc_code, results: list };
  });
}

/** Which way a value is out: the interpretation's word ("High", "Critically low"), else against the range. */
function outOfRangeDirection(result: LabResult): string | null {
  if (result.interpretation !== null) return INTERPRETATIONS[result.interpretation];
  if (result.value === null) return null;
  if (result.reference_high !== null && result.value > result.reference_high) return 'High';
  if (result.reference_low !== null && result.value < result.reference_low) return 'Low';
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
  return direction ? `Out of range (${direction})` : 'Out of range';
}

/**
 * A partial date as a point in time for the chart, in seconds (uPlot's time scale): the middle of
 * the year or month it names, so "2019" sits between 2019's months rather than at New Year.
 */
export function chartTime(date: string): number {
  const [year = 1970, month, day] = date.split('-').map(Number);
  const ms = day !== undefined && month !== undefined ? Date.UTC(year, month - 1, day) : month !== undefined ? Date.UTC(year, month - 1, 15) : Date.UTC(year, 6, 1);
  return ms / 1000;
}

export interface TrendPoint {
  id: string;
  /** Seconds since 1970 (uPlot's time scale). */
  time: number;
  value: number;
  /** As it was given. */
  date: string;
  unit: string | null;
  range: string | null;
  /** The marker text, or null within range. */
  outOfRange: string | null;
}

export interface Trend {
  /** Oldest first, as a chart draws them. */
  points: TrendPoint[];
  unit: string | null;
  /** The newest result's reference range, drawn behind the line. */
  low: number | null;
  high: number | null;
}

/**
 * What a group's chart draws: its dated numeric results in the unit of the newest one (a value in
 * another unit would sit on the wrong scale). null below two such values: one point is no trend.
 */
export function trendOf(group: LabGroup): Trend | null {
  const numeric = group.results.filter((r): r is LabResult & { value: number; date: string } => r.value !== null && r.date !== null);
  const newest = numeric[0];
  if (!newest) return null;
  const same = numeric.filter((r) => (r.unit ?? '') === (newest.unit ?? ''));
  if (same.length < 2) return null;
  const points = same
    .map((r) => ({
      id: r.id,
      time: chartTime(r.date),
      value: r.value,
      date: r.date,
      unit: r.unit,
      range: rangeText(r),
      outOfRange: outOfRangeText(r),
    }))
    .sort((a, b) => a.time - b.time);
  return { points, unit: newest.unit, low: newest.reference_low, high: newest.reference_high };
}

/** What the chart says to someone who cannot see it: the test, how many values over which dates, the latest, how many out of range. */
export function trendSummary(name: string, trend: Trend): string {
  const first = trend.points[0];
  const last = trend.points[trend.points.length - 1];
  if (!first || !last) return `Trend of ${name}`;
  const unit = trend.unit ? ` ${trend.unit}` : '';
  const out = trend.points.filter((p) => p.outOfRange).length;
  const outText = out === 0 ? 'none out of range' : `${out} out of range`;
  return `Trend of ${name}: ${trend.points.length} values from ${first.date} to ${last.date}, latest ${last.value}${unit}, ${outText}.`;
}
