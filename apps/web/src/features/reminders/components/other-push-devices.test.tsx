import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PushSubscriptionInfo } from '@kinchart/shared/care';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { OtherPushDevices } from './other-push-devices';

// Settings → Reminders on this device (docs/decisions/0044, "Later changes"): the account's other
// browsers that receive reminders, each with "Stop reminders" (a lost phone).

const ID_KEY = 'kinchart.push-subscription';
const sub = (over: Partial<PushSubscriptionInfo>): PushSubscriptionInfo => ({
  id: 'x',
  endpoint_host: 'fcm.googleapis.com',
  label: 'Chrome on Android',
  created_at: '2026-03-02T08:00:00.000Z',
  this_session: false,
  ...over,
});
const thisDevice = sub({ id: 'here', label: 'Firefox on macOS', this_session: true });
const keptFromEarlier = sub({ id: 'earlier', label: 'Firefox on macOS', this_session: false });
const phone = sub({ id: 'phone', label: 'Chrome on Android', created_at: '2026-03-02T08:00:00.000Z' });
const tablet = sub({ id: 'tablet', label: 'Unknown device', created_at: '2026-02-01T08:00:00.000Z' });

afterEach(() => localStorage.clear());

function render(
  subscriptions: () => PushSubscriptionInfo[],
  onDelete: (url: string) => Response = () => json({ message: 'Push subscription removed' }),
) {
  const fetched = mockFetch((call) => {
    if (call.method === 'DELETE') return onDelete(call.url);
    if (call.url === '/api/user/push-subscriptions') return json({ subscriptions: subscriptions() });
    return json({ message: 'Not found' }, 404);
  });
  renderRoutes([{ path: '/', element: <OtherPushDevices /> }], '/');
  return fetched;
}

describe('Other browsers that receive your reminders', () => {
  it('lists the other browsers by name and since when, leaving out this one (by session and by its stored id)', async () => {
    localStorage.setItem(ID_KEY, 'earlier');
    render(() => [thisDevice, keptFromEarlier, phone, tablet]);
    const list = await screen.findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.querySelector('p')?.textContent)).toEqual(['Chrome on Android', 'Unknown device']);
    expect(items[0]?.querySelector('time')?.getAttribute('dateTime')).toBe(phone.created_at);
    expect(items[0]?.textContent).toContain('Receives reminders since');
    expect(screen.getByRole('heading', { name: 'Other browsers that receive your reminders' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Stop reminders on Chrome on Android, since / })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Stop reminders on Unknown device, since / })).toBeTruthy();
  });

  it('Stop reminders removes that browser on the server and from the list, and says so', async () => {
    let subscriptions = [thisDevice, phone];
    const { calls } = render(
      () => subscriptions,
      () => {
        subscriptions = [thisDevice];
        return json({ message: 'Push subscription removed' });
      },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Stop reminders on Chrome on Android/ }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Chrome on Android no longer receives your reminders.'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/user/push-subscriptions/phone']);
    expect(await screen.findByText('No other browser receives your reminders.')).toBeTruthy();
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('one already gone (404) is what was asked for; a failure says to try again', async () => {
    let subscriptions = [phone, tablet];
    render(
      () => subscriptions,
      (url) => {
        if (url.endsWith('/phone')) {
          subscriptions = [tablet];
          return json({ message: 'Push subscription not found', code: 'push_subscription_not_found' }, 404);
        }
        return json({ message: 'Internal Server Error' }, 500);
      },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Stop reminders on Chrome on Android/ }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Chrome on Android no longer receives your reminders.'));
    await user.click(await screen.findByRole('button', { name: /^Stop reminders on Unknown device/ }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'The reminders of Unknown device could not be stopped just now. Please try again.',
      ),
    );
    expect(screen.getByRole('status').className).toContain('text-red-700');
  });

  it('says so when no other browser receives reminders', async () => {
    render(() => [thisDevice]);
    expect(await screen.findByText('No other browser receives your reminders.')).toBeTruthy();
  });

  it('an error loading the list is an alert', async () => {
    mockFetch(() => json({ message: 'Internal Server Error' }, 500));
    renderRoutes([{ path: '/', element: <OtherPushDevices /> }], '/');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The other browsers that receive your reminders could not be loaded. Please try again later.',
    );
  });
});
