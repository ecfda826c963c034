import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLabValues, parseNumber, toTrendUnit, toUcum, trendOf, type LabValueRow } from '../src/features/labs/lab-values';

// Issue 34: lab values found in a file's text. These texts are shaped like what text extraction gives for the issue's
// layouts (the fixture PDFs and the API come with the routes); each asserts the exact rows.

const page = (text: string, n = 1) => ({ page: n, text });

/** The rows found, without the line index each carries (the route tests check it against the fixture PDFs). */
const found = (pages: { page: number; text: string }[]): Omit<LabValueRow, 'line'>[] =>
  findLabValues(pages).map(({ line: _line, ...rest }) => rest);

/** A row with the defaults of a line that gives no flag, range or date. */
const row = (r: Partial<LabValueRow> & Pick<LabValueRow, 'name' | 'value' | 'source_text'>): Omit<LabValueRow, 'line'> => ({
  loinc: null,
  unit: null,
  ucum_unit: null,
  reference_low: null,
  reference_high: null,
  reference_text: null,
  flag: null,
  date: null,
  page: 1,
  ...r,
});

describe('lab values found in the text of a report', () => {
  it('reads a US table with flags, "<" and ">" limits, a qualitative result and the month-first collection date', () => {
    const text = [
      'Quest Diagnostics                          Page 1 of 1',
      'Patient: Jane Doe          DOB: 01/02/1980',
      'Collected: 03/04/2026 08:15    Reported: 03/05/2026',
      'Test Name                 Result    Flag   Units        Reference Range',
      'HEMOGLOBIN A1c            6.1       H      %            <5.7',
      'GLUCOSE                   105       H      mg/dL        65-99',
      'SODIUM                    139              mmol/L       135-146',
      'FERRITIN                  8         L      ng/mL        16-232',
      'WBC                       5.4              x10E3/uL     3.8-10.8',
      'EGFR                      92               mL/min/1.73m2  > 59',
      'URINE GLUCOSE             Negative                      Negative',
    ].join('\n');
    const d = { date: '2026-03-04', page: 1 };
    expect(found([page(text)])).toEqual([
      row({
        ...d,
        name: 'HEMOGLOBIN A1c',
        loinc: '4548-4',
        value: 6.1,
        unit: '%',
        ucum_unit: '%',
        reference_high: 5.7,
        reference_text: '<5.7',
        flag: 'H',
        source_text: 'HEMOGLOBIN A1c            6.1       H      %            <5.7',
      }),
      row({
        ...d,
        name: 'GLUCOSE',
        loinc: '2345-7',
        value: 105,
        unit: 'mg/dL',
        ucum_unit: 'mg/dL',
        reference_low: 65,
        reference_high: 99,
        reference_text: '65-99',
        flag: 'H',
        source_text: 'GLUCOSE                   105       H      mg/dL        65-99',
      }),
      row({
        ...d,
        name: 'SODIUM',
        loinc: '2951-2',
        value: 139,
        unit: 'mmol/L',
        ucum_unit: 'mmol/L',
        reference_low: 135,
        reference_high: 146,
        reference_text: '135-146',
        source_text: 'SODIUM                    139              mmol/L       135-146',
      }),
      row({
        ...d,
        name: 'FERRITIN',
        loinc: '2276-4',
        value: 8,
        unit: 'ng/mL',
        ucum_unit: 'ng/mL',
        reference_low: 16,
        reference_high: 232,
        reference_text: '16-232',
        flag: 'L',
        source_text: 'FERRITIN                  8         L      ng/mL        16-232',
      }),
      row({
        ...d,
        name: 'WBC',
        loinc: '26464-8',
        value: 5.4,
        unit: 'x10E3/uL',
        ucum_unit: '10*3/uL',
        reference_low: 3.8,
        reference_high: 10.8,
        reference_text: '3.8-10.8',
        source_text: 'WBC                       5.4              x10E3/uL     3.8-10.8',
      }),
      row({
        ...d,
        name: 'EGFR',
        loinc: '33914-3',
        value: 92,
        unit: 'mL/min/1.73m2',
        ucum_unit: 'mL/min/{1.73_m2}',
        reference_low: 59,
        reference_text: '> 59',
        source_text: 'EGFR                      92               mL/min/1.73m2  > 59',
      }),
      row({ ...d, name: 'URINE GLUCOSE', loinc: '5792-7', value: 'Negative', source_text: 'URINE GLUCOSE             Negative' }),
    ]);
  });

  it('reads a German report: decimal commas, spaced ranges, "bis", arrows and words as flags, "< 0,5", German names', () => {
    const text = [
      'Labor Dr. Muster · Befund',
      'Probenentnahme: 14.03.2026 07:30',
      'Untersuchung        Ergebnis   Einheit   Referenzbereich',
      'Ferritin            12,3       µg/l      30 – 400   ↓',
      'Hämoglobin          11,8       g/dl      12,0 – 16,0  niedrig',
      'Kreatinin           0,72       mg/dl     0,5-0,9',
      'CRP                 < 0,5      mg/l      < 5,0',
      'Glukose im Urin     negativ',
      'TSH basal           2,15       mU/l      0,27 – 4,2',
      'Cholesterin         245        mg/dl     bis 200   hoch',
      'Leukozyten          7,2        G/l       4,0 - 10,0',
    ].join('\n');
    const d = { date: '2026-03-14', page: 1 };
    expect(found([page(text)])).toEqual([
      row({
        ...d,
        name: 'Ferritin',
        loinc: '2276-4',
        value: 12.3,
        unit: 'µg/l',
        ucum_unit: 'ug/l',
        reference_low: 30,
        reference_high: 400,
        reference_text: '30 – 400',
        flag: 'L',
        source_text: 'Ferritin            12,3       µg/l      30 – 400   ↓',
      }),
      row({
        ...d,
        name: 'Hämoglobin',
        loinc: '718-7',
        value: 11.8,
        unit: 'g/dl',
        ucum_unit: 'g/dl',
        reference_low: 12,
        reference_high: 16,
        reference_text: '12,0 – 16,0',
        flag: 'L',
        source_text: 'Hämoglobin          11,8       g/dl      12,0 – 16,0  niedrig',
      }),
      row({
        ...d,
        name: 'Kreatinin',
        loinc: '2160-0',
        value: 0.72,
        unit: 'mg/dl',
        ucum_unit: 'mg/dl',
        reference_low: 0.5,
        reference_high: 0.9,
        reference_text: '0,5-0,9',
        source_text: 'Kreatinin           0,72       mg/dl     0,5-0,9',
      }),
      row({
        ...d,
        name: 'CRP',
        loinc: '1988-5',
        value: '<0,5',
        unit: 'mg/l',
        ucum_unit: 'mg/l',
        reference_high: 5,
        reference_text: '< 5,0',
        source_text: 'CRP                 < 0,5      mg/l      < 5,0',
      }),
      row({ ...d, name: 'Glukose im Urin', loinc: '5792-7', value: 'negativ', source_text: 'Glukose im Urin     negativ' }),
      row({
        ...d,
        name: 'TSH basal',
        loinc: '3016-3',
        value: 2.15,
        unit: 'mU/l',
        ucum_unit: 'mU/l',
        reference_low: 0.27,
        reference_high: 4.2,
        reference_text: '0,27 – 4,2',
        source_text: 'TSH basal           2,15       mU/l      0,27 – 4,2',
      }),
      row({
        ...d,
        name: 'Cholesterin',
        loinc: '2093-3',
        value: 245,
        unit: 'mg/dl',
        ucum_unit: 'mg/dl',
        reference_high: 200,
        reference_text: 'bis 200',
        flag: 'H',
        source_text: 'Cholesterin         245        mg/dl     bis 200   hoch',
      }),
      row({
        ...d,
        name: 'Leukozyten',
        loinc: '26464-8',
        value: 7.2,
        unit: 'G/l',
        ucum_unit: '10*9/L',
        reference_low: 4,
        reference_high: 10,
        reference_text: '4,0 - 10,0',
        source_text: 'Leukozyten          7,2        G/l       4,0 - 10,0',
      }),
    ]);
  });

  it('reads a two-column report that spans two pages, with French and Spanish names and an unmapped test', () => {
    const first = [
      'Date de prélèvement : 02/03/2026',
      'Hémoglobine   13,5 g/dL   12,0-16,0        Sodium      140 mmol/L   136-145',
      'Plaquettes    250 10^3/µL 150-400          Potassium   5,6 mmol/L   3,5-5,1  élevé',
    ].join('\n');
    const second = ['Colesterol total 4,9 mmol/L  < 5,2       Zonulin    62 ng/mL    < 55', 'Página 2 de 2'].join('\n');
    const d = { date: '2026-03-02' };
    expect(found([page(first, 1), page(second, 2)])).toEqual([
      row({
        ...d,
        page: 1,
        name: 'Hémoglobine',
        loinc: '718-7',
        value: 13.5,
        unit: 'g/dL',
        ucum_unit: 'g/dL',
        reference_low: 12,
        reference_high: 16,
        reference_text: '12,0-16,0',
        source_text: 'Hémoglobine   13,5 g/dL   12,0-16,0',
      }),
      row({
        ...d,
        page: 1,
        name: 'Sodium',
        loinc: '2951-2',
        value: 140,
        unit: 'mmol/L',
        ucum_unit: 'mmol/L',
        reference_low: 136,
        reference_high: 145,
        reference_text: '136-145',
        source_text: 'Sodium      140 mmol/L   136-145',
      }),
      row({
        ...d,
        page: 1,
        name: 'Plaquettes',
        loinc: '26515-7',
        value: 250,
        unit: '10^3/µL',
        ucum_unit: '10*3/uL',
        reference_low: 150,
        reference_high: 400,
        reference_text: '150-400',
        source_text: 'Plaquettes    250 10^3/µL 150-400',
      }),
      row({
        ...d,
        page: 1,
        name: 'Potassium',
        loinc: '2823-3',
        value: 5.6,
        unit: 'mmol/L',
        ucum_unit: 'mmol/L',
        reference_low: 3.5,
        reference_high: 5.1,
        reference_text: '3,5-5,1',
        flag: 'H',
        source_text: 'Potassium   5,6 mmol/L   3,5-5,1  élevé',
      }),
      row({
        ...d,
        page: 2,
        name: 'Colesterol total',
        loinc: '2093-3',
        value: 4.9,
        unit: 'mmol/L',
        ucum_unit: 'mmol/L',
        reference_high: 5.2,
        reference_text: '< 5,2',
        source_text: 'Colesterol total 4,9 mmol/L  < 5,2',
      }),
      row({
        ...d,
        page: 2,
        name: 'Zonulin',
        value: 62,
        unit: 'ng/mL',
        ucum_unit: 'ng/mL',
        reference_high: 55,
        reference_text: '< 55',
        source_text: 'Zonulin    62 ng/mL    < 55',
      }),
    ]);
  });

  it('finds nothing in a letter that mentions tests, doses and dates in prose', () => {
    const letter = [
      'Dear Ms Doe,',
      'thank you for coming on 14 March. Your ferritin was low last year and we discussed the results.',
      'Please take Paracetamol 500 mg if needed, twice a day for 3 days.',
      'Your HbA1c is fine and your sodium is 2 points better. See you on 04/20/2026.',
      'Go on with iron 100 mg once a day, and vitamin D 1000 IU with breakfast.',
      'Kind regards, Dr. Smith',
    ].join('\n');
    expect(found([page(letter)])).toEqual([]);
    expect(found([])).toEqual([]);
  });

  it('takes a flag written before the value and a collection date written with the month in words', () => {
    const d = (line: string) => findLabValues([page(`${line}\nGLUCOSE   H 105   mg/dL   65-99`)])[0]?.date ?? null;
    expect(found([page('Specimen collected March 4, 2026\nGLUCOSE   H 105   mg/dL   65-99')])).toEqual([
      row({
        name: 'GLUCOSE',
        loinc: '2345-7',
        value: 105,
        unit: 'mg/dL',
        ucum_unit: 'mg/dL',
        reference_low: 65,
        reference_high: 99,
        reference_text: '65-99',
        flag: 'H',
        date: '2026-03-04',
        source_text: 'GLUCOSE   H 105   mg/dL   65-99',
      }),
    ]);
    expect(d('Entnahme am 14. März 2026, 07:30')).toBe('2026-03-14');
    expect(d('Prélevé le 2 mars 2026')).toBe('2026-03-02');
    expect(d('Fecha de toma: 9 de marzo de 2026')).toBe('2026-03-09');
    expect(d('Date collected: 31 Feb 2026')).toBeNull();
    expect(d('Reported: 14 March 2026')).toBeNull();
  });

  it('reads a ruled table whose cells are bordered by bars, and a unit written in brackets after the name', () => {
    const text = [
      '| Test | Result | Unit | Range |',
      '| Ferritin | 12.3 | ng/mL | 30-400 | L |',
      'Vitamin B12 (pg/mL)   180   200-900   L',
    ].join('\n');
    expect(found([page(text)])).toEqual([
      row({
        name: 'Ferritin',
        loinc: '2276-4',
        value: 12.3,
        unit: 'ng/mL',
        ucum_unit: 'ng/mL',
        reference_low: 30,
        reference_high: 400,
        reference_text: '30-400',
        flag: 'L',
        source_text: 'Ferritin | 12.3 | ng/mL | 30-400 | L',
      }),
      row({
        name: 'Vitamin B12',
        loinc: '2132-9',
        value: 180,
        unit: 'pg/mL',
        ucum_unit: 'pg/mL',
        reference_low: 200,
        reference_high: 900,
        reference_text: '200-900',
        flag: 'L',
        source_text: 'Vitamin B12 (pg/mL)   180   200-900   L',
      }),
    ]);
  });

  it('reads numbers with a decimal point or comma and refuses what is not one number', () => {
    expect(parseNumber('5.1')).toBe(5.1);
    expect(parseNumber('5,1')).toBe(5.1);
    expect(parseNumber('1,234.5')).toBe(1234.5);
    expect(parseNumber('1.234,5')).toBe(1234.5);
    expect(parseNumber('-2')).toBe(-2);
    expect(parseNumber('3.5-5.1')).toBeNull();
    expect(parseNumber('5.')).toBeNull();
    expect(parseNumber('abc')).toBeNull();
    expect(toUcum('µIU/mL')).toBe('u[IU]/mL');
    // OCR's small l for the capital I of "mIU/L".
    expect(toUcum('mlU/L')).toBe('m[IU]/L');
    expect(toUcum('mEq/L')).toBe('meq/L');
    expect(toUcum('words')).toBeNull();
  });
});

