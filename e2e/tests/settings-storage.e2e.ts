import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';
import { seedRecord } from '../lib/files';

useBrowser();

// DESIGN §5 storage quota (STORAGE_QUOTA_MB, 5120 by default): Settings → Account Settings shows the
// space the account's files take out of it, in the app's base-1024 units.

describe('storage in Settings', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a user sees how much storage their files use out of the quota (${device})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Storage' });
      await expectVisible(section.getByText('Storage: 0 Bytes of 5 GB used'));

      await seedRecord(page, {
        fileName: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.alloc(1536 * 1024, 'a'),
        customName: 'Notes',
      });
      await open(page, '/settings?tab=account');
      await expectVisible(section.getByText('Storage: 1.5 MB of 5 GB used'));
      const bar = section.getByRole('progressbar', { name: 'Storage used' });
      await expectVisible(bar);
      expect(await bar.getAttribute('value')).toBe(String(1536 * 1024));
      await expectVisible(section.getByText('Files you upload or import count towards it.'));
      await expectNoA11yViolations(page, `Settings → Storage (${device})`);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-storage-${device}`);
    });
  }
});
