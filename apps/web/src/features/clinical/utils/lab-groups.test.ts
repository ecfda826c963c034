import { describe, expect, it } from 'vitest';
import { isOutOfRange } from '@kinchart/shared/clinical';
import { makeLabResult } from '../testing/fixtures';
import { byDateDescending, chartTime, groupLabResults, outOfRangeText, trendOf, trendsOf, trendSummary, unitsNote } from './lab-groups';

/** A result whose out_of_range is what the server computes with the shared rule. */
function result(overrides: Parameters<typeof makeLabResult>[0]) {
  const r = makeLabResult(overrides);
  return { ...r, out_of_range: isOutOfRange(r) };
}

describe('grouping lab results by test', () => {
  it('puts results with the same LOINC code together even under different names, and others by name whatever their case', () => {
    const groups = groupLabResults([
      result({ id: 'a', name: 'HbA1c', loinc_code: '4548-4', date: '2023-06-01' }),
      result({ id: 'b', name: 'Hemoglobin A1c', loinc_code: '4548-4', date: '2024-02-10' }),
      result({ id: 'c', name: 'Blood pressure (systolic)', loinc_code: null, date: '2024-03-01', unit: 'mmHg' }),
      result({ id: 'd', name: '  blood pressure  (Systolic)', loinc_code: null, date: '2022-01', unit: 'mmHg' }),
      result({ id: 'e', name: 'Glucose', loinc_code: null, date: null }),
    ]);
    expect(groups.map((g) => [g.key, g.name, g.results.map((r) => r.id)])).toEqual([
      // The test with the newest result first; its newest result names it.
      ['name:blood pressure (systolic)', 'Blood pressure (systolic)', ['c', 'd']],
      ['loinc:4548-4', 'Hemoglobin A1c', ['b', 'a']],
      ['name:glucose', 'Glucose', ['e']],
    ]);
    expect(groups[1]?.loincCode).toBe('4548-4');
  });

  it('orders partial dates newest first and undated ones last', () => {
    const dates = ['2019', null, '2019-05-14', '2020-01', '2019-05'].map((date) => ({ date }));
    expect([...dates].sort(byDateDescending).map((d) => d.date)).toEqual(['2020-01', '2019-05-14', '2019-05', '2019', null]);
  });
});

describe('out-of-range marking', () => {
  it("says which way a value is out: against the range, or the interpretation's word", () => {
    expect(outOfRangeText(result({ value: 6.4 }))).toBe('Out of range (High)');
    expect(outOfRangeText(result({ value: 3.1 }))).toBe('Out of range (Low)');
    expect(outOfRangeText(result({ value: 5.0 }))).toBeNull();
    expect(outOfRangeText(result({ value: 5.0, interpretation: 'HH' }))).toBe('Out of range (Critically high)');
    expect(
      outOfRangeText(result({ value: null, value_text: 'Positive', interpretation: 'POS', reference_low: null, reference_high: null })),
    ).toBe('Out of range (Positive)');
    // A normal interpretation wins over the numbers, as in the shared rule.
    expect(outOfRangeText(result({ value: 6.4, interpretation: 'N' }))).toBeNull();
  });

  it("follows the server's out_of_range flag", () => {
    expect(outOfRangeText({ ...makeLabResult({ value: 5 }), out_of_range: true })).toBe('Out of range');
    expect(outOfRangeText({ ...makeLabResult({ value: 9 }), out_of_range: false })).toBeNull();
  });
});

describe("a test's trend", () => {
  it('needs two dated numeric values; a text value or an undated one does not count', () => {
    const [one] = groupLabResults([
      result({ id: 'a' }),
      result({ id: 'b', value: null, value_text: 'Pending' }),
      result({ id: 'c', date: null }),
    ]);
    expect(one && trendOf(one)).toBeNull();
  });

  it("draws oldest first, in the newest value's unit, with its range and each point's marker", () => {
    const [group] = groupLabResults([
      result({ id: 'new', value: 6.4, date: '2024-02-10', reference_low: 4, reference_high: 6 }),
      result({ id: 'mid', value: 5.5, date: '2023-06' }),
      result({ id: 'old', value: 5.1, date: '2022' }),
      result({ id: 'mmol', value: 42, unit: 'mmol/mol', date: '2023-01-01' }),
    ]);
    const trend = group ? trendOf(group) : null;
    expect(trend?.unit).toBe('%');
    expect(trend?.low).toBe(4);
    expect(trend?.high).toBe(6);
    expect(trend?.points.map((p) => [p.id, p.date, p.value, p.range, p.outOfRange])).toEqual([
      ['old', '2022', 5.1, '4–5.6', null],
      ['mid', '2023-06', 5.5, '4–5.6', null],
      ['new', '2024-02-10', 6.4, '4–6', 'Out of range (High)'],
    ]);
    expect(trend && group && trendSummary(group.name, trend)).toBe(
      'Trend of HbA1c: 3 values from 2022 to Feb 10, 2024, latest 6.4 %, 1 out of range.',
    );
  });

  it('places a year in its middle and a month on its 15th', () => {
    expect(new Date(chartTime('2019') * 1000).toISOString().slice(0, 10)).toBe('2019-07-01');
    expect(new Date(chartTime('2019-05') * 1000).toISOString().slice(0, 10)).toBe('2019-05-15');
    expect(new Date(chartTime('2019-05-03') * 1000).toISOString().slice(0, 10)).toBe('2019-05-03');
  });
});

