import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Medication } from '@kinchart/shared/profile';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { setSelectedPersonId } from '../../../lib/selected-person';
import { notify } from '../../../lib/toast';
import { localToday } from '../utils/prescription-form';
import { PrescriptionsPage } from './prescriptions-page';
import { makeProfile } from '../../../../test/profiles';

vi.mock('../../../lib/toast');

const lisinopril: Medication = {
  id: 'm1',
  medication_id: 'm1',
  medication_name: 'Lisinopril',
  dosage: '10 mg',
  frequency: 'Once daily',
  purpose: 'Blood pressure',
  start_date: '2025-01-10',
  end_date: null,
  is_current: true,
};

const amoxicillin: Medication = {
  id: 'm2',
  medication_id: 'm2',
  medication_name: 'Amoxicillin',
  dosage: '500 mg',
  frequency: 'Three times daily',
  purpose: 'Infection',
  start_date: '2025-03-01',
  end_date: '2025-03-10',
  is_current: false,
};

type Route = (call: FetchCall) => Response | Promise<Response | undefined> | undefined;

/** Answers the profile with `medications`, then whatever `route` answers; 404 otherwise. */
function serve(medications: Medication[], route: Route = () => undefined) {
  return mockFetch(async (call) => {
    if (call.url === '/api/user/getPatientProfile') return json(makeProfile({ medications }));
    return (await route(call)) ?? json({ message: 'Not found' }, 404);
  });
}

function renderPage() {
  return renderRoutes([{ path: '/prescriptions', element: <PrescriptionsPage /> }], '/prescriptions');
}

const card = (name: string) => screen.getByRole('article', { name });

beforeEach(() => {
  vi.mocked(notify.success).mockClear();
  setSelectedPersonId(null);
});

