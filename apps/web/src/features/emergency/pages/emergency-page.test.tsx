import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EmergencyInfo } from '@kinchart/shared/emergency';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { EmergencyPage } from './emergency-page';

const SHARE_ID = 'C'.repeat(43);
const OWN = `/api/user/emergency/${SHARE_ID}`;
const FAMILY = `/api/user/family/emergency/${SHARE_ID}`;
const NOT_FOUND = { message: 'QR code not found or inactive' };

const info: EmergencyInfo = {
  requirePin: false,
  is_pet: false,
  relationship: null,
  name: 'Jordan Rivers',
  date_of_birth: '1980-03-04',
  blood_type: 'O-',
  height: 170,
  weight: null,
  primary_language: 'English',
  has_vision_impairment: false,
  has_hearing_impairment: true,
  has_allergies: true,
  allergy_details: 'Penicillin',
  had_anesthesia_reactions: true,
  anesthesia_reaction_details: 'Malignant hyperthermia',
  has_bleeding_disorders: false,
  bleeding_disorder_details: 'Hemophilia A',
  has_chronic_conditions: true,
  chronic_condition_details: 'Type 1 diabetes',
  has_previous_surgeries: false,
  surgery_details: null,
  has_mobility_issues: false,
  mobility_details: null,
  organ_donor: true,
  advance_directives: false,
  living_will: false,
  religious_restrictions: null,
  medications: [{ medication_name: 'Warfarin', dosage: '5 mg', frequency: null, purpose: null }],
  emergency_contacts: [
    { name: 'Sam Rivers', relationship: 'Spouse', phone_number: '555-0199', email: null, is_primary: true, has_medical_power: true },
  ],
  healthcare_providers: [],
  allergy_entries: [],
  updated_at: '2026-11-20T09:30:00.000Z',
};

function renderPage(path = `/emergency/${SHARE_ID}`) {
  return renderRoutes(
    [
      { path: '/emergency/:shareId', element: <EmergencyPage /> },
      { path: '/family/emergency/:shareId', element: <EmergencyPage /> },
    ],
    path,
  );
}

const pinOf = (call: FetchCall) => new URL(call.url, 'http://x').searchParams.get('pin');
const pathOf = (call: FetchCall) => new URL(call.url, 'http://x').pathname;

async function enterPin(user: ReturnType<typeof userEvent.setup>, pin: string) {
  const input = await screen.findByLabelText('PIN');
  await user.clear(input);
  await user.type(input, pin);
  await user.click(screen.getByRole('button', { name: 'View Medical Information' }));
}