describe('values converted for the trend', () => {
  it('converts within a quantity by UCUM and between mass and moles only with the molar mass the table gives', () => {
    expect(toTrendUnit({ loinc: '2276-4', value: 12.3, ucum_unit: 'ug/l', reference_low: 30, reference_high: 400 })).toEqual({
      value: 12.3,
      ucum_unit: 'ng/mL',
      reference_low: 30,
      reference_high: 400,
    });
    // Glucose, 180.156 g/mol in the table: 5.5 mmol/L is 99.09 mg/dL.
    expect(toTrendUnit({ loinc: '2345-7', value: 5.5, ucum_unit: 'mmol/L', reference_low: 3.9, reference_high: 6.1 })).toEqual({
      value: 99.0858,
      ucum_unit: 'mg/dL',
      reference_low: 70.2608,
      reference_high: 109.895,
    });
    // Ferritin has no molar mass in the table: a molar value is not converted.
    expect(toTrendUnit({ loinc: '2276-4', value: 1, ucum_unit: 'mmol/L', reference_low: null, reference_high: null })).toBeNull();
    expect(toTrendUnit({ loinc: null, value: 1, ucum_unit: 'mg/dL', reference_low: null, reference_high: null })).toBeNull();
    expect(toTrendUnit({ loinc: '5792-7', value: 'negativ', ucum_unit: null, reference_low: null, reference_high: null })).toBeNull();
  });
});

