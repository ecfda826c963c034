import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, newPage, open, useBrowser } from '../lib/browser';

useBrowser();

const year = String(new Date().getFullYear());

// SPEC §2 Layout: the app header (authentication state, notifications) is absent on emergency
// pages and on /, /about, /howitworks and /faq — those carry only the marketing bar, whose
// navigation leads to the other marketing pages. The footer is everywhere except emergency pages.
type Top = 'app header' | 'marketing bar' | 'nothing';

async function expectLayout(page: Page, { top, footer }: { top: Top; footer: boolean }) {
  const banner = page.getByRole('banner');
  const marketingBar = banner.filter({ has: page.getByRole('link', { name: 'How It Works' }) });
  const appHeader = banner.filter({ hasNot: page.getByRole('link', { name: 'How It Works' }) });
  switch (top) {
    case 'app header':
      await expectVisible(appHeader);
      await expectHidden(marketingBar);
      break;
    case 'marketing bar':
      await expectVisible(marketingBar);
      await expectHidden(appHeader);
      break;
    case 'nothing':
      await expectHidden(banner);
      break;
  }
  const contentinfo = page.getByRole('contentinfo');
  if (footer) {
    await expectVisible(contentinfo);
    expect(await contentinfo.first().innerText()).toContain(year);
  } else {
    await expectHidden(contentinfo);
  }
}

describe('public pages', () => {
  test('the landing page shows its hero, features, testimonials, contact and sign-up call, with only the marketing bar', async () => {
    const page = await newPage();
    await open(page, '/');
    const main = page.getByRole('main');
    await expectVisible(main.getByRole('heading', { level: 1, name: 'Empowering Patients' }));
    await expectVisible(main.getByText('Your health records, simplified. Access and manage your medical info.'));

    // SPEC §2: a testimonial carousel with 3 slides and 3 dots; a dot brings its slide.
    const dots = main.getByRole('button', { name: /(testimonial|slide) \d/i });
    await expect.poll(() => dots.count()).toBe(3);
    await dots.nth(2).click();
    await expectVisible(main.getByRole('group', { name: /3 of 3/ }));

    await expectVisible(main.getByRole('region', { name: /contact|get in touch/i }));
    const signUpCalls = main.getByRole('link', { name: /sign up|create .*account|get started|join/i });
    await expectVisible(signUpCalls);
    expect(await signUpCalls.first().getAttribute('href')).toBe('/signup');
    await expectLayout(page, { top: 'marketing bar', footer: true });
  });

  test('the about page tells the mission and shows the team', async () => {
    const page = await newPage();
    await open(page, '/about');
    await expectVisible(page.getByRole('main').getByRole('heading', { level: 1 }));
    await expectVisible(page.getByRole('heading', { name: /mission/i }));
    await expectVisible(page.getByRole('heading', { name: /team/i }));
    await expectLayout(page, { top: 'marketing bar', footer: true });
  });

  test('the how-it-works page walks through six steps', async () => {
    const page = await newPage();
    await open(page, '/howitworks');
    const main = page.getByRole('main');
    await expectVisible(main.getByRole('heading', { level: 1 }));
    await expect.poll(() => main.getByRole('heading', { name: /^step \d/i }).count()).toBe(6);
    await expectLayout(page, { top: 'marketing bar', footer: true });
  });

  test('the FAQ page answers six questions, each opening to its answer', async () => {
    const page = await newPage();
    await open(page, '/faq');
    const main = page.getByRole('main');
    await expectVisible(main.getByRole('heading', { level: 1 }));
    // Each question is a disclosure button; opening one expands it and only it.
    const closed = main.getByRole('button', { expanded: false });
    await expect.poll(() => closed.count()).toBe(6);
    const first = closed.first();
    const question = (await first.innerText()).trim();
    await first.click();
    await expectVisible(main.getByRole('button', { name: question, expanded: true }));
    await expect.poll(() => main.getByRole('button', { expanded: true }).count()).toBe(1);
    await expectLayout(page, { top: 'marketing bar', footer: true });
  });

  for (const route of ['/privacy-policy', '/terms-of-service']) {
    test(`the ${route} page shows its text with the header and footer`, async () => {
      const page = await newPage();
      await open(page, route);
      await expectVisible(page.getByRole('main').getByRole('heading', { level: 1 }));
      await expectLayout(page, { top: 'app header', footer: true });
    });
  }

  test('the login page has the header and footer', async () => {
    const page = await newPage();
    await open(page, '/login');
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back!' }));
    await expectVisible(page.getByText('Empowering Patients'));
    await expectLayout(page, { top: 'app header', footer: true });
  });

  test('an emergency page has neither header nor footer', async () => {
    const page = await newPage();
    for (const route of ['/emergency/x', '/family/emergency/x']) {
      await open(page, route);
      await expectVisible(page.getByRole('main'));
      await expectLayout(page, { top: 'nothing', footer: false });
    }
  });

  test('an emergency link for an unknown code says the code is not found', async () => {
    const page = await newPage();
    for (const route of ['/emergency/x', '/family/emergency/x']) {
      await open(page, route);
      await expectVisible(page.getByText('QR code not found or inactive'));
    }
  });
});
