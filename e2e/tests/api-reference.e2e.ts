import { describe, expect, test } from 'vitest';
import { PHONE, baseUrl, expectNoA11yViolations, expectVisible, newPage, screenshot, useBrowser } from '../lib/browser';

useBrowser();

// docs/decisions/0040: /api/docs is the API reference, from swagger-ui's own files under the app's
// Content-Security-Policy — nothing from another site, nothing the policy refuses.

describe('the API reference', () => {
  // A page for developers: swagger-ui's 1.7 MB script takes its time, so the phone check is shorter.
  test('a developer opens /api/docs, finds the emergency lookup marked as such, and the page asks nothing of any other site', async () => {
    const page = await newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.origin !== baseUrl()) elsewhere.push(request.url());
    });

    const res = await page.goto('/api/docs', { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    // swagger-ui's 1.7 MB script draws the page once it has read the document: give it time on a slow machine.
    await expectVisible(page.getByRole('heading', { level: 1, name: /^Kinchart/ }), 30_000);
    // Operations are grouped by how they are reached; the filter finds the emergency group, which
    // lists the PIN lookup (swagger-ui draws the groups only as they scroll into view).
    await expectVisible(page.locator('#operations-tag-public'));
    await page.getByPlaceholder('Filter by tag or path').fill('emergency');
    await expectVisible(page.locator('#operations-tag-emergency'));
    const lookup = page.locator('#operations-emergency-get_api_user_emergency__shareId_');
    await expectVisible(lookup.getByText('/api/user/emergency/{shareId}', { exact: true }));
    // Opening it shows its parameters, the PIN among them, and no lock: it needs no session.
    await lookup.locator('.opblock-summary-control').click();
    await expectVisible(lookup.locator('tr[data-param-name="pin"]'));
    expect(await lookup.locator('.authorization__btn').count()).toBe(0);
    expect(await page.locator('#operations-session-get_api_user_emergency_cards .authorization__btn').count()).toBe(1);

    await expectNoA11yViolations(page, '/api/docs');
    await screenshot(page, 'api-reference-desktop');
    expect(refused).toEqual([]);
    expect(elsewhere).toEqual([]);
  });

  test('on a phone the reference reads without sideways scrolling and passes axe', async () => {
    const page = await newPage(PHONE);
    const res = await page.goto('/api/docs', { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    await expectVisible(page.getByRole('heading', { level: 1, name: /^Kinchart/ }), 30_000);
    await expectVisible(page.locator('#operations-tag-public'));
    // Laid out at the phone's own width (not a shrunken 980 px desktop page), with nothing wider.
    const layout = await page.evaluate(() => ({
      width: document.documentElement.clientWidth,
      scroll: document.documentElement.scrollWidth,
    }));
    expect(layout.width).toBe(PHONE.width);
    expect(layout.scroll).toBeLessThanOrEqual(layout.width);
    await expectNoA11yViolations(page, '/api/docs (phone)');
    await screenshot(page, 'api-reference-phone');
  });

  test('the app itself still opens beside it: a client route and the emergency page', async () => {
    const page = await newPage();
    await page.goto('/login', { waitUntil: 'networkidle' });
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back!' }));
    const emergency = await page.goto(`/emergency/${'A'.repeat(43)}`, { waitUntil: 'networkidle' });
    expect(emergency?.status()).toBe(200);
    expect(emergency?.headers()['content-type']).toBe('text/html; charset=utf-8');
  });
});
