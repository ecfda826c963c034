import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  baseUrl,
  expectHidden,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';
import { fillOwnProfile } from '../lib/people';

useBrowser();

// DESIGN §7: essentials without the PIN are the owner's choice per code; the owner lifts a PIN
// lock with one action, from Settings or from the lock notice.

/** The public API as a stranger's phone would call it: no session, no page of ours. */
async function publicGet(stranger: Page, shareId: string, pin?: string) {
  const url = `${baseUrl()}/api/user/emergency/${shareId}${pin ? `?pin=${pin}` : ''}`;
  const res = await stranger.request.get(url);
  return { status: res.status(), header: res.headers()['kinchart-pin-status'], body: (await res.json()) as Record<string, unknown> };
}

async function lockWithWrongPins(stranger: Page, shareId: string): Promise<void> {
  for (let i = 0; i < 5; i += 1) expect((await publicGet(stranger, shareId, `135${i}`)).status).toBe(401);
  expect((await publicGet(stranger, shareId, '4826')).status).toBe(429);
}

describe('emergency settings: essentials without the PIN and the owner’s unlock', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`the owner turns essentials on and unlocks the PIN after wrong tries (${label})`, async () => {
      const owner = await newPage(viewport);
      await signUpAndLogIn(owner);
      await fillOwnProfile(owner);
      const shareId = (await apiCall(owner, 'POST', '/api/user/wearable-qr', { pin: '4826' })).share_id as string;
      const stranger = await newPage(PHONE);

      // Off by default: the stranger gets exactly { requirePin: true }.
      expect(await publicGet(stranger, shareId)).toEqual({ status: 200, header: undefined, body: { requirePin: true } });

      await open(owner, '/settings');
      const panel = owner.getByRole('region', { name: 'Personal QR Code' });
      const box = panel.getByRole('checkbox', { name: 'Show essentials without the PIN' });
      await expectVisible(box);
      expect(await box.isChecked()).toBe(false);
      await expectVisible(panel.getByText(/show when locked/));
      await box.check();
      await expectVisible(panel.getByText('Essentials are now shown without the PIN.'));
      expect(await box.isChecked()).toBe(true);
      await expectNoA11yViolations(owner, `/settings (essentials on, ${label})`);
      await screenshot(owner, `emergency-settings-essentials-on-${label}`);

      const opened = await publicGet(stranger, shareId);
      expect(opened.status).toBe(200);
      expect(opened.header).toBe('ok');
      expect(opened.body).toMatchObject({
        requirePin: true,
        essentials: { name: 'Jordan Rivers', blood_type: 'O-', allergies: 'Penicillin', medications: ['Warfarin'] },
      });
      expect(JSON.stringify(opened.body)).not.toContain('12 Secret Lane');

      // Five wrong PINs lock the PIN; the essentials keep answering.
      await lockWithWrongPins(stranger, shareId);
      expect((await publicGet(stranger, shareId)).header).toBe('locked');

      // Settings says so and lifts it with one button.
      await open(owner, '/settings');
      await expectVisible(panel.getByText(/The PIN is locked: 5 wrong PINs in a row/));
      // Issue 30: only the network that guessed waits; a responder elsewhere can still enter the PIN.
      await expectVisible(panel.getByText(/anyone else can still enter the PIN/));
      await expectNoA11yViolations(owner, `/settings (PIN locked, ${label})`);
      await screenshot(owner, `emergency-settings-locked-${label}`);
      await panel.getByRole('button', { name: 'Unlock PIN' }).click();
      await expectVisible(panel.getByText('The PIN works again.'));
      await expectHidden(panel.getByRole('button', { name: 'Unlock PIN' }));
      expect((await publicGet(stranger, shareId, '4826')).status).toBe(200);

      // Locked again: this time the owner unlocks from the lock notice.
      await lockWithWrongPins(stranger, shareId);
      await open(owner, '/notifications');
      const notice = owner
        .getByRole('article')
        .filter({ has: owner.getByRole('heading', { name: 'Emergency QR code locked' }) })
        .first();
      await expectVisible(notice.getByRole('button', { name: 'Unlock PIN' }));
      await expectNoA11yViolations(owner, `/notifications (lock notice, ${label})`);
      await screenshot(owner, `emergency-settings-notice-${label}`);
      await notice.getByRole('button', { name: 'Unlock PIN' }).click();
      await expectVisible(notice.getByText('The PIN works again.'));
      const right = await publicGet(stranger, shareId, '4826');
      expect(right.status).toBe(200);
      expect(right.body.requirePin).toBe(false);
    });
  }
});
