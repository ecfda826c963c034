import { normaliseName, testByCode, testByName, type LoincTest } from './loinc-table';
import { convertUnit, ucumCode } from './ucum';

/**
 * Lab values found in a file's text (issue 34, decision 0051). The text is read line by line and, within a line,
 * token by token, the way the layout puts it: a test's name, its value, then — in any order — its unit, its reference
 * range and a flag, until the next name or the next column. No lab's template is assumed. Every step is a bounded
 * look at the next few tokens, so the work grows linearly with the text; no regular expression here can backtrack.
 */

export type LabFlag = 'H' | 'L' | 'A';

export interface LabValueRow {
  name: string;
  loinc: string | null;
  value: number | string;
  unit: string | null;
  ucum_unit: string | null;
  reference_low: number | null;
  reference_high: number | null;
  reference_text: string | null;
  flag: LabFlag | null;
  date: string | null;
  page: number;
  /** 0-based index of the source line in the page's text split on '\n'. */
  line: number;
  source_text: string;
}

interface Token {
  text: string;
  start: number;
  end: number;
  /** Spaces (a tab counts as four) between this token and the one before it. */
  gap: number;
}

/** A run of this many spaces ends a column: what follows is another table's cell, not this row's. */
const COLUMN_GAP = 3;
/** The most tokens a test's name may take ("Glucose whole blood", "Date de prélèvement"). */
const MAX_NAME_TOKENS = 7;
/** The most tokens a row may take after its value (unit, a range of three tokens, a flag, some slack). */
const MAX_ROW_TOKENS = 8;

function tokenise(line: string): Token[] {
  const tokens: Token[] = [];
  let gap = 0;
  let start = -1;
  for (let i = 0; i <= line.length; i++) {
    const ch = i < line.length ? line[i] : ' ';
    // A bar is a cell border (OCR of a ruled table, text tables): a column gap like a run of spaces.
    const bar = ch === '|' || ch === '¦';
    const space = ch === ' ' || ch === '\t' || ch === '\u00a0' || bar;
    if (space) {
      if (start >= 0) {
        tokens.push({ text: line.slice(start, i), start, end: i, gap });
        start = -1;
        gap = 0;
      }
      gap += bar ? COLUMN_GAP : ch === '\t' ? 4 : 1;
    } else if (start < 0) {
      start = i;
    }
  }
  return tokens;
}

const DASHES = new Set(['-', '–', '—', '‐', '‑', '−']);
const BRACKETS = new Set(['(', ')', '[', ']', '{', '}']);

/** A token without the brackets, stars and trailing colons a table puts around a cell. */
function bare(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && (BRACKETS.has(text[from] ?? '') || text[from] === '*')) from++;
  while (to > from && (BRACKETS.has(text[to - 1] ?? '') || text[to - 1] === '*' || text[to - 1] === ':' || text[to - 1] === ';')) to--;
  return text.slice(from, to);
}

/**
 * A number as a report writes it: "5.1", "5,1", "140", "-2". A comma is a decimal comma (European reports); where a
 * token holds both a point and a comma, the later one is the decimal mark and the other groups thousands.
 */
export function parseNumber(text: string): number | null {
  if (text.length === 0 || text.length > 24) return null;
  const lastPoint = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  const decimal = lastPoint > lastComma ? '.' : ',';
  const grouping = decimal === '.' ? ',' : '.';
  let digits = '';
  let seenDigit = false;
  let seenDecimal = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch >= '0' && ch <= '9') {
      digits += ch;
      seenDigit = true;
    } else if ((ch === '-' || ch === '+' || ch === '−') && i === 0) {
      digits += ch === '+' ? '' : '-';
    } else if (ch === decimal && !seenDecimal && seenDigit && i < text.length - 1) {
      digits += '.';
      seenDecimal = true;
    } else if (ch === grouping && lastPoint >= 0 && lastComma >= 0 && seenDigit && !seenDecimal) {
      continue;
    } else {
      return null;
    }
  }
  if (!seenDigit) return null;
  const value = Number(digits);
  return Number.isFinite(value) ? value : null;
}

const QUALITATIVE: ReadonlyMap<string, string> = new Map(
  [
    'positive',
    'negative',
    'pos',
    'neg',
    'trace',
    'traces',
    'normal',
    'detected',
    'reactive',
    'nonreactive',
    'positiv',
    'negativ',
    'spuren',
    'nachweisbar',
    'positif',
    'negatif',
    'positivo',
    'negativo',
    'indicios',
    'trazas',
  ].map((word) => [word, word]),
);
/** Two-word qualitative results, looked at before one-word ones. */
const QUALITATIVE_PAIRS = new Set(['not detected', 'non reactive', 'nicht nachweisbar', 'no detectado', 'non detecte']);

