import { LOINC_TESTS } from './loinc-data';

/** One laboratory test of the table (decision 0051): its LOINC code, the UCUM unit its trend uses, names in four languages. */
export interface LoincTest {
  loinc: string;
  display: string;
  ucum: string;
  synonyms: { en: string[]; es: string[]; fr: string[]; de: string[] };
  /** g/mol, only where the source gives it: the one way from a mass to a molar concentration and back. */
  molarMass?: number;
}

export { LOINC_TESTS };

/**
 * A name as the table compares it: accents and case gone, every run of characters that is neither a letter nor a
 * digit one space. One pass over the characters, no regular expression.
 */
export function normaliseName(name: string): string {
  const bare = name.normalize('NFKD').toLowerCase();
  let out = '';
  let gap = false;
  for (const ch of bare) {
    const code = ch.codePointAt(0) ?? 0;
    // Combining marks (U+0300–U+036F) are the accents NFKD split off.
    if (code >= 0x300 && code <= 0x36f) continue;
    const isWordChar = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || (code > 0x7f && ch.toUpperCase() !== ch) || ch === 'ß';
    if (isWordChar) {
      if (gap && out.length > 0) out += ' ';
      out += ch;
      gap = false;
    } else {
      gap = true;
    }
  }
  return out;
}

const byName = new Map<string, LoincTest>();
const byCode = new Map<string, LoincTest>();
for (const test of LOINC_TESTS) {
  byCode.set(test.loinc, test);
  for (const list of Object.values(test.synonyms)) {
    for (const synonym of list) {
      const key = normaliseName(synonym);
      byName.set(key, test);
    }
  }
}

/** The test a name means, exactly (after normalising), or null. */
export function testByName(name: string): LoincTest | null {
  return byName.get(normaliseName(name)) ?? null;
}

export function testByCode(loinc: string): LoincTest | null {
  return byCode.get(loinc) ?? null;
}

/** LOINC's check digit: the mod 10 (Luhn) algorithm over the digits before the hyphen. */
export function loincCheckDigit(body: string): number {
  let sum = 0;
  const digits = [...body].reverse();
  digits.forEach((d, i) => {
    let n = Number(d);
    if (i % 2 === 0) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  });
  return (10 - (sum % 10)) % 10;
}
