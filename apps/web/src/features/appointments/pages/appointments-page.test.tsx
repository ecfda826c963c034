import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '@kinchart/shared/appointments';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { PERSON_COLORS } from '../../../lib/person-colors';
import { setSelectedPersonId } from '../../../lib/selected-person';
import type { AppointmentsCalendarProps } from '../components/appointments-calendar';
import { AppointmentsPage } from './appointments-page';

// The real calendar has its own test; here it is a list of its events, clickable like the real ones.
vi.mock('../components/appointments-calendar', () => ({
  AppointmentsCalendar: ({ events, onSelectEvent }: AppointmentsCalendarProps) => (
    <ul aria-label="Calendar events">
      {events.map((event) => (
        <li key={event.id}>
          <button type="button" data-colour={event.person?.background} onClick={() => onSelectEvent(event)}>
            {event.person ? `${event.person.name}: ` : ''}
            {event.title}
          </button>
        </li>
      ))}
    </ul>
  ),
}));

const checkUp: Appointment = {
  appointment_id: 'a1',
  id: 'a1',
  appointment_date: '2026-12-03',
  start_time: '2026-12-03T09:30:00',
  end_time: '2026-12-03T10:15:00',
  provider_name: 'Dr. Chen',
  reason_for_visit: 'Annual check-up',
  location: 'Riverside Clinic',
  created_at: '2026-11-01T12:00:00.000Z',
  person_id: 'person-self',
  person_name: 'Pat Example',
  reminder_minutes: [1440, 120],
};

/** A tiny appointments server: GET lists `store`, POST adds, PUT replaces, DELETE removes. */
function serve(initial: Appointment[], override: (call: FetchCall) => Response | undefined = () => undefined) {
  const store = [...initial];
  const mocked = mockFetch((call) => {
    const answer = override(call);
    if (answer) return answer;
    if (call.url === '/api/user/appointments' && call.method === 'GET') return json(store);
    if (call.url === '/api/user/appointments' && call.method === 'POST') {
      const body = call.body as Appointment;
      const created = { ...checkUp, ...body, appointment_id: 'a2', id: 'a2' };
      store.push(created);
      return json({ ...created, message: 'Appointment added successfully!' }, 201);
    }
    const match = /^\/api\/user\/appointments\/(.+)$/.exec(call.url);
    if (match && call.method === 'PUT') {
      const index = store.findIndex((a) => a.appointment_id === match[1]);
      if (index < 0) return json({ message: 'Appointment not found' }, 404);
      const updated = { ...store[index], ...(call.body as Appointment) };
      store[index] = updated;
      return json({ ...updated, message: 'Appointment updated successfully!' });
    }
    if (match && call.method === 'DELETE') {
      const index = store.findIndex((a) => a.appointment_id === match[1]);
      if (index >= 0) store.splice(index, 1);
      return json({ message: 'Appointment deleted successfully' });
    }
    return json({ message: 'Not found' }, 404);
  });
  const gets = () => mocked.calls.filter((c) => c.url === '/api/user/appointments' && c.method === 'GET').length;
  return { ...mocked, gets };
}

function renderPage() {
  return renderRoutes([{ path: '/appointments', element: <AppointmentsPage /> }], '/appointments');
}