const FLAGS: ReadonlyMap<string, LabFlag> = new Map<string, LabFlag>([
  ['h', 'H'],
  ['hh', 'H'],
  ['l', 'L'],
  ['ll', 'L'],
  ['a', 'A'],
  ['aa', 'A'],
  ['high', 'H'],
  ['low', 'L'],
  ['abnormal', 'A'],
  ['hoch', 'H'],
  ['erhoht', 'H'],
  ['niedrig', 'L'],
  ['erniedrigt', 'L'],
  ['pathologisch', 'A'],
  ['eleve', 'H'],
  ['elevee', 'H'],
  ['bas', 'L'],
  ['basse', 'L'],
  ['anormal', 'A'],
  ['alto', 'H'],
  ['alta', 'H'],
  ['bajo', 'L'],
  ['baja', 'L'],
]);
const ARROW_FLAGS: ReadonlyMap<string, LabFlag> = new Map<string, LabFlag>([
  ['↑', 'H'],
  ['⇑', 'H'],
  ['▲', 'H'],
  ['↓', 'L'],
  ['⇓', 'L'],
  ['▼', 'L'],
]);

function flagOf(text: string): LabFlag | null {
  const arrow = ARROW_FLAGS.get(bare(text));
  if (arrow) return arrow;
  if (text.length > 14) return null;
  return FLAGS.get(normaliseName(text)) ?? null;
}

/** "up to 200", "bis 200", "hasta 200", "jusqu'à 200": the words before an upper limit. */
const UP_TO = new Set(['up to', 'bis', 'hasta', 'jusqu a', 'jusqu', 'until', 'max']);
const LESS = new Set(['<', '≤', '<=', '=<']);
const MORE = new Set(['>', '≥', '>=', '=>']);

/** The spellings reports use that UCUM writes differently ("µg/l", "x10^3/µL", "mIU/L", "G/l", "mEq/L", "sec"). */
export function toUcum(unit: string): string | null {
  let u = bare(unit).replaceAll('µ', 'u').replaceAll('μ', 'u').replaceAll('²', '2').replaceAll('mcg', 'ug');
  if (u.length === 0 || u.length > 30) return null;
  if (u.includes('1.73') || u.includes('1,73')) return 'mL/min/{1.73_m2}';
  if (u.startsWith('x') || u.startsWith('×') || u.startsWith('*')) u = u.slice(1);
  u = u.replaceAll('10^', '10*').replaceAll('10E', '10*').replaceAll('10e', '10*');
  const giga: Record<string, string> = {
    'G/l': '10*9/L',
    'G/L': '10*9/L',
    'T/l': '10*12/L',
    'T/L': '10*12/L',
    'K/uL': '10*3/uL',
    'K/ul': '10*3/uL',
    'M/uL': '10*6/uL',
    'M/ul': '10*6/uL',
    'Tsd/ul': '10*3/uL',
    'Mio/ul': '10*6/uL',
    sec: 's',
    'mm/hr': 'mm/h',
    'mm/Std': 'mm/h',
    'mm/1h': 'mm/h',
    'mEq/L': 'meq/L',
    'mEq/l': 'meq/L',
  };
  u = giga[u] ?? u;
  // "IU" is an arbitrary unit in UCUM, written in brackets: mIU/L → m[IU]/L.
  if (u.includes('IU') && !u.includes('[IU]')) u = u.replaceAll('IU', '[IU]');
  const code = ucumCode(u);
  // OCR reads the capital I of "mIU/L" as a small l: "mlU/L" is no unit, "mIU/L" is.
  if (code === null && u.includes('lU')) return toUcum(u.replaceAll('lU', 'IU'));
  return code;
}

function looksLikeUnit(text: string): boolean {
  const b = bare(text);
  if (b.length === 0 || parseNumber(b) !== null) return false;
  if (toUcum(b) !== null && !FLAGS.has(normaliseName(b))) return true;
  return b.includes('/') && b.length <= 24;
}

interface Range {
  low: number | null;
  high: number | null;
  /** How many tokens the range took. */
  used: number;
}

