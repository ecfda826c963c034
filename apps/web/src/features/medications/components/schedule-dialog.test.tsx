import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '@kinchart/shared/care';
import { makeSchedule } from '../../../../test/care';
import { makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { MedicationSchedule } from './medication-schedule';

vi.mock('../../../lib/toast');

const PATH = '/api/user/people/self-1/medications/m1/schedule';

function serve(stored: Schedule | null, route: (call: FetchCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = route(call);
    if (answer) return answer;
    if (call.url === '/api/user/people') return json([makeSelf('self-1'), makeSharedPerson('s1', { name: 'Grandpa Joe', role: 'viewer' })]);
    // One list per person: a medication without a schedule is not in it.
    if (call.url === '/api/user/people/self-1/schedules') return json({ schedules: stored ? [stored] : [] });
    if (call.url === '/api/user/people/s1/schedules')
      return json({ schedules: [makeSchedule('m7', { person_id: 's1', times: ['09:00'] })] });
    return json({ message: 'Not found' }, 404);
  });
}

function renderItem(personId = 'self-1', medicationId = 'm1', name = 'Albuterol') {
  return renderRoutes([{ path: '/', element: <MedicationSchedule personId={personId} medicationId={medicationId} name={name} /> }], '/');
}

const dialog = () => screen.getByRole('dialog', { name: 'Schedule for Albuterol' });

beforeEach(() => {
  vi.mocked(notify.success).mockClear();
});

describe('the schedule editor', () => {
  it('shows the schedule in words and when the medication runs out', async () => {
    serve(makeSchedule('m1', { times: ['08:00', '20:00'], quantity_on_hand: 40, runs_out_on: '2026-12-17' }));
    renderItem();
    expect(await screen.findByText('08:00, 20:00 · every day')).toBeTruthy();
    expect(screen.getByText('40 on hand · runs out around Dec 17, 2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit schedule of Albuterol' })).toBeTruthy();
  });

  it('a viewer reads the schedule but has no button to change it', async () => {
    serve(null);
    renderItem('s1', 'm7', 'Warfarin');
    expect(await screen.findByText('09:00 · every day')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('adds a schedule with times and chosen days, sent as the shared schema reads it', async () => {
    const { calls } = serve(null, (call) =>
      call.method === 'PUT' ? json(makeSchedule('m1', { times: ['07:30', '21:00'], days: [1, 3, 5] })) : undefined,
    );
    const user = userEvent.setup();
    renderItem();
    expect(await screen.findByText('Not scheduled')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add schedule of Albuterol' }));

    // A new schedule starts with one time at 08:00 and every day.
    const form = dialog();
    expect(within(form).getByLabelText<HTMLInputElement>('Time 1').value).toBe('08:00');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      expect(within(form).getByRole<HTMLInputElement>('checkbox', { name: day }).checked).toBe(true);
    }
    // "Send reminders" is about the at-time reminders; missed-dose alerts family members asked for go either way.
    const remind = within(form).getByRole<HTMLInputElement>('checkbox', { name: 'Send reminders' });
    expect(remind.checked).toBe(true);
    expect(document.getElementById(remind.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'At each dose time, and before a refill is due. Family members who asked to be told of missed doses are told either way.',
    );
    fireEvent.change(within(form).getByLabelText('Time 1'), { target: { value: '21:00' } });
    await user.click(within(form).getByRole('button', { name: 'Add a time' }));
    fireEvent.change(within(form).getByLabelText('Time 2'), { target: { value: '07:30' } });
    for (const day of ['Tuesday', 'Thursday', 'Saturday', 'Sunday']) await user.click(within(form).getByRole('checkbox', { name: day }));
    await user.type(within(form).getByLabelText('Quantity on hand (optional)'), '60');
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      times: ['07:30', '21:00'],
      days: [1, 3, 5],
      end_date: null,
      as_needed: false,
      dose_units: 1,
      quantity_on_hand: 60,
      refill_remind_days: null,
      reminders: true,
    });
    expect(await screen.findByText('07:30, 21:00 · Mon, Wed, Fri')).toBeTruthy();
    expect(notify.success).toHaveBeenCalledWith('Schedule saved for Albuterol.');
  });

  it('will not send a schedule without days, with an empty time or ending before it starts', async () => {
    const { calls } = serve(null);
    const user = userEvent.setup();
    renderItem();
    await user.click(await screen.findByRole('button', { name: 'Add schedule of Albuterol' }));
    const form = dialog();

    await user.click(within(form).getByRole('button', { name: 'Add a time' }));
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      await user.click(within(form).getByRole('checkbox', { name: day }));
    }
    fireEvent.change(within(form).getByLabelText('Start date'), { target: { value: '2026-12-10' } });
    fireEvent.change(within(form).getByLabelText('End date (optional)'), { target: { value: '2026-12-01' } });
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));

    expect(within(form).getByText('must be times as HH:MM (00:00 to 23:59)')).toBeTruthy();
    expect(within(form).getByLabelText('Time 2').getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByText('must name at least one day')).toBeTruthy();
    expect(within(form).getByText('must not be before start date')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    // Removing the empty time clears its message once the form is sent again.
    await user.click(within(form).getByRole('button', { name: 'Remove time 2' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Monday' }));
    fireEvent.change(within(form).getByLabelText('End date (optional)'), { target: { value: '' } });
    // Each message goes as soon as its field is changed.
    expect(within(form).queryByText('must not be before start date')).toBeNull();
    expect(within(form).queryByText('must name at least one day')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
  });

  it("shows the server's refusal at the field it names", async () => {
    serve(null, (call) => (call.method === 'PUT' ? json({ message: 'refill_remind_days: must be at most 90' }, 400) : undefined));
    const user = userEvent.setup();
    renderItem();
    await user.click(await screen.findByRole('button', { name: 'Add schedule of Albuterol' }));
    const form = dialog();
    // 90 passes in the browser (the shared rule); the server's answer is what is shown.
    await user.type(within(form).getByLabelText('Refill reminder, days before it runs out (optional)'), '90');
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));
    const field = within(form).getByLabelText('Refill reminder, days before it runs out (optional)');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('must be at most 90')).toBeTruthy();
  });

  it('as needed hides the times and days', async () => {
    const { calls } = serve(null, (call) => (call.method === 'PUT' ? json(makeSchedule('m1', { as_needed: true, times: [] })) : undefined));
    const user = userEvent.setup();
    renderItem();
    await user.click(await screen.findByRole('button', { name: 'Add schedule of Albuterol' }));
    const form = dialog();
    await user.click(within(form).getByRole('checkbox', { name: 'As needed (no fixed times)' }));
    expect(within(form).queryByLabelText('Time 1')).toBeNull();
    expect(within(form).queryByRole('group', { name: 'Days' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ as_needed: true, times: [] }));
    expect(await screen.findByText('As needed')).toBeTruthy();
  });

  it('Remove schedule asks first, then deletes it', async () => {
    const { calls } = serve(makeSchedule('m1'), (call) => (call.method === 'DELETE' ? json({ message: 'Schedule removed' }) : undefined));
    const user = userEvent.setup();
    renderItem();
    await user.click(await screen.findByRole('button', { name: 'Edit schedule of Albuterol' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Remove schedule' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove schedule' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Remove schedule' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([PATH]));
    expect(await screen.findByText('Not scheduled')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
