import type { Condition, Immunization, LabResult, Procedure } from '@kinchart/shared/clinical';
import type { Allergy } from '@kinchart/shared/allergies';

// Clinical items shaped like the server's answers (shared schemas), for unit tests.

const stamps = {
  person_id: 'self-1',
  notes: null,
  codings: [],
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

export function makeImmunization(overrides: Partial<Immunization> = {}): Immunization {
  return {
    id: 'imm-1',
    ...stamps,
    vaccine: 'MMR',
    date: '2019-05',
    dose_number: 1,
    lot_number: 'AB123',
    site: 'Left arm',
    performer: 'Dr Lee',
    ...overrides,
  };
}

export function makeLabResult(overrides: Partial<LabResult> = {}): LabResult {
  return {
    id: 'lab-1',
    ...stamps,
    name: 'HbA1c',
    category: 'laboratory',
    loinc_code: '4548-4',
    value: 5.4,
    value_text: null,
    unit: '%',
    reference_low: 4,
    reference_high: 5.6,
    reference_range: null,
    interpretation: null,
    out_of_range: false,
    date: '2024-02-10',
    source_file_id: null,
    source_page: null,
    trend: null,
    ...overrides,
  };
}

export function makeCondition(overrides: Partial<Condition> = {}): Condition {
  return { id: 'cond-1', ...stamps, name: 'Asthma', status: 'active', onset_date: '2015', abatement_date: null, ...overrides };
}

export function makeProcedure(overrides: Partial<Procedure> = {}): Procedure {
  return {
    id: 'proc-1',
    ...stamps,
    name: 'Appendectomy',
    status: 'completed',
    performed_date: '2010-07-03',
    performer: 'City Hospital',
    ...overrides,
  };
}

export function makeAllergy(overrides: Partial<Allergy> = {}): Allergy {
  return {
    id: 'alg-1',
    substance: 'Penicillin',
    reactions: ['Anaphylaxis'],
    severity: 'severe',
    criticality: 'high',
    codings: [],
    ...overrides,
  };
}
