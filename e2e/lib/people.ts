import type { Page } from 'playwright-core';
import { apiCall } from './browser';

/**
 * The owner most journeys use: an allergy, a blood thinner and a primary contact — what the
 * emergency page, its essentials and the kept cards show — and an address they must never show.
 */
export const JORDAN = {
  name: 'Jordan Rivers',
  date_of_birth: '1980-03-04',
  blood_type: 'O-',
  has_allergies: true,
  allergy_details: 'Penicillin',
  address: '12 Secret Lane',
  emergency_contacts: [{ name: 'Sam Rivers', relationship: 'Spouse', phone_number: '555-0199', is_primary: true }],
  medications: [{ medication_name: 'Warfarin', dosage: '5 mg', frequency: 'Daily', is_current: true }],
};

/** Saves JORDAN as the signed-in user's own profile. */
export async function fillOwnProfile(page: Page): Promise<void> {
  await apiCall(page, 'PUT', '/api/user/updateProfile', JORDAN);
}
