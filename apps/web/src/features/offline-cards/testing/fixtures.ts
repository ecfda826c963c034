import type { EmergencyCard } from '@kinchart/shared/emergency';
import { emptyProfileValues } from '../../../../test/profiles';
import type { SavedCards } from '../lib/card-store';

/** Other features' tests put cards on the device and look at them through here (the store itself is not exposed). */
export { readSavedCards, writeSavedCards } from '../lib/card-store';

const SHARE_ID = 'A'.repeat(43);
export const OWN_QR_LINK = `http://localhost/emergency/${SHARE_ID}`;

// The profile's fields as the emergency view answers them: the profile fixture's empty values
// without the person's own phone, address and email (DESIGN §7).
const { phone_number: _phone, address: _address, email: _email, ...emergencyFields } = emptyProfileValues;

const blankInfo: EmergencyCard['info'] = {
  requirePin: false,
  is_pet: false,
  relationship: null,
  ...emergencyFields,
  medications: [],
  emergency_contacts: [],
  healthcare_providers: [],
  allergy_entries: [],
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
    emergency_contacts: [
      { name: 'Sam Rivers', relationship: 'Spouse', phone_number: '555-0199', email: null, is_primary: true, has_medical_power: false },
    ],
  },
};

export const MEMBER_CARD: EmergencyCard = {
  profile_id: 'p-alex',
  is_self: false,
  qr_data: null,
  info: {
    ...blankInfo,
    name: 'Alex Rivers',
    relationship: 'child',
    date_of_birth: '2015-04-02',
    has_allergies: true,
    allergy_details: 'Bee stings',
  },
};

export function savedRecord(userId: string, cards: EmergencyCard[] = [OWN_CARD, MEMBER_CARD]): SavedCards {
  return { version: 1, userId, savedAt: '2026-03-04T09:41:00.000Z', cards };
}
