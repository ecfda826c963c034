import type { FileSuggestion } from '@kinchart/shared/search';

// Issue 33, docs/decisions/0049: what a file's text suggests for its record — a visit date, a
// provider and a reason — found by reading the text once, word by word, with no regular
// expression at all (DESIGN §3: the text is an upload, so nothing here may backtrack). Each
// finder is linear in the text's length; the text read is capped besides.

/** The most text read for suggestions: a record's first pages say what it is. */
const MAX_TEXT = 200_000;
const REASON_MAX = 200;
const PROVIDER_MAX = 200;

/**
 * One UTF-16 unit per unit, lower-cased and without its accent ('É' → 'e'), so that offsets in
 * the folded text are offsets in the original.
 */
/** Folded non-ASCII characters, as they are met (at most the Basic Multilingual Plane's 63,000). */
const FOLDED = new Map<string, string>();

export function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      out += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i];
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += text[i];
    } else {
      const c = text[i]!;
      let base = FOLDED.get(c);
      if (base === undefined) {
        const first = c.normalize('NFD').charAt(0).toLowerCase().charAt(0);
        base = first === 'ß' ? 's' : first || c;
        FOLDED.set(c, base);
      }
      out += base;
    }
  }
  return out;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined) => c !== undefined && c.toLowerCase() !== c.toUpperCase();
const isUpper = (c: string | undefined) => c !== undefined && isLetter(c) && c === c.toUpperCase();

type TokenKind = 'word' | 'number' | 'mark';
interface Token {
  kind: TokenKind;
  /** The folded text of the token. */
  text: string;
  /** The token as written. */
  raw: string;
  start: number;
}

/** Words (letters), numbers (digits) and single marks; spaces separate and are dropped. */
function tokenize(line: string, folded: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0') {
      i++;
      continue;
    }
    const start = i;
    let kind: TokenKind;
    if (isDigit(c)) {
      kind = 'number';
      while (i < line.length && isDigit(line[i])) i++;
    } else if (isLetter(c)) {
      kind = 'word';
      while (i < line.length && isLetter(line[i])) i++;
    } else {
      kind = 'mark';
      i++;
    }
    tokens.push({ kind, text: folded.slice(start, i), raw: line.slice(start, i), start });
  }
  return tokens;
}

// ---------- dates ----------

const MONTHS: Record<string, number> = {};
const addMonths = (names: string[][]) => names.forEach((list, m) => list.forEach((name) => (MONTHS[name] = m + 1)));
addMonths([
  // English, German, Spanish, French (folded: no accents), with the usual abbreviations.
  ['january', 'jan', 'januar', 'janner', 'jan', 'enero', 'ene', 'janvier', 'janv'],
  ['february', 'feb', 'februar', 'febrero', 'fevrier', 'fevr', 'fev'],
  ['march', 'mar', 'marz', 'maerz', 'marzo', 'mars'],
  ['april', 'apr', 'abril', 'abr', 'avril', 'avr'],
  ['may', 'mai', 'mayo'],
  ['june', 'jun', 'juni', 'junio', 'juin'],
  ['july', 'jul', 'juli', 'julio', 'juillet', 'juil'],
  ['august', 'aug', 'agosto', 'ago', 'aout'],
  ['september', 'sep', 'sept', 'septiembre', 'setiembre', 'septembre'],
  ['october', 'oct', 'oktober', 'okt', 'octubre', 'octobre'],
  ['november', 'nov', 'noviembre', 'novembre'],
  ['december', 'dec', 'dezember', 'dez', 'diciembre', 'dic', 'decembre'],
]);

/** Labels before a date, as folded words: the date they name, or a birth date (never suggested). */
const BIRTH_LABELS = [
  'dob',
  'd o b',
  'date of birth',
  'birth date',
  'birthdate',
  'born',
  'geburtsdatum',
  'geboren',
  'geb',
  'fecha de nacimiento',
  'f nac',
  'nacimiento',
  'date de naissance',
  'ne le',
  'nee le',
  'ne e le',
].map((l) => l.split(' '));
const VISIT_LABELS = [
  'date of service',
  'service date',
  'date of visit',
  'visit date',
  'collected',
  'collection date',
  'date collected',
  'fecha de consulta',
  'fecha de atencion',
  'fecha de la consulta',
  'untersuchungsdatum',
  'behandlungsdatum',
  'date de consultation',
  'date de la consultation',
  'date de visite',
].map((l) => l.split(' '));
const DATE_LABELS = ['date', 'fecha', 'datum', 'dated', 'le'].map((l) => l.split(' '));

