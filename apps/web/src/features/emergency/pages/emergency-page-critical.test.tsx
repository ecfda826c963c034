import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EmergencyEssentials, EmergencyInfo } from '@kinchart/shared/emergency';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { pickLocale } from '../i18n/locales';
import { MESSAGES, type MessageKey } from '../i18n/messages';
import { EmergencyPage } from './emergency-page';

// DESIGN §7: critical facts first, essentials without the PIN, the responder's language.

const SHARE_ID = 'D'.repeat(43);
const OWN = `/api/user/emergency/${SHARE_ID}`;
const NOT_FOUND = { message: 'QR code not found or inactive' };

const info: EmergencyInfo = {
  requirePin: false,
  is_pet: false,
  relationship: null,
  name: 'Jordan Rivers',
  date_of_birth: '1980-03-04',
  blood_type: 'O-',
  height: 170,
  weight: 70,
  primary_language: 'Spanish',
  has_vision_impairment: false,
  has_hearing_impairment: false,
  has_allergies: true,
  allergy_details: 'Penicillin (anaphylaxis), latex',
  had_anesthesia_reactions: false,
  anesthesia_reaction_details: null,
  has_bleeding_disorders: true,
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
  medications: [
    { medication_name: 'Warfarin', dosage: '5 mg', frequency: null, purpose: null },
    { medication_name: 'Insulin glargine', dosage: '20 units', frequency: null, purpose: null },
  ],
  emergency_contacts: [
    { name: 'Lee Park', relationship: 'Friend', phone_number: '555-0123', email: null, is_primary: false, has_medical_power: false },
    { name: 'Sam Rivers', relationship: 'Spouse', phone_number: '555-0199', email: null, is_primary: true, has_medical_power: true },
  ],
  healthcare_providers: [],
  allergy_entries: [],
  updated_at: '2026-11-20T12:00:00.000Z',
};

const essentials: EmergencyEssentials = {
  name: 'Ana Rivers',
  age: 7,
  is_pet: false,
  species: null,
  blood_type: 'A+',
  allergies: 'Peanuts',
  allergy_entries: [],
  conditions: 'Asthma',
  bleeding_disorder: null,
  medications: ['Salbutamol'],
  primary_contact: { name: 'Sam Rivers', phone_number: '555-0199' },
  updated_at: '2026-11-18T12:00:00.000Z',
};

const pinOf = (call: FetchCall) => new URL(call.url, 'http://x').searchParams.get('pin');
const pathOf = (call: FetchCall) => new URL(call.url, 'http://x').pathname;

function withStatus(body: unknown, status: 'ok' | 'locked' | 'disabled', code = 200): Response {
  return new Response(JSON.stringify(body), {
    status: code,
    headers: { 'content-type': 'application/json', 'kinchart-pin-status': status },
  });
}

function renderPage() {
  return renderRoutes([{ path: '/emergency/:shareId', element: <EmergencyPage /> }], `/emergency/${SHARE_ID}`);
}

function browserLanguages(languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}

async function openWithPin(user: ReturnType<typeof userEvent.setup>, label = 'PIN', button = 'View Medical Information') {
  await user.type(await screen.findByLabelText(label), '4826');
  await user.click(screen.getByRole('button', { name: button }));
}

/** True when `a` comes before `b` in the document. */
const before = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

