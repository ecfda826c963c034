import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { englishLeftoverProbes } from '../lib/catalogs';
import {
  DESKTOP,
  PHONE,
  expectNoA11yViolations,
  expectPath,
  newPage,
  screenshot,
  uniqueUser,
  useBrowser,
  type Viewport,
} from '../lib/browser';

useBrowser();

// Issue 35: Kinchart in Spanish, Arabic and Japanese on desktop and phone — through sign-up, the
// dashboard, the profile editor, files, appointments and settings. On every screen: <html lang dir>
// right, no English left (other than the user's own text and proper names), no horizontal
// overflow, axe clean, and a screenshot to look at. The browser asks for its language the way a
// visitor's does (navigator.languages, Accept-Language); nothing is chosen by hand.

/** Proper names and the user's own words may stay in Latin letters ("Acme ID": the e2e sign-on provider's name). */
const PROPER_NAMES = ['Acme ID', 'Kinchart', 'SMART Health Link', 'FHIR', 'Google Authenticator', 'Microsoft Authenticator', 'Authy'];

/** Two Latin words of two or more letters in a row (linear: a scan over the words, no regex). */
function hasLatinPhrase(text: string): boolean {
  const words = text.split(/[\s,'’-]+/u);
  return words.some((word, i) => isLatinWord(word) && isLatinWord(words[i + 1] ?? ''));
}

function isLatinWord(word: string): boolean {
  return word.length >= 2 && [...word].every((c) => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
}

interface Shown {
  texts: string[];
  lang: string;
  dir: string;
  overflow: number;
}

/** Every visible text and person-facing attribute of the page, outside elements in another language. */
async function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const pageLang = root.lang;
    const inPageLanguage = (element: Element) => (element.closest('[lang]')?.getAttribute('lang') ?? pageLang) === pageLang;
    const visible = (element: Element) => element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !parent || parent.closest('script, style, template, option') || !visible(parent) || !inPageLanguage(parent)) continue;
      texts.push(text);
    }
    for (const element of Array.from(document.body.querySelectorAll('[aria-label], [placeholder], [title], img[alt]'))) {
      if (!inPageLanguage(element) || !visible(element) || element.closest('[aria-hidden="true"]')) continue;
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    }
    // The document title too.
    texts.push(document.title);
    return { texts, lang: pageLang, dir: root.dir, overflow: root.scrollWidth - root.clientWidth };
  });
}

interface Expectation {
  lang: string;
  dir: 'ltr' | 'rtl';
  /** Arabic and Japanese are written without Latin letters: any Latin phrase left is English. */
  nonLatin: boolean;
  /** The user's own text on this page (their username, email, the names they typed). */
  own: string[];
}

async function checkScreen(page: Page, name: string, expected: Expectation, viewport: Viewport): Promise<void> {
  const device = viewport === PHONE ? 'phone' : 'desktop';
  const label = `${name} in ${expected.lang} (${device})`;
  await page.waitForLoadState('networkidle');
  const result = await shown(page);
  expect(result.lang, `<html lang> on ${label}`).toBe(expected.lang);
  expect(result.dir, `<html dir> on ${label}`).toBe(expected.dir);
  expect(result.overflow, `horizontal overflow on ${label}`).toBeLessThanOrEqual(1);

  const probes = englishLeftoverProbes(expected.lang);
  const strip = (text: string) => [...expected.own, ...PROPER_NAMES].reduce((left, own) => left.split(own).join(' '), text);
  const leftovers = result.texts.filter((text) => {
    if (probes.exact.has(text)) return true;
    if (probes.pieces.some((piece) => text.includes(piece))) return true;
    // Two or more Latin words in a row (after the user's text and proper names are taken out).
    return expected.nonLatin && hasLatinPhrase(strip(text));
  });
  expect(leftovers, `English left on ${label}`).toEqual([]);

  await expectNoA11yViolations(page, label);
  await screenshot(page, `languages/${expected.lang}-${name}-${device}`);
}

async function submit(page: Page): Promise<void> {
  await page.locator('main form button[type="submit"]').first().click();
}

const LANGUAGES = [
  { browser: 'es-ES', lang: 'es', dir: 'ltr', nonLatin: false },
  { browser: 'ar-EG', lang: 'ar', dir: 'rtl', nonLatin: true },
  { browser: 'ja-JP', lang: 'ja', dir: 'ltr', nonLatin: true },
] as const;

