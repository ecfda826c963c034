import { describe, expect, it } from 'vitest';
import { LOINC_TESTS, loincCheckDigit, normaliseName, testByCode, testByName } from '../src/features/labs/loinc-table';
import { ucumCode } from '../src/features/labs/ucum';

describe('the LOINC table of common laboratory tests', () => {
  it('has at least 150 tests, each with a unique code that carries a valid LOINC check digit', () => {
    expect(LOINC_TESTS.length).toBeGreaterThanOrEqual(150);
    const codes = LOINC_TESTS.map((t) => t.loinc);
    expect(new Set(codes).size).toBe(codes.length);
    const wrong = codes.filter((code) => {
      const [body, digit] = code.split('-');
      return !/^\d{1,7}$/.test(body ?? '') || Number(digit) !== loincCheckDigit(body ?? '');
    });
    expect(wrong).toEqual([]);
  });

  it('gives every test a display name, a unit UCUM parses, and names in English, Spanish, French and German', () => {
    const bad = LOINC_TESTS.filter(
      (t) =>
        t.display.trim() === '' ||
        ucumCode(t.ucum) === null ||
        t.synonyms.en.length === 0 ||
        t.synonyms.es.length === 0 ||
        t.synonyms.fr.length === 0 ||
        t.synonyms.de.length === 0,
    ).map((t) => t.loinc);
    expect(bad).toEqual([]);
  });

  it('never lets one name stand for two tests, after case and accents are set aside', () => {
    const owner = new Map<string, string>();
    const collisions: string[] = [];
    for (const t of LOINC_TESTS) {
      const names = new Set(Object.values(t.synonyms).flat().map(normaliseName));
      for (const name of names) {
        const other = owner.get(name);
        if (other !== undefined && other !== t.loinc) collisions.push(`${name}: ${other} and ${t.loinc}`);
        owner.set(name, t.loinc);
      }
    }
    expect(collisions).toEqual([]);
  });

  it('finds a test by any of its names, whatever the case and accents, and by its code', () => {
    expect(testByName('FERRITIN')?.loinc).toBe('2276-4');
    expect(testByName('HAMOGLOBIN')?.loinc).toBe('718-7');
    expect(testByName('Ferritinase')).toBeNull();
    expect(testByName('Hämoglobin')?.loinc).toBe('718-7');
    expect(testByName('hemoglobine')?.loinc).toBe('718-7');
    expect(testByName('Glycémie à jeun')?.loinc).toBe('1558-6');
    expect(testByName('Vitamina D')?.loinc).toBe('1989-3');
    expect(testByName('Ferritin im Serum')).toBe(testByCode('2276-4'));
    expect(testByCode('0000-0')).toBeNull();
    expect(loincCheckDigit('718')).toBe(7);
    expect(loincCheckDigit('2345')).toBe(7);
  });
});
