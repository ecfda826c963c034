import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EmergencyEssentials, PetEmergencyInfo } from '@kinchart/shared/emergency';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { EmergencyPage } from './emergency-page';

// Issue 30 #25 (docs/decisions/0037): a pet's emergency page shows what it is, its microchip, its
// vet and its owner — never a blood type, a language or "Organ Donor: No".

const SHARE_ID = 'P'.repeat(43);
const FAMILY = `/api/user/family/emergency/${SHARE_ID}`;

const pet: PetEmergencyInfo = {
  requirePin: false,
  is_pet: true,
  relationship: 'other',
  name: 'Rex',
  date_of_birth: '2019-05-01',
  height: null,
  weight: 21.4,
  has_vision_impairment: false,
  has_hearing_impairment: false,
  has_allergies: true,
  allergy_details: 'Chicken',
  had_anesthesia_reactions: false,
  anesthesia_reaction_details: null,
  has_bleeding_disorders: false,
  bleeding_disorder_details: null,
  has_chronic_conditions: false,
  chronic_condition_details: null,
  has_previous_surgeries: false,
  surgery_details: null,
  has_mobility_issues: false,
  mobility_details: null,
  species: 'Dog',
  breed: 'Border Collie',
  microchip_number: '985 112 003 456 789',
  vet_name: 'Riverside Vets',
  vet_phone: '+1 555 0142',
  owner: { name: 'Jordan Rivers', phone_number: '+1 555 0100' },
  medications: [],
  emergency_contacts: [],
  healthcare_providers: [],
  allergy_entries: [],
  updated_at: '2026-11-20T09:30:00.000Z',
};

const pathOf = (call: FetchCall) => new URL(call.url, 'http://x').pathname;

async function openWithPin(answer: PetEmergencyInfo) {
  mockFetch((call) => {
    if (pathOf(call) !== FAMILY) return json({ message: 'QR code not found or inactive' }, 404);
    return new URL(call.url, 'http://x').searchParams.get('pin') === null ? json({ requirePin: true }) : json(answer);
  });
  const user = userEvent.setup();
  renderRoutes([{ path: '/family/emergency/:shareId', element: <EmergencyPage /> }], `/family/emergency/${SHARE_ID}`);
  await user.type(await screen.findByLabelText('PIN'), '4826');
  await user.click(screen.getByRole('button', { name: 'View Medical Information' }));
  return screen.findByRole('heading', { level: 2, name: 'Patient Information' });
}

describe("a pet's emergency page", () => {
  it('a responder sees the species, breed, microchip, vet and owner, and no human-only field', async () => {
    await openWithPin(pet);
    const patient = screen.getByRole('region', { name: 'Patient Information' });
    expect(within(patient).getByText('Species').nextSibling?.textContent).toBe('Dog');
    expect(within(patient).getByText('Breed').nextSibling?.textContent).toBe('Border Collie');
    expect(within(patient).getByText('Microchip Number').nextSibling?.textContent).toBe('985 112 003 456 789');

    const contact = screen.getByRole('region', { name: 'Contact Information' });
    expect(within(contact).getByRole('heading', { level: 3, name: 'Owner' })).toBeTruthy();
    expect(within(contact).getByRole('link', { name: 'Call Jordan Rivers at +1 555 0100' }).getAttribute('href')).toBe('tel:+15550100');
    expect(within(contact).getByRole('heading', { level: 3, name: 'Vet' })).toBeTruthy();
    expect(within(contact).getByRole('link', { name: 'Call Riverside Vets at +1 555 0142' }).getAttribute('href')).toBe('tel:+15550142');
    // With no emergency contact, the big call button on the first screen calls the owner.
    expect(screen.getByTestId('call-primary').getAttribute('aria-label')).toBe('Call Jordan Rivers (Owner)');

    const page = document.body.textContent ?? '';
    for (const human of [
      'Organ Donor',
      'Advance Directives',
      'Living Will',
      'Religious Restrictions',
      'Blood Type',
      'Primary Language',
      'Medical Directives',
    ]) {
      expect(page, human).not.toContain(human);
    }
    expect(screen.queryByTestId('critical-blood-type')).toBeNull();
    expect(screen.getByTestId('critical-species').textContent).toContain('Dog, Border Collie');
  });

  it('a finder without the PIN sees a pet’s essentials with its species and no blood type box', async () => {
    const essentials: EmergencyEssentials = {
      name: 'Rex',
      age: 7,
      is_pet: true,
      species: 'Dog',
      blood_type: null,
      allergies: 'Chicken',
      allergy_entries: [],
      conditions: null,
      bleeding_disorder: null,
      medications: [],
      primary_contact: { name: 'Jordan Rivers', phone_number: '+1 555 0100' },
      updated_at: null,
    };
    mockFetch((call) =>
      pathOf(call) === FAMILY ? json({ requirePin: true, essentials }) : json({ message: 'QR code not found or inactive' }, 404),
    );
    renderRoutes([{ path: '/family/emergency/:shareId', element: <EmergencyPage /> }], `/family/emergency/${SHARE_ID}`);
    const summary = await screen.findByRole('region', { name: 'Critical information' });
    const s = within(summary);
    expect(s.getByText('This profile is for a pet.')).toBeTruthy();
    expect(s.getByTestId('critical-species').textContent).toContain('Dog');
    expect(s.queryByTestId('critical-blood-type')).toBeNull();
    expect(summary.textContent).not.toContain('Blood Type');
    expect(s.getByText('Chicken')).toBeTruthy();
    expect(screen.getByLabelText('PIN')).toBeTruthy();
  });

  it('a pet without a vet, microchip or owner on file reads "Not Provided" for them, still without human-only fields', async () => {
    await openWithPin({ ...pet, breed: null, microchip_number: null, vet_name: null, vet_phone: null, owner: null });
    const patient = screen.getByRole('region', { name: 'Patient Information' });
    expect(within(patient).getByText('Microchip Number').nextSibling?.textContent).toBe('Not Provided');
    const contact = screen.getByRole('region', { name: 'Contact Information' });
    expect(within(contact).queryByRole('heading', { level: 3, name: 'Owner' })).toBeNull();
    expect(within(contact).getByRole('heading', { level: 3, name: 'Vet' }).nextSibling?.textContent).toBe('Not Provided');
    expect(screen.queryByTestId('call-primary')).toBeNull();
    expect(document.body.textContent).not.toContain('Organ Donor');
  });
});
