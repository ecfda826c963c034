import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectHidden,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';

useBrowser();

// SPEC §2 Settings (Personal QR Code, Family QR Codes), Notifications, Emergency page states;
// §4 QR code per person, Notifications, Emergency page flow; DESIGN §7.

const SECTIONS = [
  'Priority Medical Information',
  'Patient Information',
  'Medical Conditions',
  'Current Medications',
  'Contact Information',
  'Medical Directives',
];

/** A profile with something in every emergency section. */
async function fillOwnProfile(page: Page): Promise<void> {
  await apiCall(page, 'PUT', '/api/user/updateProfile', {
    name: 'Jordan Rivers',
    date_of_birth: '1980-03-04',
    blood_type: 'O-',
    height: 170,
    weight: 70,
    primary_language: 'English',
    has_allergies: true,
    allergy_details: 'Penicillin',
    had_anesthesia_reactions: true,
    anesthesia_reaction_details: 'Malignant hyperthermia',
    has_chronic_conditions: true,
    chronic_condition_details: 'Type 1 diabetes',
    organ_donor: true,
    address: '12 Secret Lane',
    emergency_contacts: [{ name: 'Sam Rivers', relationship: 'Spouse', phone_number: '555-0199', is_primary: true }],
    medications: [{ medication_name: 'Warfarin', dosage: '5 mg', frequency: 'Daily', is_current: true }],
  });
}

/** Records every API call the page makes, to prove the public page never asks about a session. */
function recordApiCalls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) urls.push(url.pathname);
  });
  return urls;
}

/** Sets up a code in a QR panel with `pin` and returns the path of its link. */
async function setUpCode(page: Page, panelName: string, pin: string): Promise<string> {
  const panel = page.getByRole('region', { name: panelName });
  const input = panel.getByLabel('Choose a 4-digit PIN');
  const button = panel.getByRole('button', { name: 'Set Up QR Code' });
  await input.fill('48');
  expect(await button.isDisabled()).toBe(true);
  // SPEC §5: anything but digits is dropped as it is typed, and there are never more than 4.
  await input.fill('');
  await input.pressSequentially(`${pin.slice(0, 2)}x-${pin.slice(2)}9`);
  expect(await input.inputValue()).toBe(pin);
  // Issue 30: the set-up asks plainly whether the essentials may show without the PIN, and waits for the answer.
  const question = panel.getByRole('radiogroup', { name: 'Show the essentials without the PIN?' });
  await expectVisible(question.getByText(/Recommended for wristbands and lock screens/));
  await button.click();
  await expectVisible(panel.getByText('Choose whether the essentials may show without the PIN.'));
  const size = (page.viewportSize()?.width ?? 0) < 600 ? 'phone' : 'desktop';
  await expectNoA11yViolations(page, `/settings (QR set-up question, ${size})`);
  await screenshot(page, `qr-setup-question-${size}`);
  await question.getByRole('radio', { name: /^No, show nothing/ }).check();
  await button.click();
  await expectVisible(panel.getByText('QR code set up successfully'));
  await expectVisible(panel.getByRole('img', { name: /QR code linking to/ }));
  const href = await panel.getByRole('link', { name: /\/emergency\// }).getAttribute('href');
  if (!href) throw new Error('The QR panel shows no link.');
  return new URL(href).pathname;
}

async function enterPin(page: Page, pin: string): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'View Medical Information' }).click();
}

/** Pastes `text` into an emptied field through the real clipboard, as a person would with Ctrl+V. */
async function pastePin(input: Locator, text: string): Promise<void> {
  await input.fill('');
  await input.focus();
  await input.page().evaluate(async (t) => navigator.clipboard.writeText(t), text);
  await input.press('ControlOrMeta+V');
}

