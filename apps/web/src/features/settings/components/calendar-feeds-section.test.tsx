import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
  restored: false,
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

  it('a feed restored from an export says it needs a new address, and gets one without asking: shown once with copy and open', async () => {
    let feeds = [feed('f1', 'mia', 'Mia', { restored: true }), feed('f2', null, null)];
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('/api/user/people')) return json([makeSelf(), makeFamilyPerson('mia', { name: 'Mia' })]);
      if (call.method === 'POST' && call.url.endsWith('/api/user/calendar-feeds/f1/renew')) {
        feeds = [feed('f1', 'mia', 'Mia'), feed('f2', null, null)];
        return json({
          id: 'f1',
          url: 'https://kinchart.example/api/calendar/new.ics',
          webcal_url: 'webcal://kinchart.example/api/calendar/new.ics',
        });
      }
      return json({ feeds });
    });
    const user = userEvent.setup();
    renderSection();
    const items = await screen.findAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Restored from an export — get a new address to subscribe.');
    expect(items[1]!.textContent).not.toContain('Restored from an export');

    await user.click(screen.getByRole('button', { name: 'Get a new address for the calendar feed of Mia' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const panel = await screen.findByRole('region', { name: 'New address of the calendar feed of Mia' });
    expect(within(panel).getByLabelText('Calendar feed address').getAttribute('value')).toBe(
      'https://kinchart.example/api/calendar/new.ics',
    );
    expect(within(panel).getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(
      'webcal://kinchart.example/api/calendar/new.ics',
    );
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      expect.stringMatching(/\/api\/user\/calendar-feeds\/f1\/renew$/),
    ]);
    // The list is read again: the feed is no longer a restored one.
    await vi.waitFor(() => expect(screen.queryByText('Restored from an export — get a new address to subscribe.')).toBeNull());
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('region', { name: 'New address of the calendar feed of Mia' })).toBeNull();
  });

  it('a feed in use gets a new address only after saying the old one stops working; a failure is said', async () => {
    let fail = true;
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('/api/user/people')) return json([makeSelf(), makeFamilyPerson('mia', { name: 'Mia' })]);
      if (call.method === 'POST') {
        if (fail) return json({ message: 'Calendar feed not found', code: 'calendar_feed_not_found' }, 404);
        return json({
          id: 'f1',
          url: 'https://kinchart.example/api/calendar/b.ics',
          webcal_url: 'webcal://kinchart.example/api/calendar/b.ics',
        });
      }
      return json({ feeds: [feed('f1', 'mia', 'Mia')] });
    });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Get a new address for the calendar feed of Mia' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Get a new address for this calendar feed?' });
    expect(dialog.textContent).toContain('The old address of the feed of Mia stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Get a new address for the calendar feed of Mia' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'New address' }));
    expect(await screen.findByText('Calendar feed not found')).toBeTruthy();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Get a new address for the calendar feed of Mia' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'New address' }));
    const panel = await screen.findByRole('region', { name: 'New address of the calendar feed of Mia' });
    expect(within(panel).getByLabelText('Calendar feed address').getAttribute('value')).toBe('https://kinchart.example/api/calendar/b.ics');
    expect(screen.queryByText('Calendar feed not found')).toBeNull();
  });
});