describe('emergency page: critical first', () => {
  it('after the right PIN, name and age, blood type, allergies, conditions, bleeding disorder, medicines and a call button come before the six sections', async () => {
    browserLanguages(['en-US']);
    mockFetch((call) => (pathOf(call) !== OWN ? json(NOT_FOUND, 404) : pinOf(call) === null ? json({ requirePin: true }) : json(info)));
    const user = userEvent.setup();
    renderPage();
    await openWithPin(user);
    const summary = await screen.findByRole('region', { name: 'Critical information' });
    const firstSection = screen.getByRole('heading', { level: 2, name: 'Priority Medical Information' });
    expect(before(summary, firstSection)).toBe(true);

    const s = within(summary);
    expect(s.getByText('Jordan Rivers')).toBeTruthy();
    expect(s.getByText(/^\d{2} years$/)).toBeTruthy();
    expect(s.getByText('O-')).toBeTruthy();
    expect(s.getByText('Penicillin (anaphylaxis), latex')).toBeTruthy();
    expect(s.getByText('Hemophilia A')).toBeTruthy();
    expect(s.getByText('Type 1 diabetes')).toBeTruthy();
    expect(s.getByText('Warfarin, Insulin glargine')).toBeTruthy();
    // The patient's language differs from the viewer's, so it is a critical fact.
    expect(s.getByText('Spanish')).toBeTruthy();
    // The primary contact, not the first one in the list.
    const call = s.getByRole('link', { name: 'Call Sam Rivers (Spouse)' });
    expect(call.getAttribute('href')).toBe('tel:5550199');
    expect(s.getByText('Last updated November 20, 2026')).toBeTruthy();
    // Allergies and bleeding disorder keep their red warning frame.
    expect(s.getByText('Allergies').parentElement?.className).toContain('border-red-800');
    // Everything else follows in the SPEC sections.
    for (const section of [
      'Patient Information',
      'Medical Conditions',
      'Current Medications',
      'Contact Information',
      'Medical Directives',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: section })).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: 'Call Lee Park at 555-0123' })).toBeTruthy();
  });

  it('counts a baby’s age in months, and leaves out the language when it is the viewer’s', async () => {
    browserLanguages(['en-US']);
    const now = new Date();
    const born = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 7, 1)).toISOString().slice(0, 10);
    mockFetch((call) =>
      pinOf(call) === null
        ? json({ requirePin: true })
        : json({ ...info, date_of_birth: born, primary_language: 'English', updated_at: null }),
    );
    const user = userEvent.setup();
    renderPage();
    await openWithPin(user);
    const summary = await screen.findByRole('region', { name: 'Critical information' });
    expect(within(summary).getByText(/^[67] months$/)).toBeTruthy();
    expect(within(summary).queryByTestId('critical-language')).toBeNull();
    expect(within(summary).queryByText(/Last updated/)).toBeNull();
  });
});

describe('emergency page: essentials without the PIN', () => {
  it('shows an opted-in code’s essentials above the PIN prompt, with a call button and the date of the last change', async () => {
    browserLanguages(['en-US']);
    mockFetch((call) => (pinOf(call) === null ? withStatus({ requirePin: true, essentials }, 'ok') : json(info)));
    renderPage();
    const prompt = await screen.findByRole('heading', { level: 1, name: 'Medical Information Access' });
    const summary = screen.getByRole('region', { name: 'Critical information' });
    expect(before(summary, prompt)).toBe(true);
    const s = within(summary);
    expect(s.getByRole('heading', { name: 'Essential information' })).toBeTruthy();
    for (const fact of ['Ana Rivers', '7 years', 'A+', 'Peanuts', 'Asthma', 'Salbutamol']) expect(s.getByText(fact)).toBeTruthy();
    expect(s.getByRole('link', { name: 'Call Sam Rivers' }).getAttribute('href')).toBe('tel:5550199');
    expect(s.getByText('Last updated November 18, 2026')).toBeTruthy();
    expect(screen.getByLabelText('PIN')).toBeTruthy();
  });

  it('keeps the essentials and says the PIN is locked, and to call the local emergency number, when the status is locked', async () => {
    browserLanguages(['en-US']);
    mockFetch(() => withStatus({ requirePin: true, essentials }, 'locked'));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The PIN is locked for now');
    expect(alert.textContent).toContain('call your local emergency number');
    expect(screen.getByText('Peanuts')).toBeTruthy();
    expect(screen.queryByLabelText('PIN')).toBeNull();
  });

  it('says the PIN has been switched off when the status is disabled', async () => {
    browserLanguages(['en-US']);
    mockFetch(() => withStatus({ requirePin: true, essentials }, 'disabled'));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The PIN has been switched off');
    expect(alert.textContent).toContain('call your local emergency number');
    expect(screen.queryByRole('button', { name: 'Try Again' })).toBeNull();
    expect(screen.getByText('Ana Rivers')).toBeTruthy();
  });

  it('a PIN attempt answered 423 (disabled) or 429 (locked) keeps the essentials on screen', async () => {
    browserLanguages(['en-US']);
    let answer = 423;
    mockFetch((call) => (pinOf(call) === null ? withStatus({ requirePin: true, essentials }, 'ok') : json({ message: 'No' }, answer)));
    const user = userEvent.setup();
    const first = renderPage();
    await openWithPin(user);
    expect((await screen.findByRole('alert')).textContent).toContain('The PIN has been switched off');
    expect(screen.getByText('Peanuts')).toBeTruthy();
    first.unmount();

    answer = 429;
    renderPage();
    await openWithPin(user);
    expect((await screen.findByRole('alert')).textContent).toContain('The PIN is locked for now');
    expect(screen.getByText('Peanuts')).toBeTruthy();
  });
});