describe('emergency page', () => {
  it('says "QR code not found or inactive" after both the own and the family lookup answer 404', async () => {
    const { calls } = mockFetch(() => json(NOT_FOUND, 404));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('QR code not found or inactive');
    expect(calls.map(pathOf)).toEqual([OWN, FAMILY]);
    expect(calls.some((c) => c.url.includes('check-auth'))).toBe(false);
    expect(document.body.textContent).not.toContain(SHARE_ID);
  });

  it('asks for the PIN, shows the server message and remaining attempts for a wrong one, then the data for the right one', async () => {
    const log = vi.spyOn(console, 'log');
    const { calls } = mockFetch((call) => {
      if (pathOf(call) !== OWN) return json(NOT_FOUND, 404);
      const pin = pinOf(call);
      if (pin === null) return json({ requirePin: true });
      return pin === '4826' ? json(info) : json({ message: 'Invalid PIN', remainingAttempts: 4 }, 401);
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Medical Information Access' })).toBeTruthy();
    const input = screen.getByLabelText('PIN');
    const button = screen.getByRole('button', { name: 'View Medical Information' });
    await user.type(input, '1x3');
    expect((input as HTMLInputElement).value).toBe('13');
    expect((button as HTMLButtonElement).disabled).toBe(true);

    await enterPin(user, '1357');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Invalid PIN');
    expect(alert.textContent).toContain('4 attempts remaining.');
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('PIN').value).toBe(''));

    await enterPin(user, '4826');
    for (const section of [
      'Priority Medical Information',
      'Patient Information',
      'Medical Conditions',
      'Current Medications',
      'Contact Information',
      'Medical Directives',
    ]) {
      expect(await screen.findByRole('heading', { level: 2, name: section })).toBeTruthy();
    }
    expect(screen.getAllByText('Jordan Rivers').length).toBeGreaterThan(0);
    // Critical facts come first (DESIGN §7) and again in their SPEC sections.
    expect(screen.getAllByText('Penicillin').length).toBe(2);
    expect(screen.getAllByText('Type 1 diabetes').length).toBe(2);
    expect(screen.getAllByText('Warfarin').length).toBe(2);
    expect(screen.getByRole('link', { name: 'Call Sam Rivers at 555-0199' }).getAttribute('href')).toBe('tel:5550199');
    expect(screen.getAllByText('Not Provided').length).toBeGreaterThan(0);
    expect(calls.filter((c) => pinOf(c) !== null).map(pinOf)).toEqual(['1357', '4826']);
    // The PIN travels in the query string only; it is never written to the console.
    expect(log.mock.calls.flat().join(' ')).not.toContain('4826');
  });

  it('a visitor who pastes a PIN with separators or extra characters keeps its digits, at most the first four', async () => {
    mockFetch((call) => (pathOf(call) !== OWN ? json(NOT_FOUND, 404) : json({ requirePin: true })));
    const user = userEvent.setup();
    renderPage();
    const input = await screen.findByLabelText<HTMLInputElement>('PIN');
    for (const [pasted, kept] of [
      ['12-34', '1234'],
      ['12ab3456', '1234'],
      [' 4 8 2 6 ', '4826'],
    ] as const) {
      await user.clear(input);
      await user.click(input);
      await user.paste(pasted);
      expect(input.value).toBe(kept);
    }
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'View Medical Information' }).disabled).toBe(false);
  });

  it('shows a priority item only when its flag is set and its text is present', async () => {
    mockFetch((call) =>
      pinOf(call) === null
        ? json({ requirePin: true })
        : json({ ...info, has_allergies: true, allergy_details: '  ', had_anesthesia_reactions: true, anesthesia_reaction_details: null }),
    );
    const user = userEvent.setup();
    renderPage();
    await enterPin(user, '4826');
    expect(await screen.findByRole('heading', { level: 2, name: 'Priority Medical Information' })).toBeTruthy();
    // Flags without text, and text without its flag (bleeding disorder), stay out of the priority list.
    expect(screen.queryByText('Allergies')).toBeNull();
    expect(screen.queryByText('Anesthesia Reactions')).toBeNull();
    expect(screen.queryByText('Bleeding Disorder')).toBeNull();
    expect(screen.queryByText('Hemophilia A')).toBeNull();
    expect(screen.getByText('No allergies, anesthesia reactions or bleeding disorders recorded.')).toBeTruthy();
  });

  it('says in plain words that the PIN is locked, when to retry, and to call the local emergency number', async () => {
    const locked = 'Too many incorrect PINs. Please try again in 15 minutes.';
    mockFetch((call) =>
      pinOf(call) === null
        ? json({ requirePin: true })
        : new Response(JSON.stringify({ message: locked }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '840' },
          }),
    );
    const user = userEvent.setup();
    renderPage();
    await enterPin(user, '4826');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The PIN is locked for now');
    expect(alert.textContent).toContain('The PIN can be tried again in about 14 minutes.');
    expect(alert.textContent).toContain('If this is an emergency, call your local emergency number now.');
    expect(screen.queryByLabelText('PIN')).toBeNull();
  });

  it('finds a family member’s code through the family route', async () => {
    const { calls } = mockFetch((call) => {
      if (pathOf(call) === OWN) return json(NOT_FOUND, 404);
      return pinOf(call) === null ? json({ requirePin: true }) : json({ ...info, name: 'Rex', is_pet: true, relationship: 'other' });
    });
    const user = userEvent.setup();
    renderPage(`/family/emergency/${SHARE_ID}`);
    await enterPin(user, '7314');
    expect(await screen.findByText('This profile is for a pet.')).toBeTruthy();
    expect(calls.map((c) => [pathOf(c), pinOf(c)])).toEqual([
      [OWN, null],
      [FAMILY, null],
      [FAMILY, '7314'],
    ]);
  });

  it('tries the family route when the own-code PIN call answers 404', async () => {
    const { calls } = mockFetch((call) => {
      if (pathOf(call) === OWN) return pinOf(call) === null ? json({ requirePin: true }) : json(NOT_FOUND, 404);
      return json({ ...info, name: 'Mia' });
    });
    const user = userEvent.setup();
    renderPage();
    await enterPin(user, '7314');
    expect((await screen.findAllByText('Mia')).length).toBeGreaterThan(0);
    expect(calls.map((c) => [pathOf(c), pinOf(c)])).toEqual([
      [OWN, null],
      [OWN, '7314'],
      [FAMILY, '7314'],
    ]);
  });

  it('offers a retry when the server cannot be reached', async () => {
    let offline = true;
    mockFetch(() => (offline ? Promise.reject(new TypeError('Failed to fetch')) : json({ requirePin: true })));
    const user = userEvent.setup();
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('could not be loaded');
    offline = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Medical Information Access' })).toBeTruthy();
  });
});