describe('text built to slow the reader down', () => {
  const inTime = (text: string) => {
    const started = performance.now();
    findLabValues([page(text)]);
    return performance.now() - started;
  };

  it('reads long runs of digits, dashes, signs and names in linear time', () => {
    // Each takes well under a second; a reader that went back over the text would take minutes on these.
    const attacks = [
      '1-'.repeat(100_000),
      `Ferritin ${'1,'.repeat(50_000)}`,
      `${'Hb 1 '.repeat(20_000)}`,
      `${'<'.repeat(100_000)}1`,
      `Glucose 5 ${'mg/dL '.repeat(20_000)}`,
      `${'a '.repeat(100_000)}`,
      `${'Vitamin '.repeat(30_000)}D 1 ng/mL`,
    ];
    for (const text of attacks) expect(inTime(text)).toBeLessThan(5000);
  });

  it('never throws and only returns rows whose source text is in the page', () => {
    const unit = fc.constantFrom(
      '1',
      '5',
      ',',
      '.',
      '-',
      '–',
      ' ',
      '   ',
      '\n',
      '<',
      '>',
      'H',
      'L',
      '↑',
      'Hb',
      'Ferritin',
      'mg/dL',
      'bis',
      'up to',
      'negativ',
      '(',
      ')',
      'Collected: 03/04/2026',
      '|',
      '(ng/mL)',
      'März 2026',
      'x',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 400 }), (text) => {
        const rows = findLabValues([page(text)]);
        return rows.every((r) => text.includes(r.source_text) && r.page === 1);
      }),
      { seed: 34, numRuns: 300 },
    );
  });
});

