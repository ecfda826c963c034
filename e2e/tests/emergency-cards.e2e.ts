import fs from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
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

// DESIGN §7: the owner's wallet card, QR image and lock-screen image, beside each active code.

async function downloaded(download: Download): Promise<Buffer> {
  const file = await download.path();
  if (!file) throw new Error('The download has no file');
  return fs.readFile(file);
}

async function setUpOwnCode(page: Page): Promise<string> {
  await apiCall(page, 'PUT', '/api/user/updateProfile', { name: 'Jordan Rivers' });
  await open(page, '/settings');
  const panel = page.getByRole('region', { name: 'Personal QR Code' });
  // Nothing to carry before there is a code.
  await expectVisible(panel.getByLabel('Choose a 4-digit PIN'));
  await expectHidden(page.getByRole('link', { name: 'Download wallet card (PDF)' }));
  await panel.getByLabel('Choose a 4-digit PIN').fill('4826');
  await panel.getByRole('radio', { name: /^No, show nothing/ }).check();
  await panel.getByRole('button', { name: 'Set Up QR Code' }).click();
  await expectVisible(panel.getByText('QR code set up successfully'));
  const href = await panel.getByRole('link', { name: /\/emergency\// }).getAttribute('href');
  if (!href) throw new Error('The QR panel shows no link.');
  return new URL(href).pathname.split('/').pop() ?? '';
}

describe('emergency cards', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as [string, Viewport][]) {
    test(`the owner downloads the wallet card, the QR image and the lock-screen image (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const shareId = await setUpOwnCode(page);
      const block = page.getByRole('region', { name: 'Something to carry' });
      const card = block.getByRole('link', { name: 'Download wallet card (PDF)' });
      await expectVisible(card);
      await expectVisible(block.getByRole('link', { name: 'Download QR code (PNG)' }));
      await expectVisible(block.getByRole('link', { name: 'Download lock-screen image (PNG)' }));
      await expectNoA11yViolations(page, `/settings (card downloads, ${label})`);
      await screenshot(page, `emergency-cards-settings-${label}`);

      await block.getByLabel('Paper size').selectOption('a4');
      const [pdf] = await Promise.all([page.waitForEvent('download'), card.click()]);
      expect(pdf.suggestedFilename()).toMatch(/^emergency-[a-z0-9-]*card\.pdf$/);
      expect(pdf.suggestedFilename()).not.toContain(shareId);
      expect((await downloaded(pdf)).subarray(0, 4).toString()).toBe('%PDF');

      const [png] = await Promise.all([page.waitForEvent('download'), block.getByRole('link', { name: 'Download QR code (PNG)' }).click()]);
      expect((await downloaded(png)).subarray(1, 4).toString()).toBe('PNG');
      const [lock] = await Promise.all([
        page.waitForEvent('download'),
        block.getByRole('link', { name: 'Download lock-screen image (PNG)' }).click(),
      ]);
      expect((await downloaded(lock)).subarray(1, 4).toString()).toBe('PNG');

      // The PIN on the card: a wrong one is refused in place, the right one gives the card.
      await block.getByRole('checkbox', { name: 'Print the PIN on the card' }).check();
      const pin = block.getByLabel('The code’s PIN');
      await pin.fill('5937');
      await card.click();
      await expectVisible(block.getByText(/not this code’s PIN/));
      await expectNoA11yViolations(page, `/settings (wrong card PIN, ${label})`);
      await screenshot(page, `emergency-cards-wrong-pin-${label}`);
      await pin.fill('4826');
      const [withPin] = await Promise.all([page.waitForEvent('download'), card.click()]);
      expect((await downloaded(withPin)).subarray(0, 4).toString()).toBe('%PDF');
      await expectHidden(block.getByText(/not this code’s PIN/));

      // Deactivated: nothing to download.
      await page.getByRole('region', { name: 'Personal QR Code' }).getByRole('button', { name: 'Deactivate' }).click();
      await page.getByRole('alertdialog', { name: 'Deactivate your QR code?' }).getByRole('button', { name: 'Deactivate' }).click();
      await expectHidden(card);
    });
  }
});