describe('emergency page: the responder’s language', () => {
  it('follows the browser’s language, sets <html lang>, switches on request and restores lang on leave', async () => {
    browserLanguages(['es-ES', 'en']);
    document.documentElement.lang = 'en';
    mockFetch((call) => (pinOf(call) === null ? json({ requirePin: true }) : json(info)));
    const user = userEvent.setup();
    const view = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acceso a la información médica' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    await openWithPin(user, 'PIN', 'Ver información médica');
    expect(await screen.findByRole('heading', { level: 2, name: 'Información médica prioritaria' })).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Información crítica' });
    expect(within(summary).getByText('Última actualización: 20 de noviembre de 2026')).toBeTruthy();
    expect(within(summary).getByRole('link', { name: 'Llamar a Sam Rivers (Spouse)' })).toBeTruthy();
    // The patient wrote "Spanish": that is the viewer's language, so it is not flagged.
    expect(within(summary).queryByTestId('critical-language')).toBeNull();
    expect(screen.getByText('170 cm')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Idioma'), 'Deutsch');
    expect(await screen.findByRole('heading', { level: 2, name: 'Vorrangige medizinische Informationen' })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
    // The user's own text is shown as entered.
    expect(screen.getAllByText('Hemophilia A').length).toBeGreaterThan(0);
    view.unmount();
    expect(document.documentElement.lang).toBe('en');
  });

  it('speaks Simplified Chinese to a zh-CN browser and French to fr-CA, and English to anything else', async () => {
    expect(pickLocale(['zh-CN'])).toBe('zh-Hans');
    expect(pickLocale(['zh-TW', 'fr-CA'])).toBe('fr');
    expect(pickLocale(['ja-JP'])).toBe('ja');
    expect(pickLocale(['pt-PT'])).toBe('pt-BR');
    expect(pickLocale(['tlh', 'sw'])).toBe('en');
    browserLanguages(['zh-CN']);
    mockFetch(() => json({ requirePin: true }));
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: '查看医疗信息' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-Hans');
  });

  it('mirrors the page for an Arabic browser, and lists all 13 languages in the switcher', async () => {
    browserLanguages(['ar-EG']);
    document.documentElement.dir = 'ltr';
    mockFetch(() => json({ requirePin: true }));
    const view = renderPage();
    const heading = await screen.findByRole('heading', { level: 1, name: 'الوصول إلى المعلومات الطبية' });
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(heading.closest('[dir]')?.getAttribute('dir')).toBe('rtl');
    const options = Array.from(screen.getByRole('combobox').querySelectorAll('option'), (o) => o.value);
    expect(options).toEqual(['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'zh-Hans', 'ja', 'hi', 'ar', 'uk']);
    view.unmount();
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('keeps the SPEC’s English texts verbatim', () => {
    const en = Object.fromEntries(Object.entries(MESSAGES).map(([key, descriptor]) => [key, descriptor.message])) as Record<
      MessageKey,
      string | undefined
    >;
    expect(en.pinTitle).toBe('Medical Information Access');
    expect(en.notFound).toBe('QR code not found or inactive');
    expect(en.invalidPin).toBe('Invalid PIN');
    expect(en.notProvided).toBe('Not Provided');
    expect([en.priorityTitle, en.patientTitle, en.conditionsTitle, en.medicationsTitle, en.contactTitle, en.directivesTitle]).toEqual([
      'Priority Medical Information',
      'Patient Information',
      'Medical Conditions',
      'Current Medications',
      'Contact Information',
      'Medical Directives',
    ]);
  });
});

describe('emergency page: details written over several lines', () => {
  it('a responder reads each line of a multi-line detail on its own line, in the critical facts and in the sections', async () => {
    browserLanguages(['en-US']);
    const multi: EmergencyInfo = {
      ...info,
      allergy_details: 'Penicillin (anaphylaxis)\r\nLatex',
      chronic_condition_details: 'Asthma\nLeukemia (in remission)',
      has_previous_surgeries: true,
      surgery_details: 'Appendix, 2010\nLeft knee, 2018',
    };
    mockFetch((call) => (pinOf(call) === null ? json({ requirePin: true }) : json(multi)));
    const user = userEvent.setup();
    renderPage();
    await openWithPin(user);
    const summary = within(await screen.findByRole('region', { name: 'Critical information' }));
    for (const line of ['Asthma', 'Leukemia (in remission)', 'Penicillin (anaphylaxis)', 'Latex'])
      expect(summary.getByText(line), line).toBeTruthy();
    const priority = within(screen.getByRole('region', { name: 'Priority Medical Information' }));
    for (const line of ['Penicillin (anaphylaxis)', 'Latex']) expect(priority.getByText(line), line).toBeTruthy();
    const conditions = within(screen.getByRole('region', { name: 'Medical Conditions' }));
    for (const line of ['Asthma', 'Leukemia (in remission)', 'Appendix, 2010', 'Left knee, 2018'])
      expect(conditions.getByText(line), line).toBeTruthy();
  });

  it('a finder without the PIN reads each line of the essentials’ conditions on its own line', async () => {
    browserLanguages(['en-US']);
    mockFetch(() => withStatus({ requirePin: true, essentials: { ...essentials, conditions: 'Asthma\nEczema' } }, 'ok'));
    renderPage();
    const summary = within(await screen.findByRole('region', { name: 'Critical information' }));
    expect(summary.getByText('Asthma')).toBeTruthy();
    expect(summary.getByText('Eczema')).toBeTruthy();
  });
});

describe('emergency page: allergies as entries (issue 34)', () => {
  const entries: EmergencyInfo['allergy_entries'] = [
    { substance: 'Latex', reactions: ['Rash'], severity: 'mild', criticality: 'low' },
    { substance: 'Penicillin', reactions: ['Anaphylaxis', 'Hives'], severity: 'severe', criticality: 'high' },
    { substance: 'Dust', reactions: [], severity: null, criticality: null },
  ];
  const lines = (root: HTMLElement) => Array.from(root.querySelectorAll('span.block'), (span) => span.textContent);

  it('shows the entries instead of the details text, high criticality first, each with its reactions, in the facts and the section', async () => {
    browserLanguages(['en-US']);
    const withEntries: EmergencyInfo = { ...info, allergy_details: 'Latex\nPenicillin\nDust', allergy_entries: entries };
    mockFetch((call) => (pinOf(call) === null ? json({ requirePin: true }) : json(withEntries)));
    const user = userEvent.setup();
    renderPage();
    await openWithPin(user);
    const expected = ['Penicillin — Anaphylaxis, Hives (severe, high criticality)', 'Latex — Rash (mild)', 'Dust'];
    await screen.findByRole('region', { name: 'Critical information' });
    expect(lines(screen.getByTestId('critical-allergies'))).toEqual(expected);
    const priority = screen.getByRole('region', { name: 'Priority Medical Information' });
    expect(lines(priority)).toEqual(expected);
    expect(within(priority).queryByText('Latex', { exact: true })).toBeNull();
  });

  it('a finder without the PIN reads the essentials’ entries the same way, in the responder’s language', async () => {
    browserLanguages(['de-DE']);
    mockFetch(() =>
      withStatus({ requirePin: true, essentials: { ...essentials, allergies: 'Latex\nPenicillin\nDust', allergy_entries: entries } }, 'ok'),
    );
    renderPage();
    await screen.findByRole('region', { name: 'Kritische Informationen' });
    expect(lines(screen.getByTestId('critical-allergies'))).toEqual([
      'Penicillin — Anaphylaxis, Hives (schwer, hohe Kritikalität)',
      'Latex — Rash (leicht)',
      'Dust',
    ]);
  });

  it('shows no entries when the allergy flag is off, and the details text when there are no entries', async () => {
    browserLanguages(['en-US']);
    let answer: EmergencyInfo = { ...info, has_allergies: false, allergy_entries: entries };
    mockFetch((call) => (pinOf(call) === null ? json({ requirePin: true }) : json(answer)));
    const user = userEvent.setup();
    const first = renderPage();
    await openWithPin(user);
    await screen.findByRole('region', { name: 'Critical information' });
    expect(screen.queryByTestId('critical-allergies')).toBeNull();
    expect(screen.queryByText(/Penicillin/)).toBeNull();
    first.unmount();

    answer = { ...info, allergy_entries: [] };
    renderPage();
    await openWithPin(user);
    const summary = await screen.findByRole('region', { name: 'Critical information' });
    expect(within(summary).getByText('Penicillin (anaphylaxis), latex')).toBeTruthy();
  });
});
