import { pushSubscriptionInputSchema } from '@kinchart/shared/care';
import { ApiError, api } from '../../../lib/api-client';
import { PUSH_SUBSCRIPTIONS_PATH, getPushSubscriptions } from '../api/push-subscriptions';

/*
 * "Reminders on this device" (issue 32): this browser's Web Push subscription. Turning it on asks
 * the notification permission, registers the app's service worker (apps/web/pwa.config.ts, which
 * imports public/push-sw.js) if it is not there yet, subscribes with the server's VAPID key and
 * hands the subscription to the server; turning it off removes it on both sides. The id the server
 * gave is kept in localStorage, so this device can remove its own subscription later.
 */

const SCRIPT = '/sw.js';
const ID_KEY = 'kinchart.push-subscription';

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

/** Web Push needs a service worker (the production build has one), the Push API and notifications. */
export function pushSupported(): boolean {
  return (
    import.meta.env.PROD &&
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return navigator.serviceWorker.getRegistration('/');
}

/** The id the server gave this device's subscription, or null when this device has none. */
export function thisDeviceSubscriptionId(): string | null {
  return typeof localStorage === 'undefined' ? null : localStorage.getItem(ID_KEY);
}

/**
 * Whether this device receives reminders now. The server may have removed its subscription
 * meanwhile — this browser's session was signed out on purpose (docs/decisions/0044), or another
 * browser stopped it, or its push service ended it — and then the device is off here too.
 */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const subscription = await (await registration())?.pushManager.getSubscription();
  const id = localStorage.getItem(ID_KEY);
  if (!subscription || !id) return 'off';
  const known = await getPushSubscriptions().then(
    (list) => list.some((s) => s.id === id),
    // Offline or the server unreachable: as the device last knew.
    () => true,
  );
  if (known) return 'on';
  localStorage.removeItem(ID_KEY);
  return 'off';
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** Asks permission, subscribes this browser and tells the server. Answers the new state. */
export async function turnOnPush(vapidPublicKey: string): Promise<PushState> {
  if (!pushSupported() || !vapidPublicKey) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const existing = await registration();
  if (!existing) await navigator.serviceWorker.register(SCRIPT, { scope: '/' });
  const ready = await navigator.serviceWorker.ready;
  const key = keyBytes(vapidPublicKey);
  let subscription = await ready.pushManager.getSubscription();
  // A subscription made with another server key (the server's VAPID keys changed) would never
  // receive a push signed with this one: it is replaced.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const body = pushSubscriptionInputSchema.parse(subscription.toJSON());
  const { id } = await api.post<{ id: string }>(PUSH_SUBSCRIPTIONS_PATH, body);
  localStorage.setItem(ID_KEY, id);
  return 'on';
}

/** Removes this device's subscription from the server and the browser. */
export async function turnOffPush(): Promise<PushState> {
  const id = localStorage.getItem(ID_KEY);
  if (id) {
    await api.delete(`${PUSH_SUBSCRIPTIONS_PATH}/${encodeURIComponent(id)}`).catch((error: unknown) => {
      // Already gone on the server (a push service said so): nothing left to remove there.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
    localStorage.removeItem(ID_KEY);
  }
  const subscription = pushSupported() ? await (await registration())?.pushManager.getSubscription() : null;
  await subscription?.unsubscribe();
  return pushSupported() ? 'off' : 'unsupported';
}

/**
 * Asks the server to send this device one notification now. 'gone' when the server no longer has
 * this device's subscription (the push service ended it): the device is then off.
 */
export async function sendTestPush(): Promise<'sent' | 'gone'> {
  const id = localStorage.getItem(ID_KEY);
  if (!id) return 'gone';
  try {
    await api.post(`${PUSH_SUBSCRIPTIONS_PATH}/${encodeURIComponent(id)}/test`);
    return 'sent';
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    localStorage.removeItem(ID_KEY);
    return 'gone';
  }
}