type Label = 'birth' | 'visit' | 'date';
const LABELS: { words: string[]; label: Label }[] = [
  ...BIRTH_LABELS.map((words) => ({ words, label: 'birth' as const })),
  ...VISIT_LABELS.map((words) => ({ words, label: 'visit' as const })),
  ...DATE_LABELS.map((words) => ({ words, label: 'date' as const })),
  // Longest first: "date of birth" wins over "date".
].sort((a, b) => b.words.length - a.words.length);

/** The label (if any) whose last word is word `i` of `words`. */
function labelEndingAt(words: Token[], i: number): Label | undefined {
  for (const { words: label, label: kind } of LABELS) {
    const first = i - label.length + 1;
    if (first < 0) continue;
    let ok = true;
    for (let k = 0; k < label.length && ok; k++) ok = words[first + k]!.text === label[k];
    if (ok) return kind;
  }
  return undefined;
}

interface DateFound {
  /** Read day-first when the numbers alone do not say. */
  iso: string;
  /** What this date says of the whole text's order: 25/03/2026 is day-first, 03/25/2026 month-first. */
  hint?: 'day-first' | 'month-first';
  /** 12/03/2026: could be read month-first too (this is that reading). */
  monthFirst?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
function isoOf(year: number, month: number, day: number): string | undefined {
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return undefined;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days ? `${year}-${pad(month)}-${pad(day)}` : undefined;
}

const num = (t: Token | undefined, digits: [number, number]) =>
  t && t.kind === 'number' && t.text.length >= digits[0] && t.text.length <= digits[1] ? Number(t.text) : undefined;
const markIs = (t: Token | undefined, marks: string) => t !== undefined && t.kind === 'mark' && marks.includes(t.text);
const month = (t: Token | undefined) => (t && t.kind === 'word' ? MONTHS[t.text] : undefined);

/** A date starting at token `i`, and how many tokens it takes. */
function dateAt(tokens: Token[], i: number): { found: DateFound; length: number } | undefined {
  const t = tokens[i]!;
  if (t.kind === 'number') {
    // 2026-03-12 (ISO; also 2026/03/12 and 2026.03.12)
    const y = num(t, [4, 4]);
    if (y !== undefined && markIs(tokens[i + 1], '-/.') && tokens[i + 3]?.text === tokens[i + 1]!.text) {
      const m = num(tokens[i + 2], [1, 2]);
      const d = num(tokens[i + 4], [1, 2]);
      const iso = m !== undefined && d !== undefined ? isoOf(y, m, d) : undefined;
      if (iso) return { found: { iso }, length: 5 };
    }
    const a = num(t, [1, 2]);
    if (a === undefined) return undefined;
    // 12/03/2026, 12.03.2026, 12-03-2026: the order is settled later, from the whole text.
    const sep = tokens[i + 1];
    if (markIs(sep, '/.-') && tokens[i + 3]?.text === sep!.text) {
      const b = num(tokens[i + 2], [1, 2]);
      const year = num(tokens[i + 4], [4, 4]);
      if (b === undefined || year === undefined) return undefined;
      if (a > 12) {
        const iso = isoOf(year, b, a);
        return iso ? { found: { iso, hint: 'day-first' }, length: 5 } : undefined;
      }
      if (b > 12) {
        const iso = isoOf(year, a, b);
        return iso ? { found: { iso, hint: 'month-first' }, length: 5 } : undefined;
      }
      const iso = isoOf(year, b, a);
      if (!iso) return undefined;
      // Dots are written day-first (12.03.2026) wherever they are used.
      return { found: sep!.text === '.' ? { iso } : { iso, monthFirst: isoOf(year, a, b)! }, length: 5 };
    }
    // 3 March 2026, 12. März 2026, 12 de marzo de 2026, 1er mars 2026
    let j = i + 1;
    if (markIs(tokens[j], '.')) j++;
    if (tokens[j]?.kind === 'word' && (tokens[j]!.text === 'er' || tokens[j]!.text === 'de' || tokens[j]!.text === 'of')) j++;
    const m = month(tokens[j]);
    if (m === undefined) return undefined;
    j++;
    if (markIs(tokens[j], '.,')) j++;
    if (tokens[j]?.kind === 'word' && tokens[j]!.text === 'de') j++;
    const year = num(tokens[j], [4, 4]);
    const iso = year !== undefined ? isoOf(year, m, a) : undefined;
    return iso ? { found: { iso }, length: j - i + 1 } : undefined;
  }
  // March 3, 2026; Mar. 3 2026
  const m = month(t);
  if (m === undefined) return undefined;
  let j = i + 1;
  if (markIs(tokens[j], '.')) j++;
  const d = num(tokens[j], [1, 2]);
  if (d === undefined) return undefined;
  j++;
  if (markIs(tokens[j], ',')) j++;
  const year = num(tokens[j], [4, 4]);
  const iso = year !== undefined ? isoOf(year, m, d) : undefined;
  return iso ? { found: { iso }, length: j - i + 1 } : undefined;
}

interface Candidate {
  iso: string;
  /** The month-first reading of an ambiguous date. */
  monthFirst?: string;
  score: number;
  birth: boolean;
}

/** English words that mark a document written month-first when a date could be read both ways. */
const ENGLISH_MARKERS = new Set(['patient', 'reason', 'visit', 'provider', 'physician', 'collected', 'service', 'diagnosis', 'report']);

type Line = { raw: string; folded: string };

function dateCandidates(lines: Line[]): { candidates: Candidate[]; hint: DateFound['hint']; english: boolean } {
  const candidates: Candidate[] = [];
  let hint: DateFound['hint'];
  let english = false;
  /** The label a line ended with, for a date on the next line ("Date of birth:\n01/02/1980"). */
  let carried: Label | undefined;
  for (const line of lines) {
    const tokens = tokenize(line.raw, line.folded);
    const words = tokens.filter((t) => t.kind === 'word');
    const wordIndex = new Map(words.map((w, k) => [w, k]));
    /** The label closest before the token at hand on this line. */
    let lastLabel: { label: Label; at: number } | undefined;
    let firstDate = true;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.kind === 'word') {
        if (ENGLISH_MARKERS.has(t.text)) english = true;
        const label = labelEndingAt(words, wordIndex.get(t)!);
        if (label) lastLabel = { label, at: i };
      }
      const date = dateAt(tokens, i);
      if (!date) continue;
      const near = lastLabel && i - lastLabel.at <= 8 ? lastLabel.label : firstDate && i <= 1 ? carried : undefined;
      firstDate = false;
      const { found } = date;
      hint ??= found.hint;
      candidates.push({
        iso: found.iso,
        ...(found.monthFirst ? { monthFirst: found.monthFirst } : {}),
        score: near === 'visit' ? 3 : near === 'date' ? 2 : 1,
        birth: near === 'birth',
      });
      // A label is used up by its date: a second date on the line is not "after Date of birth".
      lastLabel = undefined;
      i += date.length - 1;
    }
    const tail = tokens.at(-1)?.text === ':' ? tokens.at(-2) : tokens.at(-1);
    carried = tail && tail === words.at(-1) ? labelEndingAt(words, words.length - 1) : undefined;
  }
  return { candidates, hint, english };
}

