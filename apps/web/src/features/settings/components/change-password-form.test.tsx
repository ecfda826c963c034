import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ChangePasswordForm } from './change-password-form';

function renderForm() {
  return renderRoutes([{ path: '/', element: <ChangePasswordForm /> }], '/');
}

async function fill(user: ReturnType<typeof userEvent.setup>, confirm: string) {
  await user.type(await screen.findByLabelText('Current Password'), 'old-password-1');
  await user.type(screen.getByLabelText('New Password'), 'new-password-22');
  await user.type(screen.getByLabelText('Confirm New Password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
}

describe('Change Password', () => {
  it('"New passwords do not match" blocks the request', async () => {
    const { calls } = mockFetch(() => json({ message: 'Password updated successfully' }));
    const user = userEvent.setup();
    renderForm();
    await fill(user, 'new-password-23');

    expect(await screen.findByText('New passwords do not match')).toBeTruthy();
    expect(screen.getByLabelText('Confirm New Password').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });

  it('sends current and new password with PUT and shows the server message in green', async () => {
    const { calls } = mockFetch(() => json({ message: 'Password updated successfully' }));
    const user = userEvent.setup();
    renderForm();
    await fill(user, 'new-password-22');

    const message = await screen.findByText('Password updated successfully');
    expect(message.className).toContain('text-green');
    expect(calls).toEqual([
      expect.objectContaining({
        url: '/api/auth/changePassword',
        method: 'PUT',
        body: { currentPassword: 'old-password-1', newPassword: 'new-password-22' },
      }),
    ]);
    expect(screen.getByLabelText<HTMLInputElement>('Current Password').value).toBe('');
  });

  it('shows the server message on failure, else "Failed to update password"', async () => {
    const answers = [json({ message: 'Current password is incorrect' }, 401), json({}, 500)];
    mockFetch(() => answers.shift()!);
    const user = userEvent.setup();
    renderForm();
    await fill(user, 'new-password-22');
    expect((await screen.findByRole('alert')).textContent).toBe('Current password is incorrect');

    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Failed to update password')).toBeTruthy();
  });
});
