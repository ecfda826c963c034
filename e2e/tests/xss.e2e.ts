import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP, PHONE, apiCall, expectVisible, newPage, open, signUpAndLogIn, useBrowser } from '../lib/browser';

useBrowser();

// DESIGN §5, bad input at scale: text is stored exactly as sent (apps/server/test/fuzz.test.ts) and
// the UI renders it as text, never as markup — on the owner's dashboard and on the public
// emergency page a stranger opens with the PIN.

const NAME = '<img src=x onerror=alert(1)>';
const ALLERGY = '<script>alert(2)</script>';
const CONTACT = '"><svg onload=alert(3)>';
const PIN = '4826';

/** Every dialog a page opens (alert, confirm, prompt): any at all means injected script ran. */
function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

/**
 * The elements the markup would have made, had it been parsed. This is the main check: the CSP
 * (no inline script, DESIGN §5) would stop an injected onerror from ever opening a dialog.
 */
async function expectNoInjectedElements(page: Page): Promise<void> {
  const injected = await page.locator('img[src="x"], img[onerror], script:has-text("alert(2)"), svg[onload]').count();
  expect(injected, `user text became ${injected} element(s) on ${new URL(page.url()).pathname}`).toBe(0);
}

describe('user text is shown as text', () => {
  test('a profile named <img src=x onerror=alert(1)> shows literally on the dashboard and the emergency page, and no script runs', async () => {
    const owner = await newPage(DESKTOP);
    const ownerDialogs = recordDialogs(owner);
    await signUpAndLogIn(owner);
    await apiCall(owner, 'PUT', '/api/user/updateProfile', {
      name: NAME,
      date_of_birth: '1980-03-04',
      has_allergies: true,
      allergy_details: ALLERGY,
      emergency_contacts: [{ name: CONTACT, relationship: 'Sibling', phone_number: '555-0199', is_primary: true }],
    });
    const qr = await apiCall(owner, 'POST', '/api/user/wearable-qr', { pin: PIN });
    expect(qr.share_id).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await open(owner, '/dashboard');
    await expectVisible(owner.getByText(NAME, { exact: true }));
    await expectVisible(owner.getByText(ALLERGY, { exact: true }));
    await expectNoInjectedElements(owner);

    // A first responder's phone: a fresh browser context, no session.
    const stranger = await newPage(PHONE);
    const strangerDialogs = recordDialogs(stranger);
    await open(stranger, `/emergency/${String(qr.share_id)}`);
    await stranger.getByLabel('PIN', { exact: true }).fill(PIN);
    await stranger.getByRole('button', { name: 'View Medical Information' }).click();
    await expectVisible(stranger.getByText(NAME, { exact: true }));
    await expectVisible(stranger.getByText(ALLERGY, { exact: true }));
    await expectVisible(stranger.getByText(CONTACT, { exact: true }));
    await expectNoInjectedElements(stranger);

    // An injected image that failed to load would fire onerror: wait until every image has
    // finished, loaded or broken, and one more round trip has let its events run.
    await stranger.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
    await stranger.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(ownerDialogs).toEqual([]);
    expect(strangerDialogs).toEqual([]);
  });
});
