import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

// Helpers for the browser journeys. e2e/run.mjs starts the production server and passes its
// origin as E2E_BASE_URL; every page of a test shares one fresh browser context (no cookies
// leak between tests), and each test file owns one Chromium.

const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export type Viewport = typeof DESKTOP | typeof PHONE;

function requiredEnv(name: 'E2E_BASE_URL' | 'CHROME_PATH'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with \`npm run test:e2e\` (e2e/run.mjs).`);
  return value;
}

/** The server's origin; pages and API calls use this exact origin so the CSRF check passes. */
export const baseUrl = (): string => requiredEnv('E2E_BASE_URL');

let browser: Browser | undefined;
let contexts: BrowserContext[] = [];
let pageErrors: string[] = [];
/** What the test's pages did (navigations, API calls, console errors), printed when it fails. */
let activity: string[] = [];
let startedAt = 0;

/**
 * Call once at the top of a test file: launches Chromium for the file and gives every test its
 * own contexts, closed afterwards. An uncaught exception in a page fails the test.
 */
export function useBrowser(): void {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: requiredEnv('CHROME_PATH'),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });

  beforeEach(() => {
    contexts = [];
    pageErrors = [];
    activity = [];
    startedAt = Date.now();
  });

  afterEach(async (ctx) => {
    const failed = ctx.task.result?.state === 'fail';
    if (failed) {
      if (activity.length > 0) console.error(`Page activity of "${ctx.task.name}":\n${activity.map((a) => `  ${a}`).join('\n')}`);
      // Keep what the user would have seen at the moment the test gave up.
      const base = ctx.task.name
        .replace(/[^a-z0-9]+/gi, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 80)
        .toLowerCase();
      let index = 0;
      for (const context of contexts) {
        for (const page of context.pages()) {
          index += 1;
          await screenshot(page, `failures/${base}-${index}`).catch(() => undefined);
        }
      }
    }
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    contexts = [];
    const errors = pageErrors;
    pageErrors = [];
    if (!failed && errors.length > 0) {
      throw new Error(`The page threw uncaught exceptions:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
    }
  });
}

/**
 * A page in a fresh browser context (its own cookies), sized like a desktop unless told otherwise;
 * `locale` is the browser's language (navigator.languages, Accept-Language); `timezoneId` its
 * time zone (the machine's when left out).
 */
let contextCounter = 0;

export async function newPage(
  viewport: Viewport = DESKTOP,
  { locale = 'en-US', timezoneId }: { locale?: string; timezoneId?: string } = {},
): Promise<Page> {
  if (!browser) throw new Error('newPage() needs useBrowser() at the top of the test file.');
  const phone = viewport.width < 600;
  contextCounter += 1;
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport,
    isMobile: phone,
    hasTouch: phone,
    locale,
    ...(timezoneId ? { timezoneId } : {}),
    reducedMotion: 'reduce',
    // A client address of its own (IPv6 documentation range; a header only, nothing is sent
    // there): the server trusts it in the e2e run (e2e/run.mjs sets TRUST_PROXY), so per-address
    // limits count per journey. Each gets a /64 of its own, since those limits count IPv6 by /64.
    extraHTTPHeaders: { 'X-Forwarded-For': `2001:db8:${contextCounter.toString(16)}::1` },
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  contexts.push(context);
  const page = await context.newPage();
  const log = (line: string) => activity.push(`${String(Date.now() - startedAt).padStart(6)} ms  ${line}`);
  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.origin === baseUrl() ? `${u.pathname}${u.search}` : url;
  };
  page.on('pageerror', (err) => {
    pageErrors.push(`${page.url()}: ${err.message}`);
    log(`uncaught ${err.message}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) log(`at ${pathOf(frame.url())}`);
  });
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.startsWith('/api/')) log(`${res.request().method()} ${pathOf(res.url())} → ${res.status()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') log(`console error: ${msg.text()}`);
  });
  return page;
}

/** Makes the page's CPU `rate` times slower, like a low-end phone (Chromium DevTools protocol). */
export async function slowDownCpu(page: Page, rate = 4): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** Opens a route and waits until the app has settled (lazy route chunk loaded, auth check answered). */
export async function open(page: Page, route: string): Promise<void> {
  await page.goto(route, { waitUntil: 'networkidle' });
  await page.getByText('Loading...', { exact: true }).waitFor({ state: 'hidden' });
}

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

let counter = 0;

/** A user no other test (or earlier run) has: unique email and username, a password the server accepts. */
export function uniqueUser(prefix = 'user'): TestUser {
  counter += 1;
  const id = `${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
  return {
    username: `${prefix}${id}`,
    email: `${prefix}.${id}@example.test`,
    password: `Kc-e2e-${id}-pw`,
  };
}

/** A JSON API call as the page's user, for fast set-up; anything but a 2xx throws. */
export async function apiCall(page: Page, method: 'POST' | 'PUT', route: string, data: unknown): Promise<Record<string, unknown>> {
  // Non-GET API calls must carry the app's Origin (DESIGN §5 CSRF check), as the browser would.
  const res = await page.request.fetch(route, { method, data, headers: { Origin: baseUrl() } });
  if (!res.ok()) throw new Error(`${method} ${route} answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Creates the account through the API (fast path for tests that are not about the sign-up screen). */
export async function signUpViaApi(page: Page, user: TestUser = uniqueUser()): Promise<TestUser> {
  await apiCall(page, 'POST', '/api/auth/signup', user);
  return user;
}

/** Signs in through the API; the session cookie lands in the page's context. */
export async function logInViaApi(page: Page, user: TestUser): Promise<void> {
  await apiCall(page, 'POST', '/api/auth/login', { email: user.email, password: user.password });
}

/** Fills and submits the sign-up form the way a person would, and waits for the redirect to /login. */
export async function signUpViaUi(page: Page, user: TestUser = uniqueUser()): Promise<TestUser> {
  await open(page, '/signup');
  await page.getByLabel('Username', { exact: true }).fill(user.username);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expectPath(page, '/login');
  return user;
}

/** Fills and submits the login form, and waits for the dashboard. */
export async function logInViaUi(page: Page, user: TestUser): Promise<void> {
  if (new URL(page.url()).pathname !== '/login') await open(page, '/login');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expectPath(page, '/dashboard');
}

/**
 * A signed-in user on /dashboard. By default the account is made through the API; pass
 * `{ via: 'ui' }` to go through the sign-up and login screens.
 */
export async function signUpAndLogIn(
  page: Page,
  user: TestUser = uniqueUser(),
  { via = 'api' }: { via?: 'api' | 'ui' } = {},
): Promise<TestUser> {
  if (via === 'ui') {
    await signUpViaUi(page, user);
    await logInViaUi(page, user);
  } else {
    await signUpViaApi(page, user);
    await logInViaApi(page, user);
    await open(page, '/dashboard');
  }
  await expectPath(page, '/dashboard');
  // SPEC §2 Dashboard: the page is titled Dashboard (the greeting may sit in a phone's menu).
  await expectVisible(page.getByRole('heading', { name: 'Dashboard' }));
  return user;
}

/**
 * Waits until the locator is visible; fails with the locator, the page's address and what its
 * alerts and status messages (toasts among them) said, so a failure in CI explains itself.
 */
export async function expectVisible(locator: Locator, timeout = 10_000): Promise<void> {
  try {
    await locator.filter({ visible: true }).first().waitFor({ state: 'visible', timeout });
  } catch {
    const page = locator.page();
    const said = await page
      .locator('[role="alert"], [role="status"]')
      .allInnerTexts()
      .then((texts) => texts.map((t) => t.trim()).filter(Boolean))
      .catch(() => []);
    const messages = said.length > 0 ? ` Alerts and status messages: ${JSON.stringify(said)}.` : '';
    throw new Error(`Expected to see ${String(locator)} within ${timeout} ms, but it is not visible (page at ${page.url()}).${messages}`);
  }
}

/** Waits until nothing matching the locator is visible. */
export async function expectHidden(locator: Locator, timeout = 10_000): Promise<void> {
  await expect
    .poll(async () => (await Promise.all((await locator.all()).map((l) => l.isVisible()))).some(Boolean), {
      timeout,
      message: `Expected ${String(locator)} not to be visible`,
    })
    .toBe(false);
}

/**
 * Waits until the page is at the given path (client-side navigations included), then checks it
 * stays there: a redirect racing the navigation would otherwise pass unseen.
 */
export async function expectPath(page: Page, pathname: string, timeout = 10_000): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout, waitUntil: 'commit' });
  } catch {
    throw new Error(`Expected to be on ${pathname} within ${timeout} ms, but the page is at ${new URL(page.url()).pathname}.`);
  }
  // A redirect would follow the page's own requests (the session check): once the network is
  // quiet, the page has settled where it is going.
  await page.waitForLoadState('networkidle');
  const settled = new URL(page.url()).pathname;
  if (settled !== pathname) throw new Error(`The page reached ${pathname} but then moved on to ${settled}.`);
}

/**
 * Runs axe with the WCAG 2.0, 2.1 and 2.2 A and AA rules and fails on any violation, whatever its
 * impact, listing each rule, its help text and the offending elements.
 */
export async function expectNoA11yViolations(page: Page, label = new URL(page.url()).pathname): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const blocking = results.violations;
  if (blocking.length === 0) return;
  const report = blocking
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map((n) => `      ${n.target.join(' ')}\n        ${n.failureSummary?.replace(/\n/g, '\n        ') ?? ''}`)
        .join('\n');
      const more = v.nodes.length > 5 ? `\n      … and ${v.nodes.length - 5} more` : '';
      return `  - [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
  throw new Error(`Accessibility violations on ${label}:\n${report}`);
}

/** Saves a PNG of the whole page to e2e/screenshots/<name>.png (the folder is gitignored). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(screenshotDir, `${name}.png`);
  await mkdir(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** A day in the browser's calendar, `days` from today, as a date input holds it. */
export async function browserDay(page: Page, days = 0): Promise<string> {
  return page.evaluate((offset) => {
    const day = new Date();
    day.setDate(day.getDate() + offset);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  }, days);
}
