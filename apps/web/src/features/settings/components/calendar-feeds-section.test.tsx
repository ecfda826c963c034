import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeFamilyPerson, makeSelf } from '../../../../test/people';
import { CalendarFeedsSection } from './calendar-feeds-section';

// Settings → Calendar (issue 32, docs/decisions/0045): the account's private calendar feeds.

const feed = (id: string, person_id: string | null, person_name: string | null, extra: Record<string, unknown> = {}) => ({
  id,
  person_id,
  person_name,
  include_medications: false,
  minimal: false,
  created_at: '2026-11-20T10:00:00.000Z',
  last_read_at: null,
  ...extra,
});

function renderSection() {
  return renderRoutes([{ path: '/', element: <CalendarFeedsSection /> }], '/');
}

describe('Settings → Calendar', () => {
  it('names each feed’s person as the people lists do, and says when the person can no longer be seen', async () => {
    const self = makeSelf('self-1', { name: null });
    const mia = makeFamilyPerson('mia', { name: 'Mia' });
    mockFetch((call) => {
      if (call.url.endsWith('/api/user/people')) return json([self, mia]);
      return json({
        feeds: [
          feed('f1', null, null, { include_medications: true, minimal: true }),
          feed('f2', 'mia', 'Mia'),
          feed('f3', 'self-1', null),
          // A share that ended: the server no longer names the person.
          feed('f4', 'gone', null),
        ],
      });
    });
    renderSection();
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByRole('paragraph')[0]?.textContent)).toEqual([
      'Everyone',
      'Mia',
      'You',
      'A person you can no longer see',
    ]);
    expect(items[0]!.textContent).toContain('Appointments and medication times, minimal titles');
    expect(items[3]!.textContent).toContain('Never');
    expect(screen.getByRole('button', { name: 'Revoke the calendar feed of A person you can no longer see' })).toBeTruthy();
  });

  it('makes a feed, shows its address once with copy and open, and revokes a listed one after asking', async () => {
    let feeds = [feed('f1', 'mia', 'Mia')];
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('/api/user/people')) return json([makeSelf(), makeFamilyPerson('mia', { name: 'Mia' })]);
      if (call.method === 'POST') {
        return json(
          {
            id: 'f2',
            url: 'https://kinchart.example/api/calendar/abc.ics',
            webcal_url: 'webcal://kinchart.example/api/calendar/abc.ics',
          },
          201,
        );
      }
      if (call.method === 'DELETE') {
        feeds = [];
        return json({ message: 'Calendar feed revoked', code: 'calendar_feed_revoked' });
      }
      return json({ feeds });
    });
    const user = userEvent.setup();
    renderSection();
    await screen.findByRole('button', { name: 'Revoke the calendar feed of Mia' });
    await user.click(screen.getByLabelText('Include medication times'));
    await user.click(screen.getByRole('button', { name: 'Create calendar feed' }));
    expect((await screen.findByLabelText('Calendar feed address')).getAttribute('value')).toBe(
      'https://kinchart.example/api/calendar/abc.ics',
    );
    expect(screen.getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(
      'webcal://kinchart.example/api/calendar/abc.ics',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ person_id: null, include_medications: true, minimal: false });

    await user.click(screen.getByRole('button', { name: 'Revoke the calendar feed of Mia' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke this calendar feed?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Calendar feed of Mia revoked successfully.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/user/calendar-feeds/f1'))).toBe(true);
    expect(await screen.findByText('You have no calendar feeds.')).toBeTruthy();
  });
});
