import { describe, expect, it } from 'vitest';
import {
  MAX_HEIGHT_CM,
  MAX_WEIGHT_KG,
  cmToFeetInches,
  familyAddSchema,
  feetInchesToCm,
  fieldsForKind,
  kgToLbs,
  lbsToKg,
  petFieldsSchema,
  profileFieldsSchema,
} from './profile';

describe('height conversion', () => {
  it('round-trips every whole feet-and-inches value within the bounds', () => {
    for (let feet = 0; feet <= 8; feet += 1) {
      for (let inches = 0; inches <= 11; inches += 1) {
        if (feet === 0 && inches === 0) continue;
        expect(cmToFeetInches(feetInchesToCm(feet, inches))).toEqual({ feet, inches });
      }
    }
  });

  it('converts with 2.54 cm per inch and 12 inches per foot', () => {
    expect(feetInchesToCm(5, 7)).toBe(170.18);
    expect(feetInchesToCm(5, 11)).toBe(180.34);
    expect(feetInchesToCm(8, 11)).toBeCloseTo(MAX_HEIGHT_CM, 5);
    expect(feetInchesToCm(null, null)).toBeNull();
    expect(feetInchesToCm(6, null)).toBe(182.88);
  });

  it('rounds an odd cm value to the nearest inch', () => {
    expect(cmToFeetInches(180)).toEqual({ feet: 5, inches: 11 });
    expect(cmToFeetInches(0)).toEqual({ feet: 0, inches: 0 });
    expect(cmToFeetInches(null)).toBeNull();
  });
});

describe('weight conversion', () => {
  it('stores kg rounded to one decimal', () => {
    expect(lbsToKg(165)).toBe(74.8);
    expect(lbsToKg(1000)).toBe(453.6);
    expect(lbsToKg(0)).toBe(0);
    expect(lbsToKg(null)).toBeNull();
  });

  it('shows whole pounds again after a round trip', () => {
    for (let lbs = 1; lbs <= 1000; lbs += 1) expect(kgToLbs(lbsToKg(lbs))).toBe(lbs);
  });

  it('keeps a decimal for values far from a whole pound', () => {
    expect(kgToLbs(75)).toBe(165.3);
  });
});

describe('profile validation', () => {
  it('refuses an unknown blood type and accepts the eight', () => {
    expect(profileFieldsSchema.safeParse({ blood_type: 'C+' }).success).toBe(false);
    for (const t of ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-']) {
      expect(profileFieldsSchema.parse({ blood_type: t }).blood_type).toBe(t);
    }
  });

  it('refuses a height or weight past the bounds', () => {
    expect(profileFieldsSchema.safeParse({ height: MAX_HEIGHT_CM + 1 }).success).toBe(false);
    expect(profileFieldsSchema.safeParse({ weight: MAX_WEIGHT_KG + 1 }).success).toBe(false);
    expect(profileFieldsSchema.safeParse({ weight: -1 }).success).toBe(false);
    expect(profileFieldsSchema.parse({ height: '170.18', weight: '' })).toMatchObject({ height: 170.18, weight: null });
  });

  it('refuses a birth date in the future or not a real date', () => {
    expect(profileFieldsSchema.safeParse({ date_of_birth: '2999-01-01' }).success).toBe(false);
    expect(profileFieldsSchema.safeParse({ date_of_birth: '2020-02-30' }).success).toBe(false);
    expect(profileFieldsSchema.parse({ date_of_birth: '2020-02-29' }).date_of_birth).toBe('2020-02-29');
  });

  it('needs name, date of birth and relationship to add a family member', () => {
    const missing = familyAddSchema.safeParse({ name: ' ', relationship: 'child' });
    expect(missing.success).toBe(false);
    expect(familyAddSchema.parse({ name: 'Rex', date_of_birth: '2019-05-01', relationship: 'other', is_pet: true })).toEqual({
      name: 'Rex',
      date_of_birth: '2019-05-01',
      relationship: 'other',
      is_pet: true,
      species: null,
      breed: null,
      microchip_number: null,
      vet_name: null,
      vet_phone: null,
    });
  });
});

describe('a pet’s fields and a person’s (decision 0037)', () => {
  it('a pet keeps no human-only field and a person no pet field; fields not given stay out', () => {
    const both = { blood_type: 'A+', organ_donor: true, living_will: true, species: 'Dog', vet_phone: '555', weight: 20 };
    expect(fieldsForKind(both, true)).toEqual({
      blood_type: null,
      organ_donor: false,
      living_will: false,
      species: 'Dog',
      vet_phone: '555',
      weight: 20,
    });
    expect(fieldsForKind(both, false)).toEqual({
      blood_type: 'A+',
      organ_donor: true,
      living_will: true,
      species: null,
      vet_phone: null,
      weight: 20,
    });
    expect(fieldsForKind({ name: 'Rex' }, true)).toEqual({ name: 'Rex' });
  });

  it('a microchip number holds letters, digits, spaces and hyphens, at most 32', () => {
    const chip = (microchip_number: string) => petFieldsSchema.safeParse({ microchip_number });
    expect(chip('985 112 003 456 789').success).toBe(true);
    expect(chip('0A0-1B2-C3D').success).toBe(true);
    expect(chip('985/112').success).toBe(false);
    expect(chip('1'.repeat(33)).success).toBe(false);
  });
});

describe('the profile’s flags, from one list', () => {
  it('PROFILE_FLAG_FIELDS are exactly the yes/no fields of the profile schema', async () => {
    const { PROFILE_FLAG_FIELDS } = await import('./profile');
    expect([...PROFILE_FLAG_FIELDS].sort()).toEqual(
      [
        'advance_directives',
        'had_anesthesia_reactions',
        'has_allergies',
        'has_bleeding_disorders',
        'has_chronic_conditions',
        'has_hearing_impairment',
        'has_mobility_issues',
        'has_previous_surgeries',
        'has_vision_impairment',
        'living_will',
        'organ_donor',
      ].sort(),
    );
  });

  it('FLAG_OF_DETAIL pairs each details field with its flag', async () => {
    const { FLAG_OF_DETAIL } = await import('./profile');
    expect(FLAG_OF_DETAIL).toEqual({
      allergy_details: 'has_allergies',
      chronic_condition_details: 'has_chronic_conditions',
      bleeding_disorder_details: 'has_bleeding_disorders',
      surgery_details: 'has_previous_surgeries',
      mobility_details: 'has_mobility_issues',
      anesthesia_reaction_details: 'had_anesthesia_reactions',
    });
  });
});