/** A reference range starting at tokens[i]: "3.5-5.1", "3,5 – 5,1", "(30-400)", "< 0.41", "> 60", "up to 200". */
function rangeAt(tokens: readonly Token[], i: number): Range | null {
  const first = tokens[i];
  if (!first) return null;
  const text = bare(first.text);
  // "<0.41", "< 0.41", ">60", "≤ 5"
  for (const [set, isUpper] of [
    [LESS, true],
    [MORE, false],
  ] as const) {
    for (const sign of set) {
      if (text === sign) {
        const n = parseNumber(bare(tokens[i + 1]?.text ?? ''));
        if (n !== null) return { low: isUpper ? null : n, high: isUpper ? n : null, used: 2 };
      } else if (text.startsWith(sign)) {
        const n = parseNumber(text.slice(sign.length));
        if (n !== null) return { low: isUpper ? null : n, high: isUpper ? n : null, used: 1 };
      }
    }
  }
  // "up to 200", "bis 200"
  for (const words of [2, 1]) {
    const phrase = normaliseName(
      tokens
        .slice(i, i + words)
        .map((t) => t.text)
        .join(' '),
    );
    if (UP_TO.has(phrase)) {
      const n = parseNumber(bare(tokens[i + words]?.text ?? ''));
      if (n !== null) return { low: null, high: n, used: words + 1 };
    }
  }
  // "3.5-5.1" in one token (the dash looked for after the first character: "-2-2" is a range too)
  for (let k = 1; k < text.length - 1; k++) {
    if (DASHES.has(text[k] ?? '')) {
      const low = parseNumber(text.slice(0, k));
      const high = parseNumber(text.slice(k + 1));
      if (low !== null && high !== null && low <= high) return { low, high, used: 1 };
      break;
    }
  }
  const low = parseNumber(text);
  if (low === null) return null;
  // "3,5 – 5,1", "3.5- 5.1", "3.5 -5.1"
  const next = tokens[i + 1]?.text ?? '';
  const lastChar = first.text.at(-1) ?? '';
  if (DASHES.has(lastChar)) {
    const lowOnly = parseNumber(bare(first.text.slice(0, -1)));
    const high = parseNumber(bare(next));
    if (lowOnly !== null && high !== null && lowOnly <= high) return { low: lowOnly, high, used: 2 };
  }
  if (DASHES.has(next)) {
    const high = parseNumber(bare(tokens[i + 2]?.text ?? ''));
    if (high !== null && low <= high) return { low, high, used: 3 };
  }
  if (DASHES.has(next[0] ?? '') && next.length > 1) {
    const high = parseNumber(bare(next.slice(1)));
    if (high !== null && low <= high) return { low, high, used: 2 };
  }
  return null;
}

/** The test whose name begins at tokens[i], the longest that matches, and how many tokens it took. */
function nameAt(tokens: readonly Token[], i: number, until: number): { test: LoincTest; used: number } | null {
  let found: { test: LoincTest; used: number } | null = null;
  let joined = '';
  for (let k = i; k < Math.min(until, i + MAX_NAME_TOKENS); k++) {
    const token = tokens[k];
    if (!token) break;
    if (k > i && token.gap >= COLUMN_GAP) break;
    joined = k === i ? token.text : `${joined} ${token.text}`;
    if (joined.length > 80) break;
    const test = testByName(joined);
    if (test) found = { test, used: k - i + 1 };
  }
  return found;
}

function isWord(text: string): boolean {
  const first = text[0] ?? '';
  return first.toLowerCase() !== first.toUpperCase();
}

interface Value {
  value: number | string;
  used: number;
}

function valueAt(tokens: readonly Token[], i: number): Value | null {
  const token = tokens[i];
  if (!token) return null;
  const text = bare(token.text);
  const n = parseNumber(text);
  if (n !== null) return { value: n, used: 1 };
  const pair = normaliseName(`${text} ${tokens[i + 1]?.text ?? ''}`);
  if (tokens[i + 1] && QUALITATIVE_PAIRS.has(pair)) return { value: `${text} ${bare(tokens[i + 1]?.text ?? '')}`, used: 2 };
  if (QUALITATIVE.has(normaliseName(text))) return { value: text, used: 1 };
  if (text === '+' || text === '++' || text === '+++') return { value: text, used: 1 };
  // "<0.5", "< 0.5", ">90": a result below or above what the method measures, kept as written.
  for (const sign of [...LESS, ...MORE]) {
    if (text === sign && parseNumber(bare(tokens[i + 1]?.text ?? '')) !== null) {
      return { value: `${sign}${bare(tokens[i + 1]?.text ?? '')}`, used: 2 };
    }
    if (text.startsWith(sign) && parseNumber(text.slice(sign.length)) !== null) return { value: text, used: 1 };
  }
  return null;
}