function findDate(lines: Line[], today: string): string | null {
  const { candidates, hint, english } = dateCandidates(lines);
  // 12/03/2026: a date in the text that reads only one way decides; else a text in English is
  // read month-first (as US records are written), any other day-first.
  const monthFirst = hint === undefined ? english : hint === 'month-first';
  let best: { iso: string; score: number } | undefined;
  for (const c of candidates) {
    if (c.birth) continue;
    const iso = monthFirst && c.monthFirst ? c.monthFirst : c.iso;
    // A date after today is an appointment to come or a misread, not the visit this file records.
    if (iso > today) continue;
    // The best label wins; among equals, the first in the text.
    if (!best || c.score > best.score) best = { iso, score: c.score };
  }
  return best?.iso ?? null;
}

// ---------- labelled values: provider names and reasons ----------

/** Where `label` (folded, no colon) stands on the line followed by a colon: the offset after the colon. */
function afterLabel(folded: string, label: string, colon: boolean): number | undefined {
  let from = 0;
  for (;;) {
    const at = folded.indexOf(label, from);
    if (at < 0) return undefined;
    from = at + 1;
    if (at > 0 && isLetter(folded[at - 1])) continue;
    let j = at + label.length;
    if (isLetter(folded[j])) continue;
    while (folded[j] === ' ' || folded[j] === '\t') j++;
    if (!colon) return j;
    if (folded[j] === ':') return j + 1;
  }
}

