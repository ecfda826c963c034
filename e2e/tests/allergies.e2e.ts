import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
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
import type { Viewport } from '../lib/browser';

useBrowser();

// Issue 34 (docs/decisions/0053): allergies are entries — substance, reactions, severity,
// criticality — added on the health records screen; the profile's allergy text is written from
// them, and the emergency page shows the high-criticality ones first, with their reactions.

const panel = (page: Page) => page.getByRole('tabpanel').filter({ visible: true });

async function ownPersonId(page: Page): Promise<string> {
  const res = await page.request.get('/api/user/people');
  const people = (await res.json()) as { id: string; is_self: boolean }[];
  const self = people.find((p) => p.is_self);
  if (!self) throw new Error('No own profile in the people list');
  return self.id;
}

interface NewAllergy {
  substance: string;
  reactions: string[];
  severity: string;
  criticality: string;
}

/** Adds one allergy through the dialog, a reaction a box, and waits for the server's message. */
async function addAllergy(page: Page, allergy: NewAllergy, device: string, picture = false): Promise<void> {
  await panel(page).getByRole('button', { name: 'Add allergy', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add allergy' });
  await expectVisible(dialog);
  await dialog.getByLabel('Substance', { exact: true }).fill(allergy.substance);
  for (const [index, reaction] of allergy.reactions.entries()) {
    if (index > 0) await dialog.getByRole('button', { name: 'Add reaction' }).click();
    await dialog.getByLabel(`Reaction ${index + 1}`, { exact: true }).fill(reaction);
  }
  await dialog.getByLabel('Severity', { exact: true }).selectOption({ label: allergy.severity });
  await dialog.getByLabel('Criticality', { exact: true }).selectOption({ label: allergy.criticality });
  if (picture) {
    await screenshot(page, `allergies-add-${device}`);
    await expectNoA11yViolations(page, `/health-records add allergy (${device})`);
  }
  await dialog.getByRole('button', { name: 'Add allergy', exact: true }).click();
  await expectVisible(page.getByText('Allergy added').first());
  await expectHidden(dialog);
}

describe('allergies', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as [string, Viewport][]) {
    test(`on a ${device}, a patient adds two allergies, the profile shows their text and the emergency page puts the high-criticality one first`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await apiCall(page, 'PUT', '/api/user/updateProfile', { name: 'Jordan Rivers', date_of_birth: '1980-03-04', blood_type: 'O-' });
      const code = await apiCall(page, 'POST', '/api/user/wearable-qr', { pin: '4826' });
      if (typeof code.share_id !== 'string') throw new Error('No share id in the set-up answer.');
      const selfId = await ownPersonId(page);

      await open(page, `/health-records/${selfId}`);
      await page.getByRole('tab', { name: 'Allergies' }).click();
      await expectVisible(panel(page).getByText('No allergies recorded yet.'));

      // The low-criticality one first, so the emergency page's order is its own, not the order of entry.
      await addAllergy(page, { substance: 'Latex', reactions: ['Rash'], severity: 'Mild', criticality: 'Low' }, device);
      await addAllergy(
        page,
        { substance: 'Penicillin', reactions: ['Anaphylaxis', 'Hives'], severity: 'Severe', criticality: 'High' },
        device,
        true,
      );
      const penicillin = panel(page).getByRole('article', { name: 'Penicillin' });
      await expectVisible(penicillin.getByText('High criticality'));
      await expectVisible(penicillin.getByText('Anaphylaxis, Hives'));
      const latex = panel(page).getByRole('article', { name: 'Latex' });
      await expectVisible(latex.getByText('Rash'));
      expect(await latex.getByText('High criticality').count()).toBe(0);

      // An edit: one more reaction for Latex, in the box the dialog adds.
      await latex.getByRole('button', { name: 'Edit Latex' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit allergy' });
      expect(await edit.getByLabel('Reaction 1', { exact: true }).inputValue()).toBe('Rash');
      await edit.getByRole('button', { name: 'Add reaction' }).click();
      await edit.getByLabel('Reaction 2', { exact: true }).fill('Itching');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expectVisible(page.getByText('Allergy updated').first());
      await expectHidden(edit);
      await expectVisible(latex.getByText('Rash, Itching'));
      await page.mouse.move(1, 1);
      await expectHidden(page.getByText(/^Allergy (added|updated)$/), 15_000);
      await screenshot(page, `allergies-list-${device}`);
      await expectNoA11yViolations(page, `/health-records allergies (${device})`);

      // The profile editor shows the allergy text the server wrote from the entries.
      await open(page, '/profile');
      await page.getByRole('tab', { name: 'Medical Conditions' }).click();
      expect(await page.getByRole('checkbox', { name: 'Allergies' }).isChecked()).toBe(true);
      expect(await page.getByLabel('Allergy details').inputValue()).toBe('Latex — Rash, Itching\nPenicillin — Anaphylaxis, Hives');

      // A responder's browser: the PIN, then the allergies, high criticality first, with the reactions.
      const responder = await newPage(viewport);
      await open(responder, `/emergency/${code.share_id}`);
      await responder.getByLabel('PIN', { exact: true }).fill('4826');
      await responder.getByRole('button', { name: 'View Medical Information' }).click();
      const allergies = responder.getByRole('region', { name: 'Critical information' }).getByTestId('critical-allergies');
      await expectVisible(allergies);
      expect((await allergies.locator('dd').innerText()).split('\n')).toEqual([
        'Penicillin — Anaphylaxis, Hives (severe, high criticality)',
        'Latex — Rash, Itching (mild)',
      ]);
      const priority = responder.getByRole('region', { name: 'Priority Medical Information' });
      await expectVisible(priority.getByText('Penicillin — Anaphylaxis, Hives (severe, high criticality)'));
      await expectNoA11yViolations(responder, `emergency page with allergy entries (${device})`);
      await screenshot(responder, `allergies-emergency-page-${device}`);
      // What the responder sees without scrolling.
      await responder.screenshot({
        path: fileURLToPath(new URL(`../screenshots/allergies-emergency-first-screen-${device}.png`, import.meta.url)),
      });
    });
  }
});