describe('prescriptions page', () => {
  it('when the medications cannot be loaded it says so instead of an empty list, and Try again fetches them', async () => {
    let fail = true;
    mockFetch(() => (fail ? json({ message: 'Internal Server Error' }, 500) : json(makeProfile({ medications: [lisinopril] }))));
    const user = userEvent.setup();
    renderPage();
    const panel = await screen.findByRole('tabpanel');
    expect(await within(panel).findByText('Your medications could not be loaded.')).toBeTruthy();
    expect(screen.queryByText('No current medications.')).toBeNull();
    expect(screen.queryByText('No past medications.')).toBeNull();
    fail = false;
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Lisinopril' })).toBeTruthy();
  });

  it('lists current medications with an Active badge and Edit, End medication and Delete actions', async () => {
    serve([lisinopril, amoxicillin]);
    renderPage();

    expect(screen.getByRole('heading', { level: 1, name: 'Prescriptions' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Current Medications' }).getAttribute('aria-selected')).toBe('true');
    const item = await screen.findByRole('article', { name: 'Lisinopril' });
    expect(within(item).getByText('Active')).toBeTruthy();
    expect(within(item).getByText('10 mg')).toBeTruthy();
    expect(
      within(item)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Edit Lisinopril', 'End medication Lisinopril', 'Delete Lisinopril']);
    // The ended one is not in the current list.
    expect(within(screen.getByRole('tabpanel')).queryByText('Amoxicillin')).toBeNull();
  });

  it('history shows past medications with an Ended badge, their end date and only Delete', async () => {
    serve([lisinopril, amoxicillin]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Lisinopril' });

    await user.click(screen.getByRole('tab', { name: 'Medication History' }));
    const panel = screen.getByRole('tabpanel');
    const item = within(panel).getByRole('article', { name: 'Amoxicillin' });
    expect(within(item).getByText('Ended')).toBeTruthy();
    expect(within(item).queryByText('Active')).toBeNull();
    expect(within(item).getByText('End Date')).toBeTruthy();
    expect(within(item).getByText('Mar 10, 2025')).toBeTruthy();
    expect(
      within(item)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Delete Amoxicillin']);
    expect(within(panel).queryByText('Lisinopril')).toBeNull();
  });

  it('the add form will not send without name, dosage, frequency, purpose and start date', async () => {
    const { calls } = serve([]);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('No current medications.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add Medication' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Medication' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Currently Taking').checked).toBe(true);
    await user.type(within(dialog).getByLabelText('Dosage'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Add Medication' }));

    for (const message of [
      'Medication name is required',
      'Dosage is required',
      'Frequency is required',
      'Purpose is required',
      'Start date is required',
    ]) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    expect(within(dialog).getByLabelText('Medication Name').getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Add Medication' })).toBeTruthy();
  });

  it('adding a medication posts it, closes the modal, lists it without reloading and says so', async () => {
    const { calls } = serve([], (call) => {
      if (call.method === 'POST' && call.url === '/api/user/medications') {
        return json({ ...lisinopril, message: 'Medication added successfully!' }, 201);
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('No current medications.');

    await user.click(screen.getByRole('button', { name: 'Add Medication' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Medication' });
    await user.type(within(dialog).getByLabelText('Medication Name'), 'Lisinopril');
    await user.type(within(dialog).getByLabelText('Dosage'), '10 mg');
    await user.type(within(dialog).getByLabelText('Frequency'), 'Once daily');
    await user.type(within(dialog).getByLabelText('Purpose'), 'Blood pressure');
    await user.type(within(dialog).getByLabelText('Start Date'), '2025-01-10');
    await user.click(within(dialog).getByRole('button', { name: 'Add Medication' }));

    expect(await screen.findByRole('article', { name: 'Lisinopril' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(notify.success).toHaveBeenCalledWith('Medication added successfully!');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      medication_name: 'Lisinopril',
      dosage: '10 mg',
      frequency: 'Once daily',
      purpose: 'Blood pressure',
      start_date: '2025-01-10',
      is_current: true,
      end_date: null,
    });
    // Updated from the answer, not by loading the profile again.
    expect(calls.filter((c) => c.url === '/api/user/getPatientProfile')).toHaveLength(1);
  });

  it('a failed add alerts the spec text and keeps the form open', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    serve([], (call) => (call.method === 'POST' ? json({ message: 'Server unavailable' }, 500) : undefined));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('No current medications.');

    await user.click(screen.getByRole('button', { name: 'Add Medication' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Medication' });
    for (const [label, value] of [
      ['Medication Name', 'Lisinopril'],
      ['Dosage', '10 mg'],
      ['Frequency', 'Once daily'],
      ['Purpose', 'Blood pressure'],
      ['Start Date', '2025-01-10'],
    ] as const) {
      await user.type(within(dialog).getByLabelText(label), value);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Add Medication' }));

    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to add medication. Please try again.'));
    expect(within(dialog).getByRole('alert').textContent).toContain('Failed to add medication. Please try again.');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Medication Name').value).toBe('Lisinopril');
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('editing sends the whole medication with PUT and updates the card', async () => {
    const { calls } = serve([lisinopril], (call) => {
      if (call.method === 'PUT') return json({ ...lisinopril, dosage: '20 mg', message: 'Medication updated successfully!' });
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();

    await user.click(within(await screen.findByRole('article', { name: 'Lisinopril' })).getByRole('button', { name: 'Edit Lisinopril' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Medication' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Start Date').value).toBe('2025-01-10');
    await user.clear(within(dialog).getByLabelText('Dosage'));
    await user.type(within(dialog).getByLabelText('Dosage'), '20 mg');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await within(card('Lisinopril')).findByText('20 mg')).toBeTruthy();
    expect(notify.success).toHaveBeenCalledWith('Medication updated successfully!');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/medications/m1');
    expect(put?.body).toEqual({
      medication_name: 'Lisinopril',
      dosage: '20 mg',
      frequency: 'Once daily',
      purpose: 'Blood pressure',
      start_date: '2025-01-10',
      is_current: true,
      end_date: null,
    });
  });

  it('ending a medication sends is_current false with the end date, and it moves to history', async () => {
    const { calls } = serve([lisinopril], (call) => {
      if (call.method === 'PUT') {
        const body = call.body as Partial<Medication>;
        return json({ ...lisinopril, ...body, message: 'Medication updated successfully!' });
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage();

    await user.click(within(await screen.findByRole('article', { name: 'Lisinopril' })).getByRole('button', { name: /^End medication/ }));
    const dialog = screen.getByRole('dialog', { name: 'End medication' });
    const date = within(dialog).getByLabelText<HTMLInputElement>('End Date');
    expect(date.value).toBe(localToday());
    expect(date.min).toBe('2025-01-10');

    // Not before the start date.
    await user.clear(date);
    await user.type(date, '2025-01-09');
    await user.click(within(dialog).getByRole('button', { name: 'End medication' }));
    expect(await within(dialog).findByText('End date cannot be before the start date')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.clear(date);
    await user.type(date, '2025-06-30');
    await user.click(within(dialog).getByRole('button', { name: 'End medication' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/medications/m1');
    expect(put?.body).toEqual({
      medication_name: 'Lisinopril',
      dosage: '10 mg',
      frequency: 'Once daily',
      purpose: 'Blood pressure',
      start_date: '2025-01-10',
      is_current: false,
      end_date: '2025-06-30',
    });
    expect(notify.success).toHaveBeenCalledWith('Medication updated successfully!');
    expect(screen.getByText('No current medications.')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Medication History' }));
    const ended = within(screen.getByRole('tabpanel')).getByRole('article', { name: 'Lisinopril' });
    expect(within(ended).getByText('Ended')).toBeTruthy();
    expect(within(ended).getByText('Jun 30, 2025')).toBeTruthy();
  });

  it('deleting asks first, then removes the medication and says so', async () => {
    const { calls } = serve([lisinopril], (call) =>
      call.method === 'DELETE' ? json({ message: 'Medication removed successfully!' }) : undefined,
    );
    const user = userEvent.setup();
    renderPage();

    await user.click(within(await screen.findByRole('article', { name: 'Lisinopril' })).getByRole('button', { name: 'Delete Lisinopril' }));
    const confirm = screen.getByRole('alertdialog');
    expect(within(confirm).getByText('Are you sure you want to delete this medication? This action cannot be undone.')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(card('Lisinopril')).toBeTruthy();

    await user.click(within(card('Lisinopril')).getByRole('button', { name: 'Delete Lisinopril' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('No current medications.')).toBeTruthy();
    // The card that opened the dialog is gone; focus stays in the list.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tabpanel')));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/medications/m1');
    expect(notify.success).toHaveBeenCalledWith('Medication removed successfully!');
  });

  it('a failed delete alerts the spec text and keeps the medication', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    serve([amoxicillin], (call) => (call.method === 'DELETE' ? json({ message: 'boom' }, 500) : undefined));
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('No current medications.');

    await user.click(screen.getByRole('tab', { name: 'Medication History' }));
    await user.click(within(card('Amoxicillin')).getByRole('button', { name: 'Delete Amoxicillin' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to delete medication. Please try again.'));
    expect(screen.getByRole('alert').textContent).toBe('Failed to delete medication. Please try again.');
    expect(card('Amoxicillin')).toBeTruthy();
  });

  describe("another person's medications", () => {
    const people = [
      makeSelf('self-1', { name: 'Pat Example' }),
      makeFamilyPerson('mia', { name: 'Mia' }),
      makeSharedPerson('joe', { name: 'Grandpa Joe', shared_by: 'sam', role: 'viewer' }),
    ];
    const inhaler: Medication = { ...lisinopril, id: 'm9', medication_id: 'm9', medication_name: 'Inhaler' };
    const drops: Medication = { ...lisinopril, id: 'm8', medication_id: 'm8', medication_name: 'Eye drops' };
    const servePeople = (route: Route = () => undefined) =>
      serve([lisinopril], async (call) => {
        const answer = await route(call);
        if (answer) return answer;
        if (call.url === '/api/user/people') return json(people);
        if (call.url === '/api/user/medications?person=mia') return json([inhaler]);
        if (call.url === '/api/user/medications?person=joe') return json([drops]);
        // Nobody's medications are scheduled here: each person's schedule list is empty.
        if (['self-1', 'mia', 'joe'].some((id) => call.url === `/api/user/people/${id}/schedules`)) return json({ schedules: [] });
        return undefined;
      });

    it('starts on yourself, and the person filter shows one person at a time', async () => {
      servePeople();
      const user = userEvent.setup();
      const { router } = renderPage();
      const filter = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Person' });
      await waitFor(() => expect(filter.value).toBe('self-1'));
      expect(within(filter).queryByRole('option', { name: 'Everyone' })).toBeNull();
      expect(await screen.findByRole('article', { name: 'Lisinopril' })).toBeTruthy();

      await user.selectOptions(filter, 'mia');
      expect(await screen.findByRole('article', { name: 'Inhaler' })).toBeTruthy();
      expect(screen.queryByRole('article', { name: 'Lisinopril' })).toBeNull();
      expect(router.state.location.search).toBe('?person=mia');
    });

    it('starts on the person chosen on the dashboard, and adds to them through the family member route', async () => {
      setSelectedPersonId('mia');
      const { calls } = servePeople((call) =>
        call.method === 'POST' && call.url === '/api/user/family/members/mia/medications'
          ? json(
              { ...inhaler, id: 'm10', medication_id: 'm10', medication_name: 'Antibiotic', message: 'Medication added successfully!' },
              201,
            )
          : undefined,
      );
      const user = userEvent.setup();
      renderPage();
      expect(await screen.findByRole('article', { name: 'Inhaler' })).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Add Medication' }));
      const dialog = screen.getByRole('dialog', { name: 'Add Medication' });
      await user.type(within(dialog).getByLabelText(/Medication Name/), 'Antibiotic');
      await user.type(within(dialog).getByLabelText(/Dosage/), '5 ml');
      await user.type(within(dialog).getByLabelText(/Frequency/), 'Twice daily');
      await user.type(within(dialog).getByLabelText(/Purpose/), 'Ear infection');
      await user.type(within(dialog).getByLabelText(/Start Date/), '2026-01-02');
      await user.click(within(dialog).getByRole('button', { name: 'Add Medication' }));
      expect(await screen.findByRole('article', { name: 'Antibiotic' })).toBeTruthy();
      expect(calls.find((c) => c.method === 'POST')?.url).toBe('/api/user/family/members/mia/medications');
    });

    it("a viewer sees a shared person's medications without Add, Edit, End or Delete", async () => {
      servePeople();
      const user = userEvent.setup();
      renderPage();
      await user.selectOptions(await screen.findByRole('combobox', { name: 'Person' }), 'joe');
      const item = await screen.findByRole('article', { name: 'Eye drops' });
      expect(within(item).queryByRole('button')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add Medication' })).toBeNull();
      expect(screen.getByText(/View only/)).toBeTruthy();
    });
  });
});

describe('opened from a search result', () => {
  it('shows Medication History for a past medication the address names, and focuses its card', async () => {
    serve([lisinopril, amoxicillin]);
    renderRoutes([{ path: '/prescriptions', element: <PrescriptionsPage /> }], '/prescriptions#medication-m2');
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Medication History'));
    const row = (await screen.findByRole('article', { name: 'Amoxicillin' })).closest('li');
    expect(row?.id).toBe('medication-m2');
    await waitFor(() => expect(document.activeElement).toBe(row));
  });
});