/** The line's text without runs of spaces, trimmed, at most `max` characters. */
function clean(text: string, max: number): string {
  let out = '';
  let space = false;
  for (const c of text) {
    if (c === ' ' || c === '\t' || c === '\u00a0' || c === '\r') {
      space = out !== '';
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.length <= max) return out;
  const cut = out.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).trim();
}

const REASON_LABELS = [
  'reason for visit',
  'reason for the visit',
  'reason for consultation',
  'reason for referral',
  'chief complaint',
  'motivo de consulta',
  'motivo de la consulta',
  'motif de consultation',
  'motif de la consultation',
  'konsultationsgrund',
  'vorstellungsgrund',
  'grund der vorstellung',
  'reason',
  'motivo',
  'motif',
  'grund',
  'anlass',
  'diagnosis',
  'diagnoses',
  'diagnostico',
  'diagnostic',
  'diagnose',
];

function findReason(lines: Line[]): string | null {
  for (const label of REASON_LABELS) {
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const at = afterLabel(line.folded, label, true);
      if (at === undefined) continue;
      let text = clean(line.raw.slice(at, at + 4 * REASON_MAX), REASON_MAX);
      // "Reason for visit:" alone on its line: the reason is the next line.
      if (text === '' && lines[n + 1]) text = clean(lines[n + 1]!.raw.slice(0, 4 * REASON_MAX), REASON_MAX);
      if ([...text].some(isLetter)) return text;
    }
  }
  return null;
}

const PROVIDER_LABELS = [
  'provider',
  'physician',
  'attending physician',
  'attending',
  'doctor',
  'treating physician',
  'referring physician',
  'arzt',
  'arztin',
  'behandelnder arzt',
  'medico',
  'medica',
  'medecin',
  'medico tratante',
];
const TITLES = ['dr', 'dra', 'drs'];
const PARTICLES = new Set(['de', 'del', 'la', 'van', 'von', 'der', 'den', 'da', 'di', 'le', 'du', 'y']);
const isParticle = (t: Token | undefined) => t !== undefined && t.kind === 'word' && PARTICLES.has(t.text);

/** Up to `max` name words from `text`: capitalised words (with particles between them), stopping at anything else. */
function nameWords(text: string, max: number): string {
  const tokens = tokenize(text, fold(text));
  const out: string[] = [];
  let end = 0;
  for (let i = 0; i < tokens.length && out.length < max; i++) {
    const t = tokens[i]!;
    if (t.kind === 'word' && isUpper(t.raw[0])) {
      out.push(t.raw);
      end = t.start + t.raw.length;
      // An initial ("J.") or a hyphenated name keeps its mark.
      if ((markIs(tokens[i + 1], '.') && t.raw.length === 1) || (markIs(tokens[i + 1], '-') && tokens[i + 2]?.kind === 'word')) {
        end = tokens[i + 1]!.start + 1;
        i++;
        if (tokens[i]!.text === '-') {
          i++;
          end = tokens[i]!.start + tokens[i]!.raw.length;
        }
      } else if (markIs(tokens[i + 1], "'’") && tokens[i + 2]?.kind === 'word') {
        i += 2;
        end = tokens[i]!.start + tokens[i]!.raw.length;
      }
      continue;
    }
    // "de la Cruz", "van der Berg": particles count when a capitalised word follows them.
    if (out.length > 0 && isParticle(t)) {
      let k = i;
      while (isParticle(tokens[k])) k++;
      if (tokens[k]?.kind === 'word' && isUpper(tokens[k]!.raw[0])) {
        for (; i < k; i++) out.push(tokens[i]!.raw);
        i--;
        continue;
      }
    }
    break;
  }
  return out.length === 0 ? '' : text.slice(0, end).trim();
}

/** A name in words, at least one word of two letters. */
const looksLikeName = (name: string) => tokenize(name, fold(name)).some((t) => t.kind === 'word' && t.raw.length >= 2);

