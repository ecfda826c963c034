import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectHidden,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';

useBrowser();

// Issue 30 #25 and #28 (docs/decisions/0037): a pet has its own fields and its own emergency page;
// the member editor offers the add form's relationships and keeps the stored one.

const PIN = '4826';

/** The member's stored values, from the API the page itself uses. */
async function storedMember(page: Page, name: string): Promise<Record<string, unknown> & { id: string }> {
  const members = (await (await page.request.get('/api/user/family/members')).json()) as ({ id: string; name: string | null } & Record<
    string,
    unknown
  >)[];
  const found = members.find((m) => m.name === name);
  if (!found) throw new Error(`No member named ${name}`);
  return found;
}

describe('pets', () => {
  for (const [viewport, label] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    test(`an owner adds a pet with its species, microchip and vet, sees a pet's fields on the dashboard and in the editor, and a responder sees the pet's emergency page (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      // The owner's own name and phone: what the pet's emergency page offers to call.
      await apiCall(page, 'PUT', '/api/user/updateProfile', { name: 'Jordan Rivers', phone_number: '+1 555 0100' });

      // Settings → Family Members → Add Member, "This is a pet": the pet's fields appear.
      await open(page, '/settings?tab=family');
      await page.getByRole('button', { name: 'Add Member', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
      await dialog.getByLabel('Name', { exact: true }).fill('Rex');
      await dialog.getByLabel('Date of Birth').fill('2019-05-01');
      await dialog.getByLabel('Relationship', { exact: true }).selectOption('other');
      await expectHidden(dialog.getByLabel('Species'));
      await dialog.getByLabel('This is a pet').check();
      await dialog.getByLabel('Species').fill('Dog');
      await dialog.getByLabel('Breed').fill('Border Collie');
      await dialog.getByLabel('Microchip Number').fill('985 112 003 456 789');
      await dialog.getByLabel('Vet Name').fill('Riverside Vets');
      await dialog.getByLabel('Vet Phone').fill('+1 555 0142');
      await expectNoA11yViolations(page, `Add Family Member with pet fields (${label})`);
      await screenshot(page, `pets-add-dialog-${label}`);
      await dialog.getByRole('button', { name: 'Add Member' }).click();
      await expectHidden(dialog);
      const rex = await storedMember(page, 'Rex');
      expect(rex).toMatchObject({
        is_pet: true,
        species: 'Dog',
        breed: 'Border Collie',
        microchip_number: '985 112 003 456 789',
        vet_name: 'Riverside Vets',
        vet_phone: '+1 555 0142',
      });

      // The dashboard's Basic Info is a pet's: species, microchip and vet, no blood type.
      await open(page, `/dashboard?member=${rex.id}`);
      const info = page.getByRole('region', { name: 'Profile Information' });
      await expectVisible(info.getByText('Border Collie'));
      await expectVisible(info.getByText('985 112 003 456 789'));
      await expectVisible(info.getByRole('link', { name: '+1 555 0142' }));
      await expectHidden(info.getByText('Blood Type'));
      await expectNoA11yViolations(page, `dashboard for a pet (${label})`);
      await screenshot(page, `pets-dashboard-${label}`);

      // The editor: the pet's fields, none of the human-only ones; the relationship as it was added.
      await open(page, `/edit-family-member/${rex.id}`);
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Edit Family Member' }));
      expect(await page.getByLabel('Species').inputValue()).toBe('Dog');
      expect(await page.getByLabel('Relationship', { exact: true }).inputValue()).toBe('other');
      await expectHidden(page.getByLabel('Blood Type'));
      await screenshot(page, `pets-edit-basic-${label}`);
      await page.getByRole('tab', { name: 'Additional Information' }).click();
      await expectVisible(page.getByLabel('Vision impairment'));
      for (const human of ['Organ donor', 'Advance directives', 'Living will', 'Religious Restrictions', 'Primary Language']) {
        await expectHidden(page.getByLabel(human));
      }
      await expectNoA11yViolations(page, `Edit Family Member for a pet (${label})`);
      await screenshot(page, `pets-edit-additional-${label}`);
      await page.getByRole('tab', { name: 'Basic Information' }).click();
      await page.getByLabel('Vet Phone').fill('+1 555 0199');
      await page.getByRole('button', { name: 'Update Family Member' }).click();
      await expectPath(page, '/dashboard');
      expect(await storedMember(page, 'Rex')).toMatchObject({
        relationship: 'other',
        vet_phone: '+1 555 0199',
        organ_donor: false,
        blood_type: null,
      });

      // A responder opens the pet's code on a phone.
      const code = await apiCall(page, 'POST', `/api/user/family/members/${rex.id}/qr`, { pin: PIN, essentials_without_pin: true });

      // Whoever finds the pet, without the PIN: the essentials say it is a pet and what it is, with no blood type.
      const finder = await newPage(viewport);
      await open(finder, `/family/emergency/${String(code.share_id)}`);
      const essentials = finder.getByRole('region', { name: 'Critical information' });
      await expectVisible(essentials.getByRole('heading', { name: 'Essential information' }));
      await expectVisible(essentials.getByText('This profile is for a pet.'));
      expect(await essentials.getByTestId('critical-species').textContent()).toContain('Dog');
      await expectHidden(essentials.getByTestId('critical-blood-type'));
      expect((await essentials.textContent()) ?? '', 'no blood type without the PIN').not.toContain('Blood Type');
      await expectVisible(finder.getByLabel('PIN', { exact: true }));
      await expectNoA11yViolations(finder, `pet essentials without the PIN (${label})`);
      await screenshot(finder, `pets-emergency-essentials-${label}`);

      const responder = await newPage(PHONE);
      await open(responder, `/family/emergency/${String(code.share_id)}`);
      await responder.getByLabel('PIN', { exact: true }).fill(PIN);
      await responder.getByRole('button', { name: 'View Medical Information' }).click();
      // The essentials above the PIN prompt give way to the whole page.
      await expectVisible(responder.getByRole('region', { name: 'Patient Information' }));
      const summary = responder.getByRole('region', { name: 'Critical information' });
      await expectVisible(summary.getByTestId('critical-species'));
      expect(await summary.getByTestId('critical-species').textContent()).toContain('Dog, Border Collie');
      // No primary contact of its own: the big button calls the owner.
      expect(await summary.getByRole('link', { name: 'Call Jordan Rivers (Owner)' }).getAttribute('href')).toBe('tel:+15550100');
      const contact = responder.getByRole('region', { name: 'Contact Information' });
      expect(await contact.getByRole('link', { name: 'Call Riverside Vets at +1 555 0199' }).getAttribute('href')).toBe('tel:+15550199');
      await expectVisible(responder.getByRole('region', { name: 'Patient Information' }).getByText('985 112 003 456 789'));
      const text = (await responder.locator('body').textContent()) ?? '';
      for (const human of ['Organ Donor', 'Blood Type', 'Medical Directives', 'Living Will', 'Religious Restrictions'])
        expect(text, human).not.toContain(human);
      await expectNoA11yViolations(responder, 'emergency page for a pet');
      await screenshot(responder, `pets-emergency-page-${label}`);
    });
  }

  test('the member editor offers the add form’s relationships, and saving without a change keeps the stored one', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    await apiCall(page, 'POST', '/api/user/family/add', { name: 'Carol', date_of_birth: '2012-09-15', relationship: 'child' });
    await apiCall(page, 'POST', '/api/user/family/add', { name: 'Nana', date_of_birth: '1950-02-01', relationship: 'Grandma' });

    for (const [name, relationship, shown] of [
      ['Carol', 'child', 'Child'],
      ['Nana', 'Grandma', 'Grandma'],
    ] as const) {
      const member = await storedMember(page, name);
      await open(page, `/edit-family-member/${member.id}`);
      const select = page.getByLabel('Relationship', { exact: true });
      await expectVisible(select);
      expect(await select.inputValue()).toBe(relationship);
      expect(await select.locator('option:checked').textContent()).toBe(shown);
      expect(await select.locator('option').allTextContents()).toEqual([
        'Select relationship',
        'Spouse',
        'Child',
        'Parent',
        'Sibling',
        'Other',
        ...(shown === 'Child' ? [] : [shown]),
      ]);
      await page.getByRole('button', { name: 'Update Family Member' }).click();
      await expectPath(page, '/dashboard');
      expect((await storedMember(page, name)).relationship).toBe(relationship);
    }
    await open(page, `/edit-family-member/${(await storedMember(page, 'Nana')).id}`);
    await expectVisible(page.getByLabel('Relationship', { exact: true }));
    await screenshot(page, 'pets-relationship-kept-desktop');
  });
});
