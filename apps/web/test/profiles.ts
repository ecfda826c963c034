import type {
  EmergencyContact,
  FamilyMember,
  FamilyMemberSummary,
  HealthcareProvider,
  Medication,
  PatientProfile,
  ProfileValues,
} from '@kinchart/shared/profile';

// Profiles, family members and their lists shaped exactly like the server's answers (the shared
// response schemas), for the unit tests of any feature.

export const emptyProfileValues: ProfileValues = {
  name: null,
  date_of_birth: null,
  phone_number: null,
  address: null,
  email: null,
  blood_type: null,
  height: null,
  weight: null,
  primary_language: null,
  religious_restrictions: null,
  organ_donor: false,
  advance_directives: false,
  living_will: false,
  has_vision_impairment: false,
  has_hearing_impairment: false,
  has_allergies: false,
  allergy_details: null,
  has_chronic_conditions: false,
  chronic_condition_details: null,
  has_bleeding_disorders: false,
  bleeding_disorder_details: null,
  has_previous_surgeries: false,
  surgery_details: null,
  has_mobility_issues: false,
  mobility_details: null,
  had_anesthesia_reactions: false,
  anesthesia_reaction_details: null,
  species: null,
  breed: null,
  microchip_number: null,
  vet_name: null,
  vet_phone: null,
  time_zone: null,
};

export function makeMedication(id: string, overrides: Partial<Medication> = {}): Medication {
  return {
    id,
    medication_id: id,
    medication_name: `Medication ${id}`,
    dosage: '10 mg',
    frequency: 'daily',
    purpose: null,
    start_date: null,
    end_date: null,
    is_current: true,
    ...overrides,
  };
}

export function makeContact(id: string, overrides: Partial<EmergencyContact> = {}): EmergencyContact {
  return {
    id,
    contact_id: id,
    name: `Contact ${id}`,
    relationship: 'Friend',
    phone_number: '555-0100',
    email: null,
    is_primary: false,
    has_medical_power: false,
    ...overrides,
  };
}

export function makeProvider(id: string, overrides: Partial<HealthcareProvider> = {}): HealthcareProvider {
  const name = overrides.provider_name ?? `Dr. ${id}`;
  return {
    id,
    provider_id: id,
    provider_name: name,
    name,
    specialty: null,
    facility: null,
    phone_number: '555-0199',
    email: null,
    address: null,
    is_primary: false,
    notes: null,
    ...overrides,
  };
}

export function makeMemberSummary(id: string, overrides: Partial<FamilyMemberSummary> = {}): FamilyMemberSummary {
  return {
    ...emptyProfileValues,
    id,
    member_id: id,
    name: `Member ${id}`,
    date_of_birth: '2015-05-20',
    relationship: 'child',
    is_pet: false,
    ...overrides,
  };
}

export function makeMember(id: string, overrides: Partial<FamilyMember> = {}): FamilyMember {
  return {
    ...makeMemberSummary(id),
    emergency_contacts: [],
    healthcare_providers: [],
    medications: [],
    ...overrides,
  };
}

export function makeProfile(overrides: Partial<PatientProfile> = {}): PatientProfile {
  return {
    ...emptyProfileValues,
    id: 'self-1',
    username: 'alice',
    account_email: 'alice@example.com',
    name: 'Alice Example',
    emergency_contacts: [],
    healthcare_providers: [],
    medications: [],
    family_members: [],
    ...overrides,
  };
}