describe('emergency access', () => {
  test('a stranger with the link needs the PIN, sees every section with it, and the owner hears about it', async () => {
    const owner = await newPage(DESKTOP);
    await signUpAndLogIn(owner);
    await fillOwnProfile(owner);

    await open(owner, '/settings');
    await expectVisible(owner.getByRole('heading', { name: 'Personal QR Code' }));
    await expectNoA11yViolations(owner, '/settings (no QR code yet)');
    const path = await setUpCode(owner, 'Personal QR Code', '4826');
    expect(path).toMatch(/^\/emergency\/[A-Za-z0-9_-]{43}$/);
    await expectVisible(owner.getByText('••••'));
    await expectNoA11yViolations(owner, '/settings (active QR code)');
    await screenshot(owner, 'settings-qr-desktop');

    // A first responder's phone: a fresh browser, no session.
    const stranger = await newPage(PHONE);
    const apiCalls = recordApiCalls(stranger);
    await open(stranger, path);
    await expectVisible(stranger.getByRole('heading', { level: 1, name: 'Medical Information Access' }));
    await expectHidden(stranger.getByText('Jordan Rivers'));
    await expectNoA11yViolations(stranger, 'emergency page (PIN entry, phone)');
    await screenshot(stranger, 'emergency-pin-phone');

    await enterPin(stranger, '1357');
    await expectVisible(stranger.getByRole('alert').getByText('Invalid PIN'));
    await expectVisible(stranger.getByText('4 attempts remaining.'));
    await expectNoA11yViolations(stranger, 'emergency page (wrong PIN, phone)');
    await screenshot(stranger, 'emergency-wrong-pin-phone');

    await enterPin(stranger, '4826');
    for (const section of SECTIONS) await expectVisible(stranger.getByRole('heading', { level: 2, name: section }));
    await expectVisible(stranger.getByText('Penicillin'));
    await expectVisible(stranger.getByText('Malignant hyperthermia'));
    await expectVisible(stranger.getByText('Warfarin'));
    await expectVisible(stranger.getByRole('link', { name: 'Call Sam Rivers at 555-0199' }));
    expect(await stranger.locator('body').textContent()).not.toContain('12 Secret Lane');
    expect(await stranger.locator('body').textContent()).not.toContain(path.split('/').pop());
    await expectNoA11yViolations(stranger, 'emergency page (information, phone)');
    await screenshot(stranger, 'emergency-info-phone');
    expect(apiCalls.some((p) => p.startsWith('/api/auth/'))).toBe(false);
    expect(await stranger.getByRole('banner').count()).toBe(0);
    expect(await stranger.getByRole('contentinfo').count()).toBe(0);

    // The owner sees the access, marks it read and hides it.
    await open(owner, '/notifications');
    const access = owner.getByRole('article', { name: 'Emergency information accessed' });
    await expectVisible(access);
    await expectVisible(owner.getByRole('link', { name: /^Notifications, [1-9]\d* unread$/ }));
    await expectNoA11yViolations(owner, '/notifications');
    await screenshot(owner, 'notifications-desktop');
    await access.getByRole('button', { name: 'Mark as read' }).click();
    await expectVisible(access.getByRole('button', { name: 'Mark as unread' }));
    await expect.poll(() => access.getAttribute('data-tone')).toBe('read');
    await access.getByRole('button', { name: 'Hide' }).click();
    await expectHidden(owner.getByRole('article', { name: 'Emergency information accessed' }));
    await owner.reload({ waitUntil: 'networkidle' });
    await expectVisible(owner.getByRole('article', { name: 'Emergency QR code set up' }));
    await expectHidden(owner.getByRole('article', { name: 'Emergency information accessed' }));

    // Deactivated: the code and link disappear, and the link leads nowhere.
    await open(owner, '/settings');
    const panel = owner.getByRole('region', { name: 'Personal QR Code' });
    await panel.getByRole('button', { name: 'Deactivate' }).click();
    // Issue 30: it asks first, naming what stops working.
    const confirm = owner.getByRole('alertdialog', { name: 'Deactivate your QR code?' });
    await expectVisible(confirm.getByText(/Printed cards, wristbands, lock-screen images and its SMART Health Link stop working/));
    await expectNoA11yViolations(owner, '/settings (deactivate QR code?, desktop)');
    await screenshot(owner, 'qr-deactivate-confirm-desktop');
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await expectVisible(panel.getByRole('button', { name: 'Activate' }));
    await expectHidden(panel.getByRole('link', { name: /\/emergency\// }));
    await expectHidden(panel.getByRole('img'));

    await open(stranger, path);
    await expectVisible(stranger.getByRole('alert').getByText('QR code not found or inactive'));
    await expectNoA11yViolations(stranger, 'emergency page (not found, phone)');
    await screenshot(stranger, 'emergency-not-found-phone');
  });

  test('a family member’s code opens through the family route', async () => {
    const owner = await newPage(PHONE);
    await signUpAndLogIn(owner);
    await apiCall(owner, 'POST', '/api/user/family/add', { name: 'Rex', date_of_birth: '2018-05-01', relationship: 'other', is_pet: true });

    await open(owner, '/settings');
    const tab = owner.getByRole('tab', { name: 'Family QR Codes' });
    if ((await tab.count()) > 0) await tab.click();
    await expectVisible(owner.getByRole('region', { name: 'QR Code for Rex' }));
    const path = await setUpCode(owner, 'QR Code for Rex', '7314');
    expect(path).toMatch(/^\/family\/emergency\/[A-Za-z0-9_-]{43}$/);
    await expectNoA11yViolations(owner, '/settings (family QR codes, phone)');
    await screenshot(owner, 'settings-family-qr-phone');

    const stranger = await newPage(DESKTOP);
    await open(stranger, path);
    await expectVisible(stranger.getByRole('heading', { level: 1, name: 'Medical Information Access' }));
    await screenshot(stranger, 'emergency-pin-desktop');
    await enterPin(stranger, '7314');
    await expectVisible(stranger.getByText('This profile is for a pet.'));
    // A pet's page has every section but Medical Directives (docs/decisions/0037).
    for (const section of SECTIONS.filter((s) => s !== 'Medical Directives')) {
      await expectVisible(stranger.getByRole('heading', { level: 2, name: section }));
    }
    await expectHidden(stranger.getByRole('heading', { level: 2, name: 'Medical Directives' }));
    await expectVisible(stranger.getByText('Not Provided'));
    await expectNoA11yViolations(stranger, 'emergency page (family member, desktop)');
    await screenshot(stranger, 'emergency-info-desktop');

    // The person's own route does not answer a member's code, but the page falls back to the family route.
    await open(stranger, path.replace('/family', ''));
    await expectVisible(stranger.getByRole('heading', { level: 1, name: 'Medical Information Access' }));

    await open(owner, '/notifications');
    await expectVisible(owner.getByRole('article', { name: 'Emergency information accessed' }));
    await screenshot(owner, 'notifications-phone');
  });

  test('a PIN pasted with separators or extra characters keeps its digits, then the first four, on every PIN field', async () => {
    const owner = await newPage(DESKTOP);
    await signUpAndLogIn(owner);
    await owner.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await open(owner, '/settings');
    const panel = owner.getByRole('region', { name: 'Personal QR Code' });
    const setUp = panel.getByLabel('Choose a 4-digit PIN');
    await pastePin(setUp, '48-26');
    expect(await setUp.inputValue()).toBe('4826');
    await panel.getByRole('radio', { name: /^No, show nothing/ }).check();
    await panel.getByRole('button', { name: 'Set Up QR Code' }).click();
    await expectVisible(panel.getByText('QR code set up successfully'));
    const href = await panel.getByRole('link', { name: /\/emergency\// }).getAttribute('href');
    if (!href) throw new Error('The QR panel shows no link.');

    const update = panel.getByLabel('New PIN');
    await pastePin(update, '59ab3712');
    expect(await update.inputValue()).toBe('5937');
    await expectNoA11yViolations(owner, '/settings (pasted new PIN, desktop)');
    await screenshot(owner, 'settings-pasted-pin-desktop');

    const stranger = await newPage(PHONE);
    await stranger.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await open(stranger, new URL(href).pathname);
    const pin = stranger.getByLabel('PIN', { exact: true });
    await pastePin(pin, '12ab3456');
    expect(await pin.inputValue()).toBe('1234');
    await pastePin(pin, '48-26');
    expect(await pin.inputValue()).toBe('4826');
    await expectNoA11yViolations(stranger, 'emergency page (pasted PIN, phone)');
    await screenshot(stranger, 'emergency-pasted-pin-phone');
    await stranger.getByRole('button', { name: 'View Medical Information' }).click();
    await expectVisible(stranger.getByRole('heading', { level: 2, name: 'Patient Information' }));
  });

  test('an unknown link says "QR code not found or inactive" on a desktop', async () => {
    const stranger = await newPage(DESKTOP);
    await open(stranger, `/emergency/${'Z'.repeat(43)}`);
    await expectVisible(stranger.getByRole('alert').getByText('QR code not found or inactive'));
    await expectNoA11yViolations(stranger, 'emergency page (not found, desktop)');
    await screenshot(stranger, 'emergency-not-found-desktop');
  });
});