describe('a stored result on its trend', () => {
  it('converts like toTrendUnit: glucose mmol/L to mg/dL, ferritin µg/l to ng/mL; unmapped, unknown units and text give none', () => {
    const glucose = { loinc: '2345-7', value: 5.2, unit: 'mmol/L', reference_low: 3.9, reference_high: 5.5 };
    const direct = toTrendUnit({ ...glucose, ucum_unit: 'mmol/L' });
    expect(trendOf(glucose)).toEqual({
      value: direct?.value,
      unit: 'mg/dL',
      reference_low: direct?.reference_low,
      reference_high: direct?.reference_high,
    });
    expect(trendOf({ ...glucose, value: 6 })?.value).toBeCloseTo(108.1, 1);
    expect(trendOf({ loinc: '2276-4', value: 12, unit: 'µg/l', reference_low: 13, reference_high: null })).toEqual({
      value: 12,
      unit: 'ng/mL',
      reference_low: 13,
      reference_high: null,
    });
    expect(trendOf({ ...glucose, loinc: null })).toBeNull();
    expect(trendOf({ ...glucose, unit: 'furlongs' })).toBeNull();
    expect(trendOf({ ...glucose, unit: 'kg' })).toBeNull();
    expect(trendOf({ ...glucose, value: null })).toBeNull();
  });
});