/** Folded and with runs of spaces and line breaks made one space, to look for a name across lines. */
function squeeze(folded: string): string {
  let out = '';
  let space = false;
  for (const c of folded) {
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\u00a0') {
      space = out !== '';
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/** Where `needle` occurs in `hay` as whole words; -1 when it does not. */
function wordIndexOf(hay: string, needle: string): number {
  let from = 0;
  for (;;) {
    const at = hay.indexOf(needle, from);
    if (at < 0) return -1;
    if (!isLetter(hay[at - 1]) && !isLetter(hay[at + needle.length])) return at;
    from = at + 1;
  }
}

/** A name without its title ("Dr. Ana Ruiz" → "ana ruiz"), folded and squeezed. */
function withoutTitle(name: string): string {
  const folded = squeeze(fold(name));
  for (const title of TITLES) {
    if (folded.startsWith(`${title}. `)) return folded.slice(title.length + 2);
    if (folded.startsWith(`${title} `)) return folded.slice(title.length + 1);
  }
  return folded;
}

function findProvider(lines: Line[], text: string, providers: readonly { provider_name: string }[]): string | null {
  // One of the person's own providers named in the text: the one named first.
  const hay = squeeze(fold(text));
  let best: { name: string; at: number } | undefined;
  for (const p of providers) {
    for (const needle of new Set([squeeze(fold(p.provider_name)), withoutTitle(p.provider_name)])) {
      if (needle.length < 3) continue;
      const at = wordIndexOf(hay, needle);
      if (at >= 0 && (!best || at < best.at)) best = { name: p.provider_name, at };
    }
  }
  if (best) return best.name;
  // Else a name after a label ("Provider: Ana Ruiz, MD") or a title ("Dr. Ana Ruiz").
  for (const label of PROVIDER_LABELS) {
    for (const line of lines) {
      const at = afterLabel(line.folded, label, true);
      if (at === undefined) continue;
      const rest = line.raw.slice(at, at + PROVIDER_MAX).trimStart();
      const title = TITLES.find((t) => fold(rest).startsWith(t) && !isLetter(rest[t.length]));
      const name = title ? titled(rest) : nameWords(rest, 5);
      if (name && looksLikeName(name)) return clean(name, PROVIDER_MAX);
    }
  }
  for (const line of lines) {
    for (const title of TITLES) {
      let from = 0;
      for (;;) {
        const at = line.folded.indexOf(title, from);
        if (at < 0) break;
        from = at + 1;
        if (isLetter(line.folded[at - 1]) || isLetter(line.folded[at + title.length])) continue;
        // Only a capital after "Dr." (and "med.") starts a name: checked before reading on.
        let next = at + title.length + (line.raw[at + title.length] === '.' ? 1 : 0);
        while (line.raw[next] === ' ') next++;
        if (line.folded.startsWith('med.', next)) next += 4;
        while (line.raw[next] === ' ') next++;
        if (!isUpper(line.raw[next])) continue;
        const name = titled(line.raw.slice(at, at + PROVIDER_MAX));
        if (name && looksLikeName(name.slice(title.length + 1))) return clean(name, PROVIDER_MAX);
      }
    }
  }
  return null;
}

/** "Dr. Ana Ruiz" from "Dr. Ana Ruiz reviewed…": the title as written, then the name's words. */
function titled(text: string): string {
  let j = 0;
  while (isLetter(text[j])) j++;
  if (text[j] === '.') j++;
  // German doctors are "Dr. med." (and "Dr. med. dent.").
  for (const degree of [' med.', ' dent.']) if (fold(text.slice(j, j + degree.length)) === degree) j += degree.length;
  const name = nameWords(text.slice(j), 4);
  return name === '' ? '' : `${text.slice(0, j)} ${name}`;
}

// ---------- all three ----------

/**
 * What a file's text suggests: its visit date (never after `today`, never a birth date), its
 * provider (one of `providers` named in it, else a name after a title or label) and its reason
 * (the line after "Reason for visit:" and the like). Each is null when the text does not say.
 */
export function suggestionsFrom(
  pages: readonly string[],
  providers: readonly { provider_name: string }[],
  /** YYYY-MM-DD */
  today: string,
): FileSuggestion {
  let text = '';
  for (const page of pages) {
    if (text.length >= MAX_TEXT) break;
    text += `${page}\n`;
  }
  text = text.slice(0, MAX_TEXT);
  const folded = fold(text);
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === '\n') {
      if (i > start) lines.push({ raw: text.slice(start, i), folded: folded.slice(start, i) });
      start = i + 1;
    }
  }
  return {
    record_date: findDate(lines, today),
    provider_name: findProvider(lines, text, providers),
    visit_reason: findReason(lines),
  };
}
