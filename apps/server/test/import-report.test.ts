import { describe, expect, it } from 'vitest';
import { createImportTally } from '../src/features/import/import-report';
import { dosageOf, repeatText } from '../src/features/import/fhir-dosage';

// Decision 0022: how the FHIR import counts each resource once, and how it says a dosage in words.

describe('the import report counts every resource once', () => {
  it('a record added beats one already there, which beats a reason to leave it out; a resource with no outcome is left out', () => {
    const tally = createImportTally(['Observation', 'Observation', 'Claim', 'Observation']);
    tally.record(0, 'already_present');
    tally.record(0, 'imported');
    tally.record(0, 'already_present');
    tally.record(1, 'already_present');
    tally.drop(3, 'without a value');
    tally.drop(3, 'without a value');
    const { report, skipped } = tally.finish();
    expect(report).toEqual([
      {
        resource_type: 'Observation',
        imported: 1,
        merged: 0,
        already_present: 1,
        dropped: [{ reason: 'without a value', count: 1 }],
        parts_left_out: [],
      },
      {
        resource_type: 'Claim',
        imported: 0,
        merged: 0,
        already_present: 0,
        dropped: [{ reason: 'not imported by Kinchart', count: 1 }],
        parts_left_out: [],
      },
    ]);
    expect(skipped).toEqual(['1 Claim (not something Kinchart keeps)', '1 Observation without a value']);
  });

  it('a resource read as part of others fares as they do, and says why when they were all left out', () => {
    const tally = createImportTally([
      'Medication',
      'MedicationRequest',
      'Medication',
      'MedicationRequest',
      'Medication',
      'MedicationRequest',
    ]);
    tally.use(0, 1);
    tally.record(1, 'imported');
    tally.use(2, 3);
    tally.record(3, 'already_present');
    tally.use(4, 5);
    tally.drop(5, 'with status cancelled');
    expect(tally.finish().report).toEqual([
      {
        resource_type: 'Medication',
        imported: 0,
        merged: 1,
        already_present: 1,
        dropped: [{ reason: 'named only by resources that were left out', count: 1 }],
        parts_left_out: [],
      },
      {
        resource_type: 'MedicationRequest',
        imported: 1,
        merged: 0,
        already_present: 1,
        dropped: [{ reason: 'with status cancelled', count: 1 }],
        parts_left_out: [],
      },
    ]);
  });

  it('reasons given for a resource that was kept, and further reasons for one left out, are parts left out', () => {
    const tally = createImportTally(['DiagnosticReport', 'DocumentReference']);
    tally.record(0, 'imported');
    tally.drop(0, 'attachment not kept (This file type is not supported.)');
    tally.drop(1, 'without embedded data');
    tally.drop(1, 'attachment not kept (too large)');
    tally.part(1, 'title left out');
    expect(tally.finish().report).toEqual([
      {
        resource_type: 'DiagnosticReport',
        imported: 1,
        merged: 0,
        already_present: 0,
        dropped: [],
        parts_left_out: [{ reason: 'attachment not kept (This file type is not supported.)', count: 1 }],
      },
      {
        resource_type: 'DocumentReference',
        imported: 0,
        merged: 0,
        already_present: 0,
        dropped: [{ reason: 'without embedded data', count: 1 }],
        parts_left_out: [
          { reason: 'title left out', count: 1 },
          { reason: 'attachment not kept (too large)', count: 1 },
        ],
      },
    ]);
  });
});

describe('a dosage in words', () => {
  it('says a timing the way a prescription label does', () => {
    expect(repeatText({ frequency: 1, period: 1, periodUnit: 'd' })).toBe('once a day');
    expect(repeatText({ frequency: 2, period: 1, periodUnit: 'd' })).toBe('twice a day');
    expect(repeatText({ frequency: 3, period: 1, periodUnit: 'd' })).toBe('3 times a day');
    expect(repeatText({ frequency: 1, period: 8, periodUnit: 'h' })).toBe('every 8 hours');
    expect(repeatText({ frequency: 1, periodUnit: 'h' })).toBe('once an hour');
    expect(repeatText({ frequency: 1, frequencyMax: 2, period: 1, periodUnit: 'wk' })).toBe('1–2 times a week');
    expect(repeatText({ frequency: 2, period: 3, periodUnit: 'd' })).toBe('twice every 3 days');
    expect(repeatText({ frequency: 2 })).toBeNull();
  });

  it('keeps the text as written, else the dose; the timing code, else the repeat; as needed', () => {
    expect(dosageOf({ text: 'Take one with food', timing: { code: { text: 'BID' } } })).toEqual({
      dosage: 'Take one with food',
      frequency: 'BID',
    });
    expect(
      dosageOf({
        doseAndRate: [{ doseQuantity: { value: 2, unit: 'puffs' } }],
        timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
        asNeededBoolean: true,
      }),
    ).toEqual({
      dosage: '2 puffs',
      frequency: 'twice a day, as needed',
    });
    expect(dosageOf({ doseAndRate: [{ doseQuantity: { value: 1, code: '1' } }] })).toEqual({ dosage: '1', frequency: null });
    // Kinchart's own export writes "dose, frequency" as the text and the frequency as the timing code.
    expect(dosageOf({ text: '50 mcg, Daily', timing: { code: { text: 'Daily' } } })).toEqual({ dosage: '50 mcg', frequency: 'Daily' });
    expect(dosageOf(undefined)).toEqual({ dosage: null, frequency: null });
  });
});
