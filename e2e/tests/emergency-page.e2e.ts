import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';

useBrowser();

// DESIGN §7: "Critical facts and a call button fill the first phone screen; responders get their
// browser's language". SPEC §2 Emergency page states (the six sections follow).

/** A realistic full profile: long-ish allergy text, four current medicines, a primary contact. */
async function fillFullProfile(page: Page): Promise<void> {
  await apiCall(page, 'PUT', '/api/user/updateProfile', {
    name: 'Alexandra Montgomery-Rivers',
    date_of_birth: '1958-07-19',
    blood_type: 'AB-',
    height: 165,
    weight: 72.5,
    primary_language: 'Portuguese',
    has_allergies: true,
    allergy_details: 'Penicillin and amoxicillin (anaphylaxis), sulfa drugs (hives), latex, shellfish',
    has_bleeding_disorders: true,
    bleeding_disorder_details: 'Von Willebrand disease type 1',
    has_chronic_conditions: true,
    chronic_condition_details: 'Type 2 diabetes, atrial fibrillation, COPD',
    had_anesthesia_reactions: true,
    anesthesia_reaction_details: 'Severe nausea after general anesthesia',
    has_previous_surgeries: true,
    surgery_details: 'Hip replacement (2019)',
    organ_donor: true,
    emergency_contacts: [
      { name: 'Daniel Rivers', relationship: 'Son', phone_number: '+1 555 010 0199', is_primary: true, has_medical_power: true },
      { name: 'Maria Costa', relationship: 'Neighbour', phone_number: '+1 555 010 0123' },
    ],
    healthcare_providers: [{ provider_name: 'Dr. Helen Park', specialty: 'Cardiology', phone_number: '+1 555 010 0456', is_primary: true }],
    medications: [
      { medication_name: 'Apixaban', dosage: '5 mg', frequency: 'Twice daily', is_current: true },
      { medication_name: 'Metformin', dosage: '1000 mg', frequency: 'Twice daily', is_current: true },
      { medication_name: 'Tiotropium inhaler', dosage: '18 mcg', frequency: 'Daily', is_current: true },
      { medication_name: 'Metoprolol succinate', dosage: '50 mg', frequency: 'Daily', is_current: true },
    ],
  });
}

async function setUpCodeViaApi(page: Page, pin: string): Promise<string> {
  const body = await apiCall(page, 'POST', '/api/user/wearable-qr', { pin });
  const shareId = body.share_id;
  if (typeof shareId !== 'string') throw new Error('No share id in the set-up answer.');
  return `/emergency/${shareId}`;
}

async function enterPin(page: Page, pin: string, label = 'PIN', button = 'View Medical Information'): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(pin);
  await page.getByRole('button', { name: button }).click();
}

/** The element's bottom edge lies inside the first screen of the viewport (no scrolling). */
async function expectInFirstScreen(locator: Locator, what: string): Promise<void> {
  await expectVisible(locator);
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} has no box.`);
  expect(box.y, what).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what} ends at ${box.y + box.height}px`).toBeLessThanOrEqual(PHONE.height);
}