describe('tests without a code, and tests in several units', () => {
  it('groups results without a code by their name whatever its case, and names the group as written, trimmed', () => {
    const groups = groupLabResults([
      result({ id: 'new', name: '  Vitamin D ', loinc_code: null, date: '2024-03-01', unit: 'ng/mL' }),
      result({ id: 'old', name: 'vitamin d', loinc_code: null, date: '2023-03-01', unit: 'ng/mL' }),
    ]);
    expect(groups.map((g) => [g.name, g.results.map((r) => r.id)])).toEqual([['Vitamin D', ['new', 'old']]]);
  });

  it('never puts values of different units on one line: one chart per unit, and a sentence says why', () => {
    const [group] = groupLabResults([
      result({
        id: 'a',
        name: 'Glucose',
        loinc_code: null,
        value: 95,
        unit: 'mg/dL',
        date: '2024-03-01',
        reference_low: 70,
        reference_high: 99,
      }),
      result({
        id: 'b',
        name: 'Glucose',
        loinc_code: null,
        value: 5.9,
        unit: 'mmol/L',
        date: '2023-09-01',
        reference_low: 3.9,
        reference_high: 5.5,
      }),
      result({
        id: 'c',
        name: 'Glucose',
        loinc_code: null,
        value: 101,
        unit: 'mg/dL',
        date: '2023-03-01',
        reference_low: 70,
        reference_high: 99,
      }),
      result({
        id: 'd',
        name: 'Glucose',
        loinc_code: null,
        value: 5.2,
        unit: 'mmol/L',
        date: '2022-03-01',
        reference_low: 3.9,
        reference_high: 5.5,
      }),
    ]);
    const trends = group ? trendsOf(group) : [];
    expect(trends.map((t) => [t.unit, t.points.map((p) => [p.id, p.value]), t.low, t.high])).toEqual([
      [
        'mg/dL',
        [
          ['c', 101],
          ['a', 95],
        ],
        70,
        99,
      ],
      [
        'mmol/L',
        [
          ['d', 5.2],
          ['b', 5.9],
        ],
        3.9,
        5.5,
      ],
    ]);
    expect(group && unitsNote(group)).toBe(
      'These results were reported in different units (mg/dL and mmol/L). Values in different units cannot be compared on one line, so each unit is shown on its own.',
    );
  });

  it('converts units that differ only by a scale (g/L and mg/dL) onto one line, and says so', () => {
    const [group] = groupLabResults([
      result({
        id: 'a',
        name: 'Fibrinogen',
        loinc_code: null,
        value: 310,
        unit: 'mg/dL',
        date: '2024-03-01',
        reference_low: 200,
        reference_high: 400,
      }),
      result({
        id: 'b',
        name: 'Fibrinogen',
        loinc_code: null,
        value: 2.9,
        unit: 'g/L',
        date: '2023-03-01',
        reference_low: 2,
        reference_high: 4,
      }),
    ]);
    const trends = group ? trendsOf(group) : [];
    expect(trends).toHaveLength(1);
    expect(trends[0]?.unit).toBe('mg/dL');
    expect(trends[0]?.points.map((p) => [p.id, p.value, p.unit, p.reported])).toEqual([
      ['b', 290, 'mg/dL', '2.9 g/L'],
      ['a', 310, 'mg/dL', null],
    ]);
    expect(group && unitsNote(group)).toBe(
      'These results were reported in different units (mg/dL and g/L). Values in g/L are shown converted to mg/dL.',
    );
  });

  it("draws a result read from a report in the test's table unit (its trend value), reported as given, with its source", () => {
    const [group] = groupLabResults([
      result({
        id: 'a',
        name: 'Glucose',
        loinc_code: '2345-7',
        value: 101,
        unit: 'mg/dL',
        date: '2024-03-01',
        reference_low: 70,
        reference_high: 99,
      }),
      {
        ...result({
          id: 'b',
          name: 'Glukose',
          loinc_code: '2345-7',
          value: 5.5,
          unit: 'mmol/L',
          date: '2023-03-01',
          reference_low: 3.9,
          reference_high: 5.5,
        }),
        source_file_id: 'f1',
        source_page: 2,
        trend: { value: 99.1, unit: 'mg/dL', reference_low: 70.3, reference_high: 99.1 },
      },
    ]);
    const trends = group ? trendsOf(group) : [];
    // mg/dL and mmol/L differ by the molar mass: without the server's trend value they would be two charts.
    expect(trends).toHaveLength(1);
    expect(trends[0]?.points.map((p) => [p.id, p.value, p.unit, p.reported, p.range, p.source])).toEqual([
      ['b', 99.1, 'mg/dL', '5.5 mmol/L', '70.3–99.1', { fileId: 'f1', page: 2 }],
      ['a', 101, 'mg/dL', null, '70–99', null],
    ]);
    expect(group && unitsNote(group)).toBe(
      'These results were reported in different units (mg/dL and mmol/L). Values in mmol/L are shown converted to mg/dL.',
    );
  });

  it('says nothing when every value has the same unit', () => {
    const [group] = groupLabResults([result({ id: 'a' }), result({ id: 'b', date: '2023-01-01' })]);
    expect(group && unitsNote(group)).toBeNull();
    expect(group ? trendsOf(group).length : 0).toBe(1);
  });
});