describe('appointments page', () => {
  it('shows the title, subtitle, the add button and the calendar download with the time zone', async () => {
    serve([checkUp]);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Appointments' })).toBeTruthy();
    expect(screen.getByText('Manage your healthcare appointments')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add New Appointment' })).toBeTruthy();
    const download = screen.getByRole('link', { name: 'Download calendar (.ics)' });
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(download.getAttribute('href')).toBe(`/api/user/appointments.ics?tz=${encodeURIComponent(tz)}`);
    expect(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' })).toBeTruthy();
  });

  it('the add form requires date, times and provider through the browser, and has Cancel and a labelled ×', async () => {
    const { calls } = serve([]);
    const user = userEvent.setup();
    renderPage();

    await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Appointment' });
    for (const label of ['Date', 'Start Time', 'End Time', 'Provider Name']) {
      expect(within(dialog).getByLabelText<HTMLInputElement>(label).required, label).toBe(true);
    }
    for (const label of ['Reason for Visit', 'Location']) {
      expect(within(dialog).getByLabelText<HTMLInputElement>(label).required, label).toBe(false);
    }
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();

    // The browser refuses to submit an empty form.
    await user.click(within(dialog).getByRole('button', { name: 'Add Appointment' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an end time before the start time is refused in the form, the way the server would', async () => {
    const { calls } = serve([]);
    const user = userEvent.setup();
    renderPage();

    await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Appointment' });
    await user.type(within(dialog).getByLabelText('Date'), '2026-12-03');
    await user.type(within(dialog).getByLabelText('Start Time'), '10:00');
    await user.type(within(dialog).getByLabelText('End Time'), '09:00');
    await user.type(within(dialog).getByLabelText('Provider Name'), 'Dr. Chen');
    const end = within(dialog).getByLabelText<HTMLInputElement>('End Time');
    expect(end.validationMessage).toBe('End time cannot be before the start time');
    await user.click(within(dialog).getByRole('button', { name: 'Add Appointment' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('adding sends date + "T" + time, closes the modal, reloads the list, and the next form is empty', async () => {
    const { calls, gets } = serve([]);
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(gets()).toBe(1));

    await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Appointment' });
    await user.type(within(dialog).getByLabelText('Date'), '2026-12-03');
    await user.type(within(dialog).getByLabelText('Start Time'), '09:30');
    await user.type(within(dialog).getByLabelText('End Time'), '10:15');
    await user.type(within(dialog).getByLabelText('Provider Name'), 'Dr. Chen');
    await user.type(within(dialog).getByLabelText('Location'), 'Riverside Clinic');
    await user.click(within(dialog).getByRole('button', { name: 'Add Appointment' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      end_time: '2026-12-03T10:15',
      provider_name: 'Dr. Chen',
      reason_for_visit: '',
      location: 'Riverside Clinic',
      // Issue 32: the form's reminders, a day and two hours before unless changed.
      reminder_minutes: [1440, 120],
    });
    await waitFor(() => expect(gets()).toBe(2));
    expect(await screen.findByRole('button', { name: 'Dr. Chen' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
    const again = screen.getByRole('dialog', { name: 'Add New Appointment' });
    expect(within(again).getByLabelText<HTMLInputElement>('Provider Name').value).toBe('');
    expect(within(again).getByLabelText<HTMLInputElement>('Date').value).toBe('');
  });

  it('when the server cannot be reached, adding says so in the dialog and keeps what was typed', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve([], (call) => {
      if (call.method === 'POST') throw new TypeError('Failed to fetch');
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();

    await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Appointment' });
    await user.type(within(dialog).getByLabelText('Date'), '2026-12-03');
    await user.type(within(dialog).getByLabelText('Start Time'), '09:30');
    await user.type(within(dialog).getByLabelText('End Time'), '10:15');
    await user.type(within(dialog).getByLabelText('Provider Name'), 'Dr. Chen');
    await user.click(within(dialog).getByRole('button', { name: 'Add Appointment' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/could not be saved/i);
    expect(alert.textContent).toMatch(/could not reach the server/i);
    expect(error).toHaveBeenCalledWith('Error adding appointment:', expect.anything());
    expect(screen.getByRole('dialog', { name: 'Add New Appointment' })).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Provider Name').value).toBe('Dr. Chen');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Start Time').value).toBe('09:30');
    expect(within(dialog).getByRole('button', { name: 'Add Appointment' })).toBeTruthy();
  });

  it('a refused add shows the server’s message in the dialog and keeps the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve([], (call) => (call.method === 'POST' ? json({ message: 'End time cannot be before the start time' }, 400) : undefined));
    const user = userEvent.setup();
    renderPage();

    await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Appointment' });
    await user.type(within(dialog).getByLabelText('Date'), '2026-12-03');
    await user.type(within(dialog).getByLabelText('Start Time'), '09:30');
    await user.type(within(dialog).getByLabelText('End Time'), '10:15');
    await user.type(within(dialog).getByLabelText('Provider Name'), 'Dr. Chen');
    await user.click(within(dialog).getByRole('button', { name: 'Add Appointment' }));

    expect((await within(dialog).findByRole('alert')).textContent).toContain('End time cannot be before the start time');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Provider Name').value).toBe('Dr. Chen');
  });

  it('clicking an event opens its details; Delete asks first, and confirming removes it, closes the modal and reloads the list', async () => {
    const { calls, gets } = serve([checkUp]);
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    const dialog = screen.getByRole('dialog', { name: 'Appointment Details' });
    expect(within(dialog).getByText('Thursday, December 3, 2026')).toBeTruthy();
    expect(within(dialog).getByText('9:30 AM')).toBeTruthy();
    expect(within(dialog).getByText('10:15 AM')).toBeTruthy();
    expect(within(dialog).getByText('Riverside Clinic')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Appointment' });
    expect(confirm.textContent).toContain('Dr. Chen');
    // Focus starts on Cancel, so Enter straight away never deletes.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/appointments/a1');
    await waitFor(() => expect(gets()).toBe(2));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Dr. Chen - Annual check-up' })).toBeNull());
  });

  it('cancelling the delete confirmation keeps the appointment and its details', async () => {
    const { calls } = serve([checkUp]);
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Appointment Details' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Delete Appointment' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Appointment Details' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  });

  it('Edit in the details opens the form filled in; saving sends the whole appointment with PUT, closes and reloads', async () => {
    const { calls, gets } = serve([checkUp]);
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Appointment Details' })).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Appointment' });
    const value = (label: string) => within(dialog).getByLabelText<HTMLInputElement>(label).value;
    expect(value('Date')).toBe('2026-12-03');
    expect(value('Start Time')).toBe('09:30');
    expect(value('End Time')).toBe('10:15');
    expect(value('Provider Name')).toBe('Dr. Chen');
    expect(value('Reason for Visit')).toBe('Annual check-up');
    expect(value('Location')).toBe('Riverside Clinic');

    await user.clear(within(dialog).getByLabelText('Provider Name'));
    await user.type(within(dialog).getByLabelText('Provider Name'), 'Dr. Okafor');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/appointments/a1');
    expect(put?.body).toEqual({
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      end_time: '2026-12-03T10:15',
      provider_name: 'Dr. Okafor',
      reason_for_visit: 'Annual check-up',
      location: 'Riverside Clinic',
      reminder_minutes: [1440, 120],
    });
    await waitFor(() => expect(gets()).toBe(2));
    expect(await screen.findByRole('button', { name: 'Dr. Okafor - Annual check-up' })).toBeTruthy();
  });

  it('a failed edit says why in the dialog and keeps the changes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve([checkUp], (call) => (call.method === 'PUT' ? json({ message: 'Appointment not found' }, 404) : undefined));
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Appointment Details' })).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Appointment' });
    await user.clear(within(dialog).getByLabelText('Location'));
    await user.type(within(dialog).getByLabelText('Location'), 'Hillside');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect((await within(dialog).findByRole('alert')).textContent).toContain('Appointment not found');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Location').value).toBe('Hillside');
  });

  it('the details open with focus on Close, never on Delete, so Enter cannot start a deletion', async () => {
    serve([checkUp]);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    const dialog = screen.getByRole('dialog', { name: 'Appointment Details' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' })));
  });

  it('Close shuts the details modal without deleting', async () => {
    const { calls } = serve([checkUp]);
    const user = userEvent.setup();
    renderPage();

    await user.click(await screen.findByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Appointment Details' })).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  });

  it('a failed load is only logged and the page still works', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve([], (call) => (call.method === 'GET' ? json({ message: 'Server unavailable' }, 500) : undefined));
    renderPage();
    await waitFor(() => expect(error).toHaveBeenCalledWith('Error fetching appointments:', expect.anything()));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add New Appointment' })).toBeTruthy();
  });

  describe('with family and shared people', () => {
    const people = [
      makeSelf('person-self', { name: 'Pat Example' }),
      makeFamilyPerson('mia', { name: 'Mia' }),
      makeSharedPerson('joe', { name: 'Grandpa Joe', shared_by: 'sam', role: 'viewer' }),
    ];
    const miaVisit: Appointment = {
      ...checkUp,
      appointment_id: 'a2',
      id: 'a2',
      provider_name: 'Dr. Park',
      reason_for_visit: 'Vaccines',
      person_id: 'mia',
      person_name: 'Mia',
      reminder_minutes: [1440, 120],
    };
    const joeVisit: Appointment = {
      ...checkUp,
      appointment_id: 'a3',
      id: 'a3',
      provider_name: 'Dr. Ortiz',
      reason_for_visit: 'Eyes',
      person_id: 'joe',
      person_name: 'Grandpa Joe',
      reminder_minutes: [1440, 120],
    };
    const servePeople = (store: Appointment[]) =>
      serve(store, (call) => {
        if (call.url === '/api/user/people') return json(people);
        if (call.url === '/api/user/appointments?person=mia') return json(store.filter((a) => a.person_id === 'mia'));
        return undefined;
      });

    beforeEach(() => setSelectedPersonId(null));

    it("shows everyone's appointments by default, each with its person's name and colour, and a legend", async () => {
      servePeople([checkUp, miaVisit, joeVisit]);
      renderPage();
      const filter = await screen.findByRole('combobox', { name: 'Person' });
      expect((filter as HTMLSelectElement).value).toBe('');
      expect(
        within(filter)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Everyone', 'Pat Example (you)', 'Mia', 'Grandpa Joe (Shared by sam)']);
      const mia = await screen.findByRole('button', { name: 'Mia: Dr. Park - Vaccines' });
      expect(mia.dataset.colour).toBe(PERSON_COLORS[1]!.background);
      expect(screen.getByRole('button', { name: 'Pat Example: Dr. Chen - Annual check-up' }).dataset.colour).toBe(
        PERSON_COLORS[0]!.background,
      );
      const legend = screen.getByRole('list', { name: 'Calendar colours' });
      expect(
        within(legend)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Pat Example (you)', 'Mia', 'Grandpa Joe (Shared by sam)']);
    });

    it("the filter shows one person's appointments, kept in the address", async () => {
      const { calls } = servePeople([checkUp, miaVisit, joeVisit]);
      const user = userEvent.setup();
      const { router } = renderPage();
      await user.selectOptions(await screen.findByRole('combobox', { name: 'Person' }), 'mia');
      await waitFor(() => expect(screen.queryByRole('button', { name: /Dr. Chen/ })).toBeNull());
      expect(screen.getByRole('button', { name: 'Mia: Dr. Park - Vaccines' })).toBeTruthy();
      expect(calls.some((c) => c.url === '/api/user/appointments?person=mia')).toBe(true);
      expect(router.state.location.search).toBe('?person=mia');
      expect(screen.queryByRole('list', { name: 'Calendar colours' })).toBeNull();
    });

    it("the details name the person; a viewer's shared appointment has no Edit or Delete", async () => {
      servePeople([checkUp, miaVisit, joeVisit]);
      const user = userEvent.setup();
      renderPage();
      await user.click(await screen.findByRole('button', { name: /Dr. Ortiz/ }));
      const dialog = screen.getByRole('dialog', { name: 'Appointment Details' });
      expect(within(dialog).getByText('Person')).toBeTruthy();
      expect(within(dialog).getByText('Grandpa Joe')).toBeTruthy();
      expect(within(dialog).queryByRole('button', { name: 'Delete' })).toBeNull();
      expect(within(dialog).queryByRole('button', { name: 'Edit' })).toBeNull();
      await user.click(within(dialog).getByRole('button', { name: 'Close' }));

      await user.click(screen.getByRole('button', { name: /Dr. Park/ }));
      const mine = screen.getByRole('dialog', { name: 'Appointment Details' });
      expect(within(mine).getByRole('button', { name: 'Delete' })).toBeTruthy();
      await user.click(within(mine).getByRole('button', { name: 'Edit' }));
      // The edit keeps the appointment's person and says whose it is.
      const form = screen.getByRole('dialog', { name: 'Edit Appointment' });
      expect(within(form).queryByRole('combobox', { name: 'For' })).toBeNull();
      expect(within(form).getByText('Mia').closest('p')?.textContent).toBe('For Mia');
    });

    it('the add form\'s "For" starts on the person chosen on the dashboard, offers no viewer-only person, and sends person_id', async () => {
      setSelectedPersonId('mia');
      const { calls } = servePeople([]);
      const user = userEvent.setup();
      renderPage();
      await screen.findByRole('combobox', { name: 'Person' });
      await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
      const dialog = screen.getByRole('dialog', { name: 'Add New Appointment' });
      const forChoice = await within(dialog).findByRole('combobox', { name: 'For' });
      expect((forChoice as HTMLSelectElement).value).toBe('mia');
      expect(
        within(forChoice)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Pat Example (you)', 'Mia']);

      await user.type(within(dialog).getByLabelText('Date'), '2026-12-03');
      await user.type(within(dialog).getByLabelText('Start Time'), '09:30');
      await user.type(within(dialog).getByLabelText('End Time'), '10:00');
      await user.type(within(dialog).getByLabelText('Provider Name'), 'Dr. Park');
      await user.click(within(dialog).getByRole('button', { name: 'Add Appointment' }));
      await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toBeTruthy());
      expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ person_id: 'mia', provider_name: 'Dr. Park' });
    });

    it('without a choice on the dashboard, "For" starts on yourself', async () => {
      servePeople([]);
      const user = userEvent.setup();
      renderPage();
      await screen.findByRole('combobox', { name: 'Person' });
      await user.click(screen.getByRole('button', { name: 'Add New Appointment' }));
      const forChoice = await within(screen.getByRole('dialog', { name: 'Add New Appointment' })).findByRole('combobox', { name: 'For' });
      expect((forChoice as HTMLSelectElement).value).toBe('person-self');
    });
  });
});

describe('opened from a search result', () => {
  it('opens the details of the appointment the address names, wherever it falls in the calendar', async () => {
    const user = userEvent.setup();
    serve([checkUp]);
    renderRoutes([{ path: '/appointments', element: <AppointmentsPage /> }], '/appointments#appointment-a1');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Riverside Clinic')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
