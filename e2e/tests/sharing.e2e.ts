import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  baseUrl,
  browserDay,
  expectHidden,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  uniqueUser,
  useBrowser,
} from '../lib/browser';
import { tinyPdf } from '../lib/files';
import { waitForMailMatching } from '../lib/mailbox';
import { addChild, createInvitation, openFamilySettings, openShareDialog, peopleOf, signUpAndAccept } from '../lib/sharing';

useBrowser();

// DESIGN §11 People and sharing: a parent shares a child's chart with a second account, which
// accepts the invitation link; the parent sees who has access and what they did, and revokes.

const GONE = 'This invitation has expired or is no longer available';

describe('sharing a person with another account', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a parent shares a child as editor; the other account accepts, is seen, and loses access on revoke (${label})`, async () => {
      // Account A, the parent: adds the child and makes an editor invitation.
      const parentPage = await newPage(viewport);
      await parentPage.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      const parent = await signUpAndLogIn(parentPage);
      await openFamilySettings(parentPage);
      const childId = await addChild(parentPage, 'Mia');
      await expectNoA11yViolations(parentPage, `/settings Family Members with sharing (${label})`);
      await screenshot(parentPage, `sharing-family-members-${label}`);

      const dialog = await openShareDialog(parentPage, 'Mia');
      await expectNoA11yViolations(parentPage, `Share access dialog (${label})`);
      await screenshot(parentPage, `sharing-dialog-new-${label}`);
      const inviteUrl = await createInvitation(dialog, 'Editor');
      await dialog.getByRole('button', { name: 'Copy link' }).click();
      await expectVisible(dialog.getByText('Link copied to clipboard!'));
      expect(await parentPage.evaluate(() => navigator.clipboard.readText())).toBe(inviteUrl);
      await expectVisible(dialog.getByText('Pending'));
      await expectNoA11yViolations(parentPage, `Share access dialog with a link (${label})`);
      await screenshot(parentPage, `sharing-dialog-link-${label}`);
      await parentPage.keyboard.press('Escape');
      await expectHidden(dialog);

      // Account B opens the link signed out: it says who shares whom, as what.
      const carerPage = await newPage(viewport);
      const outside: string[] = [];
      carerPage.on('request', (req) => {
        if (!req.url().startsWith(baseUrl())) outside.push(req.url());
      });
      await open(carerPage, new URL(inviteUrl).pathname);
      await expectVisible(carerPage.getByText(`${parent.username} wants to share Mia with you as Editor.`));
      await expectVisible(carerPage.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }));
      await expectNoA11yViolations(carerPage, `/invite signed out (${label})`);
      await screenshot(carerPage, `sharing-invite-signed-out-${label}`);

      // B signs up through it, signs in, comes back and accepts.
      const carer = uniqueUser('carer');
      await signUpAndAccept(carerPage, inviteUrl, carer);
      expect(outside, 'the invitation page asks nothing of other sites').toEqual([]);
      expect(new URL(carerPage.url()).searchParams.get('member')).toBe(childId);
      const seen = (await peopleOf(carerPage)).find((p) => p.id === childId);
      expect(seen).toMatchObject({ name: 'Mia', role: 'editor', shared_by: parent.username });

      // B reads the chart through the share, and finds Mia in Settings with the owner's name.
      expect((await carerPage.request.get(`/api/user/people/${childId}`)).status()).toBe(200);
      await openFamilySettings(carerPage);
      const shared = carerPage.getByRole('region', { name: 'Shared with me' });
      await expectVisible(shared.getByText('Mia'));
      await expectVisible(shared.getByText(`Shared by ${parent.username}`));
      await expectVisible(shared.getByText('Editor access'));
      await expectNoA11yViolations(carerPage, `/settings Shared with me (${label})`);
      await screenshot(carerPage, `sharing-shared-with-me-${label}`);

      // As an editor, B uploads a record file for Mia and adds an appointment for her.
      await open(carerPage, '/update-records');
      await carerPage.getByRole('combobox', { name: 'For', exact: true }).selectOption(childId);
      await carerPage
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'school-vaccines.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Vaccines') });
      await carerPage.getByRole('button', { name: 'Upload File' }).click();
      await expectVisible(carerPage.getByText('Uploaded “school-vaccines” successfully.'));
      const day = await browserDay(carerPage, 1);
      await open(carerPage, '/appointments');
      await carerPage.getByRole('button', { name: 'Add New Appointment' }).click();
      const add = carerPage.getByRole('dialog', { name: 'Add New Appointment' });
      await add.getByRole('combobox', { name: 'For', exact: true }).selectOption(childId);
      await add.getByLabel('Date', { exact: true }).fill(day);
      await add.getByLabel('Start Time', { exact: true }).fill('10:00');
      await add.getByLabel('End Time', { exact: true }).fill('10:30');
      await add.getByLabel('Provider Name', { exact: true }).fill('Dr. Park');
      await add.getByLabel('Reason for Visit', { exact: true }).fill('Check-up');
      await add.getByRole('button', { name: 'Add Appointment' }).click();
      await expectHidden(add);

      // A finds both under Mia's name.
      await open(parentPage, '/view-records');
      const record = parentPage
        .getByRole('list', { name: 'Medical records' })
        .getByRole('article', { name: 'school-vaccines', exact: true });
      await expectVisible(record.getByText('Mia', { exact: true }));
      await screenshot(parentPage, `sharing-parent-sees-carer-upload-${label}`);
      const appointments = await parentPage.request.get('/api/user/appointments');
      expect(
        ((await appointments.json()) as { person_id: string; person_name: string; provider_name: string }[]).map((a) => [
          a.person_id,
          a.person_name,
          a.provider_name,
        ]),
      ).toEqual([[childId, 'Mia', 'Dr. Park']]);
      await open(parentPage, '/appointments');
      await parentPage.locator('.rbc-calendar').getByRole('button', { name: 'Agenda', exact: true }).click();
      await expectVisible(parentPage.locator('.rbc-agenda-view').getByRole('button', { name: 'Mia: Dr. Park - Check-up' }));
      await expectNoA11yViolations(parentPage, `/appointments with the carer's appointment (${label})`);
      await screenshot(parentPage, `sharing-parent-sees-carer-appointment-${label}`);

      // The link works once.
      await open(carerPage, new URL(inviteUrl).pathname);
      await expectVisible(carerPage.getByText(GONE));
      await expectNoA11yViolations(carerPage, `/invite used (${label})`);
      await screenshot(carerPage, `sharing-invite-used-${label}`);

      // A sees B in the list, and B's reads in the access history.
      await openFamilySettings(parentPage);
      const again = await openShareDialog(parentPage, 'Mia');
      await expectVisible(again.getByText(carer.username, { exact: true }));
      await expectVisible(again.getByText('Active'));
      await screenshot(parentPage, `sharing-dialog-active-${label}`);
      await parentPage.keyboard.press('Escape');
      await parentPage.getByRole('button', { name: 'Access history of Mia' }).click();
      const history = parentPage.getByRole('dialog', { name: 'Access history: Mia' });
      const entries = history.getByRole('list', { name: 'Access history' });
      // The carer's many reads within 10 minutes are one row, saying how many and when.
      const reads = entries
        .getByRole('listitem')
        .filter({ hasText: carer.username })
        .filter({ hasText: /Viewed .*the profile/ })
        .first();
      await expectVisible(reads);
      await expectVisible(reads.getByText(/^\d+ times, (at|from) /));
      await expectVisible(
        entries.getByRole('listitem').filter({ hasText: carer.username }).filter({ hasText: 'Accepted an invitation (Editor)' }),
      );
      await expectNoA11yViolations(parentPage, `Access history dialog (${label})`);
      await screenshot(parentPage, `sharing-access-history-${label}`);
      await parentPage.keyboard.press('Escape');

      // A revokes; B no longer sees Mia.
      const revoke = await openShareDialog(parentPage, 'Mia');
      await revoke.getByRole('button', { name: `Revoke ${carer.username}` }).click();
      const confirm = parentPage.getByRole('alertdialog', { name: 'Revoke access' });
      await expectVisible(confirm.getByText(`${carer.username} will no longer see Mia.`));
      await expectNoA11yViolations(parentPage, `Revoke confirmation (${label})`);
      await screenshot(parentPage, `sharing-revoke-confirm-${label}`);
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await expectVisible(revoke.getByText('Access revoked successfully.'));
      await expectHidden(revoke.getByRole('button', { name: `Revoke ${carer.username}` }));

      expect((await peopleOf(carerPage)).some((p) => p.id === childId)).toBe(false);
      expect((await carerPage.request.get(`/api/user/people/${childId}`)).status()).toBe(404);
      await openFamilySettings(carerPage);
      await expectVisible(carerPage.getByText(/Nobody has shared anyone with you yet/));
    });
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a parent shares their own profile; the holder, signed in, accepts and later leaves it (${label})`, async () => {
      const parentPage = await newPage(viewport);
      const parent = await signUpAndLogIn(parentPage);
      await openFamilySettings(parentPage);
      await expectVisible(parentPage.getByText('Your profile'));
      const dialog = await openShareDialog(parentPage, 'your profile');
      const inviteUrl = await createInvitation(dialog, 'Viewer');

      const carerPage = await newPage(viewport);
      const carer = await signUpAndLogIn(carerPage);
      await open(carerPage, new URL(inviteUrl).pathname);
      await expectVisible(carerPage.getByText(`Signed in as ${carer.username}.`));
      await expectNoA11yViolations(carerPage, `/invite signed in (${label})`);
      await screenshot(carerPage, `sharing-invite-signed-in-${label}`);
      await carerPage.getByRole('button', { name: 'Accept invitation' }).click();
      await expectPath(carerPage, '/dashboard');

      await openFamilySettings(carerPage);
      const shared = carerPage.getByRole('region', { name: 'Shared with me' });
      await expectVisible(shared.getByText(`Shared by ${parent.username}`));
      // An own profile without a name reads as its owner's.
      await expectVisible(shared.getByText(`${parent.username}'s profile`, { exact: true }));
      expect((await peopleOf(carerPage)).find((p) => p.shared_by === parent.username)).toMatchObject({ role: 'viewer' });
      await shared.getByRole('button', { name: `Leave ${parent.username}'s profile` }).click();
      const confirm = carerPage.getByRole('alertdialog', { name: `Leave ${parent.username}'s profile?` });
      await expectNoA11yViolations(carerPage, `/settings Leave confirmation (${label})`);
      await screenshot(carerPage, `sharing-leave-confirm-${label}`);
      await confirm.getByRole('button', { name: 'Leave', exact: true }).click();
      await expectVisible(shared.getByText(`You left ${parent.username}'s profile successfully.`));
      expect((await peopleOf(carerPage)).some((p) => p.shared_by === parent.username)).toBe(false);
    });
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a parent emails a manager invitation; the manager runs the code and shares on; a role changes in place; revoking the manager ends what they shared (${label})`, async () => {
      const parentPage = await newPage(viewport);
      const parent = await signUpAndLogIn(parentPage);
      await openFamilySettings(parentPage);
      const childId = await addChild(parentPage, 'Leo');
      const managerPage = await newPage(viewport);
      const manager = await signUpAndLogIn(managerPage);

      // The invitation goes by email (the run's server has SMTP_URL), with the link to copy too.
      const dialog = await openShareDialog(parentPage, 'Leo');
      await dialog.getByLabel('Email (optional)').fill(manager.email);
      await createInvitation(dialog, 'Manager');
      await expectVisible(dialog.getByText(`We emailed the link to ${manager.email}. You can also copy it.`, { exact: false }));
      await expectNoA11yViolations(parentPage, `Share access dialog, emailed (${label})`);
      await screenshot(parentPage, `sharing-emailed-${label}`);
      await parentPage.keyboard.press('Escape');
      // The manager's own sign-up confirmation may come first; this is the invitation.
      const mail = await waitForMailMatching(manager.email, (m) => m.text.includes('/invite/'));
      const emailed = /http:\/\/\S+\/invite\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
      expect(emailed, mail.text).toBeTruthy();
      expect(mail.text).toContain('as Manager');
      await open(managerPage, new URL(emailed ?? '').pathname);
      await managerPage.getByRole('button', { name: 'Accept invitation' }).click();
      await expectPath(managerPage, '/dashboard');

      // The manager's Family QR Codes holds Leo (they run his code), named with whose he is.
      await open(managerPage, '/settings?tab=family-qr');
      const leoCode = managerPage.getByRole('region', { name: 'QR Code for Leo' });
      await expectVisible(leoCode);
      await expectVisible(managerPage.getByText(`Shared by ${parent.username}`));
      await expectHidden(managerPage.getByText('No family members added'));
      await expectNoA11yViolations(managerPage, `/settings Family QR Codes as a manager (${label})`);
      await screenshot(managerPage, `sharing-manager-family-qr-${label}`);

      // The manager shares Leo on with a third account, as viewer.
      await open(managerPage, '/settings?tab=family');
      await managerPage.getByRole('region', { name: 'Shared with me' }).getByRole('button', { name: 'Share access to Leo' }).click();
      const managerDialog = managerPage.getByRole('dialog', { name: 'Share access to Leo' });
      const onward = await createInvitation(managerDialog, 'Viewer');
      await managerPage.keyboard.press('Escape');
      const auntPage = await newPage(viewport);
      const aunt = await signUpAndLogIn(auntPage);
      await open(auntPage, new URL(onward).pathname);
      await auntPage.getByRole('button', { name: 'Accept invitation' }).click();
      await expectPath(auntPage, '/dashboard');
      expect((await peopleOf(auntPage)).find((p) => p.id === childId)).toMatchObject({ role: 'viewer' });

      // The parent changes the aunt's role in place.
      await openFamilySettings(parentPage);
      const list = await openShareDialog(parentPage, 'Leo');
      const auntRole = list.getByRole('combobox', { name: `Role for ${aunt.username}` });
      await auntRole.selectOption('editor');
      await list.getByRole('button', { name: `Save role for ${aunt.username}` }).click();
      await expectVisible(list.getByText(`Role changed successfully: ${aunt.username} is now Editor.`));
      expect((await peopleOf(auntPage)).find((p) => p.id === childId)).toMatchObject({ role: 'editor' });
      await expectNoA11yViolations(parentPage, `Share access dialog, role changed (${label})`);
      await screenshot(parentPage, `sharing-role-changed-${label}`);

      // Revoking the manager says, and does, what goes with them.
      await list.getByRole('button', { name: `Revoke ${manager.username}` }).click();
      const confirm = parentPage.getByRole('alertdialog', { name: 'Revoke access' });
      await expectVisible(confirm.getByText(`Anyone ${manager.username} shared Leo with loses access too.`, { exact: false }));
      await screenshot(parentPage, `sharing-revoke-manager-confirm-${label}`);
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await expectVisible(list.getByText('Nobody else has access yet.'));
      expect((await peopleOf(auntPage)).some((p) => p.id === childId)).toBe(false);
      expect((await peopleOf(managerPage)).some((p) => p.id === childId)).toBe(false);
      await parentPage.keyboard.press('Escape');

      // The access history tells the parent what ended, and who did what.
      await parentPage.getByRole('button', { name: 'Access history of Leo' }).click();
      const history = parentPage.getByRole('dialog', { name: 'Access history: Leo' }).getByRole('list', { name: 'Access history' });
      await expectVisible(history.getByRole('listitem').filter({ hasText: 'Ended a passed-on share (Editor)' }));
      await expectVisible(history.getByRole('listitem').filter({ hasText: 'Changed a role (Viewer to Editor)' }));
      await expectNoA11yViolations(parentPage, `Access history after revoking a manager (${label})`);
      await screenshot(parentPage, `sharing-access-history-handed-on-${label}`);
    });

    test(`an invitee who signs up with the header's Sign Up is brought back to the invitation after logging in (${label})`, async () => {
      const parentPage = await newPage(viewport);
      await signUpAndLogIn(parentPage);
      await openFamilySettings(parentPage);
      const dialog = await openShareDialog(parentPage, 'your profile');
      const inviteUrl = await createInvitation(dialog, 'Viewer');
      const invitePath = new URL(inviteUrl).pathname;

      const page = await newPage(viewport);
      await open(page, invitePath);
      const invitee = uniqueUser('header');
      await page.getByRole('banner').getByRole('link', { name: 'Sign Up', exact: true }).click();
      await expectPath(page, '/signup');
      expect(new URL(page.url()).searchParams.get('next')).toBe(invitePath);
      await page.getByLabel('Username', { exact: true }).fill(invitee.username);
      await page.getByLabel('Email', { exact: true }).fill(invitee.email);
      await page.getByLabel('Password', { exact: true }).fill(invitee.password);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await expectPath(page, '/login');
      // The way back went with the sign-up to the login page.
      expect(new URL(page.url()).searchParams.get('next')).toBe(invitePath);
      await expectNoA11yViolations(page, `/login after sign-up from an invitation (${label})`);
      await screenshot(page, `sharing-header-signup-login-${label}`);
      await page.getByLabel('Email', { exact: true }).fill(invitee.email);
      await page.getByLabel('Password', { exact: true }).fill(invitee.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expectPath(page, invitePath);
      await page.getByRole('button', { name: 'Accept invitation' }).click();
      await expectPath(page, '/dashboard');
    });
  }

  test('an unknown invitation link says it is not available', async () => {
    const page = await newPage(DESKTOP);
    await open(page, `/invite/${'x'.repeat(43)}`);
    await expectVisible(page.getByText(GONE));
    await expectHidden(page.getByRole('button', { name: 'Accept invitation' }));
    await expectNoA11yViolations(page, '/invite unknown');
    // The token in the address never leaves in a Referer header.
    const res = await page.request.get(`/invite/${'x'.repeat(43)}`);
    expect(res.headers()['referrer-policy']).toBe('no-referrer');
  });
});
