import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Appointment } from '@kinchart/shared/appointments';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { UpcomingAppointments, upcomingAppointments } from './upcoming-appointments';

const NOW = new Date(2026, 5, 10, 12, 0, 0);

function appointment(id: string, date: string, start: string | null, end: string | null, provider = `Dr. ${id}`): Appointment {
  return {
    appointment_id: id,
    id,
    appointment_date: date,
    start_time: start ? `${date}T${start}:00` : null,
    end_time: end ? `${date}T${end}:00` : null,
    provider_name: provider,
    reason_for_visit: null,
    location: null,
    created_at: '2026-01-01T00:00:00.000Z',
    person_id: 'me',
    person_name: null,
    reminder_minutes: [1440, 120],
  };
}

describe('upcoming appointments', () => {
  it('are the ones not over yet, soonest first, at most five', () => {
    const list = [
      appointment('past', '2026-06-09', '09:00', '10:00'),
      appointment('ended-this-morning', '2026-06-10', '09:00', '10:00'),
      appointment('now', '2026-06-10', '11:30', '12:30'),
      appointment('all-day-today', '2026-06-10', null, null),
      ...['2026-06-15', '2026-06-12', '2026-06-20', '2026-06-11'].map((d, i) => appointment(`later${i}`, d, '08:00', '09:00')),
    ];
    expect(upcomingAppointments(list, NOW).map((e) => e.id)).toEqual(['all-day-today', 'now', 'later3', 'later1', 'later0']);
  });

  it("lists the person's next appointments with their time and a link to the calendar", async () => {
    const soon = new Date(Date.now() + 86_400_000);
    const day = `${soon.getFullYear()}-${String(soon.getMonth() + 1).padStart(2, '0')}-${String(soon.getDate()).padStart(2, '0')}`;
    const { calls } = mockFetch(() =>
      json([{ ...appointment('a1', day, '14:00', '14:30', 'Dr. Park'), reason_for_visit: 'Vaccines', location: 'Clinic' }]),
    );
    renderRoutes([{ path: '/', element: <UpcomingAppointments personId="mia" /> }], '/');
    const region = screen.getByRole('region', { name: 'Upcoming appointments' });
    const item = await within(region).findByRole('listitem');
    expect(item.textContent).toContain('Dr. Park - Vaccines');
    expect(item.textContent).toContain('2:00 PM – 2:30 PM');
    expect(item.textContent).toContain('Clinic');
    expect(calls[0]?.url).toBe('/api/user/appointments?person=mia');
    expect(within(region).getByRole('link', { name: 'View All Appointments' }).getAttribute('href')).toBe('/appointments?person=mia');
  });

  it('says when there are none', async () => {
    mockFetch(() => json([]));
    renderRoutes([{ path: '/', element: <UpcomingAppointments /> }], '/');
    expect(await screen.findByText('No upcoming appointments')).toBeTruthy();
  });
});
