import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { makeShare } from '../testing/fixtures';
import { ReauthPrompt } from '../../auth/components/reauth-prompt';
import { ShareAccessDialog } from './share-access-dialog';

const TOKEN = 'A'.repeat(43);
const SHARES = '/api/user/people/m1/shares';

function renderDialog(handler: (call: FetchCall) => Response) {
  const onClose = vi.fn();
  const fetched = mockFetch(handler);
  const user = userEvent.setup();
  renderRoutes([{ path: '/', element: <ShareAccessDialog person={{ id: 'm1', label: 'Mia' }} onClose={onClose} /> }], '/');
  return { ...fetched, user, onClose };
}

describe('Share access dialog', () => {
  it('creates an invitation link for the chosen role, end date and email, and copies it', async () => {
    let shares = [makeShare('s1')];
    const { calls, user } = renderDialog((call) => {
      if (call.method === 'POST') {
        shares = [
          ...shares,
          makeShare('s2', {
            role: 'editor',
            status: 'pending',
            holder_username: null,
            email: 'bo@example.com',
            expires_at: '2099-12-31',
            accepted_at: null,
          }),
        ];
        return json(
          { share_id: 's2', invite_url: `http://localhost/invite/${TOKEN}`, role: 'editor', expires_at: '2099-12-31', emailed: false },
          201,
        );
      }
      return json(shares);
    });

    const dialog = await screen.findByRole('dialog', { name: 'Share access to Mia' });
    // Least access first: Viewer is chosen, and focus starts on it.
    const viewer = within(dialog).getByRole('radio', { name: 'Viewer' });
    expect((viewer as HTMLInputElement).checked).toBe(true);
    expect(document.activeElement).toBe(viewer);
    expect(within(dialog).getByRole('radio', { name: 'Editor' }).getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText('Can also manage the emergency code and who has access')).toBeTruthy();

    await user.click(within(dialog).getByRole('radio', { name: 'Editor' }));
    await user.type(within(dialog).getByLabelText('Access ends (optional)'), '2099-12-31');
    await user.type(within(dialog).getByLabelText('Email (optional)'), ' Bo@Example.com ');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));

    const link = await within(dialog).findByRole('textbox', { name: 'Invitation link' });
    expect((link as HTMLInputElement).value).toBe(`http://localhost/invite/${TOKEN}`);
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: SHARES,
      credentials: 'include',
      body: { role: 'editor', expires_at: '2099-12-31', email: 'bo@example.com' },
    });
    expect(within(dialog).getByText(/Editor access, until Dec 31, 2099/)).toBeTruthy();
    const copy = within(dialog).getByRole('button', { name: 'Copy link' });
    expect(document.activeElement).toBe(copy);

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(copy);
    expect(writeText).toHaveBeenCalledWith(`http://localhost/invite/${TOKEN}`);
    // Seen beside the button, and announced (a polite live region).
    const copied = within(dialog).getByText('Link copied to clipboard!');
    expect(copied.closest('[role="status"]')).toBeTruthy();

    // The list follows: the new invitation shows as pending with its email label.
    const pending = await within(dialog).findByText('bo@example.com');
    const row = pending.closest('li')!;
    expect(within(row).getByText('Pending')).toBeTruthy();
    expect(within(row).getByText('Editor', { selector: 'span' })).toBeTruthy();
    expect(within(row).getByText('Until Dec 31, 2099')).toBeTruthy();

    // Another link starts from a fresh form, focus on its chosen role.
    await user.click(within(dialog).getByRole('button', { name: 'Create another link' }));
    expect(document.activeElement).toBe(within(dialog).getByRole('radio', { name: 'Viewer' }));
  });

  it('says when the link cannot be copied', async () => {
    const { user } = renderDialog((call) =>
      call.method === 'POST'
        ? json({ share_id: 's2', invite_url: `/invite/${TOKEN}`, role: 'viewer', expires_at: null, emailed: false }, 201)
        : json([]),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    // A bare path from the server is read against this site.
    const link = await within(dialog).findByRole('textbox', { name: 'Invitation link' });
    expect((link as HTMLInputElement).value).toBe(`${window.location.origin}/invite/${TOKEN}`);
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) },
      configurable: true,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The link could not be copied. Select it and copy it by hand.');
  });

  it('refuses a bad email or a past end date before asking the server, and shows the server’s refusal', async () => {
    const { calls, user } = renderDialog((call) =>
      call.method === 'POST' ? json({ message: 'A person can have at most 50 shares' }, 400) : json([]),
    );
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Email (optional)'), 'not an email');
    await user.type(within(dialog).getByLabelText('Access ends (optional)'), '2001-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeTruthy();
    expect(within(dialog).getByText('End date must be in the future')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(dialog).getByLabelText('Email (optional)'));
    await user.clear(within(dialog).getByLabelText('Access ends (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('A person can have at most 50 shares');
  });

  it('lists who has access, and Revoke asks first, then ends the share', async () => {
    let shares = [
      makeShare('s1', { holder_username: 'grandma', role: 'editor', expires_at: '2099-06-30' }),
      makeShare('s2', { status: 'pending', holder_username: null, accepted_at: null }),
    ];
    const { calls, user } = renderDialog((call) => {
      if (call.method === 'DELETE') {
        shares = shares.filter((s) => !call.url.endsWith(`/${s.share_id}`));
        return json({ message: 'Access revoked' });
      }
      return json(shares);
    });
    const dialog = await screen.findByRole('dialog');
    const list = await within(dialog).findByRole('list', { name: 'Who has access' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('grandma');
    expect(rows[0]!.textContent).toContain('Active');
    expect(rows[0]!.textContent).toContain('Until Jun 30, 2099');
    expect(rows[1]!.textContent).toContain('Invitation');
    expect(rows[1]!.textContent).toContain('No end date');

    await user.click(within(dialog).getByRole('button', { name: 'Revoke grandma' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke access' });
    expect(confirm.textContent).toContain('grandma will no longer see Mia.');
    expect(confirm.textContent).not.toContain('loses access too');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Revoke grandma' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('Access revoked successfully.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`${SHARES}/s1`);
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Revoke grandma' })).toBeNull());
    // Focus stays in the dialog, on the list's heading.
    expect(document.activeElement?.textContent).toBe('Who has access');
  });

  it('changes a role in place: Save role sends it, and a manager made editor is told what ends with it', async () => {
    let shares = [
      makeShare('s1', { holder_username: 'grandma', role: 'manager' }),
      makeShare('s2', { holder_username: 'bo', role: 'viewer' }),
    ];
    const { calls, user } = renderDialog((call) => {
      if (call.method === 'PUT') {
        const role = (call.body as { role: 'viewer' | 'editor' | 'manager' }).role;
        shares = shares.map((s) => (call.url.endsWith(`/${s.share_id}`) ? { ...s, role } : s));
        return json(shares.find((s) => call.url.endsWith(`/${s.share_id}`)));
      }
      return json(shares);
    });
    const dialog = await screen.findByRole('dialog');
    const role = await within(dialog).findByRole('combobox', { name: 'Role for grandma' });
    expect((role as HTMLSelectElement).value).toBe('manager');
    // Revoking a manager says what goes with them.
    await user.click(within(dialog).getByRole('button', { name: 'Revoke grandma' }));
    expect(screen.getByRole('alertdialog', { name: 'Revoke access' }).textContent).toContain(
      'Anyone grandma shared Mia with loses access too.',
    );
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).queryByRole('button', { name: 'Save role for grandma' })).toBeNull();
    await user.selectOptions(role, 'editor');
    expect(within(dialog).getByText('Anyone grandma shared Mia with loses access too.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save role for grandma' }));
    expect(await within(dialog).findByText('Role changed successfully: grandma is now Editor.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: `${SHARES}/s1`, body: { role: 'editor' } });
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Save role for grandma' })).toBeNull());
    expect(within(dialog).queryByText('Anyone grandma shared Mia with loses access too.')).toBeNull();
  });

  it('shows the server’s refusal of a role change and keeps the role as it was', async () => {
    const { user } = renderDialog((call) =>
      call.method === 'PUT'
        ? json({ message: 'Only the owner or a manager of this person can do this' }, 403)
        : json([makeShare('s1', { holder_username: 'bo' })]),
    );
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Role for bo' }), 'editor');
    await user.click(within(dialog).getByRole('button', { name: 'Save role for bo' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Only the owner or a manager of this person can do this');
    expect((await within(dialog).findByRole<HTMLSelectElement>('combobox', { name: 'Role for bo' })).value).toBe('viewer');
  });

  it('says the link went by email when the server sent it, and to send it yourself when it could not', async () => {
    const answers = [
      json({ share_id: 's2', invite_url: `http://localhost/invite/${TOKEN}`, role: 'viewer', expires_at: null, emailed: true }, 201),
      json({ share_id: 's3', invite_url: `http://localhost/invite/${TOKEN}`, role: 'viewer', expires_at: null, emailed: false }, 201),
    ];
    const { user } = renderDialog((call) => (call.method === 'POST' ? (answers.shift() ?? json({}, 500)) : json([])));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Email (optional)'), 'bo@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(await within(dialog).findByText(/We emailed the link to bo@example.com\. You can also copy it/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Create another link' }));
    await user.type(within(dialog).getByLabelText('Email (optional)'), 'bo@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(await within(dialog).findByText(/This server does not send email, so send the link to bo@example\.com yourself/)).toBeTruthy();
  });

  it('says when the list cannot be loaded, tries again, and says when nobody else has access', async () => {
    const answers = [json({ message: 'Only the owner or a manager of this person can do this' }, 403), json([])];
    const { user } = renderDialog(() => answers.shift() ?? json([]));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Only the owner or a manager of this person can do this');
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Nobody else has access yet.')).toBeTruthy();
  });

  it('Close and Escape close it', async () => {
    const { user, onClose } = renderDialog(() => json([]));
    const dialog = await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[1]!);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  // DESIGN §5: creating a share needs the password within the last 10 minutes.
  it('asks for the password before creating the link when the session’s last one is old, then creates it', async () => {
    const posts = [
      json({ message: 'Please confirm your password to continue.', reauth_required: true }, 401),
      json({ share_id: 's2', invite_url: `http://localhost/invite/${TOKEN}`, role: 'viewer', expires_at: null, emailed: false }, 201),
    ];
    const onClose = vi.fn();
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/auth/reauth') return json({ message: 'Password confirmed', authenticated_until: '2026-03-04T10:10:00.000Z' });
      if (call.method === 'POST') return posts.shift()!;
      return json([]);
    });
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <ReauthPrompt />
              <ShareAccessDialog person={{ id: 'm1', label: 'Mia' }} onClose={onClose} />
            </>
          ),
        },
      ],
      '/',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Share access to Mia' });
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(prompt).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    const link = await within(dialog).findByRole('textbox', { name: 'Invitation link' });
    expect((link as HTMLInputElement).value).toBe(`http://localhost/invite/${TOKEN}`);
    expect(screen.queryByRole('dialog', { name: 'Confirm your password' })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([SHARES, '/api/auth/reauth', SHARES]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says the invitation was not created when the password prompt is cancelled', async () => {
    mockFetch((call) =>
      call.method === 'POST' ? json({ message: 'Please confirm your password to continue.', reauth_required: true }, 401) : json([]),
    );
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <ReauthPrompt />
              <ShareAccessDialog person={{ id: 'm1', label: 'Mia' }} onClose={vi.fn()} />
            </>
          ),
        },
      ],
      '/',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Share access to Mia' });
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The invitation was not created: your password was not confirmed.');
    expect(screen.getByRole('dialog', { name: 'Share access to Mia' })).toBeTruthy();
  });
});