describe('emergency page', () => {
  test('on a phone, the critical facts and the call button fill the first screen after the PIN, in English and in Spanish', async () => {
    const owner = await newPage(DESKTOP);
    await signUpAndLogIn(owner);
    await fillFullProfile(owner);
    const path = await setUpCodeViaApi(owner, '4826');

    const phone = await newPage(PHONE);
    await open(phone, path);
    await expectVisible(phone.getByRole('heading', { level: 1, name: 'Medical Information Access' }));
    expect(await phone.locator('html').getAttribute('lang')).toBe('en');
    await expectNoA11yViolations(phone, 'emergency page (PIN prompt, phone)');
    await screenshot(phone, 'emergency-page-pin-phone');

    await enterPin(phone, '4826');
    const summary = phone.getByRole('region', { name: 'Critical information' });
    await expectVisible(summary);
    await expectInFirstScreen(summary.getByTestId('critical-name'), 'name and age');
    await expectInFirstScreen(summary.getByText(/\b\d{1,3} years$/), 'age');
    await expectInFirstScreen(summary.getByTestId('critical-blood-type'), 'blood type');
    await expectInFirstScreen(summary.getByTestId('critical-allergies'), 'allergies');
    await expectInFirstScreen(summary.getByTestId('critical-conditions'), 'chronic conditions');
    await expectInFirstScreen(summary.getByTestId('critical-bleeding'), 'bleeding disorder');
    await expectInFirstScreen(summary.getByTestId('critical-medications'), 'medication names');
    await expectInFirstScreen(summary.getByTestId('critical-language'), 'primary language');
    const call = summary.getByRole('link', { name: 'Call Daniel Rivers (Son)' });
    await expectInFirstScreen(call, 'call button');
    expect(await call.getAttribute('href')).toBe('tel:+15550100199');
    await expectVisible(summary.getByText('Apixaban, Metformin, Tiotropium inhaler, Metoprolol succinate'));
    await expectVisible(summary.getByText(/^Last updated /));
    for (const section of [
      'Priority Medical Information',
      'Patient Information',
      'Medical Conditions',
      'Current Medications',
      'Contact Information',
      'Medical Directives',
    ]) {
      await expectVisible(phone.getByRole('heading', { level: 2, name: section }));
    }
    await expectNoA11yViolations(phone, 'emergency page (information, phone)');
    await screenshot(phone, 'emergency-page-info-phone');
    // What the responder sees without scrolling.
    await phone.screenshot({ path: fileURLToPath(new URL('../screenshots/emergency-page-first-screen-phone.png', import.meta.url)) });

    // A Spanish-speaking responder's phone.
    const spanish = await newPage(PHONE, { locale: 'es-ES' });
    await open(spanish, path);
    await expectVisible(spanish.getByRole('heading', { level: 1, name: 'Acceso a la información médica' }));
    expect(await spanish.locator('html').getAttribute('lang')).toBe('es');
    await expectNoA11yViolations(spanish, 'emergency page (PIN prompt, Spanish)');
    await enterPin(spanish, '4826', 'PIN', 'Ver información médica');
    await expectVisible(spanish.getByRole('heading', { level: 2, name: 'Información médica prioritaria' }));
    const resumen = spanish.getByRole('region', { name: 'Información crítica' });
    await expectInFirstScreen(resumen.getByRole('link', { name: 'Llamar a Daniel Rivers (Son)' }), 'call button (Spanish)');
    await expectInFirstScreen(resumen.getByTestId('critical-medications'), 'medication names (Spanish)');
    await expectNoA11yViolations(spanish, 'emergency page (information, Spanish)');
    await screenshot(spanish, 'emergency-page-info-phone-es');

    // The switcher: Simplified Chinese, with <html lang> to match.
    await spanish.getByLabel('Idioma').selectOption('zh-Hans');
    await expectVisible(spanish.getByRole('heading', { level: 2, name: '优先医疗信息' }));
    expect(await spanish.locator('html').getAttribute('lang')).toBe('zh-Hans');
    await expectNoA11yViolations(spanish, 'emergency page (information, Chinese)');

    const desktop = await newPage(DESKTOP);
    await open(desktop, path);
    await enterPin(desktop, '4826');
    await expectVisible(desktop.getByRole('region', { name: 'Critical information' }));
    await screenshot(desktop, 'emergency-page-info-desktop');
  });

  test('an opted-in code shows its essentials above the PIN prompt, and a locked PIN says to call the local emergency number', async () => {
    const owner = await newPage(DESKTOP);
    await signUpAndLogIn(owner);
    await fillFullProfile(owner);
    const path = await setUpCodeViaApi(owner, '4826');
    await apiCall(owner, 'PUT', '/api/user/wearable-qr/settings', { essentials_without_pin: true });

    const phone = await newPage(PHONE);
    await open(phone, path);
    const summary = phone.getByRole('region', { name: 'Critical information' });
    await expectVisible(summary.getByRole('heading', { name: 'Essential information' }));
    await expectInFirstScreen(summary.getByRole('link', { name: 'Call Daniel Rivers' }), 'call button above the PIN');
    await expectVisible(phone.getByRole('heading', { level: 1, name: 'Medical Information Access' }));
    await expectNoA11yViolations(phone, 'emergency page (essentials and PIN prompt, phone)');
    await screenshot(phone, 'emergency-page-essentials-phone');

    // A bystander's five wrong PINs lock the PIN; the essentials stay.
    for (const left of [
      '4 attempts remaining.',
      '3 attempts remaining.',
      '2 attempts remaining.',
      '1 attempt remaining.',
      'No attempts left: access is paused for a while.',
    ]) {
      await enterPin(phone, '1111');
      await expectVisible(phone.getByText(left));
    }
    await phone.reload();
    await expectVisible(phone.getByRole('alert').getByText('If this is an emergency, call your local emergency number now.'));
    await expectVisible(summary.getByText('Penicillin and amoxicillin (anaphylaxis), sulfa drugs (hives), latex, shellfish'));
    await expectNoA11yViolations(phone, 'emergency page (essentials, PIN locked, phone)');
    await screenshot(phone, 'emergency-page-essentials-locked-phone');
  });

  test('"NKDA" is no allergy alert, and a problem marked resolved is not among the chronic conditions; one in remission is (issue 30)', async () => {
    const owner = await newPage(DESKTOP);
    await signUpAndLogIn(owner);
    await apiCall(owner, 'PUT', '/api/user/updateProfile', {
      name: 'Robin Hale',
      date_of_birth: '1971-05-06',
      has_allergies: true,
      allergy_details: 'NKDA',
      has_chronic_conditions: true,
      chronic_condition_details: 'Asthma\nPneumonia (resolved)\nLeukemia (in remission)',
      emergency_contacts: [{ name: 'Sam Hale', relationship: 'Partner', phone_number: '+1 555 010 0177', is_primary: true }],
    });
    const path = await setUpCodeViaApi(owner, '4826');
    await apiCall(owner, 'PUT', '/api/user/wearable-qr/settings', { essentials_without_pin: true });

    const phone = await newPage(PHONE);
    await open(phone, path);
    const summary = phone.getByRole('region', { name: 'Critical information' });
    await expectVisible(summary.getByRole('heading', { name: 'Essential information' }));
    const conditions = summary.getByTestId('critical-conditions');
    await expectVisible(conditions);
    // Each line of a multi-line detail keeps its own line, in the first HTML and in the browser.
    expect(await conditions.innerText()).toContain('Asthma\nLeukemia (in remission)');
    expect(await (await phone.request.get(path)).text()).toContain(
      '<span class="block">Asthma</span><span class="block">Leukemia (in remission)</span>',
    );
    expect(await summary.innerText()).not.toContain('Pneumonia');
    expect(await summary.getByTestId('critical-allergies').count()).toBe(0);
    await screenshot(phone, 'emergency-page-multiline-essentials-phone');

    await enterPin(phone, '4826');
    await expectVisible(phone.getByText('No allergies, anesthesia reactions or bleeding disorders recorded.'));
    const main = phone.getByRole('main');
    expect(await main.innerText()).not.toContain('NKDA');
    expect(await main.innerText()).not.toContain('Pneumonia');
    await expectVisible(phone.getByRole('region', { name: 'Medical Conditions' }).getByText(/Leukemia \(in remission\)/));
    expect(await phone.getByRole('region', { name: 'Medical Conditions' }).innerText()).toContain('Asthma\nLeukemia (in remission)');
    await expectNoA11yViolations(phone, 'emergency page (none known allergies, problems over, phone)');
    await screenshot(phone, 'emergency-page-problems-allergies-phone');
  });

  test('the first HTML already holds the PIN prompt and the essentials, styled inline, and the app’s bundle is never loaded', async () => {
    const owner = await newPage(DESKTOP);
    await signUpAndLogIn(owner);
    await fillFullProfile(owner);
    const path = await setUpCodeViaApi(owner, '4826');
    await apiCall(owner, 'PUT', '/api/user/wearable-qr/settings', { essentials_without_pin: true });

    // The raw response, as a phone receives it before any script runs.
    const phone = await newPage(PHONE, { locale: 'es-ES' });
    const raw = await phone.request.get(path, { headers: { 'Accept-Language': 'es-ES,es;q=0.9' } });
    expect(raw.status()).toBe(200);
    expect(raw.headers()['cache-control']).toBe('no-store');
    const html = await raw.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<style>');
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toContain('Acceso a la información médica');
    expect(html).toContain('Apixaban');
    expect(html).toContain('href="tel:+15550100199"');
    expect(html).not.toMatch(/src="\/assets\/index-/);

    // In the browser: no request for the app's own bundle or stylesheet, and one lookup fewer
    // than before — the server's answer is used as it is.
    const assets: string[] = [];
    const apiCalls: string[] = [];
    phone.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/')) assets.push(pathname);
      if (pathname.startsWith('/api/')) apiCalls.push(pathname);
    });
    await open(phone, path);
    await expectVisible(phone.getByRole('heading', { level: 1, name: 'Acceso a la información médica' }));
    expect(assets.length).toBeGreaterThan(0);
    expect(
      assets.every((a) => a.startsWith('/assets/emergency-')),
      assets.join(', '),
    ).toBe(true);
    expect(apiCalls).toEqual([]);
    // The hydrated page works: the PIN opens the rest.
    await enterPin(phone, '4826', 'PIN', 'Ver información médica');
    await expectVisible(phone.getByRole('heading', { level: 2, name: 'Información médica prioritaria' }));
    await expectNoA11yViolations(phone, 'emergency page (information after hydration, Spanish)');

    // With scripts off, the essentials and the PIN prompt are still there to read.
    const context = await phone
      .context()
      .browser()!
      .newContext({ baseURL: new URL(phone.url()).origin, viewport: PHONE, javaScriptEnabled: false, locale: 'en-US' });
    const noScript = await context.newPage();
    await noScript.goto(path);
    await expectVisible(noScript.getByRole('heading', { name: 'Essential information' }));
    await expectVisible(noScript.getByRole('heading', { level: 1, name: 'Medical Information Access' }));
    await screenshot(noScript, 'emergency-page-first-html-phone');
    await context.close();
  });
});
