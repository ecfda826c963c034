import { describe, expect, test } from 'vitest';
import {
  PHONE,
  expectPath,
  expectVisible,
  logInViaApi,
  newPage,
  open,
  signUpAndLogIn,
  signUpViaApi,
  slowDownCpu,
  uniqueUser,
  useBrowser,
} from '../lib/browser';

useBrowser();

describe('accounts', () => {
  test('a new user can sign up, log in, see their greeting on the dashboard and log out', async () => {
    const page = await newPage();
    const user = uniqueUser();

    await open(page, '/signup');
    await expectVisible(page.getByRole('heading', { name: 'Create an Account' }));
    await page.getByLabel('Username', { exact: true }).fill(user.username);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();

    // SPEC §4 Sign-up: success message, then the app moves to /login after 2 seconds.
    await expectVisible(page.getByText('Account created successfully!'));
    await expectPath(page, '/login');
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back!' }));

    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    await expectPath(page, '/dashboard');
    await expectVisible(page.getByText(`Hello, ${user.username}!`));

    await page.getByRole('button', { name: 'Logout' }).click();
    // The toast lasts 3 s (SPEC §9): look for it before waiting for the page to settle.
    await expectVisible(page.getByText('Logged out successfully'));
    await expectPath(page, '/signup');

    // The session is over on the server too: the dashboard is closed again.
    await open(page, '/dashboard');
    await expectPath(page, '/login');
  });

  test('on a slow phone, a signed-in user finds their greeting and Logout in the menu, and lands on sign-up', async () => {
    const page = await newPage(PHONE);
    const user = await signUpAndLogIn(page);
    // A low-end phone: slow rendering must not change where logout leads (SPEC §2: to /signup).
    await slowDownCpu(page, 4);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expectVisible(page.getByText(`Hello, ${user.username}!`));
    await page.getByRole('button', { name: 'Logout' }).click();
    // The toast lasts 3 s (SPEC §9); on a slowed phone look for it before the page settles.
    await expectVisible(page.getByText('Logged out successfully'));
    await expectPath(page, '/signup');
    await expectVisible(page.getByRole('heading', { name: 'Create an Account' }));
  });

  test('a signed-out visitor who opens a private page is sent to the login screen', async () => {
    const page = await newPage();
    for (const route of ['/dashboard', '/settings']) {
      await open(page, route);
      await expectPath(page, '/login');
      await expectVisible(page.getByRole('heading', { name: 'Welcome Back!' }));
    }
  });

  test('a signed-in user who reloads the dashboard stays signed in', async () => {
    const page = await newPage();
    const user = await signUpViaApi(page);
    await logInViaApi(page, user);
    await open(page, '/dashboard');
    await expectVisible(page.getByText(`Hello, ${user.username}!`));
    await page.reload({ waitUntil: 'networkidle' });
    await expectPath(page, '/dashboard');
    await expectVisible(page.getByText(`Hello, ${user.username}!`));
  });

  test('sign-up refuses a username of only spaces without calling the server', async () => {
    const page = await newPage();
    const user = uniqueUser();
    const signupCalls: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/auth/signup') signupCalls.push(req.method());
    });

    await open(page, '/signup');
    await page.getByLabel('Username', { exact: true }).fill('   ');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await expectVisible(page.getByText('Username is required'));
    expect(signupCalls).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/signup');
  });

  test('a wrong password at login shows the server message and clears both fields', async () => {
    const page = await newPage();
    const user = await signUpViaApi(page);

    await open(page, '/login');
    const email = page.getByLabel('Email', { exact: true });
    const password = page.getByLabel('Password', { exact: true });
    await email.fill(user.email);
    await password.fill(`${user.password}-wrong`);
    const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    const response = await answer;
    expect(response.ok()).toBe(false);
    const { message } = (await response.json()) as { message?: unknown };
    expect(typeof message).toBe('string');
    await expectVisible(page.getByText(String(message)));

    // SPEC §4 Login: both fields are cleared after every attempt.
    await expect.poll(() => email.inputValue()).toBe('');
    await expect.poll(() => password.inputValue()).toBe('');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('the sign-up and login screens link to each other and home', async () => {
    const page = await newPage();
    await open(page, '/signup');
    await page.getByRole('link', { name: 'Sign in here' }).click();
    await expectPath(page, '/login');
    await page.getByRole('link', { name: 'Sign up here' }).click();
    await expectPath(page, '/signup');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expectPath(page, '/');
    await open(page, '/login');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expectPath(page, '/');
  });
});
