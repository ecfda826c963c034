import { describe, expect, it } from 'vitest';
import { makeLabResult } from '../testing/fixtures';
import { conditionForm, immunizationForm, labResultForm, procedureForm, rangeInput } from './clinical-forms';

/** The messages the form's schema gives, by field. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('clinical forms, checked with the shared input schemas', () => {
  it('an immunization needs a vaccine; the date is partial and the dose a whole number', () => {
    const empty = immunizationForm.valuesOf(null);
    expect(messages(immunizationForm.schema.safeParse(empty))).toEqual({ vaccine: 'Vaccine is required' });
    expect(messages(immunizationForm.schema.safeParse({ ...empty, vaccine: 'MMR', date: '2019-13', dose_number: 'two' }))).toEqual({
      date: 'Date must be a date as YYYY, YYYY-MM or YYYY-MM-DD',
      dose_number: 'Dose number must be a whole number',
    });
    expect(immunizationForm.schema.parse({ ...empty, vaccine: ' MMR ', date: '2019-05', dose_number: '2', site: '' })).toMatchObject({
      vaccine: 'MMR',
      date: '2019-05',
      dose_number: 2,
      site: null,
      lot_number: null,
    });
  });

  it('a lab result takes a number or a word as its value and a range as typed on the report', () => {
    const base = { ...labResultForm.valuesOf(null), name: 'HbA1c' };
    expect(messages(labResultForm.schema.safeParse(base))).toEqual({ value: 'Value is required' });
    expect(labResultForm.schema.parse({ ...base, value: '6.1', unit: '%', reference_range: '4.0-5.6', interpretation: 'H' })).toMatchObject(
      {
        value: 6.1,
        value_text: null,
        reference_low: 4,
        reference_high: 5.6,
        reference_range: '4.0-5.6',
        interpretation: 'H',
        category: 'laboratory',
      },
    );
    expect(labResultForm.schema.parse({ ...base, value: 'Positive', category: 'vital-signs' })).toMatchObject({
      value: null,
      value_text: 'Positive',
      category: 'vital-signs',
      interpretation: null,
    });
    expect(messages(labResultForm.schema.safeParse({ ...base, value: '3', reference_range: '10-5' }))).toEqual({
      reference_low: 'Reference low cannot be above reference high',
    });
    expect(messages(labResultForm.schema.safeParse({ ...base, value: '3', loinc_code: 'abc' }))).toEqual({
      loinc_code: 'LOINC code must look like 4548-4',
    });
    // That message shows under the range box, the field the person typed it in.
    expect(labResultForm.fields.find((f) => f.name === 'reference_range')?.alsoShows).toContain('reference_low');
  });

  it('an edit starts from the item, a range from its bounds when it came without text', () => {
    expect(
      labResultForm.valuesOf(makeLabResult({ value: 6.1, reference_range: null, reference_low: 4, reference_high: 5.6 })),
    ).toMatchObject({
      value: '6.1',
      reference_range: '4-5.6',
      loinc_code: '4548-4',
      interpretation: '',
    });
    expect(labResultForm.valuesOf(makeLabResult({ value: null, value_text: 'Trace', reference_range: 'negative' }))).toMatchObject({
      value: 'Trace',
      reference_range: 'negative',
    });
    expect([rangeInput(null, 200), rangeInput(60, null), rangeInput(null, null)]).toEqual(['<200', '>60', '']);
  });

  it('conditions and procedures need a name, and say which date is wrong', () => {
    expect(messages(conditionForm.schema.safeParse({ ...conditionForm.valuesOf(null), onset_date: '15/03/2015' }))).toEqual({
      name: 'Condition is required',
      onset_date: 'Onset date must be a date as YYYY, YYYY-MM or YYYY-MM-DD',
    });
    expect(conditionForm.valuesOf(null).status).toBe('active');
    expect(messages(procedureForm.schema.safeParse({ ...procedureForm.valuesOf(null), performed_date: '2010-02-30' }))).toEqual({
      name: 'Procedure is required',
      performed_date: 'Performed date must be a date as YYYY, YYYY-MM or YYYY-MM-DD',
    });
    expect(procedureForm.schema.parse({ ...procedureForm.valuesOf(null), name: 'Appendectomy', performed_date: '2010' })).toMatchObject({
      name: 'Appendectomy',
      status: 'completed',
      performed_date: '2010',
      performer: null,
    });
  });
});
