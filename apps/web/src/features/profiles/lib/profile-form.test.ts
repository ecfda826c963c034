import { describe, expect, it } from 'vitest';
import { emptyProfileValues, makeContact, makeMember, makeProvider } from '../../../../test/profiles';
import {
  familyFormSchema,
  profileFormSchema,
  tabOfField,
  toFamilyFormValues,
  toFamilyPayload,
  toProfileFormValues,
  toProfilePayload,
} from './profile-form';

describe('profile form values', () => {
  it('5 ft 11 in and 165 lbs are sent as 180.34 cm and 74.8 kg, and read back the same', () => {
    const values = profileFormSchema.parse({
      ...toProfileFormValues(emptyProfileValues),
      height_feet: '5',
      height_inches: '11',
      weight_lbs: '165',
    });
    const payload = toProfilePayload(values);
    expect(payload.height).toBe(180.34);
    expect(payload.weight).toBe(74.8);

    const again = toProfileFormValues({ ...emptyProfileValues, height: payload.height, weight: payload.weight });
    expect([again.height_feet, again.height_inches, again.weight_lbs]).toEqual(['5', '11', '165']);
  });

  it('metric: the cm and kg typed are sent; stored values show as they are and come back unchanged', () => {
    const stored = { ...emptyProfileValues, height: 180.34, weight: 74.8 };
    const shown = toProfileFormValues(stored);
    expect([shown.height_cm, shown.weight_kg]).toEqual(['180.34', '74.8']);
    expect(toProfilePayload(profileFormSchema.parse(shown), 'metric', stored)).toMatchObject({ height: 180.34, weight: 74.8 });
    const typed = profileFormSchema.parse({ ...shown, height_cm: '172.5', weight_kg: '61' });
    expect(toProfilePayload(typed, 'metric', stored)).toMatchObject({ height: 172.5, weight: 61 });
  });

  it('imperial: feet, inches and pounds left as shown keep the stored cm and kg; changed ones are converted', () => {
    const stored = { ...emptyProfileValues, height: 180, weight: 75 };
    const shown = toProfileFormValues(stored);
    expect([shown.height_feet, shown.height_inches, shown.weight_lbs]).toEqual(['5', '11', '165.3']);
    expect(toProfilePayload(profileFormSchema.parse(shown), 'imperial', stored)).toMatchObject({ height: 180, weight: 75 });
    const changed = profileFormSchema.parse({ ...shown, height_inches: '10', weight_lbs: '165' });
    expect(toProfilePayload(changed, 'imperial', stored)).toMatchObject({ height: 177.8, weight: 74.8 });
  });

  it('empty height and weight are sent as null', () => {
    const payload = toProfilePayload(profileFormSchema.parse(toProfileFormValues(emptyProfileValues)));
    expect(payload.height).toBeNull();
    expect(payload.weight).toBeNull();
  });

  it('refuses heights and weights outside 0–8 ft, 0–11 in and 0–1000 lbs', () => {
    const base = toProfileFormValues(emptyProfileValues);
    const issues = (patch: Record<string, string>) =>
      profileFormSchema.safeParse({ ...base, ...patch }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues({ height_feet: '9' })).toEqual(['height_feet: Feet must be a whole number from 0 to 8']);
    expect(issues({ height_inches: '12' })).toEqual(['height_inches: Inches must be a whole number from 0 to 11']);
    expect(issues({ height_inches: '5.5' })).toEqual(['height_inches: Inches must be a whole number from 0 to 11']);
    expect(issues({ weight_lbs: '1000.5' })).toEqual(['weight_lbs: Weight must be a number from 0 to 1000']);
    expect(issues({ height_feet: '8', height_inches: '11', weight_lbs: '1000' })).toEqual([]);
  });

  it('a details text is sent only while its flag is checked', () => {
    const values = profileFormSchema.parse({
      ...toProfileFormValues(emptyProfileValues),
      has_allergies: true,
      allergy_details: 'Penicillin',
      has_previous_surgeries: false,
      surgery_details: 'left over from before',
    });
    const payload = toProfilePayload(values);
    expect(payload.allergy_details).toBe('Penicillin');
    expect(payload.surgery_details).toBeNull();
  });

  it('a family member is sent without its lists, which are saved entry by entry and so stay as stored', () => {
    const member = makeMember('m1', {
      relationship: 'spouse',
      emergency_contacts: [makeContact('c1')],
      healthcare_providers: [makeProvider('p1', { provider_name: 'Dr. Who' })],
    });
    const payload = toFamilyPayload(familyFormSchema.parse(toFamilyFormValues(member)));
    expect(payload).toMatchObject({ name: 'Member m1', relationship: 'spouse', is_pet: false });
    expect(payload).not.toHaveProperty('emergency_contacts');
    expect(payload).not.toHaveProperty('healthcare_providers');
    expect(payload).not.toHaveProperty('medications');
  });

  it('knows which tab holds a field', () => {
    expect(tabOfField('name')).toBe('basic');
    expect(tabOfField('height_feet')).toBe('basic');
    expect(tabOfField('allergy_details')).toBe('medical');
    expect(tabOfField('organ_donor')).toBe('additional');
    expect(tabOfField('medications')).toBe('medications');
  });
});
