import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  expectNoA11yViolations,
  expectVisible,
  logInViaUi,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';

useBrowser();

// Issue 32: Settings → "Reminders on this device". With the notification permission granted, the
// switch registers the service worker, subscribes with the server's VAPID key and the subscription
// reaches the server; the worker shows a pushed reminder with Taken and Snooze 10 min; off removes it.
//
// What headless Chromium allows: its contexts are incognito, where Chrome refuses PushManager.subscribe
// (crbug.com/41124656), and there is no push service to reach here anyway. So the page's
// PushManager.subscribe is replaced by one that makes a real P-256 key pair and auth secret and an
// endpoint on an allowed host (fcm.googleapis.com), and records the VAPID key it was given; the
// worker, its registration and the push event are real (the push is handed to the worker through
// the DevTools protocol, as the push service would). The server side of a push (VAPID, aes128gcm,
// 410) is tested against a loopback push service in apps/server/test/reminder-scheduler.test.ts.

const SWITCH = { name: 'Reminders on this device' } as const;

/**
 * The page's PushManager, standing in for the browser's push service (see above). Like a browser's,
 * its subscription outlives a page load (kept in the page's localStorage under a key of its own).
 */
async function fakePushService(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const KEY = 'e2e.fake-push-subscription';
    type Stored = PushSubscriptionJSON & { serverKey: string | null };
    type Fake = PushSubscriptionJSON & {
      options: PushSubscriptionOptions;
      unsubscribe(): Promise<boolean>;
      toJSON(): PushSubscriptionJSON;
    };
    const b64 = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replaceAll('=', '');
    const bytesOf = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
    const fake = (stored: Stored): Fake => {
      const { serverKey, ...json } = stored;
      return {
        ...json,
        options: { userVisibleOnly: true, applicationServerKey: serverKey === null ? null : bytesOf(serverKey) },
        toJSON: () => json,
        unsubscribe: async () => {
          localStorage.removeItem(KEY);
          current = null;
          return true;
        },
      };
    };
    const saved = localStorage.getItem(KEY);
    let current: Fake | null = saved ? fake(JSON.parse(saved) as Stored) : null;
    PushManager.prototype.getSubscription = async () => current as unknown as PushSubscription | null;
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
      const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
      const auth = crypto.getRandomValues(new Uint8Array(16));
      const serverKey = options?.applicationServerKey ? b64(new Uint8Array(options.applicationServerKey as ArrayBuffer)) : null;
      (window as unknown as { subscribedWithKey: string | null }).subscribedWithKey = serverKey;
      const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${b64(auth)}`;
      const stored: Stored = { endpoint, expirationTime: null, keys: { p256dh: b64(raw), auth: b64(auth) }, serverKey };
      localStorage.setItem(KEY, JSON.stringify(stored));
      current = fake(stored);
      return current as unknown as PushSubscription;
    };
  });
}

type Subscription = { id: string; endpoint_host: string; label: string; this_session: boolean };
async function subscriptions(page: Page): Promise<Subscription[]> {
  return page.evaluate(async () => {
    const res = await fetch('/api/user/push-subscriptions', { credentials: 'include' });
    return ((await res.json()) as { subscriptions: Subscription[] }).subscriptions;
  });
}

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/** Turns this device's reminders on from Settings and waits until the server has the subscription. */
async function turnOnReminders(page: Page): Promise<void> {
  await open(page, '/settings?tab=account');
  const toggle = page.getByRole('region', { name: 'Reminders on this device' }).getByRole('switch', SWITCH);
  await expect.poll(() => toggle.isEnabled(), { timeout: 15_000 }).toBe(true);
  await toggle.check();
  await expectVisible(page.getByText('Reminders are on for this device.'), 30_000);
}

/** Hands the service worker a push, as the browser's push service would (Chrome DevTools Protocol). */
async function deliverPush(page: Page, data: unknown): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => r.scopeURL.endsWith('/') && !r.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(page.url()).origin,
    registrationId: await registrationId,
    data: JSON.stringify(data),
  });
}

describe('reminders on this device', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`subscribe from Settings, the worker shows a reminder with Taken and Snooze, and unsubscribe (${label})`, async () => {
      const page = await newPage(viewport);
      await page.context().grantPermissions(['notifications']);
      await fakePushService(page);
      await signUpAndLogIn(page);
      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Reminders on this device' });
      const toggle = section.getByRole('switch', SWITCH);
      await expectVisible(toggle);
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      expect(await toggle.isChecked()).toBe(false);

      // This browser already holds a subscription made with another server key (the server's VAPID
      // keys changed since): turning reminders on replaces it with one for the current key.
      await page.evaluate(async () => {
        await PushManager.prototype.subscribe({ userVisibleOnly: true, applicationServerKey: new Uint8Array(65).fill(4).buffer });
      });

      await toggle.check();
      await expectVisible(section.getByRole('status').getByText('Reminders are on for this device.'), 30_000);
      expect(await toggle.isChecked()).toBe(true);
      const subs = await subscriptions(page);
      expect(subs).toHaveLength(1);
      expect(subs[0]?.endpoint_host).toBe('fcm.googleapis.com');
      // It subscribed with the server's VAPID public key, through the app's registered worker.
      const vapid = await page.evaluate(
        async () => ((await (await fetch('/api/config')).json()) as { vapid_public_key: string }).vapid_public_key,
      );
      expect(await page.evaluate(() => (window as unknown as { subscribedWithKey: string }).subscribedWithKey)).toBe(vapid);
      expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toMatch(/\/sw\.js$/);
      await expectNoA11yViolations(page, `/settings with reminders on (${label})`);
      await screenshot(page, `reminders-device-setting-${label}`);

      // The worker's push handler: one notification per dose, with the two buttons and the token.
      await deliverPush(page, {
        title: 'Medication reminder',
        body: 'Leo Rivera: time for Inhaler (08:00).',
        tag: 'dose:m1.202601050800',
        url: '/dashboard',
        token: 'a'.repeat(43),
        actions: ['taken', 'snooze'],
      });
      const shown = () =>
        page.evaluate(async () =>
          (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            tag: n.tag,
            actions: (n as Notification & { actions: { title: string }[] }).actions.map((a) => a.title),
            token: (n.data as { token: string | null }).token,
          })),
        );
      await expect.poll(shown, { timeout: 10_000 }).toEqual([
        {
          title: 'Medication reminder',
          body: 'Leo Rivera: time for Inhaler (08:00).',
          tag: 'dose:m1.202601050800',
          actions: ['Taken', 'Snooze 10 min'],
          token: 'a'.repeat(43),
        },
      ]);
      // A push to an account that reads German carries the buttons' words in German: the worker shows them.
      await deliverPush(page, {
        title: 'Medikamentenerinnerung',
        body: 'Leo Rivera: Zeit für Inhaler (20:00).',
        tag: 'dose:m1.202601052000',
        url: '/dashboard',
        token: 'b'.repeat(43),
        actions: ['taken', 'snooze'],
        action_titles: { taken: 'Eingenommen', snooze: '10 Min. später' },
      });
      await expect
        .poll(async () => (await shown()).find((n) => n.tag === 'dose:m1.202601052000')?.actions, { timeout: 10_000 })
        .toEqual(['Eingenommen', '10 Min. später']);

      // Its Snooze button: the worker posts the token to the public route, with no session and no
      // window opened. (Chromium has no way to press a notification's button headless, so the worker
      // is handed the click event itself; the token here is unknown to the server: 404, not 403 —
      // the request passed the CSRF origin check as the worker sends it.)
      const [worker] = page.context().serviceWorkers();
      expect(worker).toBeDefined();
      const posted = page.context().waitForEvent('response', (r) => r.url().endsWith('/api/push-actions'));
      await worker?.evaluate(async () => {
        const sw = self as unknown as {
          registration: ServiceWorkerRegistration;
          dispatchEvent(event: Event): boolean;
          NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event;
        };
        const [notification] = await sw.registration.getNotifications({ tag: 'dose:m1.202601050800' });
        if (!notification) throw new Error('no notification');
        sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification, action: 'snooze' }));
      });
      const answer = await posted;
      expect(answer.request().method()).toBe('POST');
      expect(answer.request().postDataJSON()).toEqual({ token: 'a'.repeat(43), action: 'snooze' });
      expect(answer.status()).toBe(404);
      expect(page.context().pages()).toHaveLength(1);
      // The server did not take it: the worker says so in place of the reminder, with no buttons.
      await expect
        .poll(async () => (await shown()).find((n) => n.tag === 'dose:m1.202601050800'), { timeout: 10_000 })
        .toMatchObject({ title: 'Medication reminder', body: 'This could not be saved. Open Kinchart to log the dose.', actions: [] });

      await toggle.uncheck();
      await expectVisible(section.getByRole('status').getByText('Reminders are off for this device.'));
      expect(await subscriptions(page)).toEqual([]);
    });
  }

  test('turning the emergency cards off on this device leaves its reminders on (they share the service worker)', async () => {
    const page = await newPage(DESKTOP);
    await page.context().grantPermissions(['notifications']);
    await fakePushService(page);
    await signUpAndLogIn(page);
    await open(page, '/settings?tab=account');
    const reminders = page.getByRole('region', { name: 'Reminders on this device' }).getByRole('switch', SWITCH);
    await expect.poll(() => reminders.isEnabled()).toBe(true);
    await reminders.check();
    await expectVisible(page.getByText('Reminders are on for this device.'), 30_000);

    const cards = page.getByRole('switch', { name: 'Keep emergency cards on this device' });
    await expect.poll(() => cards.isEnabled()).toBe(true);
    await cards.check();
    await expect.poll(() => cards.isChecked()).toBe(true);
    await cards.uncheck();
    await expect.poll(() => cards.isChecked()).toBe(false);

    // The worker that shows this device's reminders is still there (removing it would end the
    // browser's push subscription with it), and the server still has this device's subscription.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL ?? null)).toMatch(
      /\/sw\.js$/,
    );
    expect(await subscriptions(page)).toHaveLength(1);
  });

  // docs/decisions/0044, "Later changes": a lost phone can be cut off. The account's other browsers
  // that receive reminders are listed under "Reminders on this device", each with Stop reminders;
  // signing a session out from the sessions list stops the reminders of the browser subscribed in it.
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a lost phone's reminders are stopped from another browser, or by signing its session out (${label})`, async () => {
      const page = await newPage(viewport);
      await page.context().grantPermissions(['notifications']);
      await fakePushService(page);
      const user = await signUpAndLogIn(page);
      await turnOnReminders(page);

      // The phone: an Android browser, signed in to the same account, with reminders on.
      const lost = await newPage(PHONE);
      await lost.context().grantPermissions(['notifications']);
      await fakePushService(lost);
      const cdp = await lost.context().newCDPSession(lost);
      await cdp.send('Emulation.setUserAgentOverride', { userAgent: ANDROID_CHROME });
      await logInViaUi(lost, user);
      await turnOnReminders(lost);

      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Reminders on this device' });
      const others = section.getByRole('region', { name: 'Other browsers that receive your reminders' });
      // This browser, opened again, is still on (and not listed among the others).
      await expect.poll(() => section.getByRole('switch', SWITCH).isChecked(), { timeout: 15_000 }).toBe(true);
      await expectVisible(others.getByRole('listitem').filter({ hasText: 'Chrome on Android' }));
      expect(await others.getByRole('listitem').count()).toBe(1);
      await expectVisible(others.getByText(/^Receives reminders since /));
      // The sessions list says which session has reminders.
      const sessions = page.getByRole('region', { name: 'Sessions' });
      const phoneSession = sessions.getByRole('listitem').filter({ hasText: 'Chrome on Android' });
      await expectVisible(phoneSession.getByText('Receives reminders', { exact: true }));
      await section.scrollIntoViewIfNeeded();
      await expectNoA11yViolations(page, `/settings with another browser receiving reminders (${label})`);
      await screenshot(page, `reminders-other-browsers-${label}`);

      // Stop reminders: the phone's subscription is gone from the server, and the phone, opened
      // again, shows its reminders off (the browser still holds its push subscription: the server
      // no longer has it, and that decides).
      await others.getByRole('button', { name: /^Stop reminders on Chrome on Android, since / }).click();
      await expectVisible(others.getByRole('status').getByText('Chrome on Android no longer receives your reminders.'));
      await expectVisible(others.getByText('No other browser receives your reminders.'));
      expect((await subscriptions(page)).map((s) => [s.label, s.this_session])).toEqual([['Chrome on Linux', true]]);
      expect(await lost.evaluate(async () => !!(await PushManager.prototype.getSubscription()))).toBe(true);
      await open(lost, '/settings?tab=account');
      const lostToggle = lost.getByRole('region', { name: 'Reminders on this device' }).getByRole('switch', SWITCH);
      await expect.poll(() => lostToggle.isEnabled(), { timeout: 15_000 }).toBe(true);
      expect(await lostToggle.isChecked()).toBe(false);
      await expectVisible(lost.getByText('Reminders are not shown on this device.'));

      // On again on the phone; then its session is signed out from the sessions list: its
      // reminders stop with it, and the list of other browsers says so at once.
      await turnOnReminders(lost);
      await open(page, '/settings?tab=account');
      await expectVisible(others.getByRole('listitem').filter({ hasText: 'Chrome on Android' }));
      await sessions.getByRole('button', { name: /^Sign out Chrome on Android, signed in / }).click();
      await expectVisible(sessions.getByText('Chrome on Android signed out successfully.'));
      await expectVisible(others.getByText('No other browser receives your reminders.'));
      expect(await subscriptions(page)).toHaveLength(1);
      await screenshot(page, `reminders-other-browsers-stopped-${label}`);
      await lost.context().close();
    });
  }
});
