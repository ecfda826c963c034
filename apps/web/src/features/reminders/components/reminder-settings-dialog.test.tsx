import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ReminderSettingsDialog, type ReminderTarget } from './reminder-settings-dialog';

const PATH = '/api/user/people/p1/reminder-settings';

function renderDialog(person: ReminderTarget) {
  return renderRoutes([{ path: '/', element: <ReminderSettingsDialog person={person} onClose={() => undefined} /> }], '/');
}

describe('reminder settings', () => {
  it("shows this account's three switches for the person and saves each change at once", async () => {
    let stored = { dose_reminders: false, missed_dose_alerts: false, appointment_reminders: false };
    const { calls } = mockFetch((call) => {
      if (call.url !== PATH) return json({ message: 'Not found' }, 404);
      if (call.method === 'PUT') stored = { ...stored, ...(call.body as object) };
      return json(stored);
    });
    const user = userEvent.setup();
    renderDialog({ id: 'p1', name: 'Mia', self: false });

    const dialog = await screen.findByRole('dialog', { name: 'Reminders for Mia' });
    const doses = await within(dialog).findByRole('switch', { name: "Remind me about Mia's doses" });
    const missed = within(dialog).getByRole('switch', { name: 'Tell me when a dose is missed' });
    const appointments = within(dialog).getByRole('switch', { name: "Remind me about Mia's appointments" });
    expect([doses, missed, appointments].map((s) => (s as HTMLInputElement).checked)).toEqual([false, false, false]);

    await user.click(missed);
    await waitFor(() => expect((missed as HTMLInputElement).checked).toBe(true));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ missed_dose_alerts: true }]);
    expect(within(dialog).getByRole('status').textContent).toBe('Saved.');
  });

  it('a refused change shows the stored value again and says why', async () => {
    mockFetch((call) =>
      call.method === 'PUT'
        ? json({ message: 'Something went wrong. Please try again.' }, 500)
        : json({ dose_reminders: true, missed_dose_alerts: false, appointment_reminders: true }),
    );
    const user = userEvent.setup();
    renderDialog({ id: 'p1', name: 'Alice', self: true });
    const dialog = await screen.findByRole('dialog', { name: 'Reminders for your profile' });
    const doses = await within(dialog).findByRole('switch', { name: 'Remind me about my doses' });
    await user.click(doses);
    expect(await within(dialog).findByText('Something went wrong. Please try again.')).toBeTruthy();
    expect((doses as HTMLInputElement).checked).toBe(true);
  });
});
