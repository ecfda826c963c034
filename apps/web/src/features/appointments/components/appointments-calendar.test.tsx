import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactElement, ReactNode } from 'react';
import { render as renderBare, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '@kinchart/shared/appointments';
import { format } from 'date-fns';
import { toCalendarEvent } from '../utils/calendar-events';
import { AppointmentsCalendar } from './appointments-calendar';

/** Rendered as the app renders it: inside the active catalog's provider. */
const render = (ui: ReactElement) =>
  renderBare(ui, { wrapper: ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider> });

function appointmentToday(overrides: Partial<Appointment> = {}): Appointment {
  const date = format(new Date(), 'yyyy-MM-dd');
  return {
    appointment_id: 'a1',
    id: 'a1',
    appointment_date: date,
    start_time: `${date}T14:30:00`,
    end_time: `${date}T15:00:00`,
    provider_name: 'Dr. Chen',
    reason_for_visit: 'Annual check-up',
    location: null,
    created_at: '2026-01-01T00:00:00.000Z',
    person_id: 'person-self',
    person_name: 'Pat Example',
    reminder_minutes: [1440, 120],
    ...overrides,
  };
}

describe('appointments calendar', () => {
  it('shows this month with the event, which opens by click or by keyboard', async () => {
    const onSelectEvent = vi.fn();
    const event = toCalendarEvent(appointmentToday());
    const user = userEvent.setup();
    render(<AppointmentsCalendar events={[event]} onSelectEvent={onSelectEvent} />);

    for (const view of ['Month', 'Week', 'Work Week', 'Day', 'Agenda']) expect(screen.getByRole('button', { name: view })).toBeTruthy();
    const cell = screen.getByRole('button', { name: /Dr\. Chen - Annual check-up/ });
    expect(cell.getAttribute('tabindex')).toBe('0');
    await user.click(cell);
    expect(onSelectEvent).toHaveBeenLastCalledWith(event, expect.anything());

    onSelectEvent.mockClear();
    cell.focus();
    await user.keyboard('{Enter}');
    expect(onSelectEvent).toHaveBeenCalledTimes(1);
  });

  it('the agenda lists the event as a button with a 12-hour time range', async () => {
    const onSelectEvent = vi.fn();
    const event = toCalendarEvent(appointmentToday());
    const user = userEvent.setup();
    const { container } = render(<AppointmentsCalendar events={[event]} onSelectEvent={onSelectEvent} />);

    await user.click(screen.getByRole('button', { name: 'Agenda' }));
    const agenda = container.querySelector('.rbc-agenda-view') as HTMLElement;
    expect(within(agenda).getByText('2:30 PM – 3:00 PM')).toBeTruthy();
    await user.click(within(agenda).getByRole('button', { name: 'Dr. Chen - Annual check-up' }));
    expect(onSelectEvent).toHaveBeenCalledTimes(1);
  });

  it('says so when a range has no appointments', async () => {
    const user = userEvent.setup();
    render(<AppointmentsCalendar events={[]} onSelectEvent={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Agenda' }));
    expect(screen.getByText('There are no events in this range.')).toBeTruthy();
  });

  it('the work week runs Monday to Friday', async () => {
    const user = userEvent.setup();
    const { container } = render(<AppointmentsCalendar events={[]} onSelectEvent={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Work Week' }));
    const titles = [...container.querySelectorAll('.rbc-time-header-cell .rbc-header')].map((h) => h.textContent?.split(' ')[0]);
    expect(titles).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
  });

  it("with several people each event is in its person's colour and starts with their name, in every view", async () => {
    const mia = { name: 'Mia', background: '#0f766e', border: '#134e4a' };
    const event = toCalendarEvent(appointmentToday({ person_id: 'mia', person_name: 'Mia' }), mia);
    const user = userEvent.setup();
    const { container } = render(<AppointmentsCalendar events={[event]} onSelectEvent={() => undefined} />);

    const cell = screen.getByRole('button', { name: 'Mia: Dr. Chen - Annual check-up' });
    expect(cell.style.backgroundColor).toBe('rgb(15, 118, 110)');
    await user.click(screen.getByRole('button', { name: 'Day' }));
    expect(screen.getByRole('button', { name: /Mia: Dr\. Chen - Annual check-up/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Agenda' }));
    const agenda = container.querySelector('.rbc-agenda-view') as HTMLElement;
    const item = within(agenda).getByRole('button', { name: 'Mia: Dr. Chen - Annual check-up' });
    expect((item.querySelector('.kc-person-swatch') as HTMLElement).style.backgroundColor).toBe('rgb(15, 118, 110)');
  });

  describe('in another language (issue 35)', () => {
    afterEach(() => i18n.activate('en'));

    it('German: the month title, the week and the times are German, the week starts on Monday', async () => {
      i18n.activate('de');
      const user = userEvent.setup();
      const event = toCalendarEvent(appointmentToday());
      const { container } = render(<AppointmentsCalendar events={[event]} onSelectEvent={() => undefined} />);
      // The German date-fns locale comes as its own chunk: the calendar waits for it.
      const month = new Intl.DateTimeFormat('de', { month: 'long', year: 'numeric' }).format(new Date());
      expect(await screen.findByText(month)).toBeTruthy();
      const weekdays = [...container.querySelectorAll('.rbc-month-header .rbc-header')].map((h) => h.textContent);
      expect(weekdays[0]).toBe(new Intl.DateTimeFormat('de', { weekday: 'short' }).format(new Date(2024, 0, 1)));
      await user.click(screen.getByRole('button', { name: 'Agenda' }));
      const agenda = container.querySelector('.rbc-agenda-view') as HTMLElement;
      expect(within(agenda).getByText('14:30 – 15:00')).toBeTruthy();
    });

    it('Arabic: the calendar is drawn right to left', async () => {
      i18n.activate('ar');
      const { container } = render(<AppointmentsCalendar events={[]} onSelectEvent={() => undefined} />);
      await waitFor(() => expect(container.querySelector('.rbc-calendar.rbc-rtl')).not.toBeNull());
    });
  });
});
