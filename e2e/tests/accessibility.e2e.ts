import { describe, test } from 'vitest';
import { DESKTOP, PHONE, expectNoA11yViolations, expectVisible, newPage, open, signUpAndLogIn, useBrowser } from '../lib/browser';

useBrowser();

// DESIGN §8: pages pass axe (WCAG 2.2 A and AA). Any finding fails the run.
const routes = ['/', '/about', '/howitworks', '/faq', '/privacy-policy', '/terms-of-service', '/signup', '/login'];

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`accessibility on a ${device} (${viewport.width}x${viewport.height})`, () => {
    for (const route of routes) {
      test(`${route} has no WCAG A or AA axe violations`, async () => {
        const page = await newPage(viewport);
        await open(page, route);
        await expectNoA11yViolations(page, `${route} (${device})`);
      });
    }

    test('the sign-up form showing a validation error has no WCAG A or AA axe violations', async () => {
      const page = await newPage(viewport);
      await open(page, '/signup');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await expectVisible(page.getByText('Username is required'));
      await expectNoA11yViolations(page, `/signup with an error (${device})`);
    });

    test('the signed-in dashboard has no WCAG A or AA axe violations', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await expectNoA11yViolations(page, `/dashboard (${device})`);
    });
  });
}
