import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  baseUrl,
  expectHidden,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  logInViaUi,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';

useBrowser();

// SPEC §2 Dashboard, Edit profile, Full profile editor, Settings (Account Settings, Family
// Members), Family member dialogs; §4 Dashboard selection and deletion dialogs; §5, §8, §9.

/** Adds a family member through the Settings → Family Members dialog, as a person would. */
async function addMember(page: Page, member: { name: string; dob: string; relationship: string; pet?: boolean }) {
  await page.getByRole('button', { name: 'Add Member', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await dialog.getByLabel('Name', { exact: true }).fill(member.name);
  await dialog.getByLabel('Date of Birth').fill(member.dob);
  await dialog.getByLabel('Relationship').selectOption(member.relationship);
  if (member.pet) await dialog.getByLabel('This is a pet').check();
  await dialog.getByRole('button', { name: 'Add Member' }).click();
  await expectHidden(dialog);
  await expectVisible(page.getByRole('button', { name: `Actions for ${member.name}` }));
}

/** The id of a member, from the API the page itself uses. */
async function memberId(page: Page, name: string): Promise<string> {
  const res = await page.request.get('/api/user/family/members');
  const members = (await res.json()) as { id: string; name: string | null }[];
  const found = members.find((m) => m.name === name);
  if (!found) throw new Error(`No member named ${name}`);
  return found.id;
}

describe('health profiles', () => {
  test('a new user completes their profile and sees it on the dashboard', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);

    // SPEC §2: Finish Profile shows while the profile has no name.
    await page.getByRole('button', { name: 'Finish Profile' }).click();
    await expectPath(page, '/edit-profile');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Complete Your Profile' }));
    await page.getByLabel('Name', { exact: true }).fill('Alice Example');
    await page.getByLabel('Date of Birth').fill('1980-03-04');
    await page.getByLabel('Address').fill('1 Main St, Springfield');
    await page.getByLabel('Phone Number').fill('555-0100');
    await page.getByRole('button', { name: 'Complete Profile' }).click();
    await expectPath(page, '/view-records');

    await open(page, '/dashboard');
    const basic = page.getByRole('region', { name: 'Profile Information' });
    await expectVisible(basic.getByText('Alice Example'));
    await expectVisible(basic.getByText('Mar 4, 1980'));
    await expectVisible(basic.getByText('1 Main St, Springfield'));
    await expectHidden(page.getByRole('button', { name: 'Finish Profile' }));
  });

  test('the full editor: the allergy flag reveals its text area and 5 ft 11 in / 165 lbs survive a reload', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/profile');

    await page.getByLabel('Name', { exact: true }).fill('Alice Example');
    await page.getByLabel('Blood Type').selectOption('O+');
    await page.getByLabel('Feet').fill('5');
    await page.getByLabel('Inches').fill('11');
    await page.getByLabel('Weight (lbs)').fill('165');

    await page.getByRole('tab', { name: 'Medical Conditions' }).click();
    await expectHidden(page.getByLabel('Allergy details'));
    await page.getByRole('checkbox', { name: 'Allergies' }).check();
    await page.getByLabel('Allergy details').fill('Penicillin');
    await expectNoA11yViolations(page, '/profile (Medical Conditions)');

    await page.getByRole('tab', { name: 'Medications' }).click();
    await expect(page.getByRole('checkbox', { name: 'Currently Taking' }).isChecked()).resolves.toBe(true);
    await page.getByLabel('Medication Name').fill('Lisinopril');
    await page.getByLabel('Dosage').fill('10 mg');
    await page.getByRole('button', { name: 'Add Medication' }).click();
    await expectVisible(page.getByText('Medication added successfully!'));

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(page.getByText('Profile updated successfully!'));
    // SPEC §9: the save redirects to /dashboard after 2000 ms.
    await expectPath(page, '/dashboard', 5_000);
    const info = page.getByRole('region', { name: 'Profile Information' });
    await expectVisible(info.getByText('Warning: Allergies'));
    await expectVisible(info.getByText('Lisinopril'));

    await open(page, '/profile');
    await page.reload({ waitUntil: 'networkidle' });
    await expect(page.getByLabel('Feet').inputValue()).resolves.toBe('5');
    await expect(page.getByLabel('Inches').inputValue()).resolves.toBe('11');
    await expect(page.getByLabel('Weight (lbs)').inputValue()).resolves.toBe('165');
    await page.getByRole('tab', { name: 'Medical Conditions' }).click();
    await expect(page.getByLabel('Allergy details').inputValue()).resolves.toBe('Penicillin');
  });

  test('a user cannot save their own emergency contact without a phone, and the emergency page shows the one they save', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/profile');
    await page.getByRole('tab', { name: 'Emergency Contacts' }).click();
    await page.getByLabel('Contact Name').fill('Sam Rivers');
    await page.getByRole('button', { name: 'Add Contact' }).click();
    await expectVisible(page.getByText('Contact phone number is required'));
    await expectNoA11yViolations(page, '/profile (contact without a phone)');
    await screenshot(page, 'profiles-own-contact-needs-phone-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'profiles-own-contact-needs-phone-phone');
    await page.setViewportSize(DESKTOP);
    const stored = async () =>
      ((await (await page.request.get('/api/user/getPatientProfile')).json()) as { emergency_contacts: unknown[] }).emergency_contacts;
    expect(await stored()).toEqual([]);

    await page.getByLabel('Contact Phone Number').fill('555-0188');
    await page.getByRole('button', { name: 'Add Contact' }).click();
    await expectVisible(page.getByText('Emergency contact added successfully!'));
    expect(await stored()).toEqual([expect.objectContaining({ name: 'Sam Rivers', phone_number: '555-0188' })]);

    // What a responder sees with the PIN: the number, not 'Not Provided'.
    const qr = await apiCall(page, 'POST', '/api/user/wearable-qr', { pin: '4826' });
    const responder = await newPage(PHONE);
    await open(responder, `/emergency/${String(qr.share_id)}`);
    await responder.getByLabel('PIN', { exact: true }).fill('4826');
    await responder.getByRole('button', { name: 'View Medical Information' }).click();
    await expectVisible(responder.getByText('Sam Rivers'));
    await expectVisible(responder.getByText('555-0188'));
  });

  test('a pet added in Settings carries a paw marker on the dashboard', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/settings');
    await page.getByRole('tab', { name: 'Family Members' }).click();
    await expectVisible(page.getByText('No family members added'));
    await addMember(page, { name: 'Rex', dob: '2019-06-01', relationship: 'other', pet: true });

    await open(page, '/dashboard');
    const rex = page.getByRole('button', { name: /Rex/ });
    await expectVisible(rex.getByRole('img', { name: 'Pet' }));
    await rex.click();
    // The selection goes through the URL (?member=…): poll until the button shows it.
    await expect.poll(() => rex.getAttribute('aria-pressed')).toBe('true');
    await expectVisible(page.getByRole('region', { name: 'Profile Information' }).getByText('Jun 1, 2019'));
  });

  test('a member is edited through the page route and the dashboard comes back to that member, showing the change', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/settings?tab=family');
    await addMember(page, { name: 'Carol', dob: '2012-09-15', relationship: 'child' });
    const id = await memberId(page, 'Carol');

    await open(page, `/edit-family-member/${id}`);
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Edit Family Member' }));
    await page.getByLabel('Phone Number', { exact: true }).fill('555-0142');
    await page.getByRole('tab', { name: 'Emergency Contacts' }).click();
    await page.getByLabel('Contact Name').fill('Grandma');
    await page.getByLabel('Contact Phone Number').fill('555-0199');
    await page.getByRole('button', { name: 'Add Contact' }).click();
    await expectVisible(page.getByRole('button', { name: 'Remove Grandma' }));
    await page.getByRole('button', { name: 'Update Family Member' }).click();
    await expectPath(page, '/dashboard');

    // The dashboard comes back with Carol selected, not My Profile.
    await expect(page.getByRole('button', { name: 'Carol' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(page.getByRole('button', { name: 'My Profile' }).getAttribute('aria-pressed')).resolves.toBe('false');
    const info = page.getByRole('region', { name: 'Profile Information' });
    await expectVisible(info.getByText('555-0142'));
    await expectVisible(info.getByText('Grandma'));
    await screenshot(page, 'profiles-dashboard-after-member-save-desktop');
    await expectNoA11yViolations(page, '/dashboard?member= after saving a member');
  });

  for (const [viewport, label] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    test(`a member's new contact is kept without pressing Update, and leaving with unsaved fields asks first (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/settings?tab=family');
      await addMember(page, { name: 'Carol', dob: '2012-09-15', relationship: 'child' });
      const id = await memberId(page, 'Carol');

      // Into the editor the way a person goes: the dashboard, Carol, Edit Member.
      await open(page, '/dashboard');
      await page.getByRole('button', { name: 'Carol' }).click();
      await page.getByRole('link', { name: 'Edit Member' }).click();
      await expectPath(page, `/edit-family-member/${id}`);

      // A contact is saved the moment it is added.
      await page.getByRole('tab', { name: 'Emergency Contacts' }).click();
      await page.getByLabel('Contact Name').fill('Grandma');
      await page.getByLabel('Contact Phone Number').fill('555-0199');
      await page.getByRole('button', { name: 'Add Contact' }).click();
      await expectVisible(page.getByText('Emergency contact added successfully!'));
      const stored = async () =>
        ((await (await page.request.get(`/api/user/family/members/${id}`)).json()) as { emergency_contacts: { name: string }[] })
          .emergency_contacts;
      expect((await stored()).map((c) => c.name)).toEqual(['Grandma']);

      // A field typed but not saved: Back asks first.
      await page.getByRole('tab', { name: 'Basic Information' }).click();
      await page.getByLabel('Phone Number', { exact: true }).fill('555-0142');
      await page.goBack();
      const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
      await expectVisible(ask);
      await screenshot(page, `profiles-leave-unsaved-${label}`);
      await expectNoA11yViolations(page, `leave without saving (${label})`);
      await ask.getByRole('button', { name: 'Stay on this page' }).click();
      await expectHidden(ask);
      await expectPath(page, `/edit-family-member/${id}`);
      expect(await page.getByLabel('Phone Number', { exact: true }).inputValue()).toBe('555-0142');

      await page.goBack();
      await ask.getByRole('button', { name: 'Leave without saving' }).click();
      await expectPath(page, '/dashboard');
      // The contact is there although Update Family Member was never pressed; the phone was not saved.
      await page.getByRole('button', { name: 'Carol' }).click();
      const info = page.getByRole('region', { name: 'Profile Information' });
      await expectVisible(info.getByText('Grandma'));
      await expectHidden(info.getByText('555-0142'));
    });
  }

  test('a member is deleted only after confirming', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/settings?tab=family');
    await addMember(page, { name: 'Dana', dob: '1950-01-01', relationship: 'parent' });

    await page.getByRole('button', { name: 'Actions for Dana' }).click();
    await page.getByRole('menuitem', { name: 'Delete Member' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Member' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expectVisible(page.getByRole('button', { name: 'Actions for Dana' }));

    await page.getByRole('button', { name: 'Actions for Dana' }).click();
    await page.getByRole('menuitem', { name: 'Delete Member' }).click();
    await confirm.getByRole('button', { name: 'Delete Member' }).click();
    await expectVisible(page.getByText('No family members added'));
    const res = await page.request.get('/api/user/family/members');
    expect(await res.json()).toEqual([]);
  });

  test('a user changes their password and logs in with the new one', async () => {
    const page = await newPage();
    const user = await signUpAndLogIn(page);
    await open(page, '/settings?tab=account');
    const newPassword = `${user.password}-new`;

    await page.getByLabel('Current Password').fill(user.password);
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expectVisible(page.getByText('New passwords do not match'));

    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expectVisible(page.getByText('Password updated successfully'));

    await page.request.post('/api/auth/logout', { headers: { Origin: baseUrl() } });
    await open(page, '/login');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectPath(page, '/login');
    await logInViaUi(page, { ...user, password: newPassword });
  });

  test('a user deletes their account and cannot log in again', async () => {
    const page = await newPage();
    const user = await signUpAndLogIn(page);
    await open(page, '/settings?tab=account');

    // SPEC §4: a browser confirm, then a password prompt, then deletion and /login.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const prompt = page.getByRole('dialog', { name: 'Delete Account' });
    await prompt.getByLabel('Password').fill(user.password);
    await expectNoA11yViolations(page, '/settings (Delete Account)');
    await prompt.getByRole('button', { name: 'Delete Account' }).click();
    await expectPath(page, '/login');

    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectVisible(page.getByRole('alert'));
    await expectPath(page, '/login');
  });

  for (const [viewport, label] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    test(`every profile screen passes axe (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/settings?tab=family');
      await addMember(page, { name: 'Rex', dob: '2019-06-01', relationship: 'other', pet: true });
      const id = await memberId(page, 'Rex');

      const screens: [string, string][] = [
        ['/dashboard', 'profiles-dashboard'],
        ['/edit-profile', 'profiles-edit-profile'],
        ['/profile', 'profiles-profile'],
        ['/settings?tab=account', 'profiles-settings-account'],
        ['/settings?tab=family', 'profiles-settings-family'],
        [`/edit-family-member/${id}`, 'profiles-edit-member'],
      ];
      for (const [route, name] of screens) {
        await open(page, route);
        await expectNoA11yViolations(page, route);
        await screenshot(page, `${name}-${label}`);
      }

      await open(page, '/settings?tab=family');
      await page.getByRole('button', { name: /^Rex/ }).click();
      await expectVisible(page.getByRole('dialog', { name: 'Edit Family Member' }).getByLabel('Name', { exact: true }));
      await expectNoA11yViolations(page, 'Edit Family Member dialog');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Add Member', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Add Member' }).click();
      await expectVisible(page.getByText('Name is required'));
      await expectNoA11yViolations(page, 'Add Family Member dialog');
    });
  }
});