type Found = Omit<LabValueRow, 'date' | 'page'>;

/** The rows one line holds: one, or several side by side (a two-column layout). */
function rowsOfLine(line: string, lineNo: number): Found[] {
  const tokens = tokenise(line);
  const rows: Found[] = [];
  let i = 0;
  while (i < tokens.length) {
    const start = tokens[i];
    if (!start || !isWord(start.text)) {
      i++;
      continue;
    }
    const named = nameAt(tokens, i, tokens.length);
    let nameEnd: number;
    let test: LoincTest | null = null;
    if (named) {
      nameEnd = i + named.used;
      test = named.test;
    } else {
      // An unmapped name: words up to the value, within one column.
      nameEnd = i + 1;
      while (nameEnd < tokens.length && nameEnd - i < MAX_NAME_TOKENS) {
        const t = tokens[nameEnd];
        if (!t || t.gap >= COLUMN_GAP || valueAt(tokens, nameEnd) !== null) break;
        nameEnd++;
      }
    }
    // A colon, an equals sign or a bracketed word ("(Serum)") may stand between name and value.
    // Some layouts put the flag before the value ("GLUCOSE  H 105 mg/dL"), or the unit in brackets after the name
    // ("Ferritin (ng/mL)  12.3").
    let j = nameEnd;
    let flagBefore: LabFlag | null = null;
    let unitBefore: string | null = null;
    while (j < tokens.length && j - nameEnd < 3) {
      const t = tokens[j]?.text ?? '';
      const bracketed = BRACKETS.has(t[0] ?? '');
      const skippable = t === ':' || t === '=' || (bracketed && isWord(bare(t)) && !looksLikeUnit(t));
      if (skippable) {
        j++;
        continue;
      }
      if (bracketed && !unitBefore && looksLikeUnit(t) && valueAt(tokens, j + 1)) {
        unitBefore = bare(t);
        j++;
        continue;
      }
      const f = flagOf(t);
      if (f && !flagBefore && valueAt(tokens, j + 1)) {
        flagBefore = f;
        j++;
        continue;
      }
      break;
    }
    const value = valueAt(tokens, j);
    if (!value) {
      i = named ? nameEnd : i + 1;
      continue;
    }
    let k = j + value.used;
    let unit: string | null = unitBefore;
    let ucum: string | null = unitBefore === null ? null : toUcum(unitBefore);
    let range: Range | null = null;
    let rangeFrom = -1;
    let flag: LabFlag | null = flagBefore;
    const limit = Math.min(tokens.length, k + MAX_ROW_TOKENS);
    while (k < limit) {
      const t = tokens[k];
      if (!t) break;
      if (!range) {
        const r = rangeAt(tokens, k);
        if (r) {
          range = r;
          rangeFrom = k;
          k += r.used;
          continue;
        }
      }
      if (t.gap >= COLUMN_GAP && isWord(t.text) && flagOf(t.text) === null && !looksLikeUnit(t.text)) break;
      if (isWord(t.text) && nameAt(tokens, k, tokens.length) && !looksLikeUnit(t.text)) break;
      const f = flagOf(t.text);
      if (f && !flag) {
        flag = f;
        k++;
        continue;
      }
      if (!unit && looksLikeUnit(t.text)) {
        unit = bare(t.text);
        ucum = toUcum(unit);
        k++;
        continue;
      }
      break;
    }
    // In a letter a number after a test's name is prose; a table row gives a unit or a range. An unmapped name needs
    // a range: "Paracetamol 500 mg" is not a lab value.
    const qualitative = typeof value.value === 'string';
    // Without a range, a row's cells end the line or its column: "take iron 100 mg once a day" goes on as prose.
    const next = tokens[k];
    const cellEnds = range !== null || !next || next.gap >= COLUMN_GAP || (isWord(next.text) && nameAt(tokens, k, tokens.length) !== null);
    const isRow = cellEnds && (test ? unit !== null || range !== null || qualitative : range !== null);
    if (!isRow) {
      i = named ? nameEnd : i + 1;
      continue;
    }
    const first = tokens[i];
    const last = tokens[k - 1];
    const rangeTokens = range ? tokens.slice(rangeFrom, rangeFrom + range.used) : [];
    rows.push({
      name: tokens
        .slice(i, nameEnd)
        .map((t) => t.text)
        .join(' ')
        .replace(/:$/, ''),
      loinc: test?.loinc ?? null,
      value: value.value,
      unit,
      ucum_unit: ucum,
      reference_low: range?.low ?? null,
      reference_high: range?.high ?? null,
      reference_text: range ? bare(rangeTokens.map((t) => t.text).join(' ')) : null,
      flag,
      source_text: first && last ? line.slice(first.start, last.end) : line.trim(),
      line: lineNo,
    });
    i = k;
  }
  return rows;
}

