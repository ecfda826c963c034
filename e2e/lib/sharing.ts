import type { Locator, Page } from 'playwright-core';
import { baseUrl, expectHidden, expectPath, expectVisible, open, type TestUser } from './browser';

// DESIGN §11, the way a family uses it: Settings → Family Members → Share access makes an
// invitation link; the other account opens it, signs in or up, and accepts.

export interface PersonEntry {
  id: string;
  name: string | null;
  role: string;
  shared_by: string | null;
}

/** GET /api/user/people as the page's user. */
export async function peopleOf(page: Page): Promise<PersonEntry[]> {
  const res = await page.request.get('/api/user/people');
  if (!res.ok()) throw new Error(`GET /api/user/people answered ${res.status()}`);
  return (await res.json()) as PersonEntry[];
}

/** Settings → Family Members, with its list loaded. */
export async function openFamilySettings(page: Page): Promise<void> {
  await open(page, '/settings?tab=family');
  await expectVisible(page.getByRole('heading', { level: 2, name: 'Family Members' }));
}

/** Adds a child through the Add Family Member dialog and returns their person id. */
export async function addChild(page: Page, name: string, dob = '2015-05-20'): Promise<string> {
  await page.getByRole('button', { name: 'Add Member', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Date of Birth').fill(dob);
  await dialog.getByLabel('Relationship').selectOption('child');
  await dialog.getByRole('button', { name: 'Add Member' }).click();
  await expectHidden(dialog);
  await expectVisible(page.getByRole('button', { name: `Share access to ${name}` }));
  const person = (await peopleOf(page)).find((p) => p.name === name);
  if (!person) throw new Error(`${name} is not among the people of the account`);
  return person.id;
}

/** The Share access dialog of `name` (opened from their card). */
export async function openShareDialog(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: `Share access to ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Share access to ${name}` });
  await expectVisible(dialog);
  return dialog;
}

/** In an open Share access dialog: makes an invitation for `role` and returns its link. */
export async function createInvitation(dialog: Locator, role: 'Viewer' | 'Editor' | 'Manager'): Promise<string> {
  await dialog.getByRole('radio', { name: role }).check();
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  const link = dialog.getByRole('textbox', { name: 'Invitation link' });
  await expectVisible(link);
  const url = await link.inputValue();
  if (!url.startsWith(`${baseUrl()}/invite/`)) throw new Error(`Unexpected invitation link ${url}`);
  return url;
}

/**
 * A signed-out visitor on the invitation page signs up through it, signs in, comes back and
 * accepts; ends on the dashboard.
 */
export async function signUpAndAccept(page: Page, inviteUrl: string, user: TestUser): Promise<void> {
  const invitePathname = new URL(inviteUrl).pathname;
  await page.getByRole('main').getByRole('link', { name: 'Sign up', exact: true }).click();
  await expectPath(page, '/signup');
  await page.getByLabel('Username', { exact: true }).fill(user.username);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expectPath(page, '/login');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expectPath(page, invitePathname);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expectPath(page, '/dashboard');
}
