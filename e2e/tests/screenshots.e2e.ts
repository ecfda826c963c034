import { describe, test } from 'vitest';
import { DESKTOP, PHONE, expectVisible, newPage, open, screenshot, signUpAndLogIn, useBrowser } from '../lib/browser';

useBrowser();

// Pictures of the main screens for review (e2e/screenshots/, not committed).
for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`screenshots on a ${device}`, () => {
    test('the landing, sign-up and login pages can be captured', async () => {
      const page = await newPage(viewport);
      for (const [route, name] of [
        ['/', 'home'],
        ['/signup', 'signup'],
        ['/login', 'login'],
      ] as const) {
        await open(page, route);
        await expectVisible(page.getByRole('main'));
        await screenshot(page, `${name}-${device}`);
      }
    });

    test('a signed-in user’s dashboard can be captured', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await screenshot(page, `dashboard-${device}`);
    });
  });
}