/** The words that introduce a collection date, normalised; English ones write month first. */
const DATE_WORDS_EN = ['collected', 'collection date', 'date collected', 'date of collection', 'specimen collected', 'drawn'];
const DATE_WORDS = [
  'entnahme',
  'entnahmedatum',
  'abnahme',
  'abnahmedatum',
  'probenentnahme',
  'prelevement',
  'preleve le',
  'date de prelevement',
  'fecha de toma',
  'fecha de extraccion',
  'fecha de recogida',
  'toma de muestra',
  'extraccion',
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A date token: 2026-03-14, 14.03.2026, 03/14/2026 (month first where `monthFirst`), 14/03/2026. */
function dateOf(text: string, monthFirst: boolean): string | null {
  const t = bare(text).replace(/[,;]$/, '');
  if (t.length < 8 || t.length > 10) return null;
  for (const sep of ['-', '.', '/']) {
    const parts = t.split(sep);
    if (parts.length !== 3 || parts.some((p) => p.length === 0 || p.length > 4 || parseNumber(p) === null || p.includes(','))) continue;
    const [a, b, c] = parts.map(Number) as [number, number, number];
    if ((parts[0] ?? '').length === 4) return isoDate(a, b, c);
    if ((parts[2] ?? '').length !== 4) return null;
    if (sep === '/' && (monthFirst ? a <= 12 : b > 12)) return isoDate(c, a, b);
    return isoDate(c, b, a);
  }
  return null;
}

/** The collection date a line gives, if it names one. */
function collectionDate(line: string): string | null {
  const norm = normaliseName(line);
  const padded = ` ${norm} `;
  const english = DATE_WORDS_EN.some((w) => padded.includes(` ${w} `));
  const other = DATE_WORDS.some((w) => padded.includes(` ${w} `) || padded.includes(` ${w}`));
  if (!english && !other) return null;
  const tokens = tokenise(line);
  for (const token of tokens) {
    const date = dateOf(token.text, english);
    if (date) return date;
  }
  return writtenDate(tokens);
}

/** Month names and their usual abbreviations in the four languages, normalised. */
const MONTHS: ReadonlyMap<string, number> = new Map(
  (
    [
      [1, 'january jan januar janvier enero ene'],
      [2, 'february feb februar fevrier fevr fev febrero'],
      [3, 'march mar marz mars marzo'],
      [4, 'april apr avril avr abril abr'],
      [5, 'may mai mayo'],
      [6, 'june jun juni juin junio'],
      [7, 'july jul juli juillet juil julio'],
      [8, 'august aug aout agosto ago'],
      [9, 'september sep sept septembre septiembre setiembre'],
      [10, 'october oct oktober okt octobre octubre'],
      [11, 'november nov novembre noviembre'],
      [12, 'december dec dezember dez decembre diciembre dic'],
    ] as const
  ).flatMap(([month, names]) => names.split(' ').map((name) => [name, month] as const)),
);

/** "14 March 2026", "March 14, 2026", "14. März 2026", "14 mars 2026", "14 de marzo de 2026". */
function writtenDate(tokens: readonly Token[]): string | null {
  const numberAt = (k: number): number | null => {
    const text = bare(tokens[k]?.text ?? '');
    const trimmed = text.endsWith('.') || text.endsWith(',') ? text.slice(0, -1) : text;
    return trimmed.length > 0 && trimmed.length <= 4 ? parseNumber(trimmed) : null;
  };
  for (let m = 0; m < tokens.length; m++) {
    const month = MONTHS.get(normaliseName(tokens[m]?.text ?? ''));
    if (month === undefined) continue;
    const before = normaliseName(tokens[m - 1]?.text ?? '') === 'de' ? m - 2 : m - 1;
    const dayBefore = numberAt(before);
    const dayAfter = numberAt(m + 1);
    const day = dayBefore !== null && dayBefore <= 31 ? dayBefore : dayAfter;
    for (let y = m + 1; y <= m + 4; y++) {
      const year = numberAt(y);
      if (year !== null && year >= 1900 && year <= 2100 && day !== null && Number.isInteger(day)) {
        const date = isoDate(year, month, day);
        if (date) return date;
      }
    }
  }
  return null;
}

/**
 * Every lab value in a file's pages. A row's date is the collection date given above it (on its page or an earlier
 * one), else the first one the report gives anywhere.
 */
export function findLabValues(pages: readonly { page: number; text: string }[]): LabValueRow[] {
  const rows: LabValueRow[] = [];
  let firstDate: string | null = null;
  const pendingWithoutDate: LabValueRow[] = [];
  let current: string | null = null;
  for (const { page, text } of pages) {
    const lines = text.split('\n');
    for (const [lineNo, line] of lines.entries()) {
      const date = collectionDate(line);
      if (date) {
        current = date;
        firstDate ??= date;
        continue;
      }
      for (const found of rowsOfLine(line, lineNo)) {
        const row: LabValueRow = { ...found, date: current, page };
        if (!current) pendingWithoutDate.push(row);
        rows.push(row);
      }
    }
  }
  for (const row of pendingWithoutDate) row.date = firstDate;
  return rows;
}

/**
 * A row's value in the unit its test's trend uses (the table's UCUM unit), converted where UCUM allows it — mass and
 * moles only with the table's molar mass. Null for an unmapped or qualitative row or a unit UCUM cannot convert.
 */
export function toTrendUnit(
  row: Pick<LabValueRow, 'loinc' | 'value' | 'ucum_unit' | 'reference_low' | 'reference_high'>,
): { value: number; ucum_unit: string; reference_low: number | null; reference_high: number | null } | null {
  if (row.loinc === null || typeof row.value !== 'number' || row.ucum_unit === null) return null;
  const test = testByCode(row.loinc);
  if (!test) return null;
  const convert = (n: number | null): number | null | undefined => {
    if (n === null) return null;
    if (row.ucum_unit === test.ucum) return n;
    const out = convertUnit(n, row.ucum_unit ?? '', test.ucum, test.molarMass);
    return out === null ? undefined : Number(out.toPrecision(6));
  };
  const value = convert(row.value);
  const low = convert(row.reference_low);
  const high = convert(row.reference_high);
  if (value === null || value === undefined || low === undefined || high === undefined) return null;
  return { value, ucum_unit: test.ucum, reference_low: low, reference_high: high };
}

/** Units a trend was asked about, as UCUM writes them (a list of a person's results repeats a few units). */
const trendUnits = new Map<string, string | null>();
/** By code and UCUM unit: the factor to the table's unit (lab units are ratios: converting is multiplying), or null. */
const trendFactors = new Map<string, number | null>();
const REMEMBERED = 1000;

/**
 * A stored lab result's point on its test's trend: the value and range in the table's unit (as `toTrendUnit` converts
 * them), the unit as the report wrote it read through `toUcum`. Null for an unmapped, qualitative or unconvertible
 * result. A list converts many results in a few units: each unit's factor is asked of UCUM once.
 */
export function trendOf(result: {
  loinc: string | null;
  value: number | null;
  unit: string | null;
  reference_low: number | null;
  reference_high: number | null;
}): { value: number; unit: string; reference_low: number | null; reference_high: number | null } | null {
  if (result.loinc === null || result.value === null || result.unit === null) return null;
  let ucum = trendUnits.get(result.unit);
  if (ucum === undefined) {
    ucum = toUcum(result.unit);
    if (trendUnits.size < REMEMBERED) trendUnits.set(result.unit, ucum);
  }
  if (ucum === null) return null;
  const test = testByCode(result.loinc);
  if (!test) return null;
  const key = `${result.loinc} ${ucum}`;
  let factor = trendFactors.get(key);
  if (factor === undefined) {
    factor = ucum === test.ucum ? 1 : convertUnit(1, ucum, test.ucum, test.molarMass);
    if (trendFactors.size < REMEMBERED) trendFactors.set(key, factor);
  }
  if (factor === null) return null;
  const f = factor;
  const scaled = (n: number | null) => (n === null ? null : f === 1 ? n : Number((n * f).toPrecision(6)));
  return {
    value: scaled(result.value) as number,
    unit: test.ucum,
    reference_low: scaled(result.reference_low),
    reference_high: scaled(result.reference_high),
  };
}