describe('every screen in the patient’s language', () => {
  for (const language of LANGUAGES) {
    for (const viewport of [DESKTOP, PHONE]) {
      const device = viewport === PHONE ? 'phone' : 'desktop';
      test(`${language.lang} on ${device}: sign-up, dashboard, profile, files, appointments, settings`, async () => {
        const page = await newPage(viewport, { locale: language.browser });
        const user = uniqueUser('lang');
        const expected: Expectation = {
          lang: language.lang,
          dir: language.dir,
          nonLatin: language.nonLatin,
          own: [user.username, user.email],
        };

        await page.goto('/', { waitUntil: 'networkidle' });
        await checkScreen(page, 'landing', expected, viewport);

        await page.goto('/signup', { waitUntil: 'networkidle' });
        await page.locator('input[name="username"]').fill(user.username);
        await page.locator('input[name="email"]').fill(user.email);
        await page.locator('input[name="password"]').fill(user.password);
        await checkScreen(page, 'signup', expected, viewport);
        await submit(page);
        await expectPath(page, '/login');

        await page.locator('input[name="email"]').fill(user.email);
        await page.locator('input[name="password"]').fill(user.password);
        await checkScreen(page, 'login', expected, viewport);
        await submit(page);
        await expectPath(page, '/dashboard');
        await page.locator('h1').first().waitFor();
        await checkScreen(page, 'dashboard', expected, viewport);

        // The account now speaks the language the browser asked for (emails, push, PDFs follow it).
        const preferences = (await (await page.request.get('/api/user/preferences')).json()) as { language: string };
        expect(preferences.language).toBe(language.lang);

        for (const [route, name] of [
          ['/profile', 'profile'],
          ['/view-records', 'files'],
          ['/appointments', 'appointments'],
          ['/settings', 'settings'],
        ] as const) {
          await page.goto(route, { waitUntil: 'networkidle' });
          await page.locator('h1').first().waitFor();
          await checkScreen(page, name, expected, viewport);
        }
      });
    }
  }

  test('the pseudo-locale (accented, 40 % longer) leaves no text clipped on a phone', async () => {
    const page = await newPage(PHONE);
    await page.context().addInitScript(() => localStorage.setItem('kinchart.language', 'pseudo'));
    const user = uniqueUser('pseudo');
    await page.goto('/signup', { waitUntil: 'networkidle' });
    await page.locator('input[name="username"]').fill(user.username);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await submit(page);
    await expectPath(page, '/login');
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await submit(page);
    await expectPath(page, '/dashboard');

    for (const route of ['/dashboard', '/profile', '/view-records', '/appointments', '/prescriptions', '/settings']) {
      await page.goto(route, { waitUntil: 'networkidle' });
      await page.locator('h1').first().waitFor();
      const found = await page.evaluate(() => {
        const h1 = document.querySelector('h1')?.textContent ?? '';
        const clipped: string[] = [];
        for (const element of Array.from(document.body.querySelectorAll('button, a, label, th, h1, h2, h3, [role="tab"]'))) {
          if (!element.checkVisibility()) continue;
          const style = getComputedStyle(element);
          // Screen-reader-only text (a clipped box) is clipped on purpose.
          if ((style.clip !== 'auto' && style.clip !== '') || style.clipPath !== 'none') continue;
          const clips = style.overflowX === 'hidden' || style.overflowX === 'clip';
          if (clips && style.textOverflow !== 'ellipsis' && element.scrollWidth > element.clientWidth + 1) {
            clipped.push(element.textContent?.trim() ?? '');
          }
        }
        const root = document.documentElement;
        return { h1, clipped, overflow: root.scrollWidth - root.clientWidth, lang: root.lang };
      });
      // The pseudo-locale is on: the heading is bracketed and accented, not English.
      expect(found.h1, `the heading of ${route}`).toMatch(/^\[.*\]$/u);
      expect(found.clipped, `clipped text on ${route}`).toEqual([]);
      expect(found.overflow, `horizontal overflow on ${route}`).toBeLessThanOrEqual(1);
      await screenshot(page, `languages/pseudo${route.replace(/\//g, '-')}-phone`);
    }
  });
});
