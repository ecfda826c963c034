import type { EmergencyCard } from '@kinchart/shared/emergency';
import type { SavedCards } from '../lib/card-store';

const SHARE_ID = 'A'.repeat(43);
export const OWN_QR_LINK = `http://localhost/emergency/${SHARE_ID}`;

const blankInfo: EmergencyCard['info'] = {
  requirePin: false,
  is_pet: false,
  relationship: null,
  name: null,
  date_of_birth: null,
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
  medications: [],
  emergency_contacts: [],
  healthcare_providers: [],
  updated_at: '2026-03-02T10:00:00.000Z',
};

export const OWN_CARD: EmergencyCard = {
  profile_id: 'p-self',
  is_self: true,
  qr_data: OWN_QR_LINK,
  info: {
    ...blankInfo,
    name: 'Jordan Rivers',
    date_of_birth: '1980-02-03',
    blood_type: 'O-',
    has_allergies: true,
    allergy_details: 'Penicillin',
    medications: [{ medication_name: 'Warfarin', dosage: '5 mg', frequency: 'daily', purpose: null }],
    emergency_contacts: [{ name: 'Sam Rivers', relationship: 'Spouse', phone_number: '555-0199', email: null, is_primary: true, has_medical_power: false }],
  },
};

export const MEMBER_CARD: EmergencyCard = {
  profile_id: 'p-alex',
  is_self: false,
  qr_data: null,
  info: { ...blankInfo, name: 'Alex Rivers', relationship: 'child', date_of_birth: '2015-04-02', has_allergies: true, allergy_details: 'Bee stings' },
};

export function savedRecord(userId: string, cards: EmergencyCard[] = [OWN_CARD, MEMBER_CARD]): SavedCards {
  return { version: 1, userId, savedAt: '2026-03-04T09:41:00.000Z', cards };
}
